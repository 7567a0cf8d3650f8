/// Recognizes two fingers turning around each other (UIKit's `UIRotationGestureRecognizer`); continuous.
///
/// # Lifecycle
/// The recognizer uses two touches; a third concurrent one is ignored. When the second finger
/// touches down, the angle of the line from the first finger to the second becomes the reference.
/// It goes to `.began` when each finger has turned more than ``startDistance`` points of arc around
/// their midpoint (|angle| × distance / 2); then every movement while both fingers are down is
/// `.changed`. Lifting one finger does not end it: while one finger is down, moving it changes
/// nothing, and a finger that lands joins it as the second of the pair, with the reference
/// re-anchored so ``rotation`` carries on from its value without a jump. It is `.ended` when the
/// last finger lifts and `.cancelled` when a touch is cancelled. Before it began, a lifted finger
/// can be replaced (the reference is taken again); if every finger lifts it fails.
///
/// ``rotation`` is 0 at `.began`: the reference is taken again when the turn passes the start
/// threshold, so the threshold is not part of the rotation (as UIKit's). It is in radians,
/// clockwise positive on screen (y grows down), and accumulates across turns (a full turn is 2π,
/// not 0). Setting it makes the current angle correspond to the new value and resets the velocity
/// (as UIKit's). ``velocity`` is radians per second, a least-squares fit over the last 100 ms (it
/// includes the turn before `.began`).
///
/// # Example
/// ```
/// t=0.00 A down at (400,300)                 possible
/// t=0.02 B down at (600,300)                 possible (reference angle 0, distance 200)
/// t=0.05 B to (599.4,315.7)                  possible (0.079 rad × 100 pt = 7.9 pt of arc < 10)
/// t=0.10 B to (597.0,334.7)                  began → action; rotation 0 (reference now 0.175 rad)
/// t=0.50 A to (500,200), B to (500,400)      changed → action; rotation 1.396 (π/2 − 0.175, clockwise)
/// t=0.60 A lifts                             no action: B is still down
/// t=0.65 B to (520,400)                      no action: one finger changes nothing
/// t=0.70 C down at (520,200)                 no action: B and C are the pair, re-anchored at 1.396
/// t=0.80 B, C lift                           ended → action (all fingers lifted)
/// ```
open class RotationGestureRecognizer: GestureRecognizer {
  /// How far (pt of arc) each finger must turn before the rotation begins.
  public var startDistance = GestureConstants.rotationStartDistance

  /// The rotation in radians since the rotation began (plus any value set), clockwise positive.
  public var rotation: Double {
    get { rotationBase + turned }
    set {
      rotationBase = newValue
      turned = 0
      tracker.reset()
    }
  }

  /// The rotation's rate of change, radians per second.
  public var velocity: Double { tracker.scalarVelocity }

  private var pair = FingerPair()
  private var rotationBase = 0.0
  /// The angle turned since the reference, summed frame by frame so it can exceed π.
  private var turned = 0.0
  /// The angle turned since the pair formed, never re-based: what the velocity tracker samples, so
  /// the velocity at `.began` includes the turn before it.
  private var swept = 0.0
  private var lastAngle = 0.0
  private var tracker = VelocityTracker()

  public override init() { super.init() }

  private func angle() -> Double {
    GestureMath.atan2(pair.second.y - pair.first.y, pair.second.x - pair.first.x)
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard pair.add(touches, with: event, to: self) else { return }
    // Active: a finger joined the one left down, and the rotation carries on from its value.
    if !isActive {
      turned = 0
      swept = 0
      rotationBase = 0
      tracker.reset()
    }
    lastAngle = angle()
    tracker.add(time: pair.latestTimestamp, value: swept)
  }

  private func follow() {
    let a = angle()
    let delta = GestureMath.wrap(a - lastAngle)
    turned += delta
    swept += delta
    lastAngle = a
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard pair.shouldFollowMove(of: self) else { return }
    follow()
    tracker.add(time: pair.latestTimestamp, value: swept)
    if isActive {
      state = .changed
      return
    }
    let arc = abs(turned) * pair.first.distance(to: pair.second) / 2
    guard arc > startDistance else { return }
    // The threshold is not part of the rotation: it is 0 (or the value set) at `.began`.
    turned = 0
    setState(
      .began,
      because: "turned \(traceNumber(arc)) pt of arc > startDistance \(traceNumber(startDistance))")
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if pair.isComplete && isActive { follow() }
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
    rotationBase = 0
    turned = 0
    swept = 0
    lastAngle = 0
    tracker.reset()
  }
}
