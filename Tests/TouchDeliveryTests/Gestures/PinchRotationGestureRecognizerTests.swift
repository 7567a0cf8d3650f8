import Testing

@testable import TouchDelivery

@Suite struct PinchGestureRecognizerTests {
  let c = Point(x: 500, y: 400)

  @Test func spreadingFrom200To400GivesScale2() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    var scales: [Double] = []
    var velocities: [Double] = []
    pinch.addAction { _ in
      scales.append(pinch.scale)
      velocities.append(pinch.velocity)
    }
    f.pinch(center: c, from: 200, to: 400, t0: 0, duration: 0.5, lift: false)
    #expect(f.log.first == "pinch:began")
    #expect(approx(scales.last ?? 0, 2, within: 0.04))
    // The scale grows linearly by 1 in 0.5 s: 2 per second.
    #expect(approx(velocities.last ?? 0, 2, within: 0.04))
    f.up(2, at: 0.6)
    #expect(f.log.last == "pinch:ended")
  }

  @Test(arguments: [(9.9, false), (10.1, true)])
  func beginsPastTheStartDistance(change: Double, began: Bool) {
    let f = Fingers()
    f.add(PinchGestureRecognizer(), "pinch")
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.move(2, Point(x: 600 - change, y: 400), at: 0.05)
    #expect(f.log == (began ? ["pinch:began"] : []))
  }

  @Test func pinchingInGivesAScaleBelowOneAndSettingScaleRebases() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    f.pinch(center: c, from: 400, to: 100, t0: 0, duration: 0.3, lift: false)
    #expect(approx(pinch.scale, 0.25, within: 0.005))
    pinch.scale = 1
    f.frame(at: 0.4, [.move(1, Point(x: 400, y: 400)), .move(2, Point(x: 600, y: 400))])
    #expect(approx(pinch.scale, 2, within: 1e-9))
  }

  @Test func aCancelledTouchCancelsAndOneFingerAloneFails() {
    let f = Fingers()
    f.add(PinchGestureRecognizer(), "pinch")
    f.pinch(center: c, from: 200, to: 300, t0: 0, duration: 0.1, lift: false)
    f.cancel(1, at: 0.2)
    #expect(f.log.last == "pinch:cancelled")
    f.up(2, at: 0.3)
    f.drag(from: [c], by: Point(x: 100, y: 0), t0: 1, duration: 0.1)
    #expect(f.log.last == "pinch:failed")
  }
}

@Suite struct RotationGestureRecognizerTests {
  let c = Point(x: 500, y: 400)

  @Test func aQuarterTurnClockwiseIsPlusHalfPi() {
    let f = Fingers()
    let rotation = f.add(RotationGestureRecognizer(), "rotation")
    var values: [(Double, Double)] = []
    rotation.addAction { _ in values.append((rotation.rotation, rotation.velocity)) }
    f.rotate(center: c, radius: 100, by: Double.pi / 2, t0: 0, duration: 0.5, lift: false)
    #expect(f.log.first == "rotation:began")
    let (angle, velocity) = values.last ?? (0, 0)
    #expect(approx(angle, Double.pi / 2, within: 0.01 * Double.pi / 2))
    // π/2 in 0.5 s: π rad/s.
    #expect(approx(velocity, Double.pi, within: 0.01 * Double.pi))
    f.up(1, at: 0.6)
    #expect(f.log.last == "rotation:ended")
  }

  @Test func counterclockwiseIsNegativeAndTurnsAccumulatePastPi() {
    let f = Fingers()
    let rotation = f.add(RotationGestureRecognizer(), "rotation")
    f.rotate(center: c, radius: 100, by: -Double.pi / 3, t0: 0, duration: 0.3, lift: true)
    #expect(f.log.last == "rotation:ended")
    var final = 0.0
    rotation.addAction { r in if r.state == .changed { final = rotation.rotation } }
    f.rotate(center: c, radius: 100, by: 2 * Double.pi, t0: 1, duration: 1, lift: false)
    #expect(approx(final, 2 * Double.pi, within: 0.01))
  }

  /// Fingers 200 pt apart: each moves 100 × angle along its arc; the start distance is 10 pt of arc.
  @Test(arguments: [(0.099, false), (0.101, true)])
  func beginsPastTheStartArc(angle: Double, began: Bool) {
    let f = Fingers()
    f.add(RotationGestureRecognizer(), "rotation")
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    let (s, co) = GestureMath.sinCos(angle)
    f.frame(
      at: 0.05,
      [.move(1, Point(x: 500 - 100 * co, y: 400 - 100 * s)), .move(2, Point(x: 500 + 100 * co, y: 400 + 100 * s))])
    #expect(f.log == (began ? ["rotation:began"] : []))
  }

  @Test func aPinchDoesNotRotate() {
    let f = Fingers()
    f.add(RotationGestureRecognizer(), "rotation")
    f.pinch(center: c, from: 100, to: 400, t0: 0, duration: 0.3)
    #expect(f.log == ["rotation:failed"])
  }
}

@Suite struct ScreenEdgePanGestureRecognizerTests {
  @Test func aLeftEdgePanBeginsAndReportsTranslation() {
    let f = Fingers()
    let edge = f.add(ScreenEdgePanGestureRecognizer(edges: .left), "edge")
    f.drag(from: [Point(x: 6, y: 300)], by: Point(x: 120, y: 12), t0: 0, duration: 0.1, lift: false)
    #expect(f.log.first == "edge:began")
    #expect(edge.translation(in: nil).x > 100)
    f.up(1, at: 0.2)
    #expect(f.log.last == "edge:ended")
  }

  @Test(arguments: [(19.9, true), (20.1, false)])
  func theEdgeZoneAtItsEdge(x: Double, began: Bool) {
    let f = Fingers()
    f.add(ScreenEdgePanGestureRecognizer(edges: .left), "edge")
    f.drag(from: [Point(x: x, y: 300)], by: Point(x: 100, y: 0), t0: 0, duration: 0.1)
    #expect(f.log.first == (began ? "edge:began" : "edge:failed"))
  }

  @Test func slidingAlongTheEdgeFailsAndEdgesAreRespected() {
    let f = Fingers()
    f.add(ScreenEdgePanGestureRecognizer(edges: .all), "edge")
    f.drag(from: [Point(x: 5, y: 300)], by: Point(x: 8, y: 60), t0: 0, duration: 0.1)
    #expect(f.log == ["edge:failed"])
    // The right and bottom edges of the 1000×800 window work with .all.
    f.drag(from: [Point(x: 995, y: 300)], by: Point(x: -80, y: 0), t0: 1, duration: 0.1)
    f.drag(from: [Point(x: 500, y: 790)], by: Point(x: 0, y: -80), t0: 2, duration: 0.1)
    #expect(f.log.filter { $0 == "edge:ended" }.count == 2)
    // With only .top, the left edge does nothing.
    let g = Fingers()
    g.add(ScreenEdgePanGestureRecognizer(edges: .top), "top")
    g.drag(from: [Point(x: 5, y: 300)], by: Point(x: 100, y: 0), t0: 0, duration: 0.1)
    #expect(g.log == ["top:failed"])
  }
}
