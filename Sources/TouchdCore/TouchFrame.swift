/// The phase of a touch in one frame, with UIKit's `UITouch.Phase` meaning.
public enum TouchPhase: String, Sendable, Hashable, CaseIterable {
  /// The finger touched down in this frame.
  case began
  /// The finger moved since the previous frame.
  case moved
  /// The finger is down and did not move since the previous frame.
  case stationary
  /// The finger lifted in this frame. The touch is gone after it.
  case ended
  /// The system stopped tracking the finger (palm, SYN_DROPPED, device removed, end of a recording).
  /// The touch is gone after it; the finger is ignored until it lifts.
  case cancelled

  /// Whether the touch is over after this phase.
  public var isTerminal: Bool { self == .ended || self == .cancelled }
}

/// A daemon-wide touch identity: the same from touch-down to lift, never reused while the daemon runs.
public struct TouchID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  public var rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  public static func < (a: TouchID, b: TouchID) -> Bool { a.rawValue < b.rawValue }
  public var description: String { String(rawValue) }
}

/// A time on CLOCK_MONOTONIC (live) or the recording's clock (replay), in microseconds.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var microseconds: Int64
  public init(microseconds: Int64) { self.microseconds = microseconds }
  public init(seconds: Int64, microseconds: Int64) { self.microseconds = seconds * 1_000_000 + microseconds }
  /// The time in seconds, as `TimeInterval`-style `Double`.
  public var seconds: Double { Double(microseconds) / 1_000_000 }
  public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }
  /// Six decimals, as evemu writes times: "12.034560".
  public var description: String {
    let sign = microseconds < 0 ? "-" : ""
    let m = microseconds.magnitude
    let frac = String(m % 1_000_000)
    return "\(sign)\(m / 1_000_000).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
  }
}

/// One finger in a frame.
public struct Contact: Hashable, Sendable {
  /// Stable identity from touch-down to lift.
  public var id: TouchID
  public var phase: TouchPhase
  /// Position in device-normalized coordinates: 0...1 across the axis range, x to the right, y down,
  /// as the device reports it (before calibration and rotation).
  public var x: Double
  public var y: Double
  /// Half the contact's major axis (`ABS_MT_TOUCH_MAJOR / 2`) as a fraction of the X axis range,
  /// or nil when the device does not report it.
  public var majorRadius: Double?
  /// Pressure as a fraction of the pressure axis range (0...1), or nil when the device reports none.
  public var force: Double?
  /// A pen's tip (UIKit's touch type `.pencil`); nil for a finger (`.direct`).
  public var pen: PenProperties?

  public init(
    id: TouchID, phase: TouchPhase, x: Double, y: Double, majorRadius: Double? = nil, force: Double? = nil,
    pen: PenProperties? = nil
  ) {
    self.id = id
    self.phase = phase
    self.x = x
    self.y = y
    self.majorRadius = majorRadius
    self.force = force
    self.pen = pen
  }
}

/// Everything one device reported up to a `SYN_REPORT`: every live contact, each with its phase.
///
/// A contact that ended or was cancelled appears once with that phase and never again.
public struct TouchFrame: Hashable, Sendable {
  /// The kernel timestamp of the frame's `SYN_REPORT` (CLOCK_MONOTONIC on live devices).
  public var time: Timestamp
  public var contacts: [Contact]
  /// A pen device's pen in this frame, near or touching (its tip, if down, is also one of
  /// `contacts`); nil for a touchscreen's frame.
  public var pen: PenState?

  public init(time: Timestamp, contacts: [Contact], pen: PenState? = nil) {
    self.time = time
    self.contacts = contacts
    self.pen = pen
  }
}
