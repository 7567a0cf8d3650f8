import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #15, arbitration and delivery rules, through the scene replay.
@Suite("UIKit rules: arbitration and delivery")
struct ArbitrationRuleTests {
  typealias P = FingerScript.Point

  func photoScene(simultaneous: Bool) -> String {
    ruleScene(
      """
      - id: photo
        frame: {x: 0, y: 0, width: 1000, height: 800}
        multipleTouchEnabled: true
        recognizers:
          - {id: photo-pinch, type: pinch, action: zoom\(simultaneous ? ", simultaneousWith: [close-tap]" : "")}
        views:
          - id: close
            frame: {x: 900, y: 20, width: 80, height: 80}
            recognizers:
              - {id: close-tap, type: tap, action: close}
      """)
  }

  /// Two fingers pinch the photo; while the pinch is active a third finger taps the close button.
  func pinchWithThirdFingerTap() -> FingerScript {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
    s.animate(f, duration: 0.2) { i, t in P(x: i == 0 ? 400 - 50 * t : 600 + 50 * t, y: 400) }
    let tap = s.down([P(x: 940, y: 60)])
    s.wait(0.05)
    s.up(tap)
    s.animate(f, duration: 0.1) { i, t in P(x: i == 0 ? 350 - 20 * t : 650 + 20 * t, y: 400) }
    s.up(f)
    return s
  }

  @Test(
    "an active recognizer excludes related ones without a shared touch: a third finger's tap on a close button inside a photo being pinched does not fire"
  )
  func activeRecognizerExcludesRelated() throws {
    let run = try RuleRun(photoScene(simultaneous: false), pinchWithThirdFingerTap(), trace: true)
    #expect(!run.actionLog.contains("close-tap:ended"))
    #expect(run.causes.contains("close-tap: possible → failed: excluded by 'photo-pinch' (active)"))
    #expect(run.actionLog.first == "photo-pinch:began")
    #expect(run.actionLog.last == "photo-pinch:ended")

    // Simultaneous recognition is the exception.
    let together = try RuleRun(photoScene(simultaneous: true), pinchWithThirdFingerTap())
    #expect(together.actionLog.contains("close-tap:ended"))

    // Once the pinch is over, the same tap fires.
    let s = ruleScript()
    s.pinch(center: P(x: 500, y: 400), fromDistance: 200, toDistance: 300, duration: 0.2)
    s.wait(0.1)
    s.tap(at: P(x: 940, y: 60))
    #expect(try RuleRun(photoScene(simultaneous: false), s).actionLog.last == "close-tap:ended")
  }

  @Test(
    "a recognizer on a sibling view is not excluded by an active one: only the same view or nested views are related")
  func unrelatedViewsAreNotExcluded() throws {
    let scene = ruleScene(
      """
      - id: photo
        frame: {x: 0, y: 0, width: 800, height: 800}
        multipleTouchEnabled: true
        recognizers:
          - {id: photo-pinch, type: pinch, action: zoom}
      - id: sidebar
        frame: {x: 850, y: 0, width: 150, height: 800}
        recognizers:
          - {id: sidebar-tap, type: tap, action: menu}
      """)
    let run = try RuleRun(scene, pinchWithThirdFingerTap())
    #expect(run.actionLog.contains("sidebar-tap:ended"))
  }

  @Test(
    "held touches are released as they were: began at the touch-down point, then one catch-up moved, never one per held frame"
  )
  func heldTouchesReleasedWithTheirState() throws {
    let scene = ruleScene(
      """
      - id: canvas
        frame: {x: 0, y: 0, width: 1000, height: 800}
        touches: true
        recognizers:
          - {id: hold, type: longPress, action: hold, delaysTouchesBegan: true}
      """)
    let s = ruleScript()
    let f = s.down([P(x: 300, y: 300)])
    // 1 pt per frame: the long press fails when the finger is more than 10 pt away, in the 10th
    // frame (scripted 310, reported at its device unit's centre 309.94: 10.01 pt from the
    // touch-down's 299.93).
    s.animate(f, duration: 0.2) { _, t in P(x: 300 + 20 * t, y: 300) }
    s.up(f)
    let run = try RuleRun(scene, s)
    #expect(run.actionLog == [])
    let log = run.touchesLog
    #expect(log.first == "canvas.began(1@300,300)")
    #expect(log.dropFirst().first == "canvas.moved(1@310,300)")
    #expect(log.dropFirst(2).first == "canvas.moved(1@311,300)")
    #expect(log.last == "canvas.ended(1@320,300)")
    // The began, the catch-up and the 10 frames after it, the end.
    #expect(log.count == 1 + 1 + 10 + 1)
    // The began and the catch-up carry the release time (the frame in which the press failed).
    #expect(run.touches[0].time == run.touches[1].time)
  }

  let doubleTapPad = ruleScene(
    """
    - id: pad
      frame: {x: 0, y: 0, width: 1000, height: 800}
      touches: true
      recognizers:
        - {id: double, type: tap, action: zoom, numberOfTapsRequired: 2}
    """)

  @Test("once a recognizer holds touches, later touches are held too: a double tap never shows the view a second began")
  func laterTouchesHeldBehindHeldOnes() throws {
    let s = ruleScript()
    s.doubleTap(at: P(x: 500, y: 400))
    let run = try RuleRun(doubleTapPad, s, trace: true)
    #expect(run.actionLog == ["double:ended"])
    // The trace says who held what.
    let held = run.messages.compactMap { m -> String? in
      guard case .trace(let t) = m, case .held(let touch, let phase, let by) = t.detail else { return nil }
      return "\(touch.id) \(phase) by [\(by.joined(separator: ","))]"
    }
    // Touch 2's began waits behind touch 1's held end; its own end never queues: the recognition
    // (at that lift, before views) took it from the view.
    #expect(held == ["1 ended by [double]", "2 began by []"])
    // The first touch's end was held by the double tap (delaysTouchesEnded); the second touch
    // waited behind it, so the view never saw it; the recognition cancelled the first.
    #expect(run.touchesLog == ["pad.began(1@500,400)", "pad.cancelled(1@500,400)"])
  }

  @Test(
    "once a recognizer holds touches, later touches are held too: when the double tap fails the view sees them one after the other"
  )
  func heldTouchesReleasedInOrderWhenTheRecognizerFails() throws {
    let s = ruleScript()
    s.tap(at: P(x: 500, y: 400))
    s.wait(0.15)
    let f = s.down([P(x: 505, y: 400)])
    s.animate(f, duration: 0.1) { _, t in P(x: 505 + 60 * t, y: 400) }  // moves > 45 pt: fails
    s.up(f)
    let run = try RuleRun(doubleTapPad, s)
    #expect(run.actionLog == [])
    let log = run.touchesLog
    #expect(Array(log.prefix(3)) == ["pad.began(1@500,400)", "pad.ended(1@500,400)", "pad.began(2@505,400)"])
    #expect(log.last == "pad.ended(2@565,400)")
    // The view never has two touches at once (multipleTouchEnabled is false): 1 ended before 2 began.
    var down: Set<Int> = []
    for m in run.touches {
      for t in m.touches {
        if m.touchPhase == .began { down.insert(t.id) }
        if m.touchPhase == .ended || m.touchPhase == .cancelled { down.remove(t.id) }
      }
      #expect(down.count <= 1)
    }
  }

  @Test(
    "ignoring interaction cancels touches in progress and never delivers touches that begin while ignoring (seed 000 §3)"
  )
  func ignoringInteraction() throws {
    let scene = try Scene.parse(
      ruleScene(
        """
        - id: pad
          frame: {x: 0, y: 0, width: 1000, height: 800}
          multipleTouchEnabled: true
          touches: true
        """))
    let s = ruleScript()
    let a = s.down([P(x: 100, y: 100)])  // t = 10
    s.wait(0.1)
    s.move(a, to: [P(x: 120, y: 100)])  // 10.1
    s.wait(0.1)
    let b = s.down([P(x: 500, y: 500)])  // 10.2, while ignoring
    s.wait(0.1)
    s.up(a + b)  // 10.3
    s.wait(0.1)
    s.tap(at: P(x: 700, y: 700))  // 10.4, after ignoring ended

    // As `touchctl replay --at 0.15 '{"cmd":"ignoreInteraction","value":true}' --at 0.35 …false`.
    let messages = try ScenePlayer.replay(
      s.recording, scene: scene,
      commands: [
        .init(at: 0.15, .ignoreInteraction(true)), .init(at: 0.35, .ignoreInteraction(false)),
      ])
    let log = messages.compactMap { m -> String? in
      guard case .touches(let t) = m else { return nil }
      return "\(t.phase)(\(t.touches.map { String($0.id) }.joined(separator: ",")))"
    }
    #expect(log == ["began(1)", "moved(1)", "cancelled(1)", "began(3)", "ended(3)"])
  }
}

/// The trace's own wording, through the scene replay (what `--explain` prints).
@Suite("Trace causes")
struct TraceCauseTests {
  typealias P = FingerScript.Point

  @Test("a touch that lands on a view covering a recognizer's view says so: outside the recognizer's view")
  func outsideTheRecognizersView() throws {
    let scene = ruleScene(
      """
      - id: door
        frame: {x: 100, y: 100, width: 300, height: 300}
        recognizers:
          - {id: door-tap, type: tap, action: open}
      - id: banner
        frame: {x: 0, y: 0, width: 1000, height: 200}
      """)
    let s = ruleScript()
    s.tap(at: P(x: 200, y: 150))  // inside the door, but the banner is in front
    let run = try RuleRun(scene, s, trace: true)
    #expect(run.actionLog == [])
    let notes = run.messages.compactMap { m -> [String]? in
      guard case .trace(let t) = m, case .touchBegan(_, _, _, let recognizers, let notes) = t.detail else { return nil }
      #expect(recognizers == [])
      return notes
    }
    #expect(
      notes == [
        ["'door-tap' does not get it: touch began in view 'banner', outside the recognizer's view 'door'"]
      ])
  }

  @Test("numbers in causes: points to one decimal, seconds to three, no trailing zeros")
  func numbers() {
    #expect(traceNumber(46.24) == "46.2")
    #expect(traceNumber(45) == "45")
    #expect(traceNumber(-0.06) == "-0.1")
    #expect(traceNumber(0.04) == "0")
    #expect(traceNumber(0.35, decimals: 3) == "0.35")
    #expect(traceNumber(0.25, decimals: 3) == "0.25")
    #expect(traceNumber(1.5, decimals: 3) == "1.5")
    #expect(traceNumber(10.0004, decimals: 3) == "10")
  }
}
