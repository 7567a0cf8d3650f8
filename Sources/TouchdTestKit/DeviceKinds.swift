import TouchdInput

/// The kinds of touchscreen the frame assembler reads, as synthetic devices with
/// ``SyntheticTouchscreen``'s axes (0...4095, `INPUT_PROP_DIRECT`, `BTN_TOUCH`), so one scripted
/// gesture (``FingerScript`` writes protocol B) can be replayed on each kind:
/// ``encode(_:)`` re-encodes a recording for the kind.
public enum SyntheticDeviceKind: String, CaseIterable, Hashable, Sendable {
  /// Multitouch protocol B: slots and tracking ids (``SyntheticTouchscreen`` itself).
  case protocolB
  /// Multitouch protocol A: anonymous contacts, one `SYN_MT_REPORT` each, matched by distance.
  case protocolA
  /// Single touch: `ABS_X`/`ABS_Y` and `BTN_TOUCH`.
  case singleTouch

  /// The device description of this kind.
  public var description: DeviceDescription {
    var device = SyntheticTouchscreen.description
    switch self {
    case .protocolB:
      return device
    case .protocolA:
      device.name = "touchd synthetic protocol A touchscreen"
      device.events[EV.abs] = [ABS.x, ABS.y, ABS.mtPositionX, ABS.mtPositionY]
      device.absInfo[ABS.mtSlot] = nil
      device.absInfo[ABS.mtTrackingID] = nil
    case .singleTouch:
      device.name = "touchd synthetic single-touch touchscreen"
      device.events[EV.abs] = [ABS.x, ABS.y]
      device.absInfo = device.absInfo.filter { $0.key == ABS.x || $0.key == ABS.y }
    }
    return device
  }

  /// `recording` (a protocol B recording, such as ``FingerScript/recording``) re-encoded for this
  /// kind, frame by frame at the same times, ending when it ends (touches still down stay down):
  /// protocol A reports every finger down in each frame; single touch reports the finger that went
  /// down first while it is down, then the next one still down (as single-touch drivers follow one
  /// contact). Protocol B returns the recording unchanged.
  public func encode(_ recording: Recording) -> Recording {
    guard self != .protocolB else { return recording }
    let assembler = FrameAssembler(device: recording.description, ids: TouchIDAllocator())
    var events: [InputEvent] = []
    var down = false
    var followed: TouchID?
    func emit(_ time: Timestamp, _ type: UInt16, _ code: UInt16, _ value: Int32) {
      events.append(InputEvent(time: time, type: type, code: code, value: value))
    }
    for event in recording.events {
      guard let frame = assembler.process(event) else { continue }
      let t = frame.time
      let live = frame.contacts.filter { !$0.phase.isTerminal }.sorted { $0.id < $1.id }
      switch self {
      case .protocolA:
        for contact in live {
          emit(t, EV.abs, ABS.mtPositionX, SyntheticTouchscreen.units(contact.x))
          emit(t, EV.abs, ABS.mtPositionY, SyntheticTouchscreen.units(contact.y))
          emit(t, EV.syn, SYN.mtReport, 0)
        }
        if live.isEmpty { emit(t, EV.syn, SYN.mtReport, 0) }
        if let first = live.first {
          emit(t, EV.abs, ABS.x, SyntheticTouchscreen.units(first.x))
          emit(t, EV.abs, ABS.y, SyntheticTouchscreen.units(first.y))
        }
      case .singleTouch:
        if followed == nil || !live.contains(where: { $0.id == followed }) { followed = live.first?.id }
        if let contact = live.first(where: { $0.id == followed }) {
          emit(t, EV.abs, ABS.x, SyntheticTouchscreen.units(contact.x))
          emit(t, EV.abs, ABS.y, SyntheticTouchscreen.units(contact.y))
        }
      case .protocolB:
        break
      }
      if down != !live.isEmpty {
        down = !live.isEmpty
        emit(t, EV.key, BTN.touch, down ? 1 : 0)
      }
      emit(t, EV.syn, SYN.report, 0)
    }
    // A silent end after the last frame (the device vanished later) stays where it was.
    if let end = recording.events.last?.time, end > events.last?.time ?? end {
      emit(end, EV.msc, MSC.timestamp, 0)
    }
    return Recording(description: description, events: events, source: recording.source + " as \(rawValue)")
  }
}

extension FingerScript {
  /// The recording so far, its device vanishing `seconds` after the script's time with the fingers
  /// still down: the recording ends with an event of no effect (`EV_MSC` `MSC_TIMESTAMP`) then, so
  /// the replay cancels what is down at that time (a recording that ends with touches down is a
  /// device that vanished: `ScenePlayer` cancels them at its last event).
  public func recording(vanishingAfter seconds: Double) -> Recording {
    var recording = self.recording
    let end = Timestamp(microseconds: Int64(((time + seconds) * 1_000_000).rounded()))
    recording.events.append(InputEvent(time: end, type: EV.msc, code: MSC.timestamp, value: 0))
    return recording
  }
}
