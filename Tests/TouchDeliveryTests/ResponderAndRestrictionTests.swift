import Testing
import TouchdInput

@testable import TouchDelivery

final class RecordingWindow: Window {
  var log: Log?
  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    log?.add("window.began(\(ids(touches)))")
    super.touchesBegan(touches, with: event)
  }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    log?.add("window.ended(\(ids(touches)))")
    super.touchesEnded(touches, with: event)
  }
}

final class RecordingApplication: Application {
  var log: Log?
  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    log?.add("app.began(\(ids(touches)))")
  }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    log?.add("app.ended(\(ids(touches)))")
  }
}

final class RecordingController: ViewController {
  var log: Log?
  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    log?.add("controller.began(\(ids(touches)) view \((touches.first?.view as? RecordingView)?.name ?? "-"))")
    super.touchesBegan(touches, with: event)
  }
}

@Suite("Responder chain") struct ResponderChainTests {
  @Test("a view that does not handle a touches method passes it to its superview")
  func plainViewForwardsToSuperview() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    let plain = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    a.addSubview(plain)
    h.tap(1, 10, 10, at: 1)
    #expect(h.log.lines == ["A.began(1)", "A.ended(1)"])
  }

  @Test("the chain runs view → view controller → superview → window → application")
  func fullChain() {
    let h = Harness(
      app: { RecordingApplication(clock: $0) },
      window: RecordingWindow(frame: Rect(x: 0, y: 0, width: 400, height: 400)))
    (h.app as! RecordingApplication).log = h.log
    (h.window as! RecordingWindow).log = h.log
    let a = h.view("A", Rect(x: 0, y: 0, width: 200, height: 200))
    a.forwards = true
    let b = h.view("B", Rect(x: 0, y: 0, width: 100, height: 100), in: a)
    b.forwards = true
    let controller = RecordingController(view: b)
    controller.log = h.log
    #expect(b.next === controller)
    #expect(controller.next === a)
    #expect(h.window.next === h.app)
    h.tap(1, 10, 10, at: 1)
    #expect(
      h.log.lines == [
        "B.began(1)", "controller.began(1 view B)", "A.began(1)", "window.began(1)", "app.began(1)",
        "B.ended(1)", "A.ended(1)", "window.ended(1)", "app.ended(1)",
      ])
  }
}

@Suite("Restricting touches") struct RestrictionTests {
  @Test(
    "ignoring cancels the touches in progress; touches that begin while ignoring are never delivered; ignoring nests")
  func ignoringInteractionEvents() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 400, height: 400))
    a.isMultipleTouchEnabled = true
    h.frame(1, c(1, .began, 10, 10))
    h.app.beginIgnoringInteractionEvents()
    h.app.beginIgnoringInteractionEvents()
    h.frame(1.1, c(1, .moved, 11, 10), c(2, .began, 50, 50))
    h.app.endIgnoringInteractionEvents()
    #expect(h.app.isIgnoringInteractionEvents)
    h.frame(1.2, c(1, .stationary, 11, 10), c(2, .moved, 55, 50), c(3, .began, 90, 90))
    h.app.endIgnoringInteractionEvents()
    #expect(!h.app.isIgnoringInteractionEvents)
    h.frame(1.3, c(1, .ended, 11, 10), c(2, .moved, 60, 50), c(4, .began, 70, 70))
    h.frame(1.4, c(2, .ended, 60, 50), c(3, .ended, 90, 90), c(4, .ended, 70, 70))
    // Touch 1 was down when ignoring began: cancelled, and its later frames are not delivered.
    #expect(h.log.lines == ["A.began(1)", "A.cancelled(1)", "A.began(4)", "A.ended(4)"])
  }

  @Test("a second touch on a view without multiple touch goes to its recognizers, not the view")
  func multipleTouchDisabled() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 400, height: 400))
    let r = ScriptedRecognizer("r", log: h.log)
    r.onEnded = { r, t in if r.numberOfTouches == 2 && t.count == 2 { r.state = .failed } }
    a.addGestureRecognizer(r)
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .stationary, 10, 10), c(2, .began, 50, 50))
    h.frame(1.2, c(1, .moved, 12, 10), c(2, .moved, 52, 50))
    h.frame(1.3, c(1, .ended, 12, 10), c(2, .ended, 52, 50))
    #expect(
      h.log.lines == [
        "r.began(1)", "A.began(1)", "r.began(2)", "r.moved(1,2)", "A.moved(1)", "r.ended(1,2)", "A.ended(1)",
        "r.reset",
      ])
  }

  @Test("with multiple touch enabled, every touch reaches the view")
  func multipleTouchEnabled() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 400, height: 400))
    a.isMultipleTouchEnabled = true
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .stationary, 10, 10), c(2, .began, 50, 50))
    h.frame(1.2, c(1, .ended, 10, 10), c(2, .ended, 50, 50))
    #expect(h.log.lines == ["A.began(1)", "A.began(2)", "A.ended(1,2)"])
  }

  @Test("an exclusiveTouch view gets no touch while another view has one, nor do its recognizers")
  func exclusiveViewIsBlockedByOthers() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 100, height: 100))
    let x = h.view("X", Rect(x: 200, y: 0, width: 100, height: 100))
    x.isExclusiveTouch = true
    x.addGestureRecognizer(ScriptedRecognizer("xr", log: h.log))
    h.frame(1, c(1, .began, 10, 10))
    h.frame(1.1, c(1, .stationary, 10, 10), c(2, .began, 210, 10))
    h.frame(1.2, c(1, .ended, 10, 10), c(2, .moved, 220, 10))
    h.frame(1.3, c(2, .ended, 220, 10))
    _ = a
    #expect(h.log.lines == ["A.began(1)", "A.ended(1)"])
  }

  @Test("while an exclusiveTouch view has a touch no other view gets a new one; it may get more itself")
  func exclusiveViewBlocksOthers() {
    let h = Harness()
    let a = h.view("A", Rect(x: 0, y: 0, width: 100, height: 100))
    a.addGestureRecognizer(ScriptedRecognizer("ar", log: h.log))
    let x = h.view("X", Rect(x: 200, y: 0, width: 100, height: 100))
    x.isExclusiveTouch = true
    x.isMultipleTouchEnabled = true
    h.frame(1, c(1, .began, 210, 10))
    h.frame(1.1, c(1, .stationary, 210, 10), c(2, .began, 10, 10), c(3, .began, 250, 10))
    h.frame(1.2, c(1, .ended, 210, 10), c(2, .ended, 10, 10), c(3, .ended, 250, 10))
    h.tap(4, 10, 10, at: 2)
    _ = a
    // ar never decides, so A's touchesEnded(4) stays held (delaysTouchesEnded).
    #expect(
      h.log.lines == [
        "X.began(1)", "X.began(3)", "X.ended(1,3)", "ar.began(4)", "A.began(4)", "ar.ended(4)",
      ])
  }
}
