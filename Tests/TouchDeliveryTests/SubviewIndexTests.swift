import Testing
import TouchdInput

@testable import TouchDelivery

/// A view that counts the times it is asked whether a point is inside it.
private final class CountingView: View {
  var asked = 0
  override func point(inside point: Point, with event: TouchEvent?) -> Bool {
    asked += 1
    return super.point(inside: point, with: event)
  }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// seeded, so a failing scene can be made again from the seed the test prints.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Hit-testing a view with many subviews through ``SubviewIndex`` (issue #43, lists of thousands
/// of rows): the same view as a plain walk of every subview (``walk(_:_:)``, the test's own), for
/// every UIKit rule the walk follows, before and after the subviews change.
@Suite("Subview index")
struct SubviewIndexTests {
  /// UIView's `hitTest(_:with:)` as its documentation gives it, every subview asked, last first:
  /// nil when hidden, not interactive, alpha at most 0.01, or the point is outside. Each level
  /// converts the point as `View` does (minus the frame's origin, divided by the view's zoom
  /// ``View/scale``, plus the bounds'), so that points a billionth of a point from an edge fall the
  /// same way.
  static func walk(_ view: View, _ point: Point) -> View? {
    guard !view.isHidden, view.isUserInteractionEnabled, view.alpha > 0.01 else { return nil }
    guard view.point(inside: point, with: nil) else { return nil }
    for subview in view.subviews.reversed() {
      let converted = Point(
        x: (point.x - subview.frame.minX) / subview.scale + subview.bounds.minX,
        y: (point.y - subview.frame.minY) / subview.scale + subview.bounds.minY)
      if let hit = walk(subview, converted) { return hit }
    }
    return view
  }

  /// A window with a scroll view of `rows` rows (a list: stacked rows with random heights and
  /// gaps, some overlapping, a few as tall as the list, some with an outset, hidden, transparent
  /// or not interactive, some with children outside their bounds, clipping or not), scrolled.
  static func randomList(rows: Int, using g: inout SeededGenerator) -> (Window, ScrollView) {
    let window = Window(frame: Rect(x: 0, y: 0, width: 800, height: 1000))
    let list = ScrollView(frame: Rect(x: 40, y: 20, width: 600, height: 900))
    window.addSubview(list)
    var y = Double.random(in: -50...50, using: &g)
    for i in 0..<rows {
      let height = [44.0, 88, 88, 88, 120, 0, -10].randomElement(using: &g)!
      var frame = Rect(
        x: Double.random(in: -20...40, using: &g), y: y, width: Double.random(in: 100...650, using: &g),
        height: height)
      if Int.random(in: 0..<40, using: &g) == 0 {
        frame = Rect(x: 0, y: Double.random(in: -100...100, using: &g), width: 600, height: Double(rows) * 90)
      }
      if Int.random(in: 0..<200, using: &g) == 0 { frame.origin.y = .nan }
      let row = View(frame: frame)
      row.identifier = "row\(i)"
      switch Int.random(in: 0..<12, using: &g) {
      case 0: row.isHidden = true
      case 1: row.alpha = [0, 0.01, 0.011].randomElement(using: &g)!
      case 2: row.isUserInteractionEnabled = false
      case 3, 4: row.hitTestOutset = Double.random(in: -10...30, using: &g)
      default: break
      }
      if Int.random(in: 0..<4, using: &g) == 0 {
        row.bounds.origin = Point(x: 0, y: Double.random(in: -30...30, using: &g))
      }
      // A zoomed row (its outset and children scale with it).
      if Int.random(in: 0..<10, using: &g) == 0 { row.scale = [0.5, 2, 2.5].randomElement(using: &g)! }
      if Int.random(in: 0..<3, using: &g) == 0 {
        // A child that pokes out of the row (below it, or into the next row).
        let child = View(
          frame: Rect(
            x: Double.random(in: 0...80, using: &g), y: Double.random(in: -20...100, using: &g), width: 60,
            height: Double.random(in: 10...60, using: &g)))
        child.identifier = "row\(i).child"
        row.clipsToBounds = Bool.random(using: &g)
        row.addSubview(child)
      }
      list.addSubview(row)
      // Mostly stacked, sometimes overlapping the previous row, sometimes with a gap.
      y += max(height, 0) + [0.0, 0, 0, 4, -30, 0.5].randomElement(using: &g)!
    }
    list.contentSize = Size(width: 600, height: y)
    list.bounds.origin = Point(
      x: Double.random(in: -10...10, using: &g), y: Double.random(in: 0...max(0, y - 900), using: &g))
    return (window, list)
  }

  /// Points over the list, a third of them on or next to a row's edges.
  static func points(in window: Window, list: ScrollView, count: Int, using g: inout SeededGenerator) -> [Point] {
    (0..<count).map { _ in
      var p = Point(x: Double.random(in: 0..<800, using: &g), y: Double.random(in: 0..<1000, using: &g))
      if Int.random(in: 0..<3, using: &g) == 0, let row = list.subviews.randomElement(using: &g),
        row.frame.minY.isFinite
      {
        let outset = row.hitTestOutset * row.scale
        let edge = Bool.random(using: &g) ? row.frame.minY - outset : row.frame.maxY + outset
        let nudge = [0.0, -1e-9, 1e-9, -0.5, 0.5].randomElement(using: &g)!
        p.y = list.convert(Point(x: 0, y: edge + nudge), to: nil).y
      }
      return p
    }
  }

  static func expectSameAsWalk(_ window: Window, _ points: [Point], seed: UInt64) {
    for p in points {
      let indexed = window.hitTest(p, with: nil)
      let walked = Self.walk(window, p)
      #expect(
        indexed === walked,
        "seed \(seed), point \(p): index \(indexed?.identifier ?? "nil"), walk \(walked?.identifier ?? "nil")")
    }
  }

  @Test("random lists: the indexed hit-test finds what the walk finds", arguments: 0..<40)
  func randomListsMatchTheWalk(seed: UInt64) {
    var g = SeededGenerator(state: seed)
    let (window, list) = Self.randomList(rows: Int.random(in: 32...400, using: &g), using: &g)
    Self.expectSameAsWalk(window, Self.points(in: window, list: list, count: 400, using: &g), seed: seed)
  }

  @Test("after rows move, resize, grow their outsets, zoom, come and go, the index follows", arguments: 0..<20)
  func changesAreFollowed(seed: UInt64) {
    var g = SeededGenerator(state: 1000 + seed)
    let (window, list) = Self.randomList(rows: Int.random(in: 40...200, using: &g), using: &g)
    // Built by the first hit-tests, then changed in each way in turn.
    Self.expectSameAsWalk(window, Self.points(in: window, list: list, count: 50, using: &g), seed: seed)
    for change in 0..<7 {
      let row = list.subviews.randomElement(using: &g)!
      switch change {
      case 0: row.frame.origin.y += Double.random(in: -400...400, using: &g)
      case 1: row.frame.size.height = Double.random(in: 0...300, using: &g)
      case 2: row.hitTestOutset = Double.random(in: 0...60, using: &g)
      case 3: row.removeFromSuperview()
      case 6: row.scale = row.scale == 1 ? 3 : 1
      case 4:
        let added = View(
          frame: Rect(x: 0, y: Double.random(in: 0...list.contentSize.height, using: &g), width: 600, height: 70))
        added.identifier = "added"
        list.insertSubview(added, at: Int.random(in: 0...list.subviews.count, using: &g))
      default: row.bounds.size.height += 50
      }
      Self.expectSameAsWalk(window, Self.points(in: window, list: list, count: 100, using: &g), seed: seed)
    }
  }

  @Test("a tap on row 500 of 1,000 asks that row alone whether the point is inside")
  func onlyNearbyRowsAreAsked() {
    let window = Window(frame: Rect(x: 0, y: 0, width: 800, height: 1080))
    let list = ScrollView(frame: Rect(x: 0, y: 0, width: 800, height: 1080))
    window.addSubview(list)
    let rows = (0..<1000).map { i in CountingView(frame: Rect(x: 0, y: Double(i) * 88, width: 800, height: 88)) }
    for row in rows { list.addSubview(row) }
    list.contentSize = Size(width: 800, height: 88_000)
    list.bounds.origin = Point(x: 0, y: 500 * 88 - 500)
    // Window y 544 is content y 500 * 88 + 44, the middle of row 500.
    #expect(window.hitTest(Point(x: 100, y: 544), with: nil) === rows[500])
    // Row 500 answers first (it is in front of row 499); the walk asks rows 999 down to 500.
    #expect(rows.map(\.asked).reduce(0, +) == 1)
    #expect(rows[500].asked == 1)
    // Scrolling keeps the index: row 510 is asked once more, and no other.
    list.bounds.origin.y += 10 * 88
    #expect(window.hitTest(Point(x: 100, y: 544), with: nil) === rows[510])
    #expect(rows.map(\.asked).reduce(0, +) == 2)
    #expect(rows[510].asked == 1)
  }
}
