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

  private var down = GestureTouches()
  private var scaleBase = 1.0
  private var referenceDistance = 0.0
  private var currentDistance = 0.0
  private var tracker = VelocityTracker()
  private var lastLocation: Point?

  public override init() { super.init() }

  private var isActive: Bool { effectiveState == .began || effectiveState == .changed }

  private func distance() -> Double {
    down.touches[0].locationInWindow.distance(to: down.touches[1].locationInWindow)
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      if down.count < 2 && effectiveState == .possible {
        down.add(touch)
        if down.count == 2 {
          referenceDistance = distance()
          currentDistance = referenceDistance
          scaleBase = 1
          tracker.reset()
          tracker.add(time: down.latestTimestamp, value: 1)
        }
      } else {
        ignore(touch, for: event)
      }
    }
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard down.count == 2, effectiveState == .possible || isActive else { return }
    lastLocation = down.centroid
    currentDistance = distance()
    tracker.add(time: down.latestTimestamp, value: scale)
    if isActive {
      state = .changed
    } else if abs(currentDistance - referenceDistance) > startDistance {
      state = .began
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    lastLocation = down.centroid ?? lastLocation
    if down.count == 2 { currentDistance = distance() }
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
    scaleBase = 1
    referenceDistance = 0
    currentDistance = 0
    tracker.reset()
    lastLocation = nil
  }
}
