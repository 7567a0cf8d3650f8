// PenForwardEncoder: a window's forwarded pen → the virtual pen's events (VirtualPen.swift
// describes the device it writes to; docs/pens.md, "Forwarded windows").

/// Turns a forwarded pen's changes into the virtual pen's events, as the kernel's tablet drivers
/// report a pen (linux/Documentation/input/event-codes.rst, "Tablets"): the tool's `BTN_TOOL_*`
/// key for proximity, `BTN_TOUCH` for the tip, and the axes and barrel buttons that changed, each
/// frame ending in `SYN_REPORT`.
///
/// Rules:
/// - Each change is a frame of its own, timed `time` + k µs for the k-th frame of the batch (a
///   held touch released at its lift: down, then lift), but for a hover right after a lift, which
///   only moves the pen above the glass and goes in the lift's frame. A frame with nothing in it
///   is not sent, and only what changed is: the kernel drops a repeated value.
/// - Proximity in (the first hover or touch-down) writes the tool's serial (`MSC_SERIAL`, when the
///   virtual pen has it) and every axis with the pressure at its minimum, then the tool's key:
///   libinput reads the tool's axes when it comes near and takes a pressure already above the
///   minimum there for a worn pen's offset (src/evdev-tablet.c, `detect_pressure_offset`).
/// - libinput decides the tip on a device with pressure by the pressure, not `BTN_TOUCH` (down
///   above 5 % of the range, up below 1 %: `detect_tool_contact`, as ``PenAssembler`` reads it):
///   the tip goes down with at least the 5 % level (plus a unit), stays down with at least the 1 %
///   level (plus a unit), and lifts with the minimum, so the compositor's tip is touchd's whatever
///   the contact's force, which near the thresholds is the only thing that changes.
/// - A cancel (a recognizer claimed the stroke) and a leave take the virtual pen out of
///   proximity: tip up, barrel buttons up, tool key up, in one frame, as libinput itself ends a
///   tool (`tablet_flush`: the tip first, then proximity out). After a cancel the pen is out until
///   it hovers again.
/// - An eraser comes near as `BTN_TOOL_RUBBER`; turning the pen around (the tool changes while
///   near) takes the old tool out in a frame of its own first.
public final class PenForwardEncoder: VirtualDeviceEncoder {
  /// The virtual pen (``VirtualPen/description(for:name:)``).
  public let device: DeviceDescription
  public private(set) var counters = ForwardCounters()

  /// The tool key down on the virtual pen, nil out of proximity.
  private var tool: UInt16?
  private var tipDown = false
  private var buttons: PenButtons = []
  /// The axes' values as last sent, by code (the kernel keeps them across proximity).
  private var values: [UInt16: Int32] = [:]
  private let pressure: AbsInfo?
  private let hasSerial: Bool

  public init(device: DeviceDescription) {
    self.device = device
    pressure = device.absInfo[ABS.pressure]
    hasSerial = device.has(type: EV.msc, code: MSC.serial)
    for code in [ABS.x, ABS.y] + VirtualPen.copiedAxes where device.has(type: EV.abs, code: code) {
      values[code] = device.absInfo[code]?.value ?? 0
    }
  }

  /// Whether the tip is down on the virtual pen.
  public var isTouching: Bool { tipDown }

  /// Whether the virtual pen is in proximity.
  public var isNear: Bool { tool != nil }

  /// The pressure the tip goes down with at least, and stays down with at least: a unit above
  /// libinput's thresholds, 5 % and 1 % of the range (``PenAssembler/tipDownPressure``, ``PenAssembler/tipUpPressure``).
  private func pressureFloor(down: Bool, _ axis: AbsInfo) -> Int32 {
    let level = down ? PenAssembler.tipDownPressure : PenAssembler.tipUpPressure
    return Swift.min(axis.maximum, PenAssembler.threshold(level, of: axis) + 1)
  }

  /// Goes on from `previous`, the encoder of the same virtual pen for an earlier scene, as the
  /// kernel sees the device: its axes as last sent, the tool near (a hovering pen stays near
  /// through the change), the tip and the buttons; not its counters. Cancel and flush the old
  /// scene's touches first: a claimed tip is then out of proximity.
  public func continueDevice(of previous: PenForwardEncoder) {
    precondition(previous.device == device, "another virtual pen")
    values = previous.values
    tool = previous.tool
    tipDown = previous.tipDown
    buttons = previous.buttons
  }

  /// ``VirtualDeviceEncoder/encode(_:at:into:)``.
  public func encode(_ changes: [ForwardedPenChange], at time: Timestamp, into events: inout [InputEvent]) {
    var frames: Int64 = 0
    var open = false
    var previous: ForwardedPenChange.Kind?
    func frameTime() -> Timestamp { Timestamp(microseconds: time.microseconds + frames) }
    func close() {
      guard open else { return }
      events.append(InputEvent(time: frameTime(), type: EV.syn, code: SYN.report, value: 0))
      frames += 1
      open = false
    }
    func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
      events.append(InputEvent(time: frameTime(), type: type, code: code, value: value))
      open = true
    }
    for change in changes {
      // A hover after a lift only moves the pen above the glass: the same frame.
      if !(change.kind == .hover && previous == .lift) { close() }
      previous = change.kind
      let sample = change.sample
      switch change.kind {
      case .hover:
        near(sample, emit, close)
        if tipDown { tip(false, sample, emit) }
        update(sample, emit)
      case .down(let released):
        guard !tipDown else { continue }
        near(sample, emit, close)
        update(sample, emit)
        tip(true, sample, emit)
        counters.forwarded += 1
        if released { counters.released += 1 }
      case .move:
        guard tipDown else { continue }
        update(sample, emit)
      case .lift:
        guard tipDown else { continue }
        tip(false, sample, emit)
        update(sample, emit)
      case .cancel:
        guard tool != nil else { continue }
        if tipDown { counters.cancelled += 1 }
        out(emit)
      case .leave:
        guard tool != nil else { continue }
        out(emit)
      }
    }
    close()
  }

  /// Into proximity with `sample`'s tool, taking another tool out first (in a frame of its own).
  private func near(
    _ sample: PenSample, _ emit: (UInt16, UInt16, Int32) -> Void, _ close: () -> Void
  ) {
    let wanted = sample.isEraser && device.has(type: EV.key, code: BTN.toolRubber) ? BTN.toolRubber : BTN.toolPen
    if tool == wanted { return }
    if tool != nil {
      out(emit)
      close()
    }
    if hasSerial, let serial = sample.serial { emit(EV.msc, MSC.serial, Int32(bitPattern: serial)) }
    var entering = sample
    if let pressure { entering.pressure = pressure.minimum }
    axes(entering, emit)
    emit(EV.key, wanted, 1)
    tool = wanted
  }

  /// The axes and buttons of `sample` that differ from what was sent, the pressure kept on the
  /// tip's side of libinput's thresholds.
  private func update(_ sample: PenSample, _ emit: (UInt16, UInt16, Int32) -> Void) {
    var s = sample
    if let pressure {
      s.pressure = tipDown ? Swift.max(s.pressure, pressureFloor(down: false, pressure)) : pressure.minimum
    }
    axes(s, emit)
    for (button, code) in Self.buttonCodes
    where device.has(type: EV.key, code: code) && s.buttons.contains(button) != buttons.contains(button) {
      emit(EV.key, code, s.buttons.contains(button) ? 1 : 0)
      if s.buttons.contains(button) { buttons.insert(button) } else { buttons.remove(button) }
    }
  }

  /// The barrel buttons and their keys.
  private static let buttonCodes: [(PenButtons, UInt16)] = [
    (.barrel, BTN.stylus), (.barrel2, BTN.stylus2), (.barrel3, BTN.stylus3),
  ]

  /// The axes of `s` the virtual pen has that differ from what was sent.
  private func axes(_ s: PenSample, _ emit: (UInt16, UInt16, Int32) -> Void) {
    func set(_ code: UInt16, _ value: Int32) {
      guard let last = values[code], last != value else { return }
      emit(EV.abs, code, value)
      values[code] = value
    }
    set(ABS.x, s.x)
    set(ABS.y, s.y)
    set(ABS.pressure, s.pressure)
    set(ABS.distance, s.distance)
    set(ABS.tiltX, s.tiltX)
    set(ABS.tiltY, s.tiltY)
  }

  /// The tip down (with at least the down pressure) or up (the minimum pressure).
  private func tip(_ down: Bool, _ sample: PenSample, _ emit: (UInt16, UInt16, Int32) -> Void) {
    if let pressure {
      let value = down ? Swift.max(sample.pressure, pressureFloor(down: true, pressure)) : pressure.minimum
      if values[ABS.pressure] != value {
        emit(EV.abs, ABS.pressure, value)
        values[ABS.pressure] = value
      }
    }
    emit(EV.key, BTN.touch, down ? 1 : 0)
    tipDown = down
  }

  /// Out of proximity: the tip up, the buttons up, the tool's key up.
  private func out(_ emit: (UInt16, UInt16, Int32) -> Void) {
    guard let key = tool else { return }
    if tipDown {
      if let pressure, values[ABS.pressure] != pressure.minimum {
        emit(EV.abs, ABS.pressure, pressure.minimum)
        values[ABS.pressure] = pressure.minimum
      }
      emit(EV.key, BTN.touch, 0)
      tipDown = false
    }
    for (button, code) in Self.buttonCodes where buttons.contains(button) {
      emit(EV.key, code, 0)
    }
    buttons = []
    emit(EV.key, key, 0)
    tool = nil
  }
}
