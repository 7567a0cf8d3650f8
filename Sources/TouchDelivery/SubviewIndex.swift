/// Which of a view's subviews can contain a point, by the vertical extent of their hit areas: what
/// lets ``View/hitTest(_:with:)`` skip the rows of a long list that are nowhere near the touch
/// (issue #43, "Lists of thousands of rows") with the walk's results.
///
/// A subview's hit area is where its ``View/point(inside:with:)`` may answer true: its frame
/// enlarged by its ``View/hitTestOutset``, in the superview's coordinates (for a scroll view, the
/// content's). Nothing outside it can be hit in the subview's subtree, whatever its subviews and
/// `clipsToBounds` (UIView's `hitTest(_:with:)`: "Points that lie outside the receiver's bounds
/// are never reported as hits, even if they actually lie within one of the receiver's
/// subviews"). So a subview whose area misses the point answers nil to `hitTest`, and skipping it
/// changes nothing; the candidates left are asked as the walk asks them, front to back, each with
/// its own rules (hidden, alpha, user interaction, its own point(inside:)). A test compares the
/// two on random scenes (`SubviewIndexTests`, against a reference walk of its own).
///
/// Built from the subviews' frames when a hit-test first needs it, and dropped when a subview is
/// added, removed or moved, or its size, scale or outset changes (``View`` drops it); a scroll view's
/// scrolling moves its bounds, not its subviews' frames, and keeps it.
final class SubviewIndex {
  /// Views with fewer subviews are walked: for a few subviews the walk costs less than the
  /// look-up (a choice, not a measured crossover).
  static let minimumSubviews = 32
  /// More candidates than this for a point, and the walk runs instead (the selection front to
  /// back below is quadratic in them).
  static let maximumCandidates = 32

  /// Subviews whose areas are at most ``shortHeight`` tall, by z-order position, sorted by the
  /// top of their areas; ``tops`` in the same order.
  private let short: [Int]
  private let tops: [Double]
  /// The tallest area in ``short``: an area containing y has its top in `y - shortHeight ... y`.
  private let shortHeight: Double
  /// The other subviews (a background behind the rows, a header as tall as the list), by z-order
  /// position: candidates for every point.
  private let tall: [Int]

  /// The index of `subviews`.
  init(_ subviews: [View]) {
    var areas: [(top: Double, bottom: Double, position: Int)] = []
    areas.reserveCapacity(subviews.count)
    // Subviews whose frame, bounds or outset is not a finite number: asked for every point.
    var unmeasured: [Int] = []
    for (position, subview) in subviews.enumerated() {
      let frame = subview.frame
      let bounds = subview.bounds
      // The outset is in the subview's own points: a zoomed subview's (``View/scale``) is scaled.
      let outset = subview.hitTestOutset * subview.scale
      let magnitude = abs(frame.minY) + abs(frame.height) + abs(bounds.minY) + abs(outset)
      guard magnitude.isFinite else {
        unmeasured.append(position)
        continue
      }
      // The walk compares the point converted into the subview ((y - frame.minY) / scale + bounds.minY)
      // with its bounds enlarged: rounded differently from the area's edges computed here. A
      // billionth of the magnitudes involved covers that rounding many times over (a Double
      // rounds each step by at most 2^-53 of its result), so no area is ever too small.
      let slack = 1e-9 * (magnitude + 1)
      let top = frame.minY - outset - slack
      let bottom = frame.minY + frame.height + outset + slack
      guard top <= bottom else { continue }  // an area that contains no point: never a candidate
      areas.append((top, bottom, position))
    }
    // Short areas: at most 4 times the median height. A list's rows all are, whatever their
    // number; a view as tall as the list is not, and is asked for every point instead.
    let heights = areas.map { $0.bottom - $0.top }.sorted()
    let limit = heights.isEmpty ? 0 : 4 * heights[heights.count / 2]
    let shortAreas = areas.filter { $0.bottom - $0.top <= limit }.sorted { $0.top < $1.top }
    short = shortAreas.map(\.position)
    tops = shortAreas.map(\.top)
    shortHeight = shortAreas.reduce(0) { max($0, $1.bottom - $1.top) }
    tall = areas.filter { $0.bottom - $0.top > limit }.map(\.position) + unmeasured
  }

  /// Asks `body` about the subviews whose areas may contain `y` (in the view's coordinates),
  /// front to back (highest z-order position first), until it answers; nil when none does. When
  /// more than ``maximumCandidates`` may contain it, returns `.tooMany` without asking.
  func firstAnswer(atY y: Double, _ body: (Int) -> View?) -> Answer {
    let slack = 1e-9 * (abs(y) + 1)
    let range = partition { tops[$0] >= y - shortHeight - slack }..<partition { tops[$0] > y + slack }
    guard range.count + tall.count <= Self.maximumCandidates else { return .tooMany }
    // Front to back without a buffer: each round takes the highest position below the last one.
    var below = Int.max
    while true {
      var next = -1
      for i in range where short[i] < below && short[i] > next { next = short[i] }
      for position in tall where position < below && position > next { next = position }
      guard next >= 0 else { return .answer(nil) }
      if let hit = body(next) { return .answer(hit) }
      below = next
    }
  }

  enum Answer {
    case answer(View?)
    case tooMany
  }

  /// The first position in ``tops`` for which `isAbove` holds (it holds for every later one).
  private func partition(_ isAbove: (Int) -> Bool) -> Int {
    var low = 0
    var high = tops.count
    while low < high {
      let middle = (low + high) / 2
      if isAbove(middle) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
