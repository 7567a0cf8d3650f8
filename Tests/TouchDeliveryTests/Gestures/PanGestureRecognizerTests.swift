import Testing

@testable import TouchDelivery

@Suite struct PanGestureRecognizerTests {
  let p = Point(x: 300, y: 300)

  /// The start distance is per axis (issue #15): 8 pt in x and y (11.3 pt diagonally) does not begin.
  @Test(arguments: [(9.9, 0.0, false), (10.1, 0.0, true), (0.0, -10.1, true), (8.0, 8.0, false)])
  func beginsPastTheStartDistance(dx: Double, dy: Double, began: Bool) {
    let f = Fingers()
    f.add(PanGestureRecognizer(), "pan")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + dx, y: p.y + dy), at: 0.05)
    #expect(f.log == (began ? ["pan:began"] : []))
    f.up(1, at: 0.1)
    #expect(f.log == (began ? ["pan:began", "pan:ended"] : ["pan:failed"]))
  }

  /// Apple, "Handling pan gestures": the translation is the distance from the initial point of
  /// contact, so at `.began` it already holds the 12 pt the finger moved.
  @Test func translationCountsFromTheInitialPointOfContact() {
    let f = Fingers()
    let pan = f.add(PanGestureRecognizer(), "pan")
    var translations: [Point] = []
    pan.addAction { _ in translations.append(pan.translation(in: f.view)) }
    f.down(1, p, at: 0)
    f.move(1, Point(x: 312, y: 300), at: 0.02)
    f.move(1, Point(x: 330, y: 310), at: 0.04)
    pan.setTranslation(Point(x: 100, y: 0), in: f.view)
    f.move(1, Point(x: 335, y: 310), at: 0.06)
    f.up(1, at: 0.08)
    #expect(translations == [Point(x: 12, y: 0), Point(x: 30, y: 10), Point(x: 105, y: 0), Point(x: 105, y: 0)])
    #expect(f.log == ["pan:began", "pan:changed", "pan:changed", "pan:ended"])
  }

  /// A finger panning at a constant 500 pt/s at 240 Hz with ±0.4 pt of jitter.
  @Test func velocityOfAJittered240HzPan() {
    let f = Fingers()
    let pan = f.add(PanGestureRecognizer(), "pan")
    var velocities: [Point] = []
    pan.addAction { _ in velocities.append(pan.velocity(in: f.view)) }
    f.drag(from: [p], by: Point(x: 250, y: 0), t0: 0, duration: 0.5, jitter: 0.4)
    #expect(f.log.last == "pan:ended")
    // Once 100 ms of samples exist, every estimate is within 2% of 500 pt/s.
    for v in velocities.dropFirst(30) {
      #expect(approx(v.x, 500, within: 10))
      #expect(abs(v.y) < 10)
    }
  }

  @Test func aFingerThatJoinsDoesNotJumpTheTranslation() {
    let f = Fingers()
    let pan = f.add(PanGestureRecognizer(), "pan")
    f.drag(from: [p], by: Point(x: 40, y: 0), t0: 0, duration: 0.1, lift: false)
    // 24 frames of 40/24 pt: the 7th (11.7 pt) passes the start distance; the translation counts
    // from the touch-down all the same.
    #expect(pan.state == .changed)
    #expect(approx(pan.translation(in: nil).x, 40, within: 1e-9))
    let before = pan.translation(in: nil)
    f.down(2, Point(x: 600, y: 300), at: 0.12)
    #expect(pan.translation(in: nil) == before)
    f.frame(at: 0.14, [.move(1, Point(x: 350, y: 300)), .move(2, Point(x: 610, y: 300))])
    #expect(approx(pan.translation(in: nil).x, before.x + 10, within: 1e-9))
    #expect(pan.numberOfTouches == 2)
  }

  @Test func theNumberOfTouchesMustBeWithinRange() {
    let f = Fingers()
    let pan = f.add(PanGestureRecognizer(), "two")
    pan.minimumNumberOfTouches = 2
    pan.maximumNumberOfTouches = 2
    // One finger never pans.
    f.drag(from: [p], by: Point(x: 100, y: 0), t0: 0, duration: 0.1)
    #expect(f.log == ["two:failed"])
    // Two fingers do; a third is ignored; lifting one (fewer than 2) does not end it: the pan
    // ends when all its touches have lifted (Apple: "ends when all fingers are lifted").
    f.drag([1, 2], from: [p, Point(x: 400, y: 300)], by: Point(x: 0, y: 60), t0: 1, duration: 0.1, lift: false)
    #expect(f.log.dropFirst().first == "two:began")
    f.down(3, Point(x: 500, y: 300), at: 1.15)
    #expect(pan.numberOfTouches == 2)
    f.up(2, at: 1.2)
    f.move(1, Point(x: p.x, y: p.y + 80), at: 1.25)
    #expect(f.log.last == "two:changed")
    f.up(1, at: 1.3)
    #expect(f.log.last == "two:ended")
  }

  @Test func aCancelledTouchCancelsTheStartedPan() {
    let f = Fingers()
    f.add(PanGestureRecognizer(), "pan")
    f.drag(from: [p], by: Point(x: 50, y: 0), t0: 0, duration: 0.1, lift: false)
    f.cancel(1, at: 0.2)
    #expect(f.log.first == "pan:began")
    #expect(f.log.last == "pan:cancelled")
  }

  @Test func restingBeforeTheLiftGivesZeroVelocity() {
    let f = Fingers()
    let pan = f.add(PanGestureRecognizer(), "pan")
    var last = Point(x: 1, y: 1)
    pan.addAction { r in if r.state == .ended { last = pan.velocity(in: nil) } }
    f.drag(from: [p], by: Point(x: 100, y: 0), t0: 0, duration: 0.2, lift: false)
    f.up(1, at: 0.5)
    #expect(last == .zero)
  }
}
