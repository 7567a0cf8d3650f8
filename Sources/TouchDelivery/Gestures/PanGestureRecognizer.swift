/// Recognizes fingers dragging (UIKit's `UIPanGestureRecognizer`); continuous.
///
/// # Lifecycle
/// The recognizer follows the centroid of its touches: at most ``maximumNumberOfTouches`` of
/// them; touches beyond that are ignored (`ignore(_:for:)`), so a resting extra finger neither
/// stops nor joins a one-finger pan. It goes to `.began` when the centroid has moved more than
/// ``startDistance`` along either axis since touch-down while at least
/// ``minimumNumberOfTouches`` touches are down; then every movement is `.changed`. It goes to
/// `.ended` when all its touches have lifted (Apple's UIPanGestureRecognizer documentation: "The
/// gesture ends when all fingers are lifted"), `.cancelled` when its touches are cancelled. If
/// every finger lifts before it began, it fails.
///
/// ``translation(in:)`` counts from the initial point of contact, as Apple documents it
/// ("Handling pan gestures": at the beginning of the gesture the recognizer stores the initial
/// point of contact, and `translation(in:)` reports the distance from that starting location;
/// AppKit's NSPanGestureRecognizer page: the starting point is the current location minus the
/// translation). So at `.began` it already holds the start distance the finger moved, and a view
/// moved by it stays under the finger; a finger that touches down or lifts moves the centroid but
/// not the translation.
/// ``velocity(in:)`` is a least-squares fit over the last 100 ms of centroid movement (see
/// ``VelocityTracker``).
///
/// # Example: one finger, then a second joins (`maximumNumberOfTouches` unlimited)
/// ```
/// t=0.00 A down at (100,100)          possible
/// t=0.03 A to (106,100)               possible (6 pt < 10)
/// t=0.05 A to (112,100)               began → action; translation (12,0)
/// t=0.10 B down at (300,100)          no action: the centroid jumps, the translation does not
/// t=0.12 A,B move +20 pt in x         changed → action; translation (32,0)
/// t=0.15 A lifts                      no action: B still pans
/// t=0.20 B lifts                      ended → action; velocity from the fit
/// ```
open class PanGestureRecognizer: GestureRecognizer {
  /// The fewest touches that pan (UIKit default 1).
  public var minimumNumberOfTouches = 1
  /// The most touches that pan (UIKit default unlimited).
  public var maximumNumberOfTouches = Int.max
  /// How far (pt) the centroid must move along either axis before the pan begins.
  public var startDistance = GestureConstants.panStartDistance

  var down = GestureTouches()
  /// The centroid's movement since touch-down, summed over frames with a fixed set of touches.
  private var travelled = Point.zero
  private var lastCentroid: Point?
  /// `travelled` at the point where translation is zero: the first touch-down, until
  /// ``setTranslation(_:in:)`` moves it.
  private var translationOrigin = Point.zero
  private var tracker = VelocityTracker()

  public override init() { super.init() }

  /// The centroid's movement since the first touch-down (or since the last ``setTranslation(_:in:)``).
  /// Views here only translate, so the vector is the same in every view's coordinates.
  public func translation(in view: View?) -> Point {
    guard isActive || effectiveState == .ended || effectiveState == .cancelled else { return .zero }
    return travelled - translationOrigin
  }

  /// Makes the current translation `translation` (UIKit's `setTranslation(_:in:)`); the velocity
  /// is unaffected.
  public func setTranslation(_ translation: Point, in view: View?) {
    translationOrigin = travelled - translation
  }

  /// The centroid's velocity in points per second.
  public func velocity(in view: View?) -> Point { tracker.velocity }

  /// How far the centroid has moved since the first touch-down (window points).
  var travelledSinceTouchDown: Point { travelled }

  /// Whether the pan may begin now that it moved past ``startDistance``; false keeps it possible.
  /// Subclasses (the screen-edge pan) add conditions, and may fail the recognizer.
  func panCanBegin() -> Bool { true }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible || isActive else { return }
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      if down.count >= maximumNumberOfTouches {
        ignore(touch, for: event)
      } else {
        down.add(touch)
      }
    }
    lastCentroid = down.centroid
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible || isActive else { return }
    follow(at: event.timestamp, touches)
    if isActive {
      state = .changed
    } else if abs(travelled.x) > startDistance || abs(travelled.y) > startDistance,
      down.count >= minimumNumberOfTouches, panCanBegin()
    {
      setState(
        .began,
        because:
          "moved (\(traceNumber(travelled.x)), \(traceNumber(travelled.y))) pt: more than startDistance \(traceNumber(startDistance)) along an axis"
      )
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible || isActive else { return }
    follow(at: event.timestamp, touches)
    for touch in touches { down.remove(touch) }
    lastCentroid = down.centroid
    if isActive {
      if down.isEmpty { setState(.ended, because: "all its touches lifted") }
    } else if down.isEmpty {
      setState(
        .failed, because: "all its touches lifted before it moved startDistance \(traceNumber(startDistance)) pt")
    }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    for touch in touches { down.remove(touch) }
    lastCentroid = down.centroid
    if isActive {
      state = .cancelled
    } else if effectiveState == .possible {
      state = .failed
    }
  }

  /// Adds the centroid's movement since the last frame (over the same touches) and a velocity sample.
  private func follow(at eventTime: Double, _ touches: Set<Touch>) {
    guard let c = down.centroid else { return }
    if let last = lastCentroid { travelled = travelled + (c - last) }
    lastCentroid = c
    var latest: Double?
    for touch in touches where latest.map({ touch.timestamp > $0 }) ?? true { latest = touch.timestamp }
    let time = latest ?? eventTime
    tracker.add(time: time, value: travelled)
    lastLocation = c
  }

  private var lastLocation: Point?

  /// The centroid of the touches; after the last lift, where it was.
  open override func location(in view: View?) -> Point {
    guard let p = down.centroid ?? lastLocation else { return super.location(in: view) }
    return view?.convert(p, from: nil) ?? p
  }

  open override func reset() {
    super.reset()
    down.removeAll()
    travelled = .zero
    lastCentroid = nil
    translationOrigin = .zero
    tracker.reset()
    lastLocation = nil
  }
}
