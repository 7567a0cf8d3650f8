/// Recognizes two fingers moving apart or together (UIKit's `UIPinchGestureRecognizer`); continuous.
///
/// # Lifecycle
/// The recognizer uses two touches; a third concurrent one is ignored. When the second finger
/// touches down, their distance becomes the reference. It goes to `.began` when the distance has
/// changed by more than ``startDistance`` from the reference; then every movement while both
/// fingers are down is `.changed`. Lifting one finger does not end it: while one finger is down,
/// moving it changes nothing, and a finger that lands joins it as the second of the pair, with the
/// reference re-anchored so ``scale`` carries on from its value without a jump. It is `.ended`
/// when the last finger lifts and `.cancelled` when a touch is cancelled. Before it began, a lifted
/// finger can be replaced (the reference is taken again); if every finger lifts it fails.
///
/// ``scale`` is 1 at `.began`: the reference is taken again when the distance passes the start
/// threshold, so the threshold is not part of the scale (as UIKit's). Fingers 200 pt apart that
/// begin at 210 pt and spread to 420 pt give 2. Setting it makes the current distance correspond to
/// the new value and resets the velocity (as UIKit's). ``velocity`` is the scale's rate of change
/// per second, a least-squares fit over the last 100 ms (it includes the movement before `.began`).
///
/// # Example
/// ```
/// t=0.00 A down at (400,300)        possible
/// t=0.02 B down at (600,300)        possible (reference 200 pt)
/// t=0.05 A to (394,300)             possible (206 pt: 6 < 8)
/// t=0.07 A to (390,300)             began → action; scale 1.0 (reference now 210 pt)
/// t=0.30 A to (295,300), B to (715,300)   changed → action; scale 2.0 (420 pt)
/// t=0.40 B lifts                    no action: A is still down
/// t=0.45 A to (300,300)             no action: one finger changes nothing
/// t=0.50 C down at (700,300)        no action: A and C are the pair, re-anchored at scale 2.0 (400 pt)
/// t=0.60 C to (900,300)             changed → action; scale 3.0 (2.0 × 600/400)
/// t=0.70 A, C lift                  ended → action (all fingers lifted)
/// ```
open class PinchGestureRecognizer: GestureRecognizer {
  /// How far (pt) the distance between the fingers must change before the pinch begins.
  public var startDistance = GestureConstants.pinchStartDistance

  /// The distance between the fingers relative to when the pinch began (times any value set).
  public var scale: Double {
    get { referenceDistance > 0 ? scaleBase * currentDistance / referenceDistance : scaleBase }
    set {
      scaleBase = newValue
      referenceDistance = currentDistance
      trackedPerScale = 1
      tracker.reset()
    }
  }

  /// The scale's rate of change, per second.
  public var velocity: Double { tracker.scalarVelocity / trackedPerScale }

  private var pair = FingerPair()
  private var scaleBase = 1.0
  private var referenceDistance = 0.0
  private var currentDistance = 0.0
  /// The velocity tracker samples `scale × trackedPerScale`, a value that re-anchoring at `.began`
  /// does not interrupt, so the velocity at `.began` includes the movement before it.
  private var trackedPerScale = 1.0
  private var tracker = VelocityTracker()

  public override init() { super.init() }

  /// How many of the pair's fingers are down (0, 1 or 2).
  var fingersDown: Int { pair.down.count }

  private func distance() -> Double { pair.first.distance(to: pair.second) }

  private func addSample() {
    tracker.add(time: pair.latestTimestamp, value: scale * trackedPerScale)
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard pair.add(touches, with: event, to: self) else { return }
    if isActive {
      // A finger joined the one left down: the value carries on from where it was.
      scaleBase = scale
    } else {
      scaleBase = 1
      trackedPerScale = 1
      tracker.reset()
    }
    referenceDistance = distance()
    currentDistance = referenceDistance
    addSample()
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard pair.shouldFollowMove(of: self) else { return }
    currentDistance = distance()
    addSample()
    if isActive {
      state = .changed
      return
    }
    let change = abs(currentDistance - referenceDistance)
    guard change > startDistance else { return }
    // The threshold is not part of the scale: it is 1 (or the value set) at `.began`.
    let before = scale
    referenceDistance = currentDistance
    if scaleBase != 0 && before.isFinite && before != 0 {
      trackedPerScale *= before / scaleBase
    } else {
      trackedPerScale = 1
      tracker.reset()
      addSample()
    }
    setState(
      .began,
      because: "distance changed \(traceNumber(change)) pt > startDistance \(traceNumber(startDistance))")
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if pair.isComplete { currentDistance = distance() }
    pair.remove(touches, from: self, cancelled: false)
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    pair.remove(touches, from: self, cancelled: true)
  }

  /// The midpoint of the two fingers (the finger's location while one is down); after the last
  /// lift, where it was.
  open override func location(in view: View?) -> Point {
    pair.location(in: view) ?? super.location(in: view)
  }

  open override func reset() {
    super.reset()
    pair.reset()
    scaleBase = 1
    referenceDistance = 0
    currentDistance = 0
    trackedPerScale = 1
    tracker.reset()
  }
}
