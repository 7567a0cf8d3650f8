/// Recognizes two fingers turning around each other (UIKit's `UIRotationGestureRecognizer`); continuous.
///
/// # Lifecycle
/// The recognizer uses the first two touches that land on it; later ones are ignored. When the
/// second finger touches down, the angle of the line from the first finger to the second becomes
/// the reference. It goes to `.began` when each finger has turned more than ``startDistance``
/// points of arc around their midpoint (|angle| × distance / 2); then every movement is
/// `.changed`; the lift of either finger is `.ended`, a cancelled touch `.cancelled`. Before it
/// began, a lifted finger can be replaced (the reference is taken again); if every finger lifts it
/// fails.
///
/// ``rotation`` is in radians from the reference, clockwise positive on screen (y grows down), and
/// accumulates across turns (a full turn is 2π, not 0). Setting it makes the current angle
/// correspond to the new value. ``velocity`` is radians per second, a least-squares fit over the
/// last 100 ms.
///
/// # Example
/// ```
/// t=0.00 A down at (400,300)                 possible
/// t=0.02 B down at (600,300)                 possible (reference angle 0, distance 200)
/// t=0.05 B to (599.4,315.7)                  possible (0.079 rad × 100 pt = 7.9 pt of arc < 10)
/// t=0.10 B to (597.0,334.7)                  began → action; rotation 0.175 (17.5 pt of arc)
/// t=0.50 A to (500,200), B to (500,400)      changed → action; rotation π/2 (clockwise)
/// t=0.60 A lifts                             ended → action
/// ```
open class RotationGestureRecognizer: GestureRecognizer {
  /// How far (pt of arc) each finger must turn before the rotation begins.
  public var startDistance = GestureConstants.rotationStartDistance

  /// The rotation in radians since both fingers touched down (plus any value set), clockwise positive.
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
  private var lastAngle = 0.0
  private var tracker = VelocityTracker()

  public override init() { super.init() }

  private func angle() -> Double {
    GestureMath.atan2(pair.second.y - pair.first.y, pair.second.x - pair.first.x)
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    if pair.add(touches, with: event, to: self) {
      lastAngle = angle()
      turned = 0
      rotationBase = 0
      tracker.reset()
      tracker.add(time: pair.latestTimestamp, value: 0)
    }
  }

  private func follow() {
    let a = angle()
    turned += GestureMath.wrap(a - lastAngle)
    lastAngle = a
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard pair.shouldFollowMove(of: self) else { return }
    follow()
    tracker.add(time: pair.latestTimestamp, value: rotation)
    if isActive {
      state = .changed
    } else if abs(turned) * pair.first.distance(to: pair.second) / 2 > startDistance {
      state = .began
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if pair.isComplete && isActive { follow() }
    pair.remove(touches, from: self, cancelled: false)
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    pair.remove(touches, from: self, cancelled: true)
  }

  /// The midpoint of the two fingers; after a lift, where it was.
  open override func location(in view: View?) -> Point {
    pair.location(in: view) ?? super.location(in: view)
  }

  open override func reset() {
    super.reset()
    pair.reset()
    rotationBase = 0
    turned = 0
    lastAngle = 0
    tracker.reset()
  }
}
