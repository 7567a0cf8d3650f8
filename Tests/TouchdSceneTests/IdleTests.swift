import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The scene's `idle:`: `idle` after `after` seconds without a touch or press, `active` at the
/// next one, and `wake: swallow` keeping the waking input from the views.
@Suite("Idle and wake")
struct IdleTests {
  /// A 1000×800 window with a button-sized view `buy` (a tap recognizer, touches published) on a
  /// view `pad` handling presses, and the scene-level `idle` given.
  static func scene(_ idle: String) throws -> Scene { try Scene.parse(yaml(idle), file: "idle.yaml") }

  static func yaml(_ idle: String) -> String {
    """
    version: 1
    idle: \(idle)
    windows:
      - id: main
        size: {width: 1000, height: 800}
        devices: ["touchd synthetic*"]
        keys:
          devices: ["Kiosk Keypad"]
          map: {KEY_ENTER: select, KEY_F1: menu, KEY_UP: upArrow}
        firstResponder: pad
        views:
          - id: pad
            frame: {x: 0, y: 0, width: 1000, height: 800}
            presses: true
            views:
              - id: buy
                frame: {x: 400, y: 300, width: 200, height: 200}
                touches: true
                recognizers:
                  - {id: buy-tap, type: tap, action: buy}
    """
  }

  /// One line per message: `idle @T`, `active @T [swallowed]`, `action buy`, `touches began|cancelled`,
  /// `presses began|ended KEY`; times in seconds to the millisecond.
  static func log(_ messages: [Message]) -> [String] {
    func t(_ time: Double) -> String { String(format: "%.3f", time) }
    return messages.compactMap { message -> String? in
      switch message {
      case .idle(let m): return "\(m.state) @\(t(m.time))" + (m.swallowed == true ? " swallowed" : "")
      case .action(let a): return "action \(a.action) \(a.state ?? "") @\(t(a.time))"
      case .touches(let m): return "touches \(m.phase) @\(t(m.time))"
      case .presses(let p):
        return "presses \(p.phase) \(p.presses.map(\.key).joined(separator: ",")) @\(t(p.time))"
      default: return nil
      }
    }
  }

  /// Taps on `buy` at 1.0, 4.0 and 4.5 s (each 50 ms long).
  static func taps() -> Recording {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    script.tap(at: .init(x: 500, y: 400))
    script.wait(2.95)
    script.tap(at: .init(x: 500, y: 400))
    script.wait(0.45)
    script.tap(at: .init(x: 500, y: 400))
    return script.recording
  }

  @Test("idle 2 s after the last input; the next tap makes the scene active and is delivered (wake: deliver)")
  func deliver() throws {
    let messages = try ScenePlayer.replay(Self.taps(), scene: Self.scene("{after: 2}"))
    #expect(
      Self.log(messages) == [
        "touches began @1.000", "touches cancelled @1.050", "action buy ended @1.050",
        "idle @3.050",
        "active @4.000", "touches began @4.000", "touches cancelled @4.050", "action buy ended @4.050",
        "touches began @4.500", "touches cancelled @4.550", "action buy ended @4.550",
        "idle @6.550",
      ])
    // The lines as clients get them: the idle message carries the last input's time.
    let idle = try #require(messages.first { $0.type == "idle" })
    #expect(idle.jsonLine == #"{"type":"idle","seq":4,"state":"idle","time":3.05,"lastInput":1.05,"swallowed":false}"#)
    let active = try #require(messages.first { if case .idle(let m) = $0 { !m.isIdle } else { false } })
    #expect(
      active.jsonLine == #"{"type":"idle","seq":5,"state":"active","time":4,"lastInput":4,"swallowed":false}"#)
  }

  @Test("wake: swallow: the tap that wakes reaches no view or recognizer, from its down to its lift; the next one does")
  func swallow() throws {
    let messages = try ScenePlayer.replay(Self.taps(), scene: Self.scene("{after: 2, wake: swallow}"))
    #expect(
      Self.log(messages) == [
        "touches began @1.000", "touches cancelled @1.050", "action buy ended @1.050",
        "idle @3.050",
        "active @4.000 swallowed",
        "touches began @4.500", "touches cancelled @4.550", "action buy ended @4.550",
        "idle @6.550",
      ])
  }

  @Test("A finger resting longer than `after` keeps the scene active; idle comes `after` seconds past its lift")
  func restingFinger() throws {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    let finger = script.down([.init(x: 100, y: 100)])
    script.wait(5)
    script.up(finger)
    let messages = try ScenePlayer.replay(script.recording, scene: Self.scene("{after: 2}"))
    #expect(Self.log(messages) == ["idle @8.000"])
  }

  @Test("A second finger that lands while the swallowed waking finger is down is delivered")
  func secondFingerDuringSwallowedWake() throws {
    // A tap beside the button at 1.0 s (the replay's start), idle at 1.55, then the waking finger
    // at 2.05, and a tap on the button while it is down.
    let early = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    early.tap(at: .init(x: 100, y: 100))
    early.wait(1)
    let down = early.down([.init(x: 100, y: 100)])
    early.wait(0.1)
    early.tap(at: .init(x: 500, y: 400))
    early.wait(0.1)
    early.up(down)
    let woken = try ScenePlayer.replay(early.recording, scene: Self.scene("{after: 0.5, wake: swallow}"))
    #expect(
      Self.log(woken) == [
        "idle @1.550", "active @2.050 swallowed",
        "touches began @2.150", "touches cancelled @2.200", "action buy ended @2.200",
        "idle @2.800",
      ])
  }

  @Test("Keys: a held key keeps the scene active; with swallow the waking key's down and up make no press")
  func keys() throws {
    let keypad = try RecordingReader.load(path: keypadFixturePath)
    // ENTER 0.1-0.25 s, F1 0.5-1.5 s, UP 2.0-2.4 s.
    let delivered = try ScenePlayer.replay(keypad, scene: Self.scene("{after: 0.2}"))
    #expect(
      Self.log(delivered) == [
        "presses began KEY_ENTER @0.100", "presses ended KEY_ENTER @0.250", "idle @0.450",
        "active @0.500", "presses began KEY_F1 @0.500", "presses ended KEY_F1 @1.500", "idle @1.700",
        "active @2.000", "presses began KEY_UP @2.000", "presses ended KEY_UP @2.400", "idle @2.600",
      ])
    let swallowed = try ScenePlayer.replay(keypad, scene: Self.scene("{after: 0.2, wake: swallow}"))
    #expect(
      Self.log(swallowed) == [
        "presses began KEY_ENTER @0.100", "presses ended KEY_ENTER @0.250", "idle @0.450",
        "active @0.500 swallowed", "idle @1.700", "active @2.000 swallowed", "idle @2.600",
      ])
  }

  @Test("Steady input costs one timer wake-up per `after` seconds, and an idle scene has no timer")
  func timerBudget() throws {
    let clock = VirtualClock(now: 0)
    var messages: [Message] = []
    let runtime = SceneRuntime(scene: try Self.scene("{after: 1}"), clock: clock) { messages.append($0) }
    // A finger moving at 120 Hz for 3 s, then lifted.
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0)
    let finger = script.down([.init(x: 100, y: 100)])
    script.animate(finger, duration: 3) { _, t in .init(x: 100 + 200 * t, y: 100) }
    script.up(finger)
    var wakeups = 0
    for frame in Replay.frames(of: script.recording) {
      while let deadline = clock.nextDeadline, deadline <= frame.time.seconds {
        wakeups += 1
        clock.advance(to: deadline)
      }
      clock.advance(to: frame.time.seconds)
      runtime.handle(frame, inWindow: 0)
    }
    // At most one pending timer at any time: armed at 1, 2, 3 (each fire re-arms for the real deadline).
    #expect(wakeups == 3)
    clock.runUntilIdle()
    #expect(runtime.idleState?.isIdle == true)
    #expect(clock.nextDeadline == nil)
    #expect(Self.log(messages) == ["idle @4.000"])
  }

  @Test("A reload's runtime takes over the idle state: no new message, the time without input keeps counting")
  func continueAfterReload() throws {
    let clock = VirtualClock(now: 0)
    var messages: [Message] = []
    let first = SceneRuntime(scene: try Self.scene("{after: 1}"), clock: clock) { messages.append($0) }
    clock.advance(to: 1.5)
    #expect(first.idleState?.isIdle == true)
    let second = SceneRuntime(scene: try Self.scene("{after: 1}"), clock: clock) { messages.append($0) }
    second.continueIdle(from: first)
    #expect(second.idleState?.isIdle == true)
    clock.runUntilIdle()
    #expect(Self.log(messages) == ["idle @1.000"])
    // Active, 0.6 s after the last input: the new runtime goes idle 1 s after that input, not after the reload.
    let third = SceneRuntime(scene: try Self.scene("{after: 1}"), clock: clock) { messages.append($0) }
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 2)
    script.tap(at: .init(x: 100, y: 100))
    for frame in Replay.frames(of: script.recording) {
      clock.advance(to: frame.time.seconds)
      third.handle(frame, inWindow: 0)
    }
    clock.advance(to: 2.65)
    let fourth = SceneRuntime(scene: try Self.scene("{after: 1}"), clock: clock) { messages.append($0) }
    fourth.continueIdle(from: third)
    clock.runUntilIdle()
    #expect(Self.log(messages).suffix(1) == ["idle @3.050"])
    #expect(messages.filter { $0.type == "idle" }.count == 2)  // the first's and the fourth's
  }

  @Test("No idle: key without it, and the scene file's errors name the place")
  func format() throws {
    let plain = try Scene.parse(
      """
      version: 1
      windows: [{id: main, size: {width: 10, height: 10}}]
      """)
    #expect(plain.idle == nil)
    #expect(try Self.scene("{after: 30}").idle == Scene.Idle(after: 30, wake: .deliver))
    #expect(try Self.scene("{after: 0.5, wake: swallow}").idle == Scene.Idle(after: 0.5, wake: .swallow))
    func errors(_ idle: String) -> [String] {
      do {
        _ = try Scene.parse(Self.yaml(idle), file: "idle.yaml")
        return []
      } catch {
        return error.diagnostics.map(\.description)
      }
    }
    #expect(errors("{after: 0}") == ["idle.yaml:2:15: error: 'after' in idle of scene must be greater than 0, found 0"])
    #expect(
      errors("{after: 5, wake: swalow}") == [
        "idle.yaml:2:24: error: 'wake' in idle of scene must be one of deliver, swallow, found 'swalow' (did you mean 'swallow'?)"
      ])
    #expect(errors("{wake: deliver}").first?.contains("missing") == true)
  }
}
