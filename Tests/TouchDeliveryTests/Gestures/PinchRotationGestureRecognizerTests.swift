import Testing

@testable import TouchDelivery

/// The distance between a recognizer's two tracked touches (window points).
private func trackedDistance(_ r: GestureRecognizer) -> Double {
  r.location(ofTouch: 0, in: nil).distance(to: r.location(ofTouch: 1, in: nil))
}

/// The angle of the line from a recognizer's first tracked touch to its second (radians).
private func trackedAngle(_ r: GestureRecognizer) -> Double {
  let a = r.location(ofTouch: 0, in: nil)
  let b = r.location(ofTouch: 1, in: nil)
  return GestureMath.atan2(b.y - a.y, b.x - a.x)
}

/// The causes of `name`'s state changes in a trace, as "from→to: cause".
private func causes(_ events: [TraceEvent], of name: String) -> [String] {
  events.compactMap {
    guard case .recognizer(let r, let from, let to, let cause) = $0, r.name == name else { return nil }
    return "\(from.rawValue)→\(to.rawValue): \(cause)"
  }
}

@Suite struct PinchGestureRecognizerTests {
  let c = Point(x: 500, y: 400)

  @Test func scaleIsOneAtBeganThenTheDistanceOverTheDistanceAtBegan() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    var values: [(state: GestureRecognizer.State, scale: Double, velocity: Double, touches: Int)] = []
    pinch.addAction { r in values.append((r.state, pinch.scale, pinch.velocity, r.numberOfTouches)) }
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    // 9 pt > 8: began, the reference is now 209 pt.
    f.move(2, Point(x: 609, y: 400), at: 0.01)
    #expect(f.log == ["pinch:began"])
    #expect(values.first?.scale == 1.0)
    #expect(values.first?.touches == 2)
    // The velocity includes the movement before began: 900 pt/s over 209 pt.
    #expect(approx(values.first?.velocity ?? 0, 900.0 / 209, within: 0.01 * 900 / 209))
    // Spread to 418 pt apart (twice 209) over 0.5 s: 418 pt/s, 2 per second in scale.
    for i in 1...120 {
      f.move(2, Point(x: 609 + 209 * Double(i) / 120, y: 400), at: 0.01 + 0.5 * Double(i) / 120)
    }
    #expect(values.dropFirst().allSatisfy { $0.state == .changed && $0.touches == 2 })
    #expect(approx(values.last?.scale ?? 0, 2, within: 1e-9))
    #expect(approx(values.last?.velocity ?? 0, 2, within: 0.04))
    f.frame(at: 0.6, [.up(1), .up(2)])
    #expect(f.log.last == "pinch:ended")
    #expect(approx(values.last?.scale ?? 0, 2, within: 1e-9))
  }

  @Test func spreadingFrom200To400GivesFourHundredOverTheDistanceAtBegan() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    var distanceAtBegan: Double?
    var scales: [Double] = []
    pinch.addAction { r in
      if r.state == .began { distanceAtBegan = trackedDistance(r) }
      scales.append(pinch.scale)
    }
    f.pinch(center: c, from: 200, to: 400, t0: 0, duration: 0.5, lift: false)
    #expect(f.log.first == "pinch:began")
    let began = distanceAtBegan ?? 0
    // The first sample past 8 pt: 1.67 pt per frame at 240 Hz, the fifth frame (208.3 pt).
    #expect(began > 208 && began < 210)
    #expect(scales.first == 1.0)
    #expect(approx(scales.last ?? 0, 400 / began, within: 1e-9))
    f.up(2, at: 0.6)
    #expect(f.log.last == "pinch:changed")
    f.up(1, at: 0.7)
    #expect(f.log.last == "pinch:ended")
  }

  @Test(arguments: [(7.9, false), (8.1, true)])
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
    // 4.17 pt per frame: began at the second frame, 391.7 pt apart.
    #expect(approx(pinch.scale, 100 / (400 - 2 * 300.0 / 72), within: 1e-9))
    pinch.scale = 1
    #expect(pinch.velocity == 0)
    f.frame(at: 0.4, [.move(1, Point(x: 400, y: 400)), .move(2, Point(x: 600, y: 400))])
    #expect(approx(pinch.scale, 2, within: 1e-9))
  }

  @Test func liftingOneFingerDoesNotEndItAndOneFingerAloneChangesNothing() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.move(2, Point(x: 610, y: 400), at: 0.02)
    f.move(2, Point(x: 820, y: 400), at: 0.1)
    #expect(f.log == ["pinch:began", "pinch:changed"])
    #expect(approx(pinch.scale, 2, within: 1e-9))
    f.up(2, at: 0.2)
    #expect(f.log == ["pinch:began", "pinch:changed"])
    #expect(pinch.state == .changed)
    #expect(pinch.numberOfTouches == 1)
    f.move(1, Point(x: 100, y: 400), at: 0.3)
    f.move(1, Point(x: 50, y: 300), at: 0.35)
    #expect(f.log == ["pinch:began", "pinch:changed"])
    #expect(approx(pinch.scale, 2, within: 1e-9))
    f.up(1, at: 0.4)
    #expect(f.log == ["pinch:began", "pinch:changed", "pinch:ended"])
    #expect(f.time(of: "pinch:ended") == 0.4)
  }

  @Test func aFingerPutBackDownReanchorsSoTheScaleCarriesOn() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    var scales: [Double] = []
    pinch.addAction { _ in scales.append(pinch.scale) }
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.move(2, Point(x: 610, y: 400), at: 0.02)
    f.move(2, Point(x: 820, y: 400), at: 0.1)
    f.up(2, at: 0.2)
    f.move(1, Point(x: 300, y: 400), at: 0.25)
    // 400 pt apart now; the reference becomes 400 pt at scale 2.
    f.down(3, Point(x: 700, y: 400), at: 0.3)
    #expect(scales == [1, 2])
    #expect(pinch.numberOfTouches == 2)
    #expect(approx(pinch.scale, 2, within: 1e-9))
    f.move(3, Point(x: 900, y: 400), at: 0.4)
    #expect(f.log == ["pinch:began", "pinch:changed", "pinch:changed"])
    #expect(approx(scales.last ?? 0, 3, within: 1e-9))
    f.frame(at: 0.5, [.up(1), .up(3)])
    #expect(f.log.last == "pinch:ended")
  }

  @Test func aThirdConcurrentFingerIsIgnoredAndDoesNotKeepItAlive() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.move(2, Point(x: 610, y: 400), at: 0.02)
    f.down(3, Point(x: 800, y: 600), at: 0.05)
    #expect(pinch.numberOfTouches == 2)
    f.move(3, Point(x: 900, y: 700), at: 0.1)
    #expect(f.log == ["pinch:began"])
    // Finger 3 stays ignored after finger 2 lifts; finger 4 takes the free place.
    f.up(2, at: 0.15)
    f.move(3, Point(x: 950, y: 700), at: 0.2)
    #expect(f.log == ["pinch:began"])
    f.down(4, Point(x: 600, y: 400), at: 0.25)
    #expect(pinch.numberOfTouches == 2)
    f.move(4, Point(x: 800, y: 400), at: 0.3)
    #expect(f.log == ["pinch:began", "pinch:changed"])
    #expect(approx(pinch.scale, 2, within: 1e-9))
    f.frame(at: 0.4, [.up(1), .up(4)])
    #expect(f.log.last == "pinch:ended")
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
    // Cancelling the finger left down after a lift cancels too.
    f.pinch(center: c, from: 200, to: 300, t0: 2, duration: 0.1, lift: false)
    f.up(1, at: 2.2)
    #expect(f.log.last == "pinch:changed")
    f.cancel(2, at: 2.3)
    #expect(f.log.last == "pinch:cancelled")
  }

  @Test func beforeItBeganALiftedFingerIsReplacedAndAllLiftedFails() {
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.move(2, Point(x: 605, y: 400), at: 0.02)
    f.up(2, at: 0.05)
    // The reference is taken again: 300 pt; 5 pt more does not begin, 9 pt does.
    f.down(3, Point(x: 700, y: 400), at: 0.1)
    f.move(3, Point(x: 705, y: 400), at: 0.12)
    #expect(f.log.isEmpty)
    f.move(3, Point(x: 709, y: 400), at: 0.14)
    #expect(f.log == ["pinch:began"])
    #expect(pinch.scale == 1.0)
    f.frame(at: 0.2, [.up(1), .up(3)])
    let g = Fingers()
    g.add(PinchGestureRecognizer(), "pinch")
    g.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    g.up(1, at: 0.05)
    #expect(g.log.isEmpty)
    g.up(2, at: 0.1)
    #expect(g.log == ["pinch:failed"])
  }

  @Test func theTraceSaysWhyItBeganEndedAndFailed() {
    let f = Fingers()
    var events: [TraceEvent] = []
    f.app.tracer = { events.append($0) }
    f.add(PinchGestureRecognizer(), "pinch")
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.move(2, Point(x: 608.4, y: 400), at: 0.02)
    f.up(2, at: 0.1)
    f.up(1, at: 0.2)
    f.frame(at: 1, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.frame(at: 1.1, [.up(1), .up(2)])
    let log = causes(events, of: "pinch").filter { !$0.contains("→possible") }
    #expect(
      log == [
        "possible→began: distance changed 8.4 pt > startDistance 8",
        "began→ended: all fingers lifted",
        "possible→failed: all fingers lifted before it began",
      ])
  }
}

@Suite struct RotationGestureRecognizerTests {
  let c = Point(x: 500, y: 400)

  /// Fingers 1 and 2 on opposite sides of `c`, `r` pt from it, the line from 1 to 2 at `angle`.
  func turned(_ angle: Double, r: Double = 100) -> [Fingers.Change] {
    let (s, co) = GestureMath.sinCos(angle)
    return [.move(1, Point(x: c.x - r * co, y: c.y - r * s)), .move(2, Point(x: c.x + r * co, y: c.y + r * s))]
  }

  @Test func rotationIsZeroAtBeganThenTheAngleSinceBegan() {
    let f = Fingers()
    let rotation = f.add(RotationGestureRecognizer(), "rotation")
    var values: [(state: GestureRecognizer.State, rotation: Double, velocity: Double)] = []
    rotation.addAction { r in values.append((r.state, rotation.rotation, rotation.velocity)) }
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    // 0.12 rad × 100 pt = 12 pt of arc > 10: began, the reference is now 0.12 rad.
    f.frame(at: 0.01, turned(0.12))
    #expect(f.log == ["rotation:began"])
    #expect(values.first?.rotation == 0)
    // The velocity includes the turn before began: 0.12 rad in 10 ms.
    #expect(approx(values.first?.velocity ?? 0, 12, within: 0.12))
    // A quarter turn more over 0.5 s: π rad/s.
    for i in 1...120 { f.frame(at: 0.01 + 0.5 * Double(i) / 120, turned(0.12 + Double.pi / 2 * Double(i) / 120)) }
    #expect(values.dropFirst().allSatisfy { $0.state == .changed })
    #expect(approx(values.last?.rotation ?? 0, Double.pi / 2, within: 1e-9))
    #expect(approx(values.last?.velocity ?? 0, Double.pi, within: 0.01 * Double.pi))
  }

  @Test func aQuarterTurnClockwiseIsPlusHalfPiLessTheAngleAtBegan() {
    let f = Fingers()
    let rotation = f.add(RotationGestureRecognizer(), "rotation")
    var angleAtBegan: Double?
    var values: [(Double, Double)] = []
    rotation.addAction { r in
      if r.state == .began { angleAtBegan = trackedAngle(r) }
      values.append((rotation.rotation, rotation.velocity))
    }
    f.rotate(center: c, radius: 100, by: Double.pi / 2, t0: 0, duration: 0.5, lift: false)
    #expect(f.log.first == "rotation:began")
    let began = angleAtBegan ?? 0
    // 1.31 pt of arc per frame at 240 Hz: the eighth frame, π/30.
    #expect(approx(began, Double.pi / 30, within: 1e-9))
    #expect(values.first?.0 == 0)
    let (angle, velocity) = values.last ?? (0, 0)
    #expect(approx(angle, Double.pi / 2 - began, within: 1e-9))
    // π/2 in 0.5 s: π rad/s.
    #expect(approx(velocity, Double.pi, within: 0.01 * Double.pi))
    f.up(1, at: 0.6)
    #expect(f.log.last == "rotation:changed")
    f.up(2, at: 0.7)
    #expect(f.log.last == "rotation:ended")
  }

  @Test func counterclockwiseIsNegativeAndTurnsAccumulatePastPi() {
    let f = Fingers()
    let rotation = f.add(RotationGestureRecognizer(), "rotation")
    f.rotate(center: c, radius: 100, by: -Double.pi / 3, t0: 0, duration: 0.3, lift: true)
    #expect(f.log.last == "rotation:ended")
    var final = 0.0
    var angleAtBegan = 0.0
    rotation.addAction { r in
      if r.state == .began { angleAtBegan = trackedAngle(r) }
      if r.state == .changed { final = rotation.rotation }
    }
    f.rotate(center: c, radius: 100, by: 2 * Double.pi, t0: 1, duration: 1, lift: false)
    #expect(angleAtBegan > 0 && angleAtBegan < 0.2)
    #expect(approx(final, 2 * Double.pi - angleAtBegan, within: 1e-9))
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

  @Test func aLiftKeepsItActiveAndAFingerPutBackDownReanchors() {
    let f = Fingers()
    let rotation = f.add(RotationGestureRecognizer(), "rotation")
    var values: [Double] = []
    rotation.addAction { _ in values.append(rotation.rotation) }
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.frame(at: 0.02, turned(0.2))
    f.frame(at: 0.1, turned(0.7))
    #expect(approx(values.last ?? 0, 0.5, within: 1e-9))
    f.up(1, at: 0.2)
    #expect(rotation.numberOfTouches == 1)
    f.move(2, Point(x: 650, y: 500), at: 0.25)
    #expect(f.log == ["rotation:began", "rotation:changed"])
    // Finger 3 lands straight above finger 2: the line from 2 to 3 points up (−π/2) and is the
    // new reference; the rotation stays 0.5.
    f.down(3, Point(x: 650, y: 300), at: 0.3)
    #expect(rotation.numberOfTouches == 2)
    #expect(approx(rotation.rotation, 0.5, within: 1e-9))
    // Turn the pair (2, 3) by 0.3 rad clockwise around their midpoint (650, 400).
    let (s, co) = GestureMath.sinCos(-Double.pi / 2 + 0.3)
    f.frame(
      at: 0.4,
      [.move(2, Point(x: 650 - 100 * co, y: 400 - 100 * s)), .move(3, Point(x: 650 + 100 * co, y: 400 + 100 * s))])
    #expect(f.log == ["rotation:began", "rotation:changed", "rotation:changed"])
    #expect(approx(values.last ?? 0, 0.8, within: 1e-9))
    f.frame(at: 0.5, [.up(2), .up(3)])
    #expect(f.log.last == "rotation:ended")
  }

  @Test func theTraceSaysWhyItBegan() {
    let f = Fingers()
    var events: [TraceEvent] = []
    f.app.tracer = { events.append($0) }
    f.add(RotationGestureRecognizer(), "rotation")
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    f.frame(at: 0.02, turned(0.104))
    f.frame(at: 0.1, [.up(1), .up(2)])
    let log = causes(events, of: "rotation").filter { !$0.contains("→possible") }
    #expect(log == ["possible→began: turned 10.4 pt of arc > startDistance 10", "began→ended: all fingers lifted"])
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
    // 120 pt inward, less the 15 pt start distance (and one frame's step past it).
    #expect(edge.translation(in: nil).x > 95)
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
