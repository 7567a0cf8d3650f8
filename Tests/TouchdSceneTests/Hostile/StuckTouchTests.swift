import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #20, hostile devices: a slot that never lifts (a stuck or ghost touch) and the scene's
/// `stuckTouchTimeout`, which cancels a touch that has not moved for that long (off by default).
@Suite("Hostile devices: stuck touches and stuckTouchTimeout")
struct StuckTouchTests {
  typealias P = FingerScript.Point

  /// A full-window view `v` publishing its touches, with a long press and a tap that leave it its
  /// touches; `top` goes before `windows:` (the timeout).
  func scene(top: String) -> String {
    hostileScene(
      """
      - id: v
        frame: {x: 0, y: 0, width: 1000, height: 800}
        touches: true
        multipleTouchEnabled: true
        recognizers:
          - {id: press, type: longPress, action: p, cancelsTouchesInView: false}
          - {id: tap, type: tap, action: t, cancelsTouchesInView: false}
      """, top: top)
  }

  /// A finger put down at 10 s and left still; at 13 s it moves, at 13.1 s it lifts; at 14 s
  /// another finger taps.
  func ghostThenTap(_ s: FingerScript) {
    let ghost = s.down([P(x: 500, y: 400)])
    s.wait(3)
    s.move(ghost, to: [P(x: 600, y: 400)])
    s.wait(0.1)
    s.up(ghost)
    s.wait(0.9)
    s.tap(at: P(x: 200, y: 200))
  }

  @Test(
    "a still finger is cancelled after stuckTouchTimeout, at the deadline; its later movement and lift are ignored; a new touch works",
    arguments: SyntheticDeviceKind.allCases)
  func stillFingerIsCancelled(kind: SyntheticDeviceKind) throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    ghostThenTap(s)
    let run = try HostileRun(scene(top: "stuckTouchTimeout: 2"), kind.encode(s.recording))
    #expect(
      run.log == [
        "touches v began 1",
        "press: possible → began: held minimumPressDuration 0.5 s",
        "tap: possible → failed: prevented by 'press' (began), which shares a touch",
        "action press began @500",
        "press: began → cancelled: its touches were cancelled: it did not move for 2.0 s (stuckTouchTimeout)",
        "action press cancelled @2000",
        "touches v cancelled 1",
        "press: cancelled → possible: reset: every touch it received has ended",
        "tap: failed → possible: reset: every touch it received has ended",
        // 13 s and 13.1 s: the ghost moves and lifts, ignored. 14 s: a tap.
        "touches v began 2",
        "press: possible → failed: lifted before minimumPressDuration 0.5 s",
        "tap: possible → ended: tap 1 of 1 lifted",
        "action tap ended @4050",
        "touches v ended 2",
        "press: failed → possible: reset: every touch it received has ended",
        "tap: ended → possible: reset: every touch it received has ended",
      ])
    // The cancellation is at the deadline: 2 s after the touch last moved (its touch-down).
    let cancelled = try #require(
      run.messages.compactMap { m -> TouchesMessage? in
        if case .touches(let t) = m, t.touchPhase == .cancelled { t } else { nil }
      }.first)
    #expect(cancelled.time == 12)
  }

  @Test("off by default: the same still finger stays down until it lifts", arguments: SyntheticDeviceKind.allCases)
  func offByDefault(kind: SyntheticDeviceKind) throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    ghostThenTap(s)
    let run = try HostileRun(scene(top: ""), kind.encode(s.recording))
    #expect(
      run.log.filter { $0.hasPrefix("touches ") || $0.hasPrefix("action ") } == [
        "touches v began 1",
        "action press began @500",
        "action press changed @3000",
        "touches v moved 1",
        "action press ended @3100",
        "touches v ended 1",
        "touches v began 2",
        "action tap ended @4050",
        "touches v ended 2",
      ])
  }

  @Test("a finger that moves within each timeout is never cancelled; once still, 2 s after its last move it is")
  func movingFingerIsNotCancelled() throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    let f = s.down([P(x: 500, y: 400)])
    for step in 1...4 {
      s.wait(1.5)
      s.move(f, to: [P(x: 500 + Double(step) * 10, y: 400)])
    }
    // Last move at 16 s; still from then on; lifted at 19 s.
    s.wait(3)
    s.up(f)
    let run = try HostileRun(
      hostileScene(
        "- {id: v, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}", top: "stuckTouchTimeout: 2"),
      s.recording)
    #expect(
      run.messages.compactMap { m -> String? in
        guard case .touches(let t) = m else { return nil }
        return "\(t.phase)@\(run.ms(t.time))"
      } == ["began@0", "moved@1500", "moved@3000", "moved@4500", "moved@6000", "cancelled@8000"])
  }

  @Test("of two fingers only the still one is cancelled; the moving one goes on and ends")
  func onlyTheStillFingerIsCancelled() throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    let still = s.down([P(x: 200, y: 400)])
    let moving = s.down([P(x: 600, y: 400)])
    s.animate(moving, duration: 3) { _, t in P(x: 600 + 100 * t, y: 400) }
    s.up(moving + still)
    let run = try HostileRun(
      hostileScene(
        "- {id: v, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true, multipleTouchEnabled: true}",
        top: "stuckTouchTimeout: 2"),
      s.recording)
    let touches = run.messages.compactMap { m -> TouchesMessage? in if case .touches(let t) = m { t } else { nil } }
    let cancelled = touches.filter { $0.touchPhase == .cancelled }
    #expect(cancelled.map { $0.touches.map(\.id) } == [[1]])
    #expect(cancelled.map { run.ms($0.time) } == [2000])
    #expect(touches.filter { $0.touchPhase == .ended }.map { $0.touches.map(\.id) } == [[2]])
    // After the cancel, the view hears only finger 2.
    let after = touches.drop { $0.touchPhase != .cancelled }.dropFirst()
    #expect(!after.isEmpty && after.allSatisfy { $0.touches.map(\.id) == [2] })
  }

  @Test("the timer is armed only while a touch is down, and once per timeout however often a finger moves")
  func timerOnlyWhileTouched() throws {
    let scene = try Scene.parse(
      hostileScene(
        "- {id: v, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}", top: "stuckTouchTimeout: 2"))
    let clock = VirtualClock(now: 10)
    var messages: [Message] = []
    let runtime = SceneRuntime(scene: scene, clock: clock) { messages.append($0) }
    #expect(runtime.application.stuckTouchTimeout == 2)
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    let f = s.down([P(x: 500, y: 400)])
    s.animate(f, duration: 1) { _, t in P(x: 500 + 100 * t, y: 400) }
    s.up(f)
    var deadlines: [Double?] = []
    Replay.forEachFrame(of: s.recording) { frame in
      clock.advance(to: frame.time.seconds)
      runtime.handle(frame, inWindow: 0)
      deadlines.append(clock.nextDeadline)
    }
    // Armed at the touch-down for 12 s and left there while the finger moves (100 frames); gone
    // with the lift.
    #expect(deadlines.first == 12)
    #expect(deadlines.dropFirst().dropLast().allSatisfy { $0 == 12 })
    #expect(deadlines.last == .some(nil))
    #expect(runtime.application.stuckTouchesCancelled == 0)
    // Nothing down, nothing armed: an idle daemon has no wake-ups.
    clock.advance(to: 100)
    #expect(clock.nextDeadline == nil)
  }

  @Test("a scene without stuckTouchTimeout has none; 0, a negative number or a string is an error naming its place")
  func sceneKey() throws {
    #expect(try Scene.parse(hostileScene("[]")).stuckTouchTimeout == nil)
    #expect(try Scene.parse(hostileScene("[]", top: "stuckTouchTimeout: 30")).stuckTouchTimeout == 30)
    #expect(try Scene.parse(hostileScene("[]", top: "stuckTouchTimeout: 0.25")).stuckTouchTimeout == 0.25)
    func error(_ value: String) -> String? {
      do {
        _ = try Scene.parse(hostileScene("[]", top: "stuckTouchTimeout: \(value)"), file: "kiosk.yaml")
        return nil
      } catch {
        return error.diagnostics.map(\.description).joined(separator: "\n")
      }
    }
    #expect(error("0") == "kiosk.yaml:2:20: error: 'stuckTouchTimeout' in scene must be greater than 0, found 0")
    #expect(error("-5") == "kiosk.yaml:2:20: error: 'stuckTouchTimeout' in scene must be greater than 0, found -5")
    #expect(error("\"30\"") == "kiosk.yaml:2:20: error: 'stuckTouchTimeout' in scene must be a number, found '30'")
    #expect(error(".inf")?.hasPrefix("kiosk.yaml:2:20: error: 'stuckTouchTimeout' in scene must be") == true)
  }
}
