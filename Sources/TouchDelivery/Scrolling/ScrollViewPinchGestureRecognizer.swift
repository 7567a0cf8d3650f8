/// The pinch recognizer a zooming ``ScrollView`` scales its ``ScrollView/zoomView`` with (UIKit's
/// `UIScrollView.pinchGestureRecognizer`, a `UIPinchGestureRecognizer` subclass). It exists only
/// while the view can zoom.
///
/// It recognizes at once with the scroll view's pan (UIScrollView lets its own pan and pinch run
/// together: the fingers' centroid pans the content while their spread zooms it); while the
/// pinch is active the pinch moves the offset, and the pan's changes are ignored.
public final class ScrollViewPinchGestureRecognizer: PinchGestureRecognizer {
  /// The scroll view that owns the recognizer.
  public internal(set) weak var scrollView: ScrollView?

  public override init() { super.init() }

  public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    super.touchesBegan(touches, with: event)
    if isActive { scrollView?.pinchFingersChanged() }
  }

  /// With one finger left the pinch measures nothing (``PinchGestureRecognizer``), but the
  /// content follows that finger at the scale reached: the scroll view's pan still tracks it and
  /// would drag the content, and the pinch, which owns the offset until its last finger lifts,
  /// drags it instead.
  public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    super.touchesMoved(touches, with: event)
    if isActive && fingersDown == 1 { state = .changed }
  }

  public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    super.touchesEnded(touches, with: event)
    // One finger left: the centroid jumps to it, so the content under it becomes the anchor.
    if isActive && fingersDown > 0 { scrollView?.pinchFingersChanged() }
  }

  public override func canPrevent(_ other: GestureRecognizer) -> Bool {
    other !== scrollView?.panGestureRecognizer
  }

  public override func canBePrevented(by other: GestureRecognizer) -> Bool {
    other !== scrollView?.panGestureRecognizer
  }
}
