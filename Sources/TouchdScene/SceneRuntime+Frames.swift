// Delivering input: touch frames mapped onto their window (through idle, calibration and
// forwarding first) and key frames made into presses by the window's `keys.map`.
import TouchDelivery
import TouchdInput

extension SceneRuntime {
  /// Maps a frame from `device` into its window and delivers it; a frame from a device no window
  /// takes is dropped (returns false). The caller advances the clock to the frame's time first.
  @discardableResult
  public func handle(_ frame: TouchFrame, from device: DeviceDescription, path: String? = nil) -> Bool {
    guard let index = windowIndex(for: device, path: path) else { return false }
    handle(frame, inWindow: index)
    return true
  }

  /// Maps a frame of device-normalized contacts onto window `index` and delivers it. With the
  /// scene's `idle:`, the frame is input first: it may wake the scene, and a swallowed wake's
  /// contacts are not delivered (``IdleMonitor``). `source` names the device for forwarding: the
  /// touches that begin in the frame go on to the virtual touchscreen added for it with
  /// ``addForwarding(of:source:inWindow:continuing:output:)`` (SceneRuntime+Forwarding.swift), the frame's forwarded
  /// changes leave as one frame at the frame's time.
  ///
  /// A pen's frame (``TouchFrame/pen``) first cancels the touches down on the touchscreens of its
  /// panel when it comes near, and a touchscreen's frame loses the touches its panel's pen rejects
  /// (``PenArbitration``; the devices are told with ``addInputDevice(source:description:path:properties:)``).
  public func handle(_ frame: TouchFrame, inWindow index: Int, source: Int? = nil) {
    guard let source else { return deliver(frame, inWindow: index, source: nil) }
    if let pen = frame.pen {
      // A closure argument, not a local: its context stays on the stack (a local's is allocated).
      let cancels = penArbitration.penFrame(frame, source: source) { self.scene.windows[$0].penRejectsTouches }
      for cancel in cancels {
        deliver(cancel.frame, inWindow: cancel.window, source: cancel.source)
      }
      deliver(frame, inWindow: index, source: source)
      pressBarrels(pen.inProximity ? pen.buttons : [], source: source, at: frame.time.seconds, inWindow: index)
      return
    }
    guard penArbitration.hasPairs else { return deliver(frame, inWindow: index, source: source) }
    deliver(
      penArbitration.touchscreenFrame(
        frame, source: source, window: index, rejects: scene.windows[index].penRejectsTouches),
      inWindow: index, source: source)
  }

  /// ``handle(_:inWindow:source:)`` past the pen arbitration.
  private func deliver(_ frame: TouchFrame, inWindow index: Int, source: Int?) {
    forwarding?.beginFrame(frame, source: source)
    defer { forwarding?.endFrame() }
    var frame = frame
    if calibration != nil, calibrationTakes(frame, inWindow: index) {
      // Input all the same: it wakes an idle scene (its touches go to the calibration either way).
      _ = idleMonitor?.filter(frame)
      return
    }
    if let healthMonitor {
      healthMonitor.observe(frame, window: index, mapping: mappings[index], isIdle: isIdle)
    }
    // The touches that lifted are judged once the recognizers have had the frame (or it was swallowed).
    defer { healthMonitor?.frameDelivered(in: windows) }
    if let idleMonitor {
      guard let kept = idleMonitor.filter(frame) else { return }
      frame = kept
    }
    let mapping = mappings[index]
    let axisPoints =
      mapping.rotation == .clockwise90 || mapping.rotation == .clockwise270 ? mapping.height : mapping.width
    var mapped = frame
    mapped.contacts = frame.contacts.map { contact in
      var c = contact
      (c.x, c.y) = mapping.map(contact)
      c.majorRadius = contact.majorRadius.map { $0 * axisPoints }
      if let pen = contact.pen { c.pen = mapping.map(pen) }
      return c
    }
    if var pen = frame.pen {
      (pen.x, pen.y) = mapping.map(x: pen.x, y: pen.y)
      pen.properties = mapping.map(pen.properties)
      mapped.pen = pen
    }
    frameTime = frame.time.seconds
    defer { frameTime = nil }
    // While VoiceOver is on, its gestures have the touches, not the views.
    if voiceOverTakes(&mapped, inWindow: index) { return }
    touchMotion?.record(mapped)
    forwarding?.forwardAhead(mapped, source: source, window: index)
    forwarding?.penFrame(mapped, source: source)
    // The pen near the glass: the hover recognizers under it follow it (a hovering pen makes no
    // touch). Its tip touching down ends their hover before the touch begins; lifted, it hovers
    // again once the touch has ended.
    let hover = mapped.pen.map { pen in
      (
        PenHover(
          location: Point(x: pen.x, y: pen.y), zOffset: pen.distance ?? 0,
          altitudeAngle: pen.properties.altitudeAngle, azimuthAngle: pen.properties.azimuthAngle),
        near: pen.inProximity, touching: pen.contact != nil
      )
    }
    if let hover, hover.touching { application.hover(nil, touching: true, in: windows[index]) }
    application.handle(mapped, in: windows[index])
    captureStrokes(mapped)
    if let hover, !hover.touching { application.hover(hover.near ? hover.0 : nil, touching: false, in: windows[index]) }
  }

  /// Delivers a key frame from `device` to the window that takes its keys; a frame from a device
  /// no window takes is dropped (returns false). `source` tells devices apart: the same key on
  /// two devices is two presses. The caller advances the clock to the frame's time first.
  @discardableResult
  public func handle(_ frame: KeyFrame, from device: DeviceDescription, path: String? = nil, source: Int = 0) -> Bool {
    guard let index = keyWindowIndex(for: device, path: path) else { return false }
    handle(frame, inWindow: index, source: source)
    return true
  }

  /// Delivers a key frame to window `index`: each mapped key becomes a press for the window's
  /// first responder; keys the window's `keys.map` does not name make no press.
  public func handle(_ frame: KeyFrame, inWindow index: Int, source: Int = 0) {
    let map = keyMaps[index]
    var changes: [PressChange] = []
    for change in frame.changes {
      if change.code == KeyAssembler.headphoneSwitch {
        headphonesChanged(change.phase == .down, at: frame.time.seconds, inWindow: index)
        continue
      }
      guard let key = map[change.code] else { continue }
      changes.append(PressChange(device: source, code: change.code, key: key.name, type: key.type, phase: change.phase))
    }
    deliver(changes, at: frame.time.seconds, inWindow: index)
  }

  /// Delivers presses to window `index`'s first responder at `time`: through the idle monitor,
  /// then VoiceOver's keys.
  func deliver(_ changes: [PressChange], at time: Double, inWindow index: Int) {
    var changes = changes
    if let idleMonitor { changes = idleMonitor.filter(changes, at: time) }
    guard !changes.isEmpty else { return }
    frameTime = time
    defer { frameTime = nil }
    // While VoiceOver is on, its navigation keys are VoiceOver's (an EZ Access keypad).
    voiceOverTakes(&changes, inWindow: index)
    guard !changes.isEmpty else { return }
    application.handle(changes, at: time, in: windows[index])
  }
}
