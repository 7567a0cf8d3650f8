import Testing

@testable import TouchDelivery

@Suite struct SwipeGestureRecognizerTests {
  let p = Point(x: 300, y: 300)

  @Test func aQuickRightSwipeIsRecognizedMidMovement() {
    let f = Fingers()
    let swipe = f.add(SwipeGestureRecognizer(), "swipe")
    #expect(swipe.direction == .right)
    f.drag(from: [p], by: Point(x: 120, y: 10), t0: 0, duration: 0.12, lift: false)
    #expect(f.log == ["swipe:ended"])
    // 50 pt of 120 along x is reached at 5/12 of the movement.
    #expect(approx(f.time(of: "swipe:ended") ?? 0, 0.05, within: 1 / 240.0))
    #expect(swipe.recognizedDirection == .right)
  }

  @Test(arguments: [(49.0, false), (51.0, true)])
  func theMinimumDistanceAtItsEdge(distance: Double, recognized: Bool) {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(), "swipe")
    f.drag(from: [p], by: Point(x: distance, y: 0), t0: 0, duration: 0.1)
    #expect(f.log == [recognized ? "swipe:ended" : "swipe:failed"])
  }

  @Test(arguments: [(29.0, true), (31.0, false)])
  func theDirectionToleranceAtItsEdge(degrees: Double, recognized: Bool) {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(direction: .up), "up")
    let (s, c) = GestureMath.sinCos(degrees * Double.pi / 180)
    // 80 pt at `degrees` off straight up (toward the right).
    f.drag(from: [p], by: Point(x: 80 * s, y: -80 * c), t0: 0, duration: 0.1)
    #expect(f.log == [recognized ? "up:ended" : "up:failed"])
  }

  /// 50 pt must come at 200 pt/s on average: 0.24 s is fast enough, 0.26 s is not.
  @Test(arguments: [(0.24, true), (0.26, false)])
  func theMinimumSpeedAtItsEdge(duration: Double, recognized: Bool) {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(), "swipe")
    f.drag(from: [p], by: Point(x: 50.5, y: 0), t0: 0, duration: duration)
    #expect(f.log == [recognized ? "swipe:ended" : "swipe:failed"])
  }

  @Test func failsAtTheMaximumDurationAndInTheWrongDirection() {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.advance(to: 0.6)
    #expect(f.log == ["swipe:failed"])
    #expect(f.time(of: "swipe:failed") == 0.5)
    f.up(1, at: 0.7)
    f.drag(from: [p], by: Point(x: -100, y: 0), t0: 1, duration: 0.1)
    #expect(f.log == ["swipe:failed", "swipe:failed"])
  }

  @Test func aThreeFingerSwipeLeftAndItsFailures() {
    let f = Fingers()
    let swipe = f.add(SwipeGestureRecognizer(direction: [.left, .right], numberOfTouchesRequired: 3), "three")
    let starts = [Point(x: 500, y: 300), Point(x: 540, y: 320), Point(x: 580, y: 300)]
    f.drag([1, 2, 3], from: starts, by: Point(x: -100, y: 0), t0: 0, duration: 0.1)
    #expect(f.log == ["three:ended"])
    #expect(swipe.recognizedDirection == .left)
    // Two fingers are not enough.
    f.drag([1, 2], from: Array(starts.prefix(2)), by: Point(x: -100, y: 0), t0: 1, duration: 0.1)
    #expect(f.log.last == "three:failed")
    // Four are too many.
    f.drag([1, 2, 3, 4], from: starts + [Point(x: 620, y: 300)], by: Point(x: -100, y: 0), t0: 2, duration: 0.1)
    #expect(f.log.last == "three:failed")
    #expect(f.log.filter { $0 == "three:ended" }.count == 1)
  }
}
