import Testing

@testable import TouchDelivery

@Suite struct SwipeGestureRecognizerTests {
  let p = Point(x: 300, y: 300)

  /// The recognizer's trace causes of transitions to `.ended` and `.failed`, in order.
  func traceCauses(_ f: Fingers) -> () -> [String] {
    final class Box { var causes: [String] = [] }
    let box = Box()
    f.app.tracer = { event in
      if case .recognizer(_, _, let to, let cause) = event, to == .ended || to == .failed {
        box.causes.append("\(to): \(cause)")
      }
    }
    return { box.causes }
  }

  @Test func aQuickRightSwipeIsRecognizedMidMovement() {
    let f = Fingers()
    let swipe = f.add(SwipeGestureRecognizer(), "swipe")
    #expect(swipe.direction == .right)
    f.drag(from: [p], by: Point(x: 120, y: 10), t0: 0, duration: 0.12, lift: false)
    #expect(f.log == ["swipe:ended"])
    // 1000 pt/s along x meets 50·(1 − 0.94 t) at t = 50/1047 ≈ 0.048; the drag has 29 frames of
    // 0.12/29 s, and the 12th (49.7 pt at 0.0497 s ≥ 47.7 needed) is the first past it.
    #expect(approx(f.time(of: "swipe:ended") ?? 0, 0.12 * 12 / 29, within: 1e-6))
    #expect(swipe.recognizedDirection == .right)
  }

  @Test func theThresholdsDecayLinearlyFromFiftyPoints() {
    let swipe = SwipeGestureRecognizer()
    #expect(swipe.minimumPrimaryMovement == 50)
    #expect(swipe.maximumSecondaryMovement == 50)
    #expect(swipe.rateOfMinimumMovementDecay == 0.94)
    #expect(swipe.rateOfMaximumMovementDecay == 0.98)
    #expect(swipe.maximumDuration == 0.5)
    #expect(approx(swipe.requiredPrimaryMovement(at: 0), 50, within: 1e-9))
    #expect(approx(swipe.requiredPrimaryMovement(at: 0.1), 45.3, within: 1e-9))
    #expect(approx(swipe.requiredPrimaryMovement(at: 0.5), 26.5, within: 1e-9))
    #expect(approx(swipe.allowedSecondaryMovement(at: 0.1), 45.1, within: 1e-9))
    #expect(approx(swipe.allowedSecondaryMovement(at: 0.5), 25.5, within: 1e-9))
    // Never negative, whatever the duration is set to.
    #expect(swipe.requiredPrimaryMovement(at: 2) == 0)
    #expect(swipe.allowedSecondaryMovement(at: 2) == 0)
  }

  /// One jump of `distance` pt to the right `t` s after touch-down: at 0.1 s 45.3 pt are needed,
  /// at 0.4 s 31.2 pt. Short of it the swipe stays possible (no failure, no recognition).
  @Test(arguments: [(0.1, 46.0, true), (0.1, 44.0, false), (0.4, 32.0, true), (0.4, 30.0, false)])
  func theMinimumPrimaryMovementAtItsEdge(t: Double, distance: Double, recognized: Bool) {
    let f = Fingers()
    let swipe = f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + distance, y: p.y), at: t)
    #expect(f.log == (recognized ? ["swipe:ended"] : []))
    #expect(swipe.state == (recognized ? .ended : .possible))
  }

  @Test func aFingerRestingShortOfTheDistanceIsRecognizedAtItsNextMovementOnceTheRequirementDecayed() {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + 44, y: p.y), at: 0.1)  // needs 45.3
    #expect(f.log == [])
    f.move(1, Point(x: p.x + 44.5, y: p.y), at: 0.2)  // needs 40.6
    #expect(f.log == ["swipe:ended"])
    #expect(f.time(of: "swipe:ended") == 0.2)
  }

  /// `sideways` pt up while 30 pt right, `t` s after touch-down: 45.1 pt are allowed at 0.1 s,
  /// 35.3 at 0.3 s, 30.4 at 0.4 s.
  @Test(arguments: [(0.1, 45.0, false), (0.1, 46.0, true), (0.3, 32.0, false), (0.4, 32.0, true)])
  func theMaximumSecondaryMovementAtItsEdge(t: Double, sideways: Double, fails: Bool) {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + 30, y: p.y - sideways), at: t)
    #expect(f.log == (fails ? ["swipe:failed"] : []))
  }

  @Test func theSidewaysAllowanceShrinksWhileAFingerStaysPut() {
    let f = Fingers()
    let causes = traceCauses(f)
    f.add(SwipeGestureRecognizer(direction: .right, numberOfTouchesRequired: 2), "two")
    f.frame(at: 0, [.down(1, p), .down(2, Point(x: 300, y: 400))])
    f.move(1, Point(x: 310, y: 332), at: 0.3)  // 32 pt sideways; 35.3 allowed
    #expect(f.log == [])
    f.move(2, Point(x: 310, y: 400), at: 0.4)  // finger 1 has not moved, but only 30.4 are allowed now
    #expect(f.log == ["two:failed"])
    #expect(causes() == ["failed: moved 32 pt sideways > 30.4 allowed at t=0.4 s"])
  }

  @Test func aSlowSwipeIsRecognizedThereIsNoSpeedRule() {
    let f = Fingers()
    let causes = traceCauses(f)
    let swipe = f.add(SwipeGestureRecognizer(), "swipe")
    // 30 pt in 0.45 s (67 pt/s): needs 28.85 pt at 0.45 s; reached at the frame at 106/240 s.
    f.drag(from: [p], by: Point(x: 30, y: 0), t0: 0, duration: 0.45)
    #expect(f.log == ["swipe:ended"])
    #expect(approx(f.time(of: "swipe:ended") ?? 0, 106 / 240.0, within: 1e-6))
    #expect(swipe.recognizedDirection == .right)
    #expect(causes() == ["ended: moved 29.4 pt right >= 29.2 needed at t=0.44 s (sideways <= 28.4)"])
  }

  @Test func theMaximumDurationRunsFromTheFirstTouchDown() {
    let f = Fingers()
    let causes = traceCauses(f)
    f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + 27, y: p.y), at: 0.49)  // needs 26.97
    #expect(f.log == ["swipe:ended"])
    f.up(1, at: 0.55)
    f.down(1, p, at: 1)
    f.move(1, Point(x: p.x + 40, y: p.y), at: 1.51)
    #expect(f.log == ["swipe:ended", "swipe:failed"])
    #expect(f.time(of: "swipe:failed") == 1.5)
    #expect(causes().last == "failed: not recognized within maximumDuration 0.5 s")
  }

  @Test func tCountsFromTheFirstTouchDownNotFromWhenAllFingersAreDown() {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(direction: .right, numberOfTouchesRequired: 2), "two")
    f.down(1, p, at: 0)
    f.down(2, Point(x: 300, y: 340), at: 0.3)
    // At t = 0.45 s 28.85 pt are needed; measured from the second finger (0.15 s) it would be 42.95.
    f.frame(at: 0.45, [.move(1, Point(x: 330, y: 300)), .move(2, Point(x: 330, y: 340))])
    #expect(f.log == ["two:ended"])
  }

  @Test func failsAtTheMaximumDurationAndInTheWrongDirection() {
    let f = Fingers()
    let causes = traceCauses(f)
    f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.advance(to: 0.6)
    #expect(f.log == ["swipe:failed"])
    #expect(f.time(of: "swipe:failed") == 0.5)
    f.up(1, at: 0.7)
    f.drag(from: [p], by: Point(x: -100, y: 0), t0: 1, duration: 0.1)
    #expect(f.log == ["swipe:failed", "swipe:failed"])
    // 100 pt in 24 frames of 4.2 pt: the second frame, 8.3 pt back, is the first past the 5 pt tolerance.
    #expect(f.logTimes.last.map { approx($0, 1 + 2 / 240.0, within: 1e-6) } == true)
    #expect(causes().last == "failed: moved 8.3 pt backwards > 5 tolerated at t=0.01 s")
  }

  /// A right swipe that goes 30 pt and comes back `back` pt: 4 pt is jitter, 6 pt fails it.
  @Test(arguments: [(4.0, false), (6.0, true)])
  func movingBackwardsBeyondTheToleranceFails(back: Double, fails: Bool) {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + 30, y: p.y), at: 0.05)
    f.move(1, Point(x: p.x + 30 - back, y: p.y), at: 0.08)
    #expect(f.log == (fails ? ["swipe:failed"] : []))
    f.move(1, Point(x: p.x + 60, y: p.y), at: 0.12)
    #expect(f.log == [fails ? "swipe:failed" : "swipe:ended"])
  }

  @Test func aJitteryPanelDoesNotFailARealSwipe() {
    let f = Fingers()
    let swipe = f.add(SwipeGestureRecognizer(direction: .left), "left")
    // ±1 pt on both axes every 1/240 s: samples go up to 2 pt against the movement.
    f.drag(from: [p], by: Point(x: -80, y: 0), t0: 0, duration: 0.2, jitter: 1)
    #expect(f.log == ["left:ended"])
    #expect(swipe.recognizedDirection == .left)
  }

  @Test func withSeveralDirectionsTheOneTheTouchesMoveAlongIsRecognized() {
    for (delta, expected) in [
      (Point(x: 0, y: -70), SwipeGestureRecognizer.Direction.up), (Point(x: 70, y: 5), .right),
    ] {
      let f = Fingers()
      let swipe = f.add(SwipeGestureRecognizer(direction: [.right, .up]), "swipe")
      f.drag(from: [p], by: delta, t0: 0, duration: 0.1)
      #expect(f.log == ["swipe:ended"])
      #expect(swipe.recognizedDirection == expected)
    }
    // Against both allowed directions (down-left): both are ruled out and the swipe fails.
    let f = Fingers()
    let causes = traceCauses(f)
    f.add(SwipeGestureRecognizer(direction: [.right, .up]), "swipe")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x - 6, y: p.y + 6), at: 0.05)
    #expect(f.log == ["swipe:failed"])
    #expect(
      causes() == [
        "failed: right: moved 6 pt backwards > 5 tolerated at t=0.05 s; up: moved 6 pt backwards > 5 tolerated at t=0.05 s"
      ])
  }

  @Test func everyTouchMustQualifyOnItsOwnALaggingFingerWaits() {
    let f = Fingers()
    let swipe = f.add(SwipeGestureRecognizer(direction: .right, numberOfTouchesRequired: 2), "two")
    f.frame(at: 0, [.down(1, Point(x: 300, y: 300)), .down(2, Point(x: 300, y: 360))])
    // Finger 1 100 pt, finger 2 20 pt: their centroid moved 60 pt, but finger 2 needs 45.3.
    f.frame(at: 0.1, [.move(1, Point(x: 400, y: 300)), .move(2, Point(x: 320, y: 360))])
    #expect(f.log == [])
    f.move(2, Point(x: 345, y: 360), at: 0.15)  // needs 42.95: 45 is enough
    #expect(f.log == ["two:ended"])
    #expect(swipe.numberOfTouches == 2)
  }

  @Test func aFingerThatNeverCatchesUpFailsTheSwipeAtTheMaximumDuration() {
    let f = Fingers()
    f.add(SwipeGestureRecognizer(direction: .right, numberOfTouchesRequired: 2), "two")
    f.frame(at: 0, [.down(1, Point(x: 300, y: 300)), .down(2, Point(x: 300, y: 360))])
    f.frame(at: 0.1, [.move(1, Point(x: 400, y: 300)), .move(2, Point(x: 320, y: 360))])
    f.move(2, Point(x: 325, y: 360), at: 0.45)  // 25 < 28.85
    #expect(f.log == [])
    f.advance(to: 0.6)
    #expect(f.log == ["two:failed"])
    #expect(f.time(of: "two:failed") == 0.5)
  }

  @Test func theLocationIsTheCentroidOfTheTouchDownPoints() {
    let f = Fingers()
    let swipe = f.add(SwipeGestureRecognizer(direction: .down, numberOfTouchesRequired: 2), "two")
    var locations: [Point] = []
    swipe.addAction { r in locations.append(r.location(in: nil)) }
    f.frame(at: 0, [.down(1, Point(x: 300, y: 300)), .down(2, Point(x: 340, y: 320))])
    f.frame(at: 0.1, [.move(1, Point(x: 302, y: 360)), .move(2, Point(x: 342, y: 380))])
    #expect(f.log == ["two:ended"])
    #expect(locations == [Point(x: 320, y: 310)])
    #expect(swipe.location(in: f.view) == Point(x: 320, y: 310))
  }

  @Test func anEarlyLiftAndACancellationFail() {
    let f = Fingers()
    let causes = traceCauses(f)
    f.add(SwipeGestureRecognizer(), "swipe")
    f.down(1, p, at: 0)
    f.move(1, Point(x: p.x + 30, y: p.y), at: 0.05)
    f.up(1, at: 0.08)
    f.down(1, p, at: 1)
    f.move(1, Point(x: p.x + 30, y: p.y), at: 1.05)
    f.cancel(1, at: 1.08)
    #expect(f.log == ["swipe:failed", "swipe:failed"])
    #expect(
      causes() == [
        "failed: a touch lifted before the swipe was recognized", "failed: a touch was cancelled",
      ])
  }

  @Test func aThreeFingerSwipeLeftAndItsFailures() {
    let f = Fingers()
    let causes = traceCauses(f)
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
    #expect(causes().last == "failed: 4 touches > numberOfTouchesRequired 3")
  }
}
