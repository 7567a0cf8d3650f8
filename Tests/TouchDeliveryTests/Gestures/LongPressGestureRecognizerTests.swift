import Testing

@testable import TouchDelivery

@Suite struct LongPressGestureRecognizerTests {
  let p = Point(x: 300, y: 200)

  @Test func beginsInsideTheTimerThenChangesAndEndsAtTheLift() {
    let f = Fingers()
    let press = f.add(LongPressGestureRecognizer(), "press")
    #expect(press.minimumPressDuration == 0.5 && press.allowableMovement == 10)
    f.down(1, p, at: 1)
    f.advance(to: 1.49)
    #expect(f.log.isEmpty)
    f.advance(to: 1.6)
    #expect(f.log == ["press:began"])
    #expect(f.time(of: "press:began") == 1.5)
    // After it began, movement of any size is a change.
    f.move(1, Point(x: 500, y: 400), at: 1.7)
    #expect(press.location(in: nil) == Point(x: 500, y: 400))
    f.up(1, at: 1.8)
    #expect(f.log == ["press:began", "press:changed", "press:ended"])
  }

  @Test func liftingBeforeTheDurationFails() {
    let f = Fingers()
    f.add(LongPressGestureRecognizer(), "press")
    f.down(1, p, at: 0)
    f.up(1, at: 0.49)
    f.advance(to: 1)
    #expect(f.log == ["press:failed"])
  }

  @Test(arguments: [(9.9, true), (10.1, false)])
  func movementBeforeBeginningAtTheAllowableEdge(distance: Double, began: Bool) {
    let f = Fingers()
    f.add(LongPressGestureRecognizer(), "press")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x, y: p.y - distance), at: 0.2)
    f.advance(to: 0.6)
    #expect(f.log == [began ? "press:began" : "press:failed"])
  }

  @Test func aCancelledTouchCancelsABegunPress() {
    let f = Fingers()
    f.add(LongPressGestureRecognizer(), "press")
    f.down(1, p, at: 0)
    f.advance(to: 0.6)
    f.cancel(1, at: 0.7)
    #expect(f.log == ["press:began", "press:cancelled"])
  }

  /// The kiosk admin gesture: five fingers held two seconds; the timer starts when the fifth lands.
  @Test func fiveFingersForTwoSeconds() {
    let f = Fingers()
    f.add(LongPressGestureRecognizer(minimumPressDuration: 2, numberOfTouchesRequired: 5), "admin")
    for i in 0..<5 { f.down(i, Point(x: 200 + Double(i) * 60, y: 300), at: Double(i) * 0.03) }
    f.move(2, Point(x: 324, y: 303), at: 0.5)
    f.advance(to: 2.11)
    #expect(f.log.isEmpty)
    f.advance(to: 2.2)
    #expect(f.log == ["admin:began"])
    #expect(f.time(of: "admin:began") == 2.12)
    f.up(0, at: 3)
    #expect(f.log == ["admin:began", "admin:ended"])
  }

  @Test func fourFingersOrASixthFingerDoNotMakeTheAdminGesture() {
    let f = Fingers()
    f.add(LongPressGestureRecognizer(minimumPressDuration: 2, numberOfTouchesRequired: 5), "admin")
    for i in 0..<4 { f.down(i, Point(x: 200 + Double(i) * 60, y: 300), at: 0) }
    f.advance(to: 3)
    #expect(f.log.isEmpty)
    for i in 0..<4 { f.up(i, at: 3.1) }
    #expect(f.log == ["admin:failed"])
    for i in 0..<6 { f.down(i, Point(x: 200 + Double(i) * 60, y: 300), at: 4 + Double(i) * 0.1) }
    f.advance(to: 7)
    #expect(f.log == ["admin:failed", "admin:failed"])
  }

  @Test func aTapThenAPress() {
    let f = Fingers()
    let press = f.add(LongPressGestureRecognizer(), "press")
    press.numberOfTapsRequired = 1
    f.tap(at: p, t: 0)
    f.down(1, p, at: 0.2)
    f.advance(to: 0.69)
    #expect(f.log.isEmpty)
    f.advance(to: 0.71)
    #expect(f.log == ["press:began"])
    f.up(1, at: 1)
    // A press without the preliminary tap is a tap held too long: it fails.
    f.down(1, p, at: 2)
    f.advance(to: 3)
    #expect(f.log == ["press:began", "press:ended", "press:failed"])
  }
}
