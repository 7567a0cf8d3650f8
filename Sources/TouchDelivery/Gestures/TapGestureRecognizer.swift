/// Recognizes one or more taps of one or more fingers (UIKit's `UITapGestureRecognizer`); discrete.
///
/// # Lifecycle
/// A tap is the required fingers touching down (at the same time or one after another) and all
/// lifting, without any finger moving more than ``allowableMovement`` from where it touched down
/// and within ``maximumTapDuration`` of the tap's first touch-down. With ``numberOfTapsRequired``
/// above 1, each next tap must touch down within ``maximumIntervalBetweenTaps`` of the previous
/// lift and within ``maximumDistanceBetweenTaps`` of the first tap. The recognizer goes
/// `.possible → .ended` at the lift of the final tap's last finger, or `.possible → .failed` when
/// a finger moves too far, stays down too long, a tap has more or fewer fingers than required,
/// the next tap does not come in time (a timer) or a touch is cancelled.
///
/// # Example: a two-finger double tap (`numberOfTouchesRequired = 2`, `numberOfTapsRequired = 2`)
/// ```
/// t=0.00 A down, t=0.02 B down      possible (tap 1 has 2 fingers)
/// t=0.09 A up,   t=0.10 B up        possible (tap 1 complete; interval timer armed)
/// t=0.30 C down, t=0.31 D down      possible (timer cancelled; tap 2)
/// t=0.40 C up,   t=0.41 D up        ended → action; location = centroid of C and D at lift
/// ```
/// Had C come down after t=0.45 (0.35 s after B's lift) the timer would have failed the gesture.
open class TapGestureRecognizer: GestureRecognizer {
  /// Taps needed (UIKit default 1).
  public var numberOfTapsRequired = 1
  /// Fingers per tap (UIKit default 1).
  public var numberOfTouchesRequired = 1
  /// How far (pt) a finger may move before the tap fails.
  public var allowableMovement = GestureConstants.tapAllowableMovement
  /// How long (s) one tap's fingers may stay down.
  public var maximumTapDuration = GestureConstants.maximumTapDuration
  /// The longest gap (s) from a tap's lift to the next tap's touch-down.
  public var maximumIntervalBetweenTaps = GestureConstants.multiTapMaximumInterval
  /// How far (pt) from the first tap later taps may land.
  public var maximumDistanceBetweenTaps = GestureConstants.multiTapMaximumDistance

  private var down = GestureTouches()
  /// Fingers that touched down during the current tap (lifted ones included).
  private var fingersThisTap = 0
  private var tapsCompleted = 0
  private var firstTapLocation: Point?
  private var lastTapLocation: Point?
  private var liftSum = Point.zero
  private var tapTimer: ScheduledTimer?
  private var intervalTimer: ScheduledTimer?

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
      if let first = firstTapLocation,
        first.distance(to: touch.locationInWindow) > maximumDistanceBetweenTaps
      {
        return fail()
      }
      if down.isEmpty && fingersThisTap == 0 {
        tapTimer = schedule(after: maximumTapDuration) { [weak self] in self?.fail() }
      }
      down.add(touch)
      fingersThisTap += 1
      if fingersThisTap > numberOfTouchesRequired { return fail() }
    }
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    for touch in touches where down.contains(touch) {
      if down.distanceMoved(touch) > allowableMovement { return fail() }
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    for touch in touches where down.contains(touch) {
      if down.distanceMoved(touch) > allowableMovement { return fail() }
    }
    // The tap's location: the centroid of all its fingers where each lifted.
    for touch in touches where down.contains(touch) {
      liftSum = liftSum + touch.locationInWindow
      down.remove(touch)
    }
    guard down.isEmpty else { return }
    guard fingersThisTap == numberOfTouchesRequired else { return fail() }
    tapTimer?.cancel()
    tapTimer = nil
    lastTapLocation = Point(x: liftSum.x / Double(fingersThisTap), y: liftSum.y / Double(fingersThisTap))
    liftSum = .zero
    fingersThisTap = 0
    tapsCompleted += 1
    if firstTapLocation == nil { firstTapLocation = lastTapLocation }
    if tapsCompleted >= numberOfTapsRequired {
      state = .ended
    } else {
      intervalTimer = schedule(after: maximumIntervalBetweenTaps) { [weak self] in self?.fail() }
    }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    for touch in touches { down.remove(touch) }
    if effectiveState == .possible { fail() }
  }

  /// While fingers are down, their centroid; after the tap, where its fingers lifted.
  open override func location(in view: View?) -> Point {
    guard let p = down.centroid ?? lastTapLocation else { return super.location(in: view) }
    return view?.convert(p, from: nil) ?? p
  }

  open override func reset() {
    super.reset()
    tapTimer?.cancel()
    intervalTimer?.cancel()
    tapTimer = nil
    intervalTimer = nil
    down.removeAll()
    fingersThisTap = 0
    liftSum = .zero
    tapsCompleted = 0
    firstTapLocation = nil
    lastTapLocation = nil
  }

  private func fail() {
    tapTimer?.cancel()
    intervalTimer?.cancel()
    if effectiveState == .possible { state = .failed }
  }
}
