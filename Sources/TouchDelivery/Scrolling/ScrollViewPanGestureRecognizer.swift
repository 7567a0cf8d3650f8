/// The pan recognizer a ``ScrollView`` drags its content with (UIKit's private
/// `UIScrollViewPanGestureRecognizer`, a `UIPanGestureRecognizer` subclass).
///
/// It begins as a pan does (10 pt along an axis), unless the scroll view refuses the drag: a drag
/// along an axis the view cannot scroll fails it, so that an enclosing scroll view gets the drag
/// (nested scroll views hand a drag to the one whose axis it follows), and so does a drag that
/// would take a touch content may keep (``ScrollView/canCancelContentTouches``,
/// ``ScrollView/touchesShouldCancel(in:)``).
public final class ScrollViewPanGestureRecognizer: PanGestureRecognizer {
  /// The scroll view that owns the recognizer.
  public internal(set) weak var scrollView: ScrollView?
  /// The time of the latest touch change it received (the frame's), for the scroll view's events.
  var lastTouchTime = 0.0

  public override init() {
    super.init()
    startDistance = ScrollConstants.dragStartDistance
  }

  override func panCanBegin() -> Bool {
    guard let scrollView else { return true }
    if let refusal = scrollView.dragRefusal(travel: travelledSinceTouchDown, touches: trackedTouches) {
      setState(.failed, because: refusal)
      return false
    }
    return true
  }

  public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    note(touches)
    super.touchesBegan(touches, with: event)
  }

  public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    note(touches)
    super.touchesMoved(touches, with: event)
    failedCheck()
  }

  public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    note(touches)
    super.touchesEnded(touches, with: event)
    failedCheck()
  }

  public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    note(touches)
    super.touchesCancelled(touches, with: event)
    failedCheck()
  }

  /// A pan that failed leaves nothing for the content's touches to wait for.
  private func failedCheck() {
    if effectiveState == .failed { scrollView?.contentTouchDelayRecognizer.scrollViewPanFailed() }
  }

  private func note(_ touches: Set<Touch>) {
    for touch in touches where touch.timestamp > lastTouchTime { lastTouchTime = touch.timestamp }
  }

  public override func reset() {
    super.reset()
    scrollView?.panDidReset()
  }
}
