/// An on/off switch (UIKit's `UISwitch`). A tap toggles it on the lift inside; a finger that moves
/// sideways by ``ControlConstants/switchDragThreshold`` drags the knob instead, and the lift leaves
/// the switch on the side the knob is on, inside or not. valueChanged (with primaryActionTriggered)
/// is sent when the lift changed ``isOn``.
open class Switch: Control {
  /// UISwitch.isOn (default false).
  open var isOn = false {
    didSet { if isOn != oldValue { stateChanged() } }
  }

  /// Whether the current touch drags the knob (rather than tapping).
  public private(set) var isDraggingKnob = false
  private var startX = 0.0
  /// The knob's offset from the off side while dragging, 0...``knobTravel``.
  public private(set) var knobOffset = 0.0

  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
  }

  /// How far the knob moves from off to on: the width less the knob (as tall as the switch).
  public var knobTravel: Double { max(bounds.width - bounds.height, 1) }

  open override func beginTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    startX = touch.location(in: self).x
    isDraggingKnob = false
    knobOffset = isOn ? knobTravel : 0
    return true
  }

  open override func continueTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    let dx = touch.location(in: self).x - startX
    if abs(dx) >= ControlConstants.switchDragThreshold { isDraggingKnob = true }
    if isDraggingKnob { knobOffset = min(max((isOn ? knobTravel : 0) + dx, 0), knobTravel) }
    return true
  }

  open override func endTracking(_ touch: Touch, with event: TouchEvent) {
    let newValue: Bool
    if isDraggingKnob {
      newValue = knobOffset > knobTravel / 2
    } else {
      newValue = isTouchInside ? !isOn : isOn
    }
    guard newValue != isOn else { return }
    isOn = newValue
    sendValueChanged()
  }

  open override func trackingDidStop() { isDraggingKnob = false }

  /// A single one-finger tap of a superview does not begin on a switch (the iOS 6 rule).
  open override func defaultActionPrevents(_ recognizer: GestureRecognizer) -> Bool {
    Control.isSingleOneFingerTap(recognizer)
  }
}
