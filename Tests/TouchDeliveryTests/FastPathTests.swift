import Testing
import TouchdInput

@testable import TouchDelivery

/// The allocation-free paths (docs/performance.md) against the straightforward code they replaced.
@Suite("Fast paths match the reference")
struct FastPathTests {
  /// The least-squares fit as it was written first: collect the samples used, then fit.
  static func referenceVelocity(_ samples: [(time: Double, value: Point)], horizon: Double, stopGap: Double) -> Point {
    guard let newest = samples.last else { return .zero }
    var used: [(t: Double, v: Point)] = []
    var newer = newest.time
    for s in samples.reversed() {
      if newest.time - s.time > horizon || newer - s.time > stopGap { break }
      used.append((s.time - newest.time, s.value))
      newer = s.time
    }
    guard used.count >= 2 else { return .zero }
    let n = Double(used.count)
    var (mt, mx, my) = (0.0, 0.0, 0.0)
    for u in used {
      mt += u.t
      mx += u.v.x
      my += u.v.y
    }
    mt /= n
    mx /= n
    my /= n
    var (stt, stx, sty) = (0.0, 0.0, 0.0)
    for u in used {
      let dt = u.t - mt
      stt += dt * dt
      stx += dt * (u.v.x - mx)
      sty += dt * (u.v.y - my)
    }
    guard stt > 0 else { return .zero }
    return Point(x: stx / stt, y: sty / stt)
  }

  @Test("the velocity is bit for bit the reference fit, with gaps and irregular samples")
  func velocityMatchesReference() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      var tracker = VelocityTracker()
      var samples: [(time: Double, value: Point)] = []
      var time = Double.random(in: 0...100, using: &generator)
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        time += Bool.random(using: &generator) ? 1.0 / 120 : Double.random(in: 0...0.08, using: &generator)
        let value = Point(
          x: Double.random(in: -500...500, using: &generator), y: Double.random(in: -500...500, using: &generator))
        tracker.add(time: time, value: value)
        if let last = samples.last, last.time == time {
          samples[samples.count - 1].value = value
        } else {
          samples.append((time, value))
        }
        if samples.count > tracker.history { samples.removeFirst(samples.count - tracker.history) }
        let expected = Self.referenceVelocity(samples, horizon: tracker.horizon, stopGap: tracker.stopGap)
        #expect(tracker.velocity == expected)
      }
    }
  }

  /// Hit-testing as it was written first: each subview gets `convert(point, from: self)`.
  static func referenceHitTest(_ view: View, _ point: Point) -> View? {
    guard !view.isHidden, view.isUserInteractionEnabled, view.alpha > 0.01 else { return nil }
    guard view.point(inside: point, with: nil) else { return nil }
    for subview in view.subviews.reversed() {
      if let hit = referenceHitTest(subview, subview.convert(point, from: view)) { return hit }
    }
    return view
  }

  @Test("hit-testing a deep tree with offsets and scrolled bounds finds what the reference finds")
  func hitTestMatchesReference() {
    var generator = SystemRandomNumberGenerator()
    let window = Window(frame: Rect(x: 0, y: 0, width: 1920, height: 1080))
    var level: [View] = [window]
    for depth in 0..<6 {
      var next: [View] = []
      for parent in level {
        for _ in 0..<(depth < 3 ? 3 : 2) {
          let w = parent.bounds.width * Double.random(in: 0.3...0.7, using: &generator)
          let h = parent.bounds.height * Double.random(in: 0.3...0.7, using: &generator)
          let child = View(
            frame: Rect(
              x: Double.random(in: 0...(parent.bounds.width - w), using: &generator) + 0.1,
              y: Double.random(in: 0...(parent.bounds.height - h), using: &generator) + 0.3, width: w, height: h))
          if Bool.random(using: &generator) { child.bounds.origin = Point(x: 0.7, y: -1.1) }
          child.isHidden = Int.random(in: 0..<10, using: &generator) == 0
          parent.addSubview(child)
          next.append(child)
        }
      }
      level = next
    }
    for _ in 0..<5000 {
      let p = Point(
        x: Double.random(in: 0..<1920, using: &generator), y: Double.random(in: 0..<1080, using: &generator))
      #expect(window.hitTest(p, with: nil) === Self.referenceHitTest(window, p))
    }
    // Converting from the window applies each level's offset from the top down, exactly as the
    // chain-collecting version did.
    for view in level.prefix(50) {
      let p = Point(x: 3.25, y: 7.5)
      var chain: [View] = []
      var v: View = view
      while let parent = v.superview {
        chain.append(v)
        v = parent
      }
      var expected = p
      for step in chain.reversed() {
        expected = Point(
          x: expected.x - step.frame.minX + step.bounds.minX, y: expected.y - step.frame.minY + step.bounds.minY)
      }
      #expect(view.convert(p, from: nil) == expected)
    }
  }
}

/// The arbiter's working arrays (``ArrayPool``): storage comes back for the next borrower, and
/// nested borrowers never share an array.
@Suite("Array pool")
struct ArrayPoolTests {
  final class Token {}

  @Test("a given-back array is lent again empty with its capacity, and releases its elements")
  func reuse() {
    var pool = ArrayPool<Token>()
    var first = pool.borrow()
    #expect(first.capacity == 0, "an empty pool lends a new array")
    weak var released: Token?
    do {
      let token = Token()
      released = token
      for _ in 0..<32 { first.append(token) }
    }
    let capacity = first.capacity
    pool.giveBack(&first)
    #expect(first.isEmpty && first.capacity == 0, "the lender's variable no longer holds the storage")
    #expect(released == nil, "the pool keeps no element alive")
    let again = pool.borrow()
    #expect(again.isEmpty)
    #expect(again.capacity == capacity)
  }

  @Test("nested borrowers get distinct arrays; each goes back")
  func nested() {
    var pool = ArrayPool<Int>()
    var outer = pool.borrow()
    outer.append(contentsOf: 0..<100)
    var inner = pool.borrow()
    inner.append(7)
    #expect(outer.count == 100 && inner == [7])
    pool.giveBack(&inner)
    pool.giveBack(&outer)
    let a = pool.borrow()
    let b = pool.borrow()
    #expect(a.capacity >= 100, "the last given back is lent first")
    #expect(b.capacity >= 1)
    #expect(pool.borrow().capacity == 0, "two were given back, the third is new")
  }
}
