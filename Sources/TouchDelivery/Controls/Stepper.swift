/// A minus/plus stepper (UIKit's `UIStepper`): the left half steps down, the right half up, at
/// touch-down. With ``autorepeat`` a held half repeats after ``ControlConstants/stepperAutorepeatDelay``,
/// every ``ControlConstants/stepperAutorepeatInterval``, while the finger stays inside. With
/// ``isContinuous`` each step sends valueChanged; otherwise the lift sends one if the value changed.
/// A half that cannot step (at the limit, without ``wraps``) does not track.
open class Stepper: Control, ContinuousValue {
  /// UIStepper.value (default 0), kept within ``minimumValue``...``maximumValue``.
  open var value: Double {
    get { range.value }
    set { setValue(newValue) }
  }
  /// UIStepper.minimumValue (default 0).
  open var minimumValue: Double {
    get { range.minimum }
    set { setMinimum(newValue) }
  }
  /// UIStepper.maximumValue (default 100).
  open var maximumValue: Double {
    get { range.maximum }
    set { setMaximum(newValue) }
  }
  /// UIStepper.stepValue (default 1).
  open var stepValue = 1.0
  /// UIStepper.autorepeat (default true).
  open var autorepeat = true
  /// UIStepper.isContinuous (default true).
  open var isContinuous = true
  /// UIStepper.wraps (default false): stepping past a limit continues from the other.
  open var wraps = false

  /// +1 while the plus half is held, −1 for the minus half, 0 otherwise.
  public private(set) var direction = 0.0
  var range = ValueRange(maximum: 100)
  private var repeatTimer: ScheduledTimer?

  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
  }

  /// Whether one step in `direction` (+1 or −1) would change the value.
  public func canStep(_ direction: Double) -> Bool {
    wraps || (direction > 0 ? value < maximumValue : value > minimumValue)
  }

  open override func beginTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    let d: Double = touch.location(in: self).x < bounds.midX ? -1 : 1
    guard canStep(d) else { return false }
    direction = d
    valueTrackingBegan()
    step()
    scheduleRepeat(after: ControlConstants.stepperAutorepeatDelay)
    return true
  }

  open override func continueTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    if !isTouchInside {
      repeatTimer?.cancel()
      repeatTimer = nil
    } else if repeatTimer == nil {
      scheduleRepeat(after: ControlConstants.stepperAutorepeatDelay)
    }
    return true
  }

  open override func endTracking(_ touch: Touch, with event: TouchEvent) { valueTrackingEnded() }
  open override func cancelTracking(with event: TouchEvent?) { valueTrackingEnded() }

  open override func trackingDidStop() {
    repeatTimer?.cancel()
    repeatTimer = nil
    direction = 0
  }

  private func step() {
    var next = value + direction * stepValue
    if wraps {
      if next > maximumValue { next = minimumValue } else if next < minimumValue { next = maximumValue }
    }
    trackValue(to: range.clamped(next))
  }

  private func scheduleRepeat(after delay: Double) {
    guard autorepeat else { return }
    repeatTimer = schedule(after: delay) { [weak self] in
      guard let self, self.isTracking, self.direction != 0 else { return }
      self.batch { self.step() }
      self.scheduleRepeat(after: ControlConstants.stepperAutorepeatInterval)
    }
  }

  /// A single one-finger tap of a superview does not begin on a stepper (the iOS 6 rule).
  open override func defaultActionPrevents(_ recognizer: GestureRecognizer) -> Bool {
    Control.isSingleOneFingerTap(recognizer)
  }
}
