/// Recognizes two fingers moving apart or together (UIKit's `UIPinchGestureRecognizer`); continuous.
///
/// # Lifecycle
/// The recognizer uses the first two touches that land on it; later ones are ignored. When the
/// second finger touches down, their distance becomes the reference. It goes to `.began` when the
/// distance has changed by more than ``startDistance`` from the reference; then every movement is
/// `.changed`; the lift of either finger is `.ended`, a cancelled touch `.cancelled`. Before it
/// began, a lifted finger can be replaced (the reference is taken again); if every finger lifts it
/// fails.
///
/// ``scale`` is the distance over the reference distance, so it already differs from 1 at
/// `.began` (as UIKit's): fingers going from 200 pt apart to 400 pt give 2. Setting it makes the
/// current distance correspond to the new value. ``velocity`` is the scale's rate of change per
/// second, a least-squares fit over the last 100 ms.
///
/// # Example
/// ```
/// t=0.00 A down at (400,300)        possible
/// t=0.02 B down at (600,300)        possible (reference 200 pt)
/// t=0.05 A to (394,300)             possible (206 pt: 6 < 10)
/// t=0.07 A to (388,300)             began → action; scale 1.06
/// t=0.30 A to (300,300), B to (700,300)   changed → action; scale 2.0
/// t=0.40 B lifts                    ended → action
/// ```
open class PinchGestureRecognizer: GestureRecognizer {
  /// How far (pt) the distance between the fingers must change before the pinch begins.
  public var startDistance = GestureConstants.pinchStartDistance

  /// The distance between the fingers relative to when both touched down (times any value set).
  public var scale: Double {
    get { scaleBase * currentDistance / max(referenceDistance, 1e-9) }
    set {
      scaleBase = newValue
      referenceDistance = currentDistance
      tracker.reset()
    }
  }

  /// The scale's rate of change, per second.
  public var velocity: Double { tracker.scalarVelocity }

  private var pair = FingerPair()
  private var scaleBase = 1.0
  private var referenceDistance = 0.0
  private var currentDistance = 0.0
  private var tracker = VelocityTracker()

  public override init() { super.init() }

  private func distance() -> Double { pair.first.distance(to: pair.second) }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    if pair.add(touches, with: event, to: self) {
      referenceDistance = distance()
      currentDistance = referenceDistance
      scaleBase = 1
      tracker.reset()
      tracker.add(time: pair.latestTimestamp, value: 1)
    }
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard pair.shouldFollowMove(of: self) else { return }
    currentDistance = distance()
    tracker.add(time: pair.latestTimestamp, value: scale)
    if isActive {
      state = .changed
    } else if abs(currentDistance - referenceDistance) > startDistance {
      state = .began
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if pair.isComplete { currentDistance = distance() }
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
    scaleBase = 1
    referenceDistance = 0
    currentDistance = 0
    tracker.reset()
  }
}
