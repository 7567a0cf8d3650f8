/// A row of equally wide segments (UIKit's `UISegmentedControl`). A lift inside selects the segment
/// under the finger (the nearest one within the tracking area beyond the bounds), as UIKit does
/// since iOS 13, and sends valueChanged when the selection changed.
open class SegmentedControl: Control {
  /// UISegmentedControl's `noSegment`: no segment is selected.
  public static let noSegment = -1

  /// The segments' titles, left to right.
  open var segments: [String] = []
  /// UISegmentedControl.selectedSegmentIndex (default ``noSegment``).
  open var selectedSegmentIndex = SegmentedControl.noSegment {
    didSet { if selectedSegmentIndex != oldValue { stateChanged() } }
  }

  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
  }

  /// The segment at `x` in the control's coordinates, clamped to the first and last.
  public func segmentIndex(at x: Double) -> Int {
    guard !segments.isEmpty, bounds.width > 0 else { return SegmentedControl.noSegment }
    let position = ((x - bounds.minX) / (bounds.width / Double(segments.count))).rounded(.down)
    guard !position.isNaN else { return 0 }
    // Clamped as a Double: a point far outside (a huge scene) must not overflow Int.
    return Int(min(max(position, 0), Double(segments.count - 1)))
  }

  open override func beginTracking(_ touch: Touch, with event: TouchEvent) -> Bool { !segments.isEmpty }

  open override func endTracking(_ touch: Touch, with event: TouchEvent) {
    guard isTouchInside else { return }
    let index = segmentIndex(at: touch.location(in: self).x)
    guard index != selectedSegmentIndex else { return }
    selectedSegmentIndex = index
    sendValueChanged()
  }

  /// A single one-finger tap of a superview does not begin on a segmented control (the iOS 6 rule).
  open override func defaultActionPrevents(_ recognizer: GestureRecognizer) -> Bool {
    Control.isSingleOneFingerTap(recognizer)
  }
}
