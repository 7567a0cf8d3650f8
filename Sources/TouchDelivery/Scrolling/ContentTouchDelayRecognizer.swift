/// The recognizer behind ``ScrollView/delaysContentTouches`` (UIKit's private
/// `UIScrollViewDelayedTouchesBeganGestureRecognizer`): with `delaysTouchesBegan` it holds the
/// content's `touchesBegan` back while it is undecided.
///
/// - It fails after ``delay`` (150 ms, ``ScrollConstants/contentTouchDelay``), when its touches
///   all lift, or when the scroll view's pan fails: the held touches then reach the content.
/// - It is recognized when the scroll view begins dragging: its `cancelsTouchesInView` drops the
///   held touches, so content never sees a touch that scrolls.
/// - A touch that lands while the content is moving stops the content and is recognized at once:
///   the touch reaches no content view and the content's recognizers fail (UIKit: a tap on a
///   decelerating list only stops it).
///
/// It never keeps another recognizer from recognizing, and nothing fails it but the rules above.
public final class ContentTouchDelayRecognizer: GestureRecognizer {
  /// The scroll view that owns the recognizer.
  public internal(set) weak var scrollView: ScrollView?
  /// How long touches are held (s).
  public var delay = ScrollConstants.contentTouchDelay
  /// The touch-down caught moving content: this recognition takes the touch from everyone.
  private var caught = false
  private var timer: ScheduledTimer?

  public override init() {
    super.init()
    delaysTouchesBegan = true
    delaysTouchesEnded = false
  }

  public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    if let scrollView, scrollView.isMoving {
      let time = touches.map(\.timestamp).max() ?? event.timestamp
      scrollView.stopMotion(at: time)
      caught = true
      decide(.ended, because: "the touch caught moving content: it stops there and reaches no content view")
      return
    }
    if timer == nil {
      timer = schedule(after: delay) { [weak self] in
        guard let self, self.effectiveState == .possible else { return }
        self.decide(
          .failed,
          because: "\(traceNumber(self.delay, decimals: 3)) s passed without a drag: the content gets the touch")
      }
    }
  }

  public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if allLifted, effectiveState == .possible {
      decide(.failed, because: "its touches lifted before a drag: the content gets the touch")
    }
  }

  public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    if allLifted, effectiveState == .possible { decide(.failed, because: "its touches were cancelled") }
  }

  /// Every touch it received has ended or been cancelled.
  private var allLifted: Bool { attemptTouches.allSatisfy { $0.phase.isTerminal } }

  /// The scroll view's pan began: the held touches belong to the drag.
  func scrollViewBeganDragging() {
    guard effectiveState == .possible, !attemptTouches.isEmpty else { return }
    decide(.ended, because: "the scroll view began dragging: the content never gets the touch")
  }

  /// The scroll view's pan failed: nothing left to wait for.
  func scrollViewPanFailed() {
    guard effectiveState == .possible, !attemptTouches.isEmpty else { return }
    decide(.failed, because: "the scroll view's pan failed: the content gets the touch")
  }

  /// Leaves `.possible`; the delay's timer, if still armed, has nothing left to do.
  private func decide(_ state: State, because cause: @autoclosure () -> String) {
    timer?.cancel()
    setState(state, because: cause())
  }

  public override func canPrevent(_ other: GestureRecognizer) -> Bool {
    caught && other !== scrollView?.panGestureRecognizer
  }

  public override func canBePrevented(by other: GestureRecognizer) -> Bool { false }

  public override func reset() {
    super.reset()
    timer?.cancel()
    timer = nil
    caught = false
  }
}
