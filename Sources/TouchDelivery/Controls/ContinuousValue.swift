/// The value ``Slider`` and ``Stepper`` keep (UISlider's and UIStepper's `value`, `minimumValue` and
/// `maximumValue`): the value stays within minimum...maximum, and a limit moved past it carries it along.
struct ValueRange {
  var value = 0.0
  var minimum = 0.0
  var maximum: Double
  /// The value when the tracked touch came down.
  var atTouchDown = 0.0

  init(maximum: Double) { self.maximum = maximum }

  /// `x` within ``minimum``...``maximum``.
  func clamped(_ x: Double) -> Double { min(max(x, minimum), maximum) }

  /// Sets the value to `newValue` within the range; whether the value changed.
  mutating func setValue(_ newValue: Double) -> Bool {
    let oldValue = value
    value = newValue
    let clamped = clamped(value)
    if clamped != value { value = clamped }
    return value != oldValue
  }
}

/// What ``Slider`` and ``Stepper`` share about their value (UISlider and UIStepper alike): it is
/// kept within `minimumValue`...`maximumValue` (each change reported as a state change), and with
/// `isContinuous` each change while tracking sends valueChanged at once; otherwise the lift, or a
/// cancelled touch, sends one if the value differs from the one at touch-down.
protocol ContinuousValue: Control {
  var range: ValueRange { get set }
  var value: Double { get set }
  var isContinuous: Bool { get }
}

extension ContinuousValue {
  /// The `value` setter.
  func setValue(_ newValue: Double) {
    if range.setValue(newValue) { stateChanged() }
  }
  /// The `minimumValue` setter: the value is raised to it.
  func setMinimum(_ newValue: Double) {
    range.minimum = newValue
    value = max(value, newValue)
  }
  /// The `maximumValue` setter: the value is lowered to it.
  func setMaximum(_ newValue: Double) {
    range.maximum = newValue
    value = min(value, newValue)
  }

  /// At touch-down: the value the lift compares with.
  func valueTrackingBegan() { range.atTouchDown = value }

  /// A change while tracking: with `isContinuous` it sends valueChanged at once.
  func trackValue(to newValue: Double) {
    guard newValue != value else { return }
    value = newValue
    if isContinuous { sendValueChanged() }
  }

  /// At the lift or a cancel: without `isContinuous`, valueChanged if the value changed since touch-down.
  func valueTrackingEnded() {
    if !isContinuous && value != range.atTouchDown { sendValueChanged() }
  }
}
