/// Recognizes a straight movement of every finger in a direction (UIKit's
/// `UISwipeGestureRecognizer`); discrete.
///
/// # Lifecycle
/// Time t runs from the first touch-down, the moment the ``maximumDuration`` timer starts, also
/// when the other required fingers land later: one clock for every limit. Each touch is measured from
/// where it touched down: its movement *along* a direction and *sideways* (perpendicular) to it.
/// There is no speed rule; instead both thresholds shrink with time:
///
/// - needed along: ``minimumPrimaryMovement`` · (1 − ``rateOfMinimumMovementDecay`` · t)
///   (50 · (1 − 0.94 t): 50 pt at once, 45.3 pt at 0.1 s, 26.5 pt at 0.5 s);
/// - allowed sideways: ``maximumSecondaryMovement`` · (1 − ``rateOfMaximumMovementDecay`` · t)
///   (50 · (1 − 0.98 t): 45.1 pt at 0.1 s, 25.5 pt at 0.5 s).
///
/// On every movement each allowed ``direction`` still in play is checked against every touch
/// down: a touch that has moved more than the sideways allowance, or that has moved backwards
/// (its movement along the direction fell more than ``backwardsTolerance`` below the farthest it
/// had been, so jitter does not count), rules the direction out for this attempt. When every
/// allowed direction is ruled out the recognizer fails. Once all ``numberOfTouchesRequired``
/// fingers are down, it goes `.possible → .ended` at the first movement at which *every* touch
/// has moved at least the needed distance along a direction still in play (with several, the one
/// they moved farthest along); ``recognizedDirection`` says which. Thresholds are only compared
/// when touches move (no timer but the duration's): a finger resting short of the distance is
/// recognized at its next movement if the requirement has decayed below it by then.
///
/// It also fails when ``maximumDuration`` passes after the first touch-down (a timer), when a
/// finger too many touches down, a finger lifts before recognition, or a touch is cancelled.
/// ``location(in:)`` is where the swipe began: the centroid of the touch-down points.
///
/// # Example: a three-finger swipe left (`direction = .left`, `numberOfTouchesRequired = 3`)
/// ```
/// t=0.00…0.03 A, B, C down           possible (t counts from A's touch-down at 0)
/// t=0.08      all moved 30 pt left   possible (needs 46.2 pt; sideways allowed 46.1)
/// t=0.13      A, B 60 pt, C 40 pt    possible (needs 43.9 pt: C lags)
/// t=0.15      all moved 60 pt left   ended → action; recognizedDirection .left,
///                                    location = centroid of the three touch-down points
/// ```
/// Had C moved 6 pt back to the right (along falling from 40 to 34) the swipe would have failed.
open class SwipeGestureRecognizer: GestureRecognizer {
  /// Swipe directions, as UIKit's `UISwipeGestureRecognizer.Direction`.
  public struct Direction: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let right = Direction(rawValue: 1 << 0)
    public static let left = Direction(rawValue: 1 << 1)
    public static let up = Direction(rawValue: 1 << 2)
    public static let down = Direction(rawValue: 1 << 3)

    /// The single directions, in the order of their bits.
    static let singles: [Direction] = [.right, .left, .up, .down]

    /// The unit vector of a single direction (y down).
    var vector: Point {
      switch self {
      case .right: Point(x: 1, y: 0)
      case .left: Point(x: -1, y: 0)
      case .up: Point(x: 0, y: -1)
      default: Point(x: 0, y: 1)
      }
    }

    /// The name of a single direction, for trace causes.
    var name: String {
      switch self {
      case .right: "right"
      case .left: "left"
      case .up: "up"
      default: "down"
      }
    }
  }

  /// The allowed directions (UIKit default `.right`).
  public var direction: Direction = .right
  /// Fingers that must swipe together (UIKit default 1).
  public var numberOfTouchesRequired = 1
  /// How far (pt) every touch must move along the direction at t = 0 (UIKit's private property).
  public var minimumPrimaryMovement = GestureConstants.swipeMinimumPrimaryMovement
  /// How far (pt) a touch may move sideways at t = 0 (UIKit's private property).
  public var maximumSecondaryMovement = GestureConstants.swipeMaximumSecondaryMovement
  /// The fraction (per s) the needed movement loses with time (UIKit's private property).
  public var rateOfMinimumMovementDecay = GestureConstants.swipeRateOfMinimumMovementDecay
  /// The fraction (per s) the sideways allowance loses with time (UIKit's private property).
  public var rateOfMaximumMovementDecay = GestureConstants.swipeRateOfMaximumMovementDecay
  /// The longest time (s) from the first touch-down to recognition.
  public var maximumDuration = GestureConstants.swipeMaximumDuration
  /// How far (pt) a touch may fall back along a direction before it counts as moving backwards
  /// (not in UIKit, whose touch data does not jitter).
  public var backwardsTolerance = GestureConstants.swipeBackwardsTolerance
  /// The single direction of the last recognized swipe (not in UIKit, whose `direction` is only
  /// the configuration; useful when several directions are allowed).
  public private(set) var recognizedDirection: Direction?

  /// Why a direction was ruled out; formatted only for the trace.
  private struct Exclusion {
    enum Kind {
      /// Moved `amount` pt sideways; `limit` was allowed.
      case sideways
      /// Fell back `amount` pt along the direction; `limit` is the tolerance.
      case backwards
    }
    var kind: Kind
    var amount: Double
    var limit: Double
    var t: Double
  }

  private var down = GestureTouches()
  private var fingers = 0
  /// The first touch-down's timestamp: t = 0.
  private var startTime: Double?
  /// The sum of the touch-down points (of `fingers` touches), for ``location(in:)``.
  private var startSum = Point.zero
  /// For each touch, the farthest it has moved along each single direction (indexed as `singles`).
  private var farthest: [ObjectIdentifier: [Double]] = [:]
  /// The ruled-out single directions (indexed as `singles`) and why.
  private var exclusions: [Exclusion?] = Array(repeating: nil, count: 4)
  private var timer: ScheduledTimer?

  public override init() { super.init() }

  /// A recognizer for swipes in `direction` with `touches` fingers.
  public convenience init(direction: Direction, numberOfTouchesRequired touches: Int = 1) {
    self.init()
    self.direction = direction
    numberOfTouchesRequired = touches
  }

  /// The distance (pt) each touch must have moved along the direction `t` s after the first
  /// touch-down: minimumPrimaryMovement · (1 − rateOfMinimumMovementDecay · t), at least 0.
  public func requiredPrimaryMovement(at t: Double) -> Double {
    max(0, minimumPrimaryMovement * (1 - rateOfMinimumMovementDecay * t))
  }

  /// The distance (pt) a touch may have moved sideways `t` s after the first touch-down:
  /// maximumSecondaryMovement · (1 − rateOfMaximumMovementDecay · t), at least 0.
  public func allowedSecondaryMovement(at t: Double) -> Double {
    max(0, maximumSecondaryMovement * (1 - rateOfMaximumMovementDecay * t))
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible else { return }
    if startTime == nil {
      startTime = touches.map(\.timestamp).min() ?? event.timestamp
      timer = schedule(after: maximumDuration) { [weak self] in
        guard let self else { return }
        self.fail(because: "not recognized within maximumDuration \(traceNumber(self.maximumDuration, decimals: 3)) s")
      }
    }
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      down.add(touch)
      fingers += 1
      startSum = startSum + touch.locationInWindow
      farthest[ObjectIdentifier(touch)] = Array(repeating: 0, count: 4)
    }
    if fingers > numberOfTouchesRequired {
      let required = numberOfTouchesRequired
      let count = fingers
      return fail(because: "\(count) touches > numberOfTouchesRequired \(required)")
    }
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard effectiveState == .possible, let startTime else { return }
    let t = (touches.map(\.timestamp).max() ?? event.timestamp) - startTime
    if t > maximumDuration {
      let limit = maximumDuration
      return fail(because: "t=\(traceNumber(t, decimals: 2)) s > maximumDuration \(traceNumber(limit, decimals: 3)) s")
    }
    let allowance = allowedSecondaryMovement(at: t)
    for touch in down.touches {
      let key = ObjectIdentifier(touch)
      let d = touch.locationInWindow - down.start(of: touch)
      var reached = farthest[key] ?? Array(repeating: 0, count: 4)
      for (i, dir) in Direction.singles.enumerated() where direction.contains(dir) && exclusions[i] == nil {
        let v = dir.vector
        let along = d.x * v.x + d.y * v.y
        let sideways = abs(d.x * v.y - d.y * v.x)
        reached[i] = max(reached[i], along)
        if reached[i] - along > backwardsTolerance {
          exclusions[i] = Exclusion(kind: .backwards, amount: reached[i] - along, limit: backwardsTolerance, t: t)
        } else if sideways > allowance {
          exclusions[i] = Exclusion(kind: .sideways, amount: sideways, limit: allowance, t: t)
        }
      }
      farthest[key] = reached
    }
    let inPlay = Direction.singles.indices.filter { direction.contains(Direction.singles[$0]) && exclusions[$0] == nil }
    if inPlay.isEmpty { return fail(because: exclusionCause()) }
    guard fingers == numberOfTouchesRequired, down.count == numberOfTouchesRequired else { return }
    let needed = requiredPrimaryMovement(at: t)
    // For each direction in play, the least any touch has moved along it; the best is the largest.
    var best: (index: Int, least: Double)?
    for i in inPlay {
      let v = Direction.singles[i].vector
      let least =
        down.touches.map { touch in
          let d = touch.locationInWindow - down.start(of: touch)
          return d.x * v.x + d.y * v.y
        }.min() ?? 0
      if least >= needed && least > 0 && least > (best?.least ?? 0) { best = (i, least) }
    }
    guard let best else { return }
    timer?.cancel()
    let dir = Direction.singles[best.index]
    recognizedDirection = dir
    let count = down.count
    setState(
      .ended,
      because: "\(count == 1 ? "moved" : "every touch moved") \(traceNumber(best.least)) pt \(dir.name) >= "
        + "\(traceNumber(needed)) needed at t=\(traceNumber(t, decimals: 2)) s (sideways <= \(traceNumber(allowance)))")
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    for touch in touches { down.remove(touch) }
    if effectiveState == .possible { fail(because: "a touch lifted before the swipe was recognized") }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    for touch in touches { down.remove(touch) }
    if effectiveState == .possible { fail(because: "a touch was cancelled") }
  }

  /// Where the swipe began: the centroid of its touches' touch-down points (UISwipeGestureRecognizer.h:
  /// "location where the swipe began. this is the centroid if more than one touch was involved").
  open override func location(in view: View?) -> Point {
    guard fingers > 0 else { return super.location(in: view) }
    let p = Point(x: startSum.x / Double(fingers), y: startSum.y / Double(fingers))
    return view?.convert(p, from: nil) ?? p
  }

  open override func reset() {
    super.reset()
    timer?.cancel()
    timer = nil
    down.removeAll()
    fingers = 0
    startTime = nil
    startSum = .zero
    farthest.removeAll()
    exclusions = Array(repeating: nil, count: 4)
  }

  private func fail(because cause: @autoclosure () -> String) {
    timer?.cancel()
    if effectiveState == .possible { setState(.failed, because: cause()) }
  }

  /// Why every allowed direction is out: "moved 52 pt sideways > 45.1 allowed at t=0.1 s", each
  /// prefixed with its direction when several are allowed.
  private func exclusionCause() -> String {
    let allowed = Direction.singles.indices.filter { direction.contains(Direction.singles[$0]) }
    guard !allowed.isEmpty else { return "no direction allowed" }
    return allowed.compactMap { i -> String? in
      guard let e = exclusions[i] else { return nil }
      let prefix = allowed.count > 1 ? "\(Direction.singles[i].name): " : ""
      switch e.kind {
      case .sideways:
        return prefix
          + "moved \(traceNumber(e.amount)) pt sideways > \(traceNumber(e.limit)) allowed at t=\(traceNumber(e.t, decimals: 2)) s"
      case .backwards:
        return prefix
          + "moved \(traceNumber(e.amount)) pt backwards > \(traceNumber(e.limit)) tolerated at t=\(traceNumber(e.t, decimals: 2)) s"
      }
    }.joined(separator: "; ")
  }
}
