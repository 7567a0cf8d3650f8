import Testing
import TouchdInput

@testable import TouchDelivery

/// How recognizers take touches from views: seed 000 §5 and seed 003's worked example.
@Suite("Recognizers and views") struct GestureDeliveryTests {
  /// View A with subview B; the recognizer is attached to A, the finger lands on B.
  func seedExample(_ h: Harness, _ r: GestureRecognizer) {
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    h.view("B", Rect(x: 50, y: 50, width: 100, height: 100), in: a)
    a.addGestureRecognizer(r)
  }

  @Test("a tap recognizer on A cancels the touch in subview B, which never hears touchesEnded")
  func seed003WorkedExample() {
    let h = Harness()
    let tap = ScriptedRecognizer.tap("tap", log: h.log)
    seedExample(h, tap)
    h.tap(1, 60, 60, at: 1)
    #expect(h.log.lines == ["tap.began(1)", "B.began(1)", "tap.ended(1)", "B.cancelled(1)", "tap:ended", "tap.reset"])
  }

  @Test("with cancelsTouchesInView false, B hears touchesEnded after the action")
  func seed003WithoutCancelling() {
    let h = Harness()
    let tap = ScriptedRecognizer.tap("tap", log: h.log)
    tap.cancelsTouchesInView = false
    seedExample(h, tap)
    h.tap(1, 60, 60, at: 1)
    #expect(h.log.lines == ["tap.began(1)", "B.began(1)", "tap.ended(1)", "tap:ended", "B.ended(1)", "tap.reset"])
  }

  @Test("the defaults are UIKit's: cancels touches, does not delay began, delays ended")
  func defaults() {
    let r = GestureRecognizer()
    #expect(r.cancelsTouchesInView)
    #expect(!r.delaysTouchesBegan)
    #expect(r.delaysTouchesEnded)
    #expect(r.state == .possible)
    #expect(r.isEnabled)
  }

  @Test("a continuous recognizer takes the touch from the view when it begins; actions follow every change")
  func continuousRecognition() {
    let h = Harness()
    let pan = ScriptedRecognizer.pan("pan", log: h.log)
    seedExample(h, pan)
    h.frame(1, c(1, .began, 60, 60))
    h.frame(1.1, c(1, .moved, 70, 60))
    h.frame(1.2, c(1, .moved, 80, 60))
    h.frame(1.3, c(1, .moved, 90, 60))
    h.frame(1.4, c(1, .ended, 90, 60))
    #expect(
      h.log.lines == [
        "pan.began(1)", "B.began(1)", "pan.moved(1)", "B.moved(1)", "pan.moved(1)", "B.cancelled(1)", "pan:began",
        "pan.moved(1)", "pan:changed", "pan.ended(1)", "pan:ended", "pan.reset",
      ])
  }

  @Test("a failed recognizer gets no more touches, and the view keeps getting them")
  func failedRecognizerLetsGo() {
    let h = Harness()
    let r = ScriptedRecognizer("r", log: h.log)
    r.onMoved = { r, _ in r.state = .failed }
    seedExample(h, r)
    h.frame(1, c(1, .began, 60, 60))
    h.frame(1.1, c(1, .moved, 70, 60))
    h.frame(1.2, c(1, .moved, 80, 60))
    h.frame(1.3, c(1, .ended, 80, 60))
    #expect(
      h.log.lines == [
        "r.began(1)", "B.began(1)", "r.moved(1)", "B.moved(1)", "B.moved(1)", "B.ended(1)", "r.reset",
      ])
  }

  @Test(
    "delaysTouchesBegan holds every phase back until the recognizer fails, then delivers began and one catch-up moved")
  func delaysTouchesBeganThenFails() {
    let h = Harness()
    let r = ScriptedRecognizer("r", log: h.log)
    r.delaysTouchesBegan = true
    r.onMoved = { r, _ in if r.moves == 2 { r.state = .failed } }
    seedExample(h, r)
    h.frame(1, c(1, .began, 60, 60))
    h.frame(1.1, c(1, .moved, 70, 60))
    #expect(h.log.take() == ["r.began(1)", "r.moved(1)"])
    h.frame(1.2, c(1, .moved, 80, 60))
    // Two held moves become one catch-up move (UIKit does not replay every held frame).
    #expect(h.log.take() == ["r.moved(1)", "B.began(1)", "B.moved(1)"])
    h.frame(1.3, c(1, .ended, 80, 60))
    #expect(h.log.take() == ["B.ended(1)", "r.reset"])
  }

  @Test("with delaysTouchesBegan, a recognized gesture's touches never reach the view")
  func delaysTouchesBeganThenRecognizes() {
    let h = Harness()
    let pan = ScriptedRecognizer.pan("pan", log: h.log)
    pan.delaysTouchesBegan = true
    seedExample(h, pan)
    h.frame(1, c(1, .began, 60, 60))
    h.frame(1.1, c(1, .moved, 70, 60))
    h.frame(1.2, c(1, .moved, 80, 60))
    h.frame(1.3, c(1, .ended, 80, 60))
    #expect(
      h.log.lines == [
        "pan.began(1)", "pan.moved(1)", "pan.moved(1)", "pan:began", "pan.ended(1)", "pan:ended", "pan.reset",
      ])
  }

  /// A recognizer that decides `outcome` 0.5 s after touch-down, by its timer.
  func decidesByTimer(_ h: Harness, _ outcome: GestureRecognizer.State) -> ScriptedRecognizer {
    let r = ScriptedRecognizer("r", log: h.log)
    r.onBegan = { r, _ in
      r.timer = r.schedule(after: 0.5) {
        r.log.add("r.timer")
        r.state = outcome
      }
    }
    r.onCancelled = { _, _ in }
    return r
  }

  @Test("delaysTouchesEnded holds touchesEnded until the recognizer fails, then delivers it")
  func delaysTouchesEndedThenFails() {
    let h = Harness()
    seedExample(h, decidesByTimer(h, .failed))
    h.tap(1, 60, 60, at: 1)
    #expect(h.log.take() == ["r.began(1)", "B.began(1)", "r.ended(1)"])
    h.clock.advance(to: 2)
    #expect(h.log.take() == ["r.timer", "B.ended(1)", "r.reset"])
  }

  @Test("delaysTouchesEnded turns the held touchesEnded into touchesCancelled when the recognizer recognizes")
  func delaysTouchesEndedThenRecognizes() {
    let h = Harness()
    seedExample(h, decidesByTimer(h, .ended))
    h.tap(1, 60, 60, at: 1)
    #expect(h.log.take() == ["r.began(1)", "B.began(1)", "r.ended(1)"])
    h.clock.advance(to: 2)
    #expect(h.log.take() == ["r.timer", "B.cancelled(1)", "r:ended", "r.reset"])
  }

  @Test("without delaysTouchesEnded the view hears touchesEnded at once, and a later recognition cancels nothing")
  func noDelaysTouchesEnded() {
    let h = Harness()
    let r = decidesByTimer(h, .ended)
    r.delaysTouchesEnded = false
    seedExample(h, r)
    h.tap(1, 60, 60, at: 1)
    #expect(h.log.take() == ["r.began(1)", "B.began(1)", "r.ended(1)", "B.ended(1)"])
    h.clock.advance(to: 2)
    #expect(h.log.take() == ["r.timer", "r:ended", "r.reset"])
  }

  @Test("a recognizer that recognizes on touch-down keeps the touch from the view entirely")
  func recognizedBeforeTheViewHearsOfIt() {
    let h = Harness()
    let down = ScriptedRecognizer("down", log: h.log)
    down.onBegan = { r, _ in r.state = .ended }
    seedExample(h, down)
    h.tap(1, 60, 60, at: 1)
    h.tap(2, 60, 60, at: 2)
    // Recognized while the finger is down, it stays .ended until the finger lifts, then resets.
    #expect(
      h.log.lines == ["down.began(1)", "down:ended", "down.reset", "down.began(2)", "down:ended", "down.reset"])
  }

  @Test("a new touch joining an active recognizer that cancels touches never reaches the view")
  func touchJoiningActiveRecognizer() {
    let h = Harness()
    let pan = ScriptedRecognizer.pan("pan", log: h.log)
    seedExample(h, pan)
    h.frame(1, c(1, .began, 60, 60))
    h.frame(1.1, c(1, .moved, 70, 60))
    h.frame(1.2, c(1, .moved, 80, 60))
    h.log.lines = []
    h.frame(1.3, c(1, .stationary, 80, 60), c(2, .began, 100, 100))
    h.frame(1.4, c(1, .ended, 80, 60), c(2, .ended, 100, 100))
    #expect(h.log.lines == ["pan.began(2)", "pan.ended(1,2)", "pan:ended", "pan.reset"])
  }
}
