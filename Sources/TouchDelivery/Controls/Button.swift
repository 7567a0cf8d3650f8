/// A push button (UIKit's `UIButton`): highlighted while the finger is on it, its action on a lift
/// inside.
open class Button: Control {
  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
  }

  /// A lift inside also triggers the primary action (Apple's documentation of
  /// `UIControl.Event.primaryActionTriggered`: "A semantic action triggered by buttons"; a button's
  /// primary action runs on touchUpInside).
  open override func touchUpEvents(inside: Bool) -> ControlEvents {
    inside ? [.touchUpInside, .primaryActionTriggered] : .touchUpOutside
  }

  /// A single one-finger tap of a superview does not begin on a button (the iOS 6 rule).
  open override func defaultActionPrevents(_ recognizer: GestureRecognizer) -> Bool {
    Control.isSingleOneFingerTap(recognizer)
  }
}
