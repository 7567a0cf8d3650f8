import TouchdCore

/// What a press is (UIKit's `UIPress.PressType`): UIKit's names, plus free names for kiosk keys
/// (`help`, `receipt`). A scene's window `keys.map` says which key makes which type.
public struct PressType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ name: String) { rawValue = name }

  // UIKit's UIPress.PressType cases (UIPress.h).
  public static let upArrow = PressType("upArrow")
  public static let downArrow = PressType("downArrow")
  public static let leftArrow = PressType("leftArrow")
  public static let rightArrow = PressType("rightArrow")
  public static let select = PressType("select")
  public static let menu = PressType("menu")
  public static let playPause = PressType("playPause")
  public static let pageUp = PressType("pageUp")
  public static let pageDown = PressType("pageDown")
  // A pen's barrel buttons (`BTN_STYLUS`, `BTN_STYLUS2`, `BTN_STYLUS3`): touchd's, as
  // UIPencilInteraction reports Apple Pencil's own gestures apart from its touches; UIKit has no
  // press type for them.
  public static let pencilBarrel = PressType("pencilBarrel")
  public static let pencilBarrel2 = PressType("pencilBarrel2")
  public static let pencilBarrel3 = PressType("pencilBarrel3")

  public var description: String { rawValue }
}

/// The phase of a press (UIKit's `UIPress.Phase`).
public enum PressPhase: String, Hashable, Sendable {
  /// The key went down.
  case began
  /// The press's force changed (keys report none: touchd never sends it).
  case changed
  /// Down and unchanged in this delivery.
  case stationary
  /// The key went up. The press is gone after it.
  case ended
  /// The system stopped tracking the key (its device went away, a recognizer took the press from
  /// its responder, the application began ignoring interaction). The press is gone after it.
  case cancelled

  /// Whether the press is over after this phase.
  public var isTerminal: Bool { self == .ended || self == .cancelled }
}

/// One key press from key-down to key-up (UIKit's `UIPress`). Compared and hashed by identity.
public final class Press: Hashable, CustomStringConvertible {
  /// Daemon-wide identity, never reused while the application runs.
  public let id: UInt64
  public let type: PressType
  /// The evdev key name (`KEY_ENTER`) or code, for messages.
  public let key: String
  @exclusivity(unchecked) public internal(set) var phase: PressPhase
  /// The time of the last change, in seconds on the pipeline clock.
  @exclusivity(unchecked) public internal(set) var timestamp: Double
  /// The window whose first responder the press went to.
  public private(set) weak var window: Window?
  /// The responder the press is delivered to: the window's first responder at key-down (the
  /// window itself when it has none), fixed for the press's life.
  public internal(set) var responder: Responder?
  /// The recognizers the press is delivered to (those along the responder's superviews that allow
  /// its type, less those that failed).
  @exclusivity(unchecked) public internal(set) var gestureRecognizers: [GestureRecognizer] = []

  // Delivery bookkeeping.
  /// A recognizer took the press from its responder: no further responder delivery.
  var responderCancelled = false
  /// The responder heard `pressesBegan`.
  var responderBeganDelivered = false
  /// The responder heard `pressesEnded` or `pressesCancelled`.
  var responderFinished = false
  /// Which device and key: the application matches key changes to presses by it.
  let source: PressSource

  init(id: UInt64, type: PressType, key: String, source: PressSource, timestamp: Double, window: Window) {
    self.id = id
    self.type = type
    self.key = key
    self.source = source
    self.phase = .began
    self.timestamp = timestamp
    self.window = window
  }

  public static func == (a: Press, b: Press) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  public var description: String { "Press(\(id) \(type) \(key) \(phase))" }
}

/// A device (by the caller's number) and one of its keys: what tells one press from another.
public struct PressSource: Hashable, Sendable {
  public var device: Int
  public var code: UInt16

  public init(device: Int, code: UInt16) {
    self.device = device
    self.code = code
  }
}

/// The presses of one sequence (UIKit's `UIPressesEvent`): from the first key down to the last
/// key up, the same instance.
public final class PressesEvent {
  /// The presses down, plus those that ended or were cancelled in the current delivery.
  public internal(set) var allPresses: Set<Press> = []
  /// The time of the latest change, in seconds on the pipeline clock.
  public internal(set) var timestamp: Double = 0

  public init() {}

  /// The presses being delivered to `recognizer`.
  public func presses(for recognizer: GestureRecognizer) -> Set<Press> {
    allPresses.filter { press in press.gestureRecognizers.contains { $0 === recognizer } }
  }
}

/// One key change handed to ``Application/handle(_:at:in:)``.
public struct PressChange: Hashable, Sendable {
  /// Tells devices apart: the same key on two devices is two presses.
  public var device: Int
  /// The `EV_KEY` code.
  public var code: UInt16
  /// The evdev key name, for messages.
  public var key: String
  /// The press type the key makes.
  public var type: PressType
  public var phase: KeyPhase

  public init(device: Int, code: UInt16, key: String, type: PressType, phase: KeyPhase) {
    self.device = device
    self.code = code
    self.key = key
    self.type = type
    self.phase = phase
  }

  /// The device and key this change is of.
  public var source: PressSource { PressSource(device: device, code: code) }
}
