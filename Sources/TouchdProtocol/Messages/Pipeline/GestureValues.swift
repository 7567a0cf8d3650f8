/// What a gesture adds to its action message (docs/protocol.md, `action`): keys written after
/// `numberOfTouches` (and `press`), per recognizer type.
public enum GestureValues: Hashable, Sendable {
  /// Tap, long press: nothing more.
  case none
  /// Pan and screen-edge pan: `translation` and `velocity` in window points (per second).
  case pan(translation: WirePoint, velocity: WirePoint)
  /// Pinch: `scale` and its `velocity` (per second).
  case pinch(scale: Double, velocity: Double)
  /// Rotation: `rotation` in radians, clockwise positive, and `velocity` in radians per second.
  case rotation(rotation: Double, velocity: Double)
  /// Swipe: the `direction` recognized (`right`, `left`, `up`, `down`).
  case swipe(direction: String)
  /// Hover: the pen's `zOffset` (0 touching to 1 at its farthest) and its `altitudeAngle` and
  /// `azimuthAngle` (radians, the azimuth in the window).
  case hover(zOffset: Double, altitudeAngle: Double, azimuthAngle: Double)

  /// Appends the values' keys.
  @inlinable func write(_ w: inout JSONLineWriter) {
    switch self {
    case .none: break
    case .pan(let translation, let velocity):
      w.point(#","translation":"#, translation)
      w.point(#","velocity":"#, velocity)
    case .pinch(let scale, let velocity):
      w.number(#","scale":"#, scale)
      w.number(#","velocity":"#, velocity)
    case .rotation(let rotation, let velocity):
      w.number(#","rotation":"#, rotation)
      w.number(#","velocity":"#, velocity)
    case .swipe(let direction):
      w.string(#","direction":"#, direction)
    case .hover(let zOffset, let altitude, let azimuth):
      w.number(#","zOffset":"#, zOffset)
      w.number(#","altitudeAngle":"#, altitude)
      w.number(#","azimuthAngle":"#, azimuth)
    }
  }

  /// The values of an action's fields, told apart by the key each kind alone has (`translation`,
  /// `scale`, `rotation`, `direction`, `zOffset`); none of them is ``none``.
  public init(decoding f: CommandFields) throws(ProtocolError) {
    if let translation = try f.point("translation") {
      self = .pan(translation: translation, velocity: try f.required(f.point("velocity"), "velocity", "a point"))
    } else if let scale = try f.number("scale") {
      self = .pinch(scale: scale, velocity: try f.required(f.number("velocity"), "velocity", "a number"))
    } else if let rotation = try f.number("rotation") {
      self = .rotation(rotation: rotation, velocity: try f.required(f.number("velocity"), "velocity", "a number"))
    } else if let direction = try f.string("direction") {
      self = .swipe(direction: direction)
    } else if let zOffset = try f.number("zOffset") {
      self = .hover(
        zOffset: zOffset, altitudeAngle: try f.required(f.number("altitudeAngle"), "altitudeAngle", "a number"),
        azimuthAngle: try f.required(f.number("azimuthAngle"), "azimuthAngle", "a number"))
    } else {
      self = .none
    }
  }
}
