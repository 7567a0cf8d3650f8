/// Recognizes one or more taps of one or more fingers (UIKit's `UITapGestureRecognizer`); discrete.
///
/// # Lifecycle
/// A tap is the required fingers touching down, all within ``allowableTouchTimeSeparation`` of the
/// tap's first touch-down, and all lifting within ``maximumTapDuration`` of it. Movement is
/// measured on the centroid, from the first touch-down: the centroid of the first tap's
/// touch-down points is the reference, and the centroid of the current tap's fingers (each where
/// it is, or where it lifted) may stay at most ``allowableMovement`` from it. While a later tap
/// has fewer fingers down than required, its centroid is compared with its own touch-down
/// centroid instead (a half-landed tap has a lopsided centroid). So fingers spread 120 pt apart
/// still make a two-finger double tap: each tap's centroid is near the first's. With
/// ``numberOfTapsRequired`` above 1, each next tap must touch down within
/// ``maximumIntervalBetweenTaps`` of the previous lift.
///
/// The recognizer goes `.possible → .ended` at the lift of the final tap's last finger, or
/// `.possible → .failed` when the centroid moves too far, a tap lasts too long, its fingers land
/// too far apart in time, a tap has more or fewer fingers than required, the next tap does not
/// come in time (a timer) or a touch is cancelled.
///
/// ``location(in:)`` is UITapGestureRecognizer.h's: "location of the tap, from the first tap in
/// the sequence if numberOfTapsRequired > 1. this is the centroid if numberOfTouchesRequired > 1"
/// (the first tap's touch-down centroid). ``numberOfTouches`` after recognition is the number of
/// fingers of the recognized tap, even when they lifted in different frames or the recognition
/// waited for another recognizer to fail.
///
/// # Example: a two-finger double tap (`numberOfTouchesRequired = 2`, `numberOfTapsRequired = 2`)
/// ```
/// t=0.00 A down (100,300), t=0.02 B down (220,300)   possible (tap 1: centroid (160,300))
/// t=0.09 A up,   t=0.10 B up                         possible (tap 1 complete; interval timer armed)
/// t=0.30 C down (110,305), t=0.31 D down (225,300)   possible (tap 2 centroid (167.5,302.5): 8 pt away)
/// t=0.40 C up,   t=0.41 D up                         ended → action; location (160,300), numberOfTouches 2
/// ```
/// Had C come down after t=0.45 (0.35 s after B's lift) the timer would have failed the gesture.
open class TapGestureRecognizer: GestureRecognizer {
  /// Taps needed (UIKit default 1).
  public var numberOfTapsRequired = 1
  /// Fingers per tap (UIKit default 1).
  public var numberOfTouchesRequired = 1
  /// How far (pt) the centroid may move from the first tap's touch-down centroid.
  public var allowableMovement = GestureConstants.tapAllowableMovement
  /// How long (s) one tap's fingers may stay down.
  public var maximumTapDuration = GestureConstants.maximumTapDuration
  /// The longest gap (s) from a tap's lift to the next tap's touch-down.
  public var maximumIntervalBetweenTaps = GestureConstants.multiTapMaximumInterval
  /// The longest time (s) from a tap's first touch-down to its last finger's touch-down.
  public var allowableTouchTimeSeparation = GestureConstants.tapAllowableTouchTimeSeparation

  /// A finger of the current tap: where it touched down, and where it lifted once it did.
  private struct Finger {
    let touch: Touch
    let start: Point
    var lift: Point?
    var position: Point { lift ?? touch.locationInWindow }
  }

  private var fingers: [Finger] = []
  private var tapsCompleted = 0
  /// The first tap's touch-down centroid: the reference for movement and the reported location.
  private var firstTapCentroid: Point?
  /// Fingers of the last completed tap.
  private var completedTapFingers = 0
  private var tapTimer: ScheduledTimer?
  private var intervalTimer: ScheduledTimer?
  private var separationTimer: ScheduledTimer?

  public override init() { super.init() }

  /// A recognizer for `taps` taps of `touches` fingers.
  public convenience init(numberOfTapsRequired taps: Int, numberOfTouchesRequired touches: Int = 1) {
    self.init()
    numberOfTapsRequired = taps
    numberOfTouchesRequired = touches
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    intervalTimer?.cancel()
    intervalTimer = nil
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      if fingers.isEmpty {
        tapTimer = schedule(after: maximumTapDuration) { [weak self] in
          guard let self else { return }
          self.fail(
            "tap \(self.tapsCompleted + 1) lasted more than maximumTapDuration \(traceNumber(self.maximumTapDuration, decimals: 3)) s"
          )
        }
        if numberOfTouchesRequired > 1 {
          separationTimer = schedule(after: allowableTouchTimeSeparation) { [weak self] in
            guard let self, self.fingers.count < self.numberOfTouchesRequired else { return }
            self.fail(
              "\(self.fingers.count) of \(self.numberOfTouchesRequired) fingers landed within allowableTouchTimeSeparation \(traceNumber(self.allowableTouchTimeSeparation, decimals: 3)) s"
            )
          }
        }
      }
      fingers.append(Finger(touch: touch, start: touch.locationInWindow))
      if fingers.count > numberOfTouchesRequired {
        return fail(
          "\(fingers.count) fingers in tap \(tapsCompleted + 1) > numberOfTouchesRequired \(numberOfTouchesRequired)")
      }
      if fingers.count == numberOfTouchesRequired {
        separationTimer?.cancel()
        separationTimer = nil
      }
    }
    checkMovement()
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    checkMovement()
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    for touch in touches {
      guard let i = fingers.firstIndex(where: { $0.touch === touch }), fingers[i].lift == nil else { continue }
      fingers[i].lift = touch.locationInWindow
    }
    guard checkMovement(), fingers.allSatisfy({ $0.lift != nil }) else { return }
    guard fingers.count == numberOfTouchesRequired else {
      return fail(
        "tap \(tapsCompleted + 1) had \(fingers.count) of numberOfTouchesRequired \(numberOfTouchesRequired) fingers")
    }
    for timer in [tapTimer, separationTimer] { timer?.cancel() }
    tapTimer = nil
    separationTimer = nil
    if firstTapCentroid == nil { firstTapCentroid = centroid(\.start) }
    completedTapFingers = fingers.count
    fingers.removeAll()
    tapsCompleted += 1
    if tapsCompleted >= numberOfTapsRequired {
      setState(.ended, because: "tap \(tapsCompleted) of \(numberOfTapsRequired) lifted")
    } else {
      intervalTimer = schedule(after: maximumIntervalBetweenTaps) { [weak self] in
        guard let self else { return }
        self.fail(
          "no tap \(self.tapsCompleted + 1) within maximumIntervalBetweenTaps \(traceNumber(self.maximumIntervalBetweenTaps, decimals: 3)) s"
        )
      }
    }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    if effectiveState == .possible { fail("a touch was cancelled") }
  }

  // MARK: Presses (``allowedPressTypes``)

  /// A press is a tap of a key: down and up within ``maximumTapDuration``, the next press down
  /// within ``maximumIntervalBetweenTaps``; ``numberOfTapsRequired`` presses recognize. A second key
  /// down during a press, or a cancelled press, fails it.
  open override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent) {
    guard effectiveState == .possible else { return }
    intervalTimer?.cancel()
    intervalTimer = nil
    guard trackedPresses.count == 1, fingers.isEmpty else {
      return fail("\(trackedPresses.count) keys down at once in tap \(tapsCompleted + 1)")
    }
    tapTimer = schedule(after: maximumTapDuration) { [weak self] in
      guard let self else { return }
      self.fail(
        "press \(self.tapsCompleted + 1) lasted more than maximumTapDuration \(traceNumber(self.maximumTapDuration, decimals: 3)) s"
      )
    }
  }

  open override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent) {
    guard effectiveState == .possible else { return }
    tapTimer?.cancel()
    tapTimer = nil
    tapsCompleted += 1
    completedTapFingers = 0
    if tapsCompleted >= numberOfTapsRequired {
      setState(.ended, because: "press \(tapsCompleted) of \(numberOfTapsRequired) went up")
    } else {
      intervalTimer = schedule(after: maximumIntervalBetweenTaps) { [weak self] in
        guard let self else { return }
        self.fail(
          "no press \(self.tapsCompleted + 1) within maximumIntervalBetweenTaps \(traceNumber(self.maximumIntervalBetweenTaps, decimals: 3)) s"
        )
      }
    }
  }

  open override func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent) {
    if effectiveState == .possible { fail("a press was cancelled") }
  }

  /// Fails the tap when the centroid moved more than ``allowableMovement``; true while it holds.
  @discardableResult
  private func checkMovement() -> Bool {
    guard !fingers.isEmpty else { return true }
    let current = centroid(\.position)
    let reference: Point
    if let first = firstTapCentroid, fingers.count == numberOfTouchesRequired {
      reference = first
    } else {
      // The first tap, or a later one not fully landed: the mean displacement of its fingers.
      reference = centroid(\.start)
    }
    let moved = current.distance(to: reference)
    guard moved > allowableMovement else { return true }
    fail(
      firstTapCentroid != nil && fingers.count == numberOfTouchesRequired
        ? "tap \(tapsCompleted + 1) is \(traceNumber(moved)) pt from the first tap > allowableMovement \(traceNumber(allowableMovement))"
        : "moved \(traceNumber(moved)) pt > allowableMovement \(traceNumber(allowableMovement))")
    return false
  }

  /// The centroid of one point of each finger of the current tap (its start or its position).
  private func centroid(_ point: KeyPath<Finger, Point>) -> Point {
    var sum = Point.zero
    for finger in fingers { sum = sum + finger[keyPath: point] }
    let n = Double(max(fingers.count, 1))
    return Point(x: sum.x / n, y: sum.y / n)
  }

  /// The first tap's touch-down centroid once it completed (UITapGestureRecognizer.h); before
  /// that, the centroid of the current tap's fingers.
  open override func location(in view: View?) -> Point {
    let p: Point
    if let first = firstTapCentroid {
      p = first
    } else if !fingers.isEmpty {
      p = centroid(\.position)
    } else {
      return super.location(in: view)
    }
    return view?.convert(p, from: nil) ?? p
  }

  /// While possible, the touches tracked; once recognized, the fingers of the recognized tap.
  open override var numberOfTouches: Int {
    effectiveState == .ended ? completedTapFingers : super.numberOfTouches
  }

  open override func reset() {
    super.reset()
    for timer in [tapTimer, intervalTimer, separationTimer] { timer?.cancel() }
    tapTimer = nil
    intervalTimer = nil
    separationTimer = nil
    fingers.removeAll()
    tapsCompleted = 0
    firstTapCentroid = nil
    completedTapFingers = 0
  }

  private func fail(_ cause: @autoclosure () -> String) {
    for timer in [tapTimer, intervalTimer, separationTimer] { timer?.cancel() }
    if effectiveState == .possible { setState(.failed, because: cause()) }
  }
}
