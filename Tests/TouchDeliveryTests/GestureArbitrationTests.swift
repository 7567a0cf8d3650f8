import Testing
import TouchdInput

@testable import TouchDelivery

/// Recognizes (discrete) when two fingers have stayed down together for `duration`; fails on a
/// third finger, on a lift before that, or on a move beyond 10 pt. Written only against the public
/// subclass contract.
final class TwoFingerHoldRecognizer: GestureRecognizer {
  var duration = 0.5
  private var timer: ScheduledTimer?
  private var origins: [Touch: Point] = [:]

  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    for t in touches { origins[t] = t.location(in: nil) }
    if numberOfTouches > 2 {
      state = .failed
    } else if numberOfTouches == 2 {
      timer = schedule(after: duration) { [weak self] in self?.state = .ended }
    }
  }
  override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    if touches.contains(where: { $0.location(in: nil).distance(to: origins[$0]!) > 10 }) { state = .failed }
  }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if state == .possible { state = .failed }
  }
  override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    state = .failed
  }
  override func reset() {
    super.reset()
    timer?.cancel()
    timer = nil
    origins = [:]
  }
}

final class NonPreventingRecognizer: GestureRecognizer {
  let log: Log
  init(log: Log) {
    self.log = log
    super.init()
    name = "np"
    addAction { [log] r in log.add("np:\(r.state)") }
  }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) { state = .ended }
  override func canPrevent(_ other: GestureRecognizer) -> Bool { false }
}

final class RequiredByTapsRecognizer: GestureRecognizer {
  override func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { other.name == "tap" }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    _ = schedule(after: 0.2) { [weak self] in self?.state = .failed }
  }
}

final class VetoView: View {
  override func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { false }
}

@Suite("Gesture arbitration") struct GestureArbitrationTests {
  @Test("a single tap that requires a double tap to fail waits, then recognizes when the double tap times out")
  func singleWaitsForDoubleTimeout() {
    let h = Harness()
    let b = h.view("B", Rect(x: 0, y: 0, width: 200, height: 200))
    let single = ScriptedRecognizer.tap("single", log: h.log)
    let double = ScriptedRecognizer.doubleTap("double", log: h.log, interval: 0.3)
    single.require(toFail: double)
    b.addGestureRecognizer(single)
    b.addGestureRecognizer(double)
    h.tap(1, 10, 10, at: 1)
    #expect(
      h.log.take() == [
        "single.began(1)", "double.began(1)", "B.began(1)", "single.ended(1)", "double.ended(1)",
      ])
    #expect(single.state == .possible)
    h.clock.advance(to: 1.39)
    #expect(h.log.take() == [])
    h.clock.advance(to: 1.41)  // the lift at 1.1 + 0.3
    #expect(
      h.log.take() == ["double.timeout", "B.cancelled(1)", "single:ended", "single.reset", "double.reset"])
    #expect(single.state == .possible)
  }

  /// The second touch's `began` waits behind the first touch's `ended`, which the double tap holds
  /// (delaysTouchesEnded): once a recognizer holds touches, later touches are held too, so the view
  /// never sees the second touch; the recognition cancels the first.
  @Test("a single tap that requires a double tap to fail fails when the double tap recognizes")
  func singleFailsWhenDoubleRecognizes() {
    let h = Harness()
    let b = h.view("B", Rect(x: 0, y: 0, width: 200, height: 200))
    let single = ScriptedRecognizer.tap("single", log: h.log)
    let double = ScriptedRecognizer.doubleTap("double", log: h.log, interval: 0.3)
    single.require(toFail: double)
    b.addGestureRecognizer(single)
    b.addGestureRecognizer(double)
    h.tap(1, 10, 10, at: 1)
    h.tap(2, 12, 10, at: 1.2)
    h.clock.advance(to: 3)
    #expect(
      h.log.lines == [
        "single.began(1)", "double.began(1)", "B.began(1)", "single.ended(1)", "double.ended(1)",
        "double.began(2)", "double.ended(2)", "B.cancelled(1)", "double:ended",
        "single.reset", "double.reset",
      ])
  }

  @Test("recognizers of the hit-test view and its ancestors compete: the first to recognize fails the others")
  func ancestorsCompete() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let b = h.view("B", Rect(x: 0, y: 0, width: 100, height: 100), in: a)
    let outer = ScriptedRecognizer.tap("outer", log: h.log)
    let inner = ScriptedRecognizer.tap("inner", log: h.log)
    a.addGestureRecognizer(outer)
    b.addGestureRecognizer(inner)
    h.frame(1, c(1, .began, 10, 10))
    let touch = try! #require(h.app.currentEvent?.allTouches.first)
    #expect(touch.gestureRecognizers.map(\.name) == ["inner", "outer"])
    h.frame(1.1, c(1, .ended, 10, 10))
    #expect(
      h.log.lines == [
        "inner.began(1)", "outer.began(1)", "B.began(1)", "inner.ended(1)", "B.cancelled(1)", "inner:ended",
        "inner.reset", "outer.reset",
      ])
    #expect(touch.gestureRecognizers.isEmpty)
  }

  @Test("a delegate that allows simultaneous recognition lets both recognize")
  func simultaneousViaDelegate() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let outer = ScriptedRecognizer.tap("outer", log: h.log)
    let inner = ScriptedRecognizer.tap("inner", log: h.log)
    let delegate = ScriptedDelegate()
    delegate.simultaneously = { _, other in other === inner }
    outer.delegate = delegate
    a.addGestureRecognizer(inner)
    a.addGestureRecognizer(outer)
    h.tap(1, 10, 10, at: 1)
    #expect(
      h.log.lines == [
        "inner.began(1)", "outer.began(1)", "A.began(1)", "inner.ended(1)", "A.cancelled(1)", "inner:ended",
        "outer.ended(1)", "outer:ended", "inner.reset", "outer.reset",
      ])
  }

  @Test("a recognizer whose canPrevent is false does not fail the others")
  func canPreventFalse() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let np = NonPreventingRecognizer(log: h.log)
    let tap = ScriptedRecognizer.tap("tap", log: h.log)
    tap.cancelsTouchesInView = false
    np.cancelsTouchesInView = false
    a.addGestureRecognizer(np)
    a.addGestureRecognizer(tap)
    h.tap(1, 10, 10, at: 1)
    #expect(
      h.log.lines == ["tap.began(1)", "A.began(1)", "np:ended", "tap.ended(1)", "tap:ended", "A.ended(1)", "tap.reset"])
  }

  @Test("shouldBegin false fails the recognizer: no action, and the view keeps its touches")
  func shouldBeginFalse() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let tap = ScriptedRecognizer.tap("tap", log: h.log)
    let delegate = ScriptedDelegate()
    delegate.shouldBegin = { _ in false }
    tap.delegate = delegate
    a.addGestureRecognizer(tap)
    h.tap(1, 10, 10, at: 1)
    delegate.shouldBegin = { _ in true }
    h.tap(2, 10, 10, at: 2)
    #expect(
      h.log.lines == [
        "tap.began(1)", "A.began(1)", "tap.ended(1)", "A.ended(1)", "tap.reset",
        "tap.began(2)", "A.began(2)", "tap.ended(2)", "A.cancelled(2)", "tap:ended", "tap.reset",
      ])
  }

  @Test("the view's gestureRecognizerShouldBegin false fails its recognizer")
  func viewVetoes() {
    let h = Harness()
    let veto = VetoView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    h.window.addSubview(veto)
    let tap = ScriptedRecognizer.tap("tap", log: h.log)
    veto.addGestureRecognizer(tap)
    h.tap(1, 10, 10, at: 1)
    #expect(h.log.lines == ["tap.began(1)", "tap.ended(1)", "tap.reset"])
    #expect(tap.state == .possible)
  }

  @Test("shouldReceive false hides the touch from the recognizer for its whole life")
  func shouldReceiveFalse() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    a.isMultipleTouchEnabled = true
    let tap = ScriptedRecognizer.tap("tap", log: h.log)
    let delegate = ScriptedDelegate()
    delegate.shouldReceive = { _, touch in touch.location(in: nil).x < 100 }
    tap.delegate = delegate
    a.addGestureRecognizer(tap)
    h.frame(1, c(1, .began, 150, 10))
    #expect(h.app.currentEvent?.allTouches.first?.gestureRecognizers.isEmpty == true)
    h.frame(1.1, c(1, .moved, 50, 10))
    h.frame(1.2, c(1, .ended, 50, 10))
    h.tap(2, 50, 10, at: 2)
    #expect(
      h.log.lines == [
        "A.began(1)", "A.moved(1)", "A.ended(1)", "tap.began(2)", "A.began(2)", "tap.ended(2)", "A.cancelled(2)",
        "tap:ended", "tap.reset",
      ])
  }

  @Test("a delegate's shouldRequireFailureOf makes a recognizer wait like require(toFail:)")
  func dynamicRequirementViaDelegate() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let single = ScriptedRecognizer.tap("single", log: h.log)
    let double = ScriptedRecognizer.doubleTap("double", log: h.log, interval: 0.3)
    let delegate = ScriptedDelegate()
    delegate.requireFailure = { _, other in other === double }
    single.delegate = delegate
    a.addGestureRecognizer(single)
    a.addGestureRecognizer(double)
    h.tap(1, 10, 10, at: 1)
    #expect(h.log.take() == ["single.began(1)", "double.began(1)", "A.began(1)", "single.ended(1)", "double.ended(1)"])
    h.clock.advance(to: 2)
    #expect(h.log.take() == ["double.timeout", "A.cancelled(1)", "single:ended", "single.reset", "double.reset"])
  }

  @Test("a subclass's shouldBeRequiredToFail makes the other recognizer wait")
  func dynamicRequirementViaSubclass() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let tap = ScriptedRecognizer.tap("tap", log: h.log)
    let gate = RequiredByTapsRecognizer()
    a.addGestureRecognizer(tap)
    a.addGestureRecognizer(gate)
    h.tap(1, 10, 10, at: 1)
    #expect(h.log.take() == ["tap.began(1)", "A.began(1)", "tap.ended(1)"])
    h.clock.advance(to: 1.3)
    #expect(h.log.take() == ["A.cancelled(1)", "tap:ended", "tap.reset"])
  }

  @Test("an active recognizer that shares a touch keeps another from beginning")
  func activeRecognizerPreventsLaterOnes() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let pan = ScriptedRecognizer.pan("pan", log: h.log)
    let late = ScriptedRecognizer("late", log: h.log)
    late.onMoved = { r, _ in if r.moves == 3 { r.state = .began } }
    a.addGestureRecognizer(pan)
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .moved, 20, 10))
    h.frame(1.2, c(1, .moved, 30, 10))
    a.addGestureRecognizer(late)
    h.frame(1.3, c(1, .stationary, 30, 10), c(2, .began, 50, 50))
    h.frame(1.4, c(1, .moved, 40, 10), c(2, .moved, 60, 50))
    h.frame(1.5, c(1, .moved, 50, 10), c(2, .moved, 70, 50))
    h.frame(1.6, c(1, .moved, 60, 10), c(2, .moved, 80, 50))
    #expect(late.state == .failed)
    #expect(pan.state == .changed)
    #expect(
      h.log.lines.filter { $0.hasPrefix("late") } == [
        "late.began(2)", "late.moved(2)", "late.moved(2)", "late.moved(2)",
      ])
  }

  @Test("a disabled recognizer gets no touches; disabling an active one cancels it")
  func disabling() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let pan = ScriptedRecognizer.pan("pan", log: h.log)
    a.addGestureRecognizer(pan)
    pan.isEnabled = false
    h.tap(1, 10, 10, at: 1)
    pan.isEnabled = true
    h.frame(2, c(2, .began, 10, 10))
    h.frame(2.1, c(2, .moved, 20, 10))
    h.frame(2.2, c(2, .moved, 30, 10))
    pan.isEnabled = false
    h.frame(2.3, c(2, .moved, 40, 10))
    h.frame(2.4, c(2, .ended, 40, 10))
    #expect(
      h.log.lines == [
        "A.began(1)", "A.ended(1)", "pan.began(2)", "A.began(2)", "pan.moved(2)", "A.moved(2)", "pan.moved(2)",
        "A.cancelled(2)", "pan:began", "pan:cancelled", "pan.reset",
      ])
  }

  @Test("invalid transitions are ignored: possible → changed, ended → began, failed → ended")
  func invalidTransitionsAreIgnored() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let r = ScriptedRecognizer("r", log: h.log)
    var seen: [GestureRecognizer.State] = []
    r.onBegan = { r, _ in
      r.state = .changed
      seen.append(r.state)
      r.state = .cancelled
      seen.append(r.state)
    }
    r.onMoved = { r, _ in
      r.state = .ended
      r.state = .began
    }
    r.onEnded = { r, _ in seen.append(r.state) }
    a.addGestureRecognizer(r)
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .moved, 20, 10))
    r.state = .began
    #expect(r.state == .ended)
    h.frame(1.2, c(1, .ended, 20, 10))
    #expect(seen == [.possible, .possible])
    #expect(h.log.lines == ["r.began(1)", "A.began(1)", "r.moved(1)", "A.cancelled(1)", "r:ended", "r.reset"])
  }

  @Test("a failed recognizer stays failed, ignoring new touches, until every touch it had is gone")
  func failedRecognizerResetsWhenItsTouchesEnd() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    a.isMultipleTouchEnabled = true
    let r = ScriptedRecognizer("r", log: h.log)
    r.onMoved = { r, _ in r.state = .failed }
    r.onEnded = { r, _ in r.state = .failed }
    a.addGestureRecognizer(r)
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .moved, 20, 10))
    h.frame(1.2, c(1, .stationary, 20, 10), c(2, .began, 50, 50))
    #expect(r.state == .failed)
    h.frame(1.3, c(1, .ended, 20, 10), c(2, .stationary, 50, 50))
    #expect(r.state == .possible)
    h.frame(1.4, c(2, .stationary, 50, 50), c(3, .began, 90, 90))
    h.frame(1.5, c(2, .ended, 50, 50), c(3, .ended, 90, 90))
    #expect(
      h.log.lines == [
        "r.began(1)", "A.began(1)", "r.moved(1)", "A.moved(1)", "A.began(2)", "A.ended(1)", "r.reset",
        "r.began(3)", "A.began(3)", "r.ended(3)", "A.ended(2,3)", "r.reset",
      ])
  }

  @Test("a custom two-finger-hold recognizer built on the subclass contract recognizes by its timer")
  func customRecognizer() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    a.isMultipleTouchEnabled = true
    let hold = TwoFingerHoldRecognizer()
    var fired: [String] = []
    hold.addAction { r in fired.append("\(r.state) \(r.numberOfTouches) \(r.location(in: a))") }
    a.addGestureRecognizer(hold)
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .stationary, 10, 10), c(2, .began, 30, 50))
    h.frame(1.4, c(1, .moved, 12, 10), c(2, .stationary, 30, 50))
    #expect(fired.isEmpty)
    h.clock.advance(to: 1.6)
    #expect(fired == ["ended 2 (21.0, 30.0)"])
    h.frame(1.7, c(1, .ended, 12, 10), c(2, .ended, 30, 50))
    #expect(h.log.lines == ["A.began(1)", "A.began(2)", "A.moved(1)", "A.cancelled(1,2)"])
    #expect(hold.state == .possible)

    // A lift before the hold completes fails it; the view then gets its touchesEnded.
    h.log.lines = []
    h.frame(2, c(3, .began, 10, 10), c(4, .began, 30, 30))
    h.frame(2.2, c(3, .ended, 10, 10), c(4, .stationary, 30, 30))
    h.frame(2.3, c(4, .ended, 30, 30))
    h.clock.advance(to: 3)
    #expect(fired.count == 1)
    #expect(h.log.lines == ["A.began(3,4)", "A.ended(3)", "A.ended(4)"])
  }

  @Test("a recognizer that decides by a timer with no touches is reset at the end of that turn")
  func strayTimerDecisionIsReset() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let r = ScriptedRecognizer("r", log: h.log)
    a.addGestureRecognizer(r)
    _ = r.schedule(after: 1) { r.state = .ended }
    h.clock.advance(to: 1)
    #expect(r.state == .possible)
    h.tap(1, 10, 10, at: 2)
    #expect(h.log.lines == ["r:ended", "r.reset", "r.began(1)", "A.began(1)", "r.ended(1)"])
  }

  @Test("ignore(_:for:) hides a touch from the recognizer, and its recognition then leaves that touch to the view")
  func ignoringATouch() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    a.isMultipleTouchEnabled = true
    let r = ScriptedRecognizer("r", log: h.log)
    r.onBegan = { r, touches in
      for t in touches where t.location(in: nil).x > 100 { r.ignore(t, for: h.app.currentEvent!) }
    }
    r.onEnded = { r, _ in r.state = .ended }
    a.addGestureRecognizer(r)
    h.frame(1, c(1, .began, 10, 10), c(2, .began, 150, 10))
    #expect(r.numberOfTouches == 1)
    h.frame(1.1, c(1, .ended, 10, 10), c(2, .ended, 150, 10))
    #expect(
      h.log.lines == [
        "r.began(1,2)", "A.began(1,2)", "r.ended(1)", "A.cancelled(1)", "r:ended", "A.ended(2)", "r.reset",
      ])
  }

  @Test("a recognizer in no application applies transitions at once and fires its actions")
  func standaloneRecognizer() {
    let r = GestureRecognizer()
    var fired: [GestureRecognizer.State] = []
    r.addAction { fired.append($0.state) }
    r.state = .began
    r.state = .changed
    r.state = .failed
    r.state = .ended
    #expect(fired == [.began, .changed, .ended])
    #expect(r.state == .ended)
  }
}
