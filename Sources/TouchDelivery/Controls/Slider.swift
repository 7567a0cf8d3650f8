/// A horizontal slider (UIKit's `UISlider`). A touch that lands on the thumb (the knob, hit within
/// at least ``ControlConstants/minimumHitSize``) drags it: the thumb keeps its offset from the
/// finger, so it does not jump. A touch elsewhere on the track does nothing, as in UIKit. With
/// ``isContinuous`` each change sends valueChanged while dragging; otherwise the lift sends one if
/// the value changed.
open class Slider: Control, ContinuousValue {
  /// UISlider.value (default 0), kept within ``minimumValue``...``maximumValue``.
  open var value: Double {
    get { range.value }
    set { setValue(newValue) }
  }
  /// UISlider.minimumValue (default 0).
  open var minimumValue: Double {
    get { range.minimum }
    set { setMinimum(newValue) }
  }
  /// UISlider.maximumValue (default 1).
  open var maximumValue: Double {
    get { range.maximum }
    set { setMaximum(newValue) }
  }
  /// UISlider.isContinuous (default true): valueChanged while dragging rather than at the lift.
  open var isContinuous = true
  /// The thumb's diameter in points (``ControlConstants/sliderThumbDiameter``).
  open var thumbDiameter = ControlConstants.sliderThumbDiameter

  var range = ValueRange(maximum: 1)
  private var grabOffset = 0.0

  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
  }

  /// The value as a fraction of the range, 0...1.
  public var fraction: Double {
    maximumValue > minimumValue ? (value - minimumValue) / (maximumValue - minimumValue) : 0
  }

  /// The x of the thumb's centre in the slider's coordinates.
  public var thumbCenterX: Double {
    bounds.minX + thumbDiameter / 2 + fraction * max(bounds.width - thumbDiameter, 0)
  }

  /// Where a touch grabs the thumb: the thumb grown to at least 44 pt square and to the slider's height.
  public var thumbHitRect: Rect {
    let width = max(thumbDiameter, ControlConstants.minimumHitSize)
    let height = max(bounds.height, ControlConstants.minimumHitSize)
    return Rect(x: thumbCenterX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
  }

  /// The value whose thumb centre is at `x`.
  public func value(forThumbCenter x: Double) -> Double {
    let travel = bounds.width - thumbDiameter
    guard travel > 0 else { return value }
    let f = min(max((x - bounds.minX - thumbDiameter / 2) / travel, 0), 1)
    return minimumValue + f * (maximumValue - minimumValue)
  }

  open override func beginTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    let p = touch.location(in: self)
    guard thumbHitRect.contains(p) else { return false }
    grabOffset = p.x - thumbCenterX
    valueTrackingBegan()
    return true
  }

  open override func continueTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    trackValue(to: value(forThumbCenter: touch.location(in: self).x - grabOffset))
    return true
  }

  open override func endTracking(_ touch: Touch, with event: TouchEvent) { valueTrackingEnded() }

  /// A cancelled drag leaves the thumb where it is; a non-continuous slider reports the change.
  open override func cancelTracking(with event: TouchEvent?) { valueTrackingEnded() }

  /// A one-finger pan or swipe of a superview does not begin while it moves the thumb along the
  /// slider (the iOS 6 rule; Apple: UISlider prevents "swipes parallel to the slider's travel
  /// direction and that start in the thumb"). Across the slider it may begin.
  open override func defaultActionPrevents(_ recognizer: GestureRecognizer) -> Bool {
    guard isTracking, let touch = trackingTouch, recognizer.trackedTouches.contains(where: { $0 === touch })
    else { return false }
    let oneFinger: Bool
    switch recognizer {
    case let pan as PanGestureRecognizer: oneFinger = pan.trackedTouches.count == 1
    case let swipe as SwipeGestureRecognizer: oneFinger = swipe.numberOfTouchesRequired == 1
    default: return false
    }
    let from = touch.initialLocationInWindow
    let to = touch.locationInWindow
    return oneFinger && abs(to.x - from.x) >= abs(to.y - from.y)
  }
}
