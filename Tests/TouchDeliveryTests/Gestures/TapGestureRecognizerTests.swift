import Testing

@testable import TouchDelivery

@Suite struct TapGestureRecognizerTests {
  let p = Point(x: 300, y: 200)

  /// UITapGestureRecognizer.h: "location of the tap": where the tap touched down, not where it lifted.
  @Test func aSingleTapIsRecognizedAtTheLiftWithItsTouchDownLocation() {
    let f = Fingers()
    let tap = f.add(TapGestureRecognizer(), "tap")
    var location = Point.zero
    tap.addAction { r in location = r.location(in: f.view) }
    f.down(1, p, at: 1)
    #expect(f.log.isEmpty)
    f.move(1, Point(x: 303, y: 204), at: 1.05)
    f.up(1, at: 1.08)
    #expect(f.log == ["tap:ended"])
    #expect(f.time(of: "tap:ended") == 1.08)
    #expect(location == p)
  }

  /// UIKit's tap allows 45 pt (it was 10 before issue #15).
  @Test(arguments: [(44.9, true), (45.1, false)])
  func movementAtTheAllowableEdge(distance: Double, recognized: Bool) {
    let f = Fingers()
    f.add(TapGestureRecognizer(), "tap")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + distance, y: p.y), at: 0.03)
    f.move(1, p, at: 0.05)
    f.up(1, at: 0.07)
    #expect(f.log == [recognized ? "tap:ended" : "tap:failed"])
  }

  @Test(arguments: [(0.74, true), (0.76, false)])
  func holdingAtTheMaximumDuration(held: Double, recognized: Bool) {
    let f = Fingers()
    f.add(TapGestureRecognizer(), "tap")
    f.down(1, p, at: 0)
    f.up(1, at: held)
    #expect(f.log == [recognized ? "tap:ended" : "tap:failed"])
    if !recognized { #expect(f.time(of: "tap:failed") == 0.75) }
  }

  @Test func aDoubleTapRecognizesAtTheSecondLiftNotBefore() {
    let f = Fingers()
    f.add(TapGestureRecognizer(numberOfTapsRequired: 2), "double")
    f.tap(at: p, t: 0)
    f.advance(to: 0.3)
    #expect(f.log.isEmpty)
    f.down(1, Point(x: 310, y: 205), at: 0.3)
    #expect(f.log.isEmpty)
    f.up(1, at: 0.36)
    #expect(f.log == ["double:ended"])
  }

  /// The interval runs from the first lift (0.06) to the second touch-down.
  @Test(arguments: [(0.34, true), (0.36, false)])
  func theIntervalBetweenTapsAtItsEdge(gap: Double, recognized: Bool) {
    let f = Fingers()
    f.add(TapGestureRecognizer(numberOfTapsRequired: 2), "double")
    f.tap(at: p, t: 0)
    f.tap(at: p, t: 0.06 + gap)
    if recognized {
      #expect(f.log == ["double:ended"])
    } else {
      // The timer fails it at 0.41; the late tap starts a new attempt that never completes.
      #expect(f.log == ["double:failed"])
      #expect(f.time(of: "double:failed") == 0.41)
    }
  }

  /// A later tap's centroid is held to allowableMovement (45 pt) from the first tap's.
  @Test(arguments: [(44.0, true), (46.0, false)])
  func theDistanceBetweenTapsAtItsEdge(distance: Double, recognized: Bool) {
    let f = Fingers()
    f.add(TapGestureRecognizer(numberOfTapsRequired: 2), "double")
    f.tap(at: p, t: 0)
    f.tap(at: Point(x: p.x, y: p.y + distance), t: 0.2)
    #expect(f.log.first == (recognized ? "double:ended" : "double:failed"))
  }

  @Test func aTwoFingerTapReportsTheCentroidAndNeedsBothFingers() {
    let f = Fingers()
    let tap = f.add(TapGestureRecognizer(numberOfTapsRequired: 1, numberOfTouchesRequired: 2), "two")
    var location = Point.zero
    tap.addAction { r in location = r.location(in: nil) }
    // Fingers land and lift a few frames apart.
    f.down(1, Point(x: 100, y: 100), at: 0)
    f.down(2, Point(x: 160, y: 120), at: 0.02)
    f.up(1, at: 0.08)
    #expect(f.log.isEmpty)
    f.up(2, at: 0.1)
    #expect(f.log == ["two:ended"])
    #expect(location == Point(x: 130, y: 110))

    // One finger only: fails at its lift.
    f.tap(at: p, t: 1)
    #expect(f.log.last == "two:failed")
    // Three fingers: fails when the third lands.
    f.tap(at: p, t: 2, fingers: 3)
    #expect(f.log.last == "two:failed")
    #expect(f.log.filter { $0 == "two:ended" }.count == 1)
  }

  @Test func aCancelledTouchFailsTheTap() {
    let f = Fingers()
    f.add(TapGestureRecognizer(), "tap")
    f.down(1, p, at: 0)
    f.cancel(1, at: 0.05)
    #expect(f.log == ["tap:failed"])
  }

  @Test func everyParameterIsConfigurable() {
    let f = Fingers()
    let tap = f.add(TapGestureRecognizer(numberOfTapsRequired: 3), "triple")
    // Each later tap lands 40 pt farther and slides 15 pt: the third ends 95 pt from the first,
    // beyond the default 45 but within 100.
    tap.allowableMovement = 100
    tap.maximumIntervalBetweenTaps = 0.6
    tap.maximumTapDuration = 1
    for (i, t) in [0.0, 0.6, 1.2].enumerated() {
      f.down(1, Point(x: p.x + Double(i) * 40, y: p.y), at: t)
      f.move(1, Point(x: p.x + Double(i) * 40 + 15, y: p.y), at: t + 0.03)
      f.up(1, at: t + 0.05)
    }
    #expect(f.log == ["triple:ended"])

    let two = f.add(TapGestureRecognizer(numberOfTapsRequired: 1, numberOfTouchesRequired: 2), "two")
    two.allowableTouchTimeSeparation = 0.5
    f.down(1, p, at: 3)
    f.down(2, Point(x: p.x + 60, y: p.y), at: 3.4)
    f.up(1, at: 3.45)
    f.up(2, at: 3.46)
    #expect(f.log.last == "two:ended")
  }
}
