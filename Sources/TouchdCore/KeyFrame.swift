/// What happened to a key in one frame of a key device.
public enum KeyPhase: String, Hashable, Sendable {
  /// Pressed (`EV_KEY` value 1).
  case down
  /// Released (`EV_KEY` value 0).
  case up
  /// The system stopped tracking the key while it was down (SYN_DROPPED with the key state lost,
  /// the device went away, the end of a recording).
  case cancelled
}

/// One key's change in a frame.
public struct KeyChange: Hashable, Sendable {
  /// The `EV_KEY` code (`KEY_ENTER` is 28).
  public var code: UInt16
  public var phase: KeyPhase

  public init(code: UInt16, phase: KeyPhase) {
    self.code = code
    self.phase = phase
  }
}

/// The key changes of one `SYN_REPORT` of a key device (a keypad, gpio-keys buttons). Key repeat
/// (`EV_KEY` value 2) makes no change: UIKit sends no repeated presses.
public struct KeyFrame: Hashable, Sendable {
  /// The kernel's timestamp of the frame's `SYN_REPORT`.
  public var time: Timestamp
  /// In the order the device reported them.
  public var changes: [KeyChange]

  public init(time: Timestamp, changes: [KeyChange]) {
    self.time = time
    self.changes = changes
  }
}
