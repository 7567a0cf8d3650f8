/// A pan that starts at an edge of the window (UIKit's `UIScreenEdgePanGestureRecognizer`).
///
/// # Lifecycle
/// As ``PanGestureRecognizer``, with two extra conditions: the first finger must touch down
/// within ``edgeZoneWidth`` of one of ``edges`` of the window (otherwise it fails at once), and
/// when the centroid has moved past ``PanGestureRecognizer/startDistance`` the movement must point
/// away from that edge at least as much as along it (otherwise it fails: the finger slides along
/// the edge or back off the screen). Translation and velocity are the pan's.
///
/// UIKit's defaults differ from the pan's: `maximumNumberOfTouches` 1, `delaysTouchesBegan`
/// true (a view under the edge sees nothing of a recognized edge swipe, and a touch in the edge
/// zone reaches its view only when the edge pan fails) and a 15 pt start distance
/// (`GestureConstants.screenEdgePanStartDistance`).
///
/// # Example: a back gesture from the left edge (`edges = .left`)
/// ```
/// t=0.00 A down at (6, 300)          possible (inside the 20 pt band)
/// t=0.04 A to (18, 303)              began → action (12 pt inward, 3 along)
/// t=0.08 A to (60, 310)              changed → action; translation (42, 7)
/// t=0.12 A lifts                     ended → action
/// ```
/// A touch-down at (40, 300) fails immediately.
open class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
  /// The edges of a rectangle, as UIKit's `UIRectEdge`.
  public struct Edges: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = Edges(rawValue: 1 << 0)
    public static let left = Edges(rawValue: 1 << 1)
    public static let bottom = Edges(rawValue: 1 << 2)
    public static let right = Edges(rawValue: 1 << 3)
    public static let all: Edges = [.top, .left, .bottom, .right]
  }

  /// The edges the gesture may start from (UIKit default: none, so it must be set).
  public var edges: Edges = []
  /// The width (pt) of the band along each edge in which the first finger must touch down.
  public var edgeZoneWidth = GestureConstants.screenEdgeZoneWidth

  /// The edge the current gesture started from.
  private var startEdge: Edges?

  public override init() {
    super.init()
    // UIScreenEdgePanGestureRecognizer's defaults, as measured on iOS (issue #15).
    maximumNumberOfTouches = 1
    delaysTouchesBegan = true
    startDistance = GestureConstants.screenEdgePanStartDistance
  }

  /// A recognizer for gestures starting at `edges`.
  public convenience init(edges: Edges) {
    self.init()
    self.edges = edges
  }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    if effectiveState == .possible && down.isEmpty && startEdge == nil {
      guard let first = touches.min(by: { $0.id < $1.id }), let edge = edge(at: first.locationInWindow)
      else {
        setState(.failed, because: "touched down outside the \(traceNumber(edgeZoneWidth)) pt edge zone")
        return
      }
      startEdge = edge
    }
    super.touchesBegan(touches, with: event)
  }

  /// The enabled edge whose band contains `p` (window coordinates), the nearest if several.
  private func edge(at p: Point) -> Edges? {
    guard let bounds = view?.window?.bounds else { return nil }
    let candidates: [(Edges, Double)] = [
      (.left, p.x - bounds.minX), (.right, bounds.maxX - p.x),
      (.top, p.y - bounds.minY), (.bottom, bounds.maxY - p.y),
    ]
    return
      candidates
      .filter { edges.contains($0.0) && $0.1 >= 0 && $0.1 <= edgeZoneWidth }
      .min { $0.1 < $1.1 }?.0
  }

  override func panCanBegin() -> Bool {
    guard let startEdge else { return false }
    let d = travelledSinceTouchDown
    let inward: Double
    let along: Double
    switch startEdge {
    case .left: (inward, along) = (d.x, abs(d.y))
    case .right: (inward, along) = (-d.x, abs(d.y))
    case .top: (inward, along) = (d.y, abs(d.x))
    default: (inward, along) = (-d.y, abs(d.x))
    }
    if inward >= along { return true }
    setState(
      .failed, because: "moved \(traceNumber(inward)) pt away from the edge and \(traceNumber(along)) pt along it")
    return false
  }

  open override func reset() {
    super.reset()
    startEdge = nil
  }
}
