/// Recognizes a quick straight movement in a direction (UIKit's `UISwipeGestureRecognizer`); discrete.
///
/// # Lifecycle
/// Once ``numberOfTouchesRequired`` fingers are down, the recognizer measures their centroid's
/// movement from where it was at that moment. It goes `.possible → .ended` as soon as the
/// movement reaches ``minimumDistance`` along one of the allowed ``direction``s, within
/// ``directionTolerance`` of it, at an average speed of at least ``minimumSpeed``. It fails when
/// the movement, once longer than ``allowableMovement``, points away from every allowed direction
/// by more than the tolerance; when it reaches the distance too slowly; when ``maximumDuration``
/// passes after the first touch-down (a timer); when a finger too many touches down, a finger
/// lifts first, or a touch is cancelled.
///
/// # Example: a three-finger swipe left (`direction = .left`, `numberOfTouchesRequired = 3`)
/// ```
/// t=0.00…0.03 A, B, C down           possible (measuring from t=0.03)
/// t=0.08      all move 30 pt left    possible
/// t=0.13      all move 60 pt left    ended → action (60 pt in 0.1 s = 600 pt/s); recognizedDirection .left
/// ```
open class SwipeGestureRecognizer: GestureRecognizer {
  /// Swipe directions, as UIKit's `UISwipeGestureRecognizer.Direction`.
  public struct Direction: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let right = Direction(rawValue: 1 << 0)
    public static let left = Direction(rawValue: 1 << 1)
    public static let up = Direction(rawValue: 1 << 2)
    public static let down = Direction(rawValue: 1 << 3)

    /// The unit vector of a single direction (y down).
    var vector: Point {
      switch self {
      case .right: Point(x: 1, y: 0)
      case .left: Point(x: -1, y: 0)
      case .up: Point(x: 0, y: -1)
      default: Point(x: 0, y: 1)
      }
    }
  }

  /// The allowed directions (UIKit default `.right`).
  public var direction: Direction = .right
  /// Fingers that must swipe together (UIKit default 1).
  public var numberOfTouchesRequired = 1
  /// How far (pt) the centroid must travel along the direction.
  public var minimumDistance = GestureConstants.swipeMinimumDistance
  /// The longest time (s) from the first touch-down to recognition.
  public var maximumDuration = GestureConstants.swipeMaximumDuration
  /// The lowest average speed (pt/s) along the direction.
  public var minimumSpeed = GestureConstants.swipeMinimumSpeed
  /// The largest angle (radians) between the movement and the direction.
  public var directionTolerance = GestureConstants.swipeDirectionTolerance
  /// Movement (pt) below which the direction is not judged yet.
  public var allowableMovement = GestureConstants.tapAllowableMovement
  /// The single direction of the last recognized swipe (not in UIKit, whose `direction` is only
  /// the configuration; useful when several directions are allowed).
  public private(set) var recognizedDirection: Direction?

  private var down = GestureTouches()
  private var fingers = 0
  private var startCentroid: Point?
  private var startTime = 0.0
  private var timer: ScheduledTimer?
  private var lastLocation: Point?

  public override init() { super.init() }

  /// A recognizer for swipes in `direction` with `touches` fingers.
  public convenience init(direction: Direction, numberOfTouchesRequired touches: Int = 1) {
    self.init()
    self.direction = direction
    numberOfTouchesRequired = touches
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    if fingers == 0 {
      timer = schedule(after: maximumDuration) { [weak self] in self?.fail() }
    }
    for touch in touches {
      down.add(touch)
      fingers += 1
    }
    if fingers > numberOfTouchesRequired { return fail() }
    if fingers == numberOfTouchesRequired {
      startCentroid = down.centroid
      startTime = down.latestTimestamp
    }
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible, let start = startCentroid, let c = down.centroid else { return }
    lastLocation = c
    let d = c - start
    guard d.length > allowableMovement else { return }
    let tanTolerance = tan(directionTolerance)
    var best: (Direction, Double)?
    for dir in [Direction.right, .left, .up, .down] where direction.contains(dir) {
      let v = dir.vector
      let along = d.x * v.x + d.y * v.y
      let across = abs(d.x * v.y - d.y * v.x)
      if along > 0 && across <= along * tanTolerance && along > (best?.1 ?? 0) { best = (dir, along) }
    }
    guard let (dir, along) = best else { return fail() }
    guard along >= minimumDistance else { return }
    let elapsed = down.latestTimestamp - startTime
    guard elapsed <= 0 || along / elapsed >= minimumSpeed else { return fail() }
    timer?.cancel()
    recognizedDirection = dir
    state = .ended
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    lastLocation = down.centroid ?? lastLocation
    for touch in touches { down.remove(touch) }
    if effectiveState == .possible { fail() }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    for touch in touches { down.remove(touch) }
    if effectiveState == .possible { fail() }
  }

  /// The centroid of the fingers; after they lift, where it was last.
  open override func location(in view: View?) -> Point {
    guard let p = down.centroid ?? lastLocation else { return super.location(in: view) }
    return view?.convert(p, from: nil) ?? p
  }

  open override func reset() {
    super.reset()
    timer?.cancel()
    timer = nil
    down.removeAll()
    fingers = 0
    startCentroid = nil
    startTime = 0
    lastLocation = nil
  }

  private func fail() {
    timer?.cancel()
    if effectiveState == .possible { state = .failed }
  }

  /// tan(a) for |a| < π/2 without libm: sin/cos from their Taylor series after halving.
  private func tan(_ a: Double) -> Double {
    GestureMath.tan(a)
  }
}
