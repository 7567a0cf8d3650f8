import TouchdInput

/// A synthetic pen display's pen: ``SyntheticTouchscreen``'s panel (the same bus, vendor and
/// product, so a replay pairs the two as one panel's nodes), `BTN_TOOL_PEN`, `BTN_TOOL_RUBBER`,
/// `BTN_TOUCH`, the barrel buttons, `ABS_X/Y` 0...4095, `ABS_PRESSURE` 0...1023, `ABS_DISTANCE`
/// 0...63 and `ABS_TILT_X/Y` -64...63 at 57 units per radian (a Wacom Cintiq 13HD's axes), and
/// `INPUT_PROP_DIRECT`.
public enum SyntheticPen {
  public static let name = "touchd synthetic pen"
  public static let pressureMaximum: Int32 = 1023
  public static let distanceMaximum: Int32 = 63

  public static var description: DeviceDescription {
    let axis = AbsInfo(minimum: 0, maximum: SyntheticTouchscreen.axisMaximum, resolution: 16)
    let touchscreen = SyntheticTouchscreen.description.id
    return DeviceDescription(
      name: name,
      id: InputID(bustype: touchscreen.bustype, vendor: touchscreen.vendor, product: touchscreen.product, version: 1),
      properties: [InputProp.direct],
      events: [
        EV.syn: [SYN.report],
        EV.key: [BTN.toolPen, BTN.toolRubber, BTN.touch, BTN.stylus, BTN.stylus2],
        EV.abs: [ABS.x, ABS.y, ABS.pressure, ABS.distance, ABS.tiltX, ABS.tiltY],
      ],
      absInfo: [
        ABS.x: axis, ABS.y: axis, ABS.pressure: AbsInfo(minimum: 0, maximum: pressureMaximum),
        ABS.distance: AbsInfo(minimum: 0, maximum: distanceMaximum),
        ABS.tiltX: AbsInfo(minimum: -64, maximum: 63, resolution: 57),
        ABS.tiltY: AbsInfo(minimum: -64, maximum: 63, resolution: 57),
      ])
  }
}

/// A scripted pen on ``SyntheticPen``, in window points of a window of the given size (as
/// ``FingerScript``): it comes near, moves, touches down with a pressure, lifts and leaves, one
/// frame per step; time moves only with the script.
public final class PenScript {
  public let windowWidth: Double
  public let windowHeight: Double
  public private(set) var time: Double
  public private(set) var events: [InputEvent] = []
  /// Frames per second while the pen moves (default 200, a pen display's rate).
  public var sampleRate: Double
  private var position = FingerScript.Point(x: 0, y: 0)

  public init(windowWidth: Double = 1920, windowHeight: Double = 1080, start: Double = 1, sampleRate: Double = 200) {
    self.windowWidth = windowWidth
    self.windowHeight = windowHeight
    self.time = start
    self.sampleRate = sampleRate
  }

  public var recording: Recording {
    Recording(description: SyntheticPen.description, events: events, source: "pen script")
  }

  public var evemuText: String { EvemuWriter.write(recording) }

  public func wait(_ seconds: Double) { time += seconds }

  /// The pen comes into proximity over `point` (its eraser end with `eraser`), `distance` 0...1
  /// of the range above the glass, tilted `tiltX`, `tiltY` device units (57 a radian); a worn
  /// pen's `pressure` (0...1 of the range) reported while it hovers, when above 0.
  public func near(
    _ point: FingerScript.Point, distance: Double = 0.5, tiltX: Int32 = 0, tiltY: Int32 = 0, eraser: Bool = false,
    pressure: Double = 0
  ) {
    position = point
    emit(EV.key, eraser ? BTN.toolRubber : BTN.toolPen, 1)
    emitPosition()
    emit(EV.abs, ABS.distance, Int32((distance * Double(SyntheticPen.distanceMaximum)).rounded()))
    emit(EV.abs, ABS.tiltX, tiltX)
    emit(EV.abs, ABS.tiltY, tiltY)
    if pressure > 0 { emit(EV.abs, ABS.pressure, units(pressure: pressure)) }
    endFrame()
  }

  /// Only the pressure changes, to `pressure` 0...1 of the range (`BTN_TOUCH` as it was).
  public func pressure(_ pressure: Double) {
    emit(EV.abs, ABS.pressure, units(pressure: pressure))
    endFrame()
  }

  private func units(pressure: Double) -> Int32 { Int32((pressure * Double(SyntheticPen.pressureMaximum)).rounded()) }

  /// The tip touches down where the pen is, with `pressure` 0...1 of the range.
  public func down(pressure: Double = 0.5) {
    emit(EV.abs, ABS.distance, 0)
    emit(EV.abs, ABS.pressure, units(pressure: pressure))
    emit(EV.key, BTN.touch, 1)
    endFrame()
  }

  /// Moves the pen (touching or hovering) to `point` over `duration`, one frame per sample.
  public func move(to point: FingerScript.Point, duration: Double) {
    let start = position
    let steps = max(1, Int((duration * sampleRate).rounded()))
    for step in 1...steps {
      time += duration / Double(steps)
      let t = Double(step) / Double(steps)
      position = FingerScript.Point(x: start.x + (point.x - start.x) * t, y: start.y + (point.y - start.y) * t)
      emitPosition()
      endFrame()
    }
  }

  /// The tip lifts: pressure 0, `BTN_TOUCH` 0, the pen hovering just above.
  public func up() {
    emit(EV.abs, ABS.pressure, 0)
    emit(EV.key, BTN.touch, 0)
    emit(EV.abs, ABS.distance, 5)
    endFrame()
  }

  /// A barrel button down or up (`BTN_STYLUS`, or `BTN_STYLUS2` with `second`).
  public func barrel(_ down: Bool, second: Bool = false) {
    emit(EV.key, second ? BTN.stylus2 : BTN.stylus, down ? 1 : 0)
    endFrame()
  }

  /// The pen leaves proximity.
  public func leave(eraser: Bool = false) {
    emit(EV.key, eraser ? BTN.toolRubber : BTN.toolPen, 0)
    endFrame()
  }

  private func emitPosition() {
    emit(EV.abs, ABS.x, SyntheticTouchscreen.units(position.x / windowWidth))
    emit(EV.abs, ABS.y, SyntheticTouchscreen.units(position.y / windowHeight))
  }

  private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
    events.append(
      InputEvent(time: Timestamp(microseconds: Int64((time * 1e6).rounded())), type: type, code: code, value: value))
  }

  private func endFrame() { emit(EV.syn, SYN.report, 0) }
}
