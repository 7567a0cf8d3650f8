import Testing

@testable import TouchDelivery

/// The built-in recognizers through the real delivery pipeline and arbitration.
@Suite struct ArbitrationEndToEndTests {
  let p = Point(x: 300, y: 300)

  /// Without a requirement the single tap recognizes on each tap and the double tap never does:
  /// the single tap's recognition fails the double tap, which shares the touch.
  @Test func singleAndDoubleTapWithoutARequirement() {
    let f = Fingers()
    f.add(TapGestureRecognizer(), "single")
    f.add(TapGestureRecognizer(numberOfTapsRequired: 2), "double")
    f.tap(at: p, t: 0)
    f.tap(at: p, t: 0.2)
    f.advance(to: 1)
    #expect(f.log.filter { $0.hasPrefix("single") } == ["single:ended", "single:ended"])
    #expect(!f.log.contains("double:ended"))
  }

  @Test func singleTapRequiringTheDoubleTapToFail() {
    let f = Fingers()
    let single = f.add(TapGestureRecognizer(), "single")
    let double = f.add(TapGestureRecognizer(numberOfTapsRequired: 2), "double")
    single.require(toFail: double)
    // A double tap gives only the double tap.
    f.tap(at: p, t: 0)
    f.tap(at: p, t: 0.2)
    f.advance(to: 1)
    #expect(f.log == ["double:ended", "single:failed"])
    // A single tap gives the single tap once the double tap's interval has run out.
    f.tap(at: p, t: 2)
    f.advance(to: 2.405)
    #expect(!f.log.contains("single:ended"))
    f.advance(to: 2.5)
    #expect(Array(f.log.dropFirst(2)) == ["single:ended", "double:failed"])
    #expect(f.time(of: "single:ended") == 2.06 + 0.35)
  }

  /// A recognized pan cancels the touch in the view and fails a competing long press.
  @Test func aPanCancelsTheViewsTouchAndFailsTheLongPress() {
    final class Recorder: View {
      var calls: [String] = []
      override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) { calls.append("began") }
      override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) { calls.append("moved") }
      override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) { calls.append("ended") }
      override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) { calls.append("cancelled") }
    }
    let f = Fingers()
    let target = Recorder(frame: Rect(x: 100, y: 100, width: 400, height: 400))
    f.view.addSubview(target)
    f.add(PanGestureRecognizer(), "pan", to: target)
    f.add(LongPressGestureRecognizer(), "press", to: target)
    f.drag(from: [p], by: Point(x: 100, y: 0), t0: 0, duration: 0.2)
    #expect(f.log.first == "pan:began")
    #expect(f.log.contains("press:failed"))
    #expect(!f.log.contains("press:began"))
    #expect(target.calls.first == "began")
    #expect(target.calls.last == "cancelled")
    #expect(!target.calls.contains("ended"))
  }

  /// The long press that began first wins: a pan on the same touch can no longer begin.
  @Test func aBegunLongPressPreventsThePan() {
    let f = Fingers()
    f.add(PanGestureRecognizer(), "pan")
    f.add(LongPressGestureRecognizer(), "press")
    f.down(1, p, at: 0)
    f.advance(to: 0.6)
    f.drag(from: [p], by: Point(x: 100, y: 0), t0: 0.6, duration: 0.1, press: false)
    #expect(f.log.first == "press:began")
    #expect(!f.log.contains("pan:began"))
    #expect(f.log.last == "press:ended")
  }

  /// Pinch and rotation recognize together when the delegate allows it.
  @Test func pinchAndRotationSimultaneously() {
    final class Both: GestureRecognizerDelegate {
      func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
      ) -> Bool { true }
    }
    let both = Both()
    let f = Fingers()
    let pinch = f.add(PinchGestureRecognizer(), "pinch")
    let rotation = f.add(RotationGestureRecognizer(), "rotation")
    pinch.delegate = both
    rotation.delegate = both
    f.frame(at: 0, [.down(1, Point(x: 400, y: 400)), .down(2, Point(x: 600, y: 400))])
    // Spread to 300 pt apart while turning a quarter turn clockwise, in 60 frames.
    for i in 1...60 {
      let a = Double.pi / 2 * Double(i) / 60
      let r = 100 + 50 * Double(i) / 60
      let (s, c) = GestureMath.sinCos(a)
      f.frame(
        at: Double(i) / 120,
        [.move(1, Point(x: 500 - r * c, y: 400 - r * s)), .move(2, Point(x: 500 + r * c, y: 400 + r * s))])
    }
    #expect(f.log.contains("pinch:began") && f.log.contains("rotation:began"))
    // Each reports from where it began: the pinch at the fifth frame (8.3 pt > 8, 208.3 pt apart),
    // the rotation at the fourth (π/30 rad, 10.8 pt of arc > 10).
    #expect(approx(pinch.scale, 300 / (200 + 100 * 5 / 60.0), within: 1e-9))
    #expect(approx(rotation.rotation, Double.pi / 2 - Double.pi / 30, within: 1e-9))
  }

  /// A two-finger tap whose fingers lift together reports two touches in its action.
  @Test func aTwoFingerTapReportsItsTouchesAndLocation() {
    let f = Fingers()
    let tap = f.add(TapGestureRecognizer(numberOfTapsRequired: 1, numberOfTouchesRequired: 2), "two")
    var reported: (Int, Point)?
    tap.addAction { r in reported = (r.numberOfTouches, r.location(in: f.view)) }
    f.tap(at: p, t: 0, fingers: 2)
    #expect(f.log == ["two:ended"])
    #expect(reported?.0 == 2)
    #expect(reported?.1 == p)
  }
}
