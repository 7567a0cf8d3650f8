import TouchDelivery

/// Which side of a view a near miss landed on.
public enum MissSide: String, CaseIterable, Hashable, Sendable {
  case left, right, above, below
}

/// Near misses (docs/operations.md, "Touchscreen health"): taps no recognizer took that landed
/// outside every tap target of the window but within ``HealthSettings/nearMissDistance`` of one,
/// counted for the nearest target by the side they landed on.
struct NearMisses {
  private(set) var byView: [String: [MissSide: Int]] = [:]

  /// Counts a tap at `point` (window coordinates) against the window's tap targets: views with an
  /// enabled tap recognizer, and controls, that hit-testing can reach. A tap inside a target, or
  /// farther than `distance` from every one, counts nothing. Returns the view it counted for.
  @discardableResult
  mutating func tap(at point: Point, in window: Window, distance: Double) -> String? {
    var nearest: (id: String, distance: Double, side: MissSide)?
    var inside = false
    Self.visitTargets(window) { view in
      let origin = view.convertToWindow(Point(x: view.bounds.minX, y: view.bounds.minY))
      let rect = Rect(origin: origin, size: view.bounds.size)
      let dx = max(rect.minX - point.x, 0, point.x - rect.maxX)
      let dy = max(rect.minY - point.y, 0, point.y - rect.maxY)
      if dx == 0 && dy == 0 {
        inside = true
        return
      }
      let d = (dx * dx + dy * dy).squareRoot()
      guard d <= distance, d < nearest?.distance ?? .infinity, let id = view.identifier else { return }
      let side: MissSide =
        dx >= dy ? (point.x < rect.minX ? .left : .right) : (point.y < rect.minY ? .above : .below)
      nearest = (id, d, side)
    }
    guard !inside, let nearest else { return nil }
    byView[nearest.id, default: [:]][nearest.side, default: 0] += 1
    return nearest.id
  }

  /// Calls `body` with every tap target under `view`: visible, interactive views (with their
  /// ancestors) that have an enabled tap recognizer or are controls.
  private static func visitTargets(_ view: View, _ body: (View) -> Void) {
    guard view.canBeHit else { return }
    if view is Control || view.gestureRecognizers.contains(where: { $0 is TapGestureRecognizer && $0.isEnabled }) {
      body(view)
    }
    for subview in view.subviews { visitTargets(subview, body) }
  }
}
