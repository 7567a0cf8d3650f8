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

  private var down = GestureTouches()
  private var rotationBase = 0.0
  /// The angle turned since the reference, summed frame by frame so it can exceed π.
  private var turned = 0.0
  private var lastAngle = 0.0
  private var tracker = VelocityTracker()
  private var lastLocation: Point?

  public override init() { super.init() }

  private var isActive: Bool { effectiveState == .began || effectiveState == .changed }

  private func angleAndDistance() -> (Double, Double) {
    let a = down.touches[0].locationInWindow
    let b = down.touches[1].locationInWindow
    return (GestureMath.atan2(b.y - a.y, b.x - a.x), a.distance(to: b))
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      if down.count < 2 && effectiveState == .possible {
        down.add(touch)
        if down.count == 2 {
          lastAngle = angleAndDistance().0
          turned = 0
          rotationBase = 0
          tracker.reset()
          tracker.add(time: down.latestTimestamp, value: 0)
        }
      } else {
        ignore(touch, for: event)
      }
    }
  }

  private func follow() {
    let (angle, _) = angleAndDistance()
    turned += GestureMath.wrap(angle - lastAngle)
    lastAngle = angle
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard down.count == 2, effectiveState == .possible || isActive else { return }
    lastLocation = down.centroid
    follow()
    tracker.add(time: down.latestTimestamp, value: rotation)
    if isActive {
      state = .changed
    } else if abs(turned) * angleAndDistance().1 / 2 > startDistance {
      state = .began
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    lastLocation = down.centroid ?? lastLocation
    if down.count == 2 && isActive { follow() }
    for touch in touches { down.remove(touch) }
    if isActive {
      state = .ended
    } else if effectiveState == .possible && down.isEmpty {
      state = .failed
    }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    lastLocation = down.centroid ?? lastLocation
    for touch in touches { down.remove(touch) }
    if isActive {
      state = .cancelled
    } else if effectiveState == .possible && down.isEmpty {
      state = .failed
    }
  }

  /// The midpoint of the two fingers; after a lift, where it was.
  open override func location(in view: View?) -> Point {
    guard let p = down.centroid ?? lastLocation else { return super.location(in: view) }
    return view?.convert(p, from: nil) ?? p
  }

  open override func reset() {
    super.reset()
    down.removeAll()
    rotationBase = 0
    turned = 0
    lastAngle = 0
    tracker.reset()
    lastLocation = nil
  }
}
