/// The events a control sends (UIKit's `UIControl.Event`), with UIKit's bit values (UIControl.h),
/// so a set of events is sent in UIKit's bit order.
public struct ControlEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// A touch-down in the control.
  public static let touchDown = ControlEvents(rawValue: 1 << 0)
  /// A touch-down whose ``Touch/tapCount`` is greater than one (sent with ``touchDown``).
  public static let touchDownRepeat = ControlEvents(rawValue: 1 << 1)
  /// The finger moved and is within the control's tracking area.
  public static let touchDragInside = ControlEvents(rawValue: 1 << 2)
  /// The finger moved and is outside the control's tracking area.
  public static let touchDragOutside = ControlEvents(rawValue: 1 << 3)
  /// The finger moved from outside into the tracking area.
  public static let touchDragEnter = ControlEvents(rawValue: 1 << 4)
  /// The finger moved from inside out of the tracking area.
  public static let touchDragExit = ControlEvents(rawValue: 1 << 5)
  /// The finger lifted inside the tracking area.
  public static let touchUpInside = ControlEvents(rawValue: 1 << 6)
  /// The finger lifted outside the tracking area.
  public static let touchUpOutside = ControlEvents(rawValue: 1 << 7)
  /// The system cancelled the touch (a recognizer took it, its device went away).
  public static let touchCancel = ControlEvents(rawValue: 1 << 8)
  /// The user changed the control's value (switch, slider, stepper, segmented control).
  public static let valueChanged = ControlEvents(rawValue: 1 << 12)
  /// The control's semantic action: a button's tap, a value control's change.
  public static let primaryActionTriggered = ControlEvents(rawValue: 1 << 13)

  /// Every event above.
  public static let all: ControlEvents = [
    .touchDown, .touchDownRepeat, .touchDragInside, .touchDragOutside, .touchDragEnter, .touchDragExit,
    .touchUpInside, .touchUpOutside, .touchCancel, .valueChanged, .primaryActionTriggered,
  ]

  /// Each single event with its name (UIKit's case name), in bit order.
  public static let named: [(event: ControlEvents, name: String)] = [
    (.touchDown, "touchDown"), (.touchDownRepeat, "touchDownRepeat"), (.touchDragInside, "touchDragInside"),
    (.touchDragOutside, "touchDragOutside"), (.touchDragEnter, "touchDragEnter"), (.touchDragExit, "touchDragExit"),
    (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"), (.touchCancel, "touchCancel"),
    (.valueChanged, "valueChanged"), (.primaryActionTriggered, "primaryActionTriggered"),
  ]

  /// The single event with this name, or nil.
  public init?(name: String) {
    guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
    self = entry.event
  }

  /// The names of the events in the set, in bit order, joined by "|".
  public var description: String {
    Self.named.filter { contains($0.event) }.map(\.name).joined(separator: "|")
  }
}
