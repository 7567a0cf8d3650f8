import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The door scene of the trace tests: one 1000 x 800 window `w`, a view `door` at (100, 100)
/// 400 x 400 publishing touches, with a tap `door-tap` (allowableMovement 45) for `open-door`.
let doorSceneYAML = """
  version: 1
  windows:
    - id: w
      size: {width: 1000, height: 800}
      views:
        - id: door
          frame: {x: 100, y: 100, width: 400, height: 400}
          touches: true
          recognizers:
            - id: door-tap
              type: tap
              action: open-door
              allowableMovement: 45
  """

/// A finger down at (200, 300), moved 60 pt right in one frame 50 ms later, lifted 50 ms after
/// that (t = 10 s on).
func movedTapScript() -> FingerScript {
  let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
  let f = s.down([.init(x: 200, y: 300)])
  s.wait(0.05)
  s.move(f, to: [.init(x: 260, y: 300)])
  s.wait(0.05)
  s.up(f)
  return s
}

/// A tap in progress when ignoring begins (down at 10.0, up at 10.15), a tap that begins while
/// ignoring (10.3–10.35), and one after ignoring ends (10.7–10.75), all at (200, 300); ignoring
/// is meant to run from +0.1 to +0.5.
func ignoringScript() -> FingerScript {
  let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
  let p = FingerScript.Point(x: 200, y: 300)
  s.tap(at: p, duration: 0.15)
  s.wait(0.15)
  s.tap(at: p, duration: 0.05)
  s.wait(0.35)
  s.tap(at: p, duration: 0.05)
  return s
}

/// The trace messages of `messages`, in order.
func traces(_ messages: [Message]) -> [TraceMessage] {
  messages.compactMap { if case .trace(let t) = $0 { t } else { nil } }
}

/// The messages other than trace messages, in order.
func untraced(_ messages: [Message]) -> [Message] {
  messages.filter { if case .trace = $0 { false } else { true } }
}

@Suite("Trace: messages, explanation, timed commands")
struct TraceTests {
  let door = TraceMessage.RecognizerInfo(id: "door-tap", gesture: .tap, view: "door", window: "main")
  let touch = TraceMessage.TouchInfo(id: 3, view: "x", window: "w")

  func line(_ event: TraceMessage.Event) -> String { Message.trace(TraceMessage(time: 12.5, event: event)).jsonLine }

  @Test("Each trace event is one JSON line: type, time, event, then its fields in order; no seq")
  func jsonLines() {
    #expect(
      line(.recognizer(door, from: .possible, to: .failed, cause: "moved 46.2 pt > allowableMovement 45"))
        == #"{"type":"trace","time":12.5,"event":"recognizer","recognizer":"door-tap","gesture":"tap","view":"door","window":"main","from":"possible","to":"failed","cause":"moved 46.2 pt > allowableMovement 45"}"#
    )
    #expect(
      line(.waiting(door, to: .ended, requirement: "door-double"))
        == #"{"type":"trace","time":12.5,"event":"waiting","recognizer":"door-tap","gesture":"tap","view":"door","window":"main","to":"ended","requirement":"door-double"}"#
    )
    #expect(
      line(
        .touchBegan(
          touch, location: Point(x: 412, y: 300.25), tapCount: 2, recognizers: ["a", "b"],
          notes: [#"'c' is "disabled""#]))
        == #"{"type":"trace","time":12.5,"event":"touchBegan","touch":3,"view":"x","window":"w","location":{"x":412,"y":300.25},"tapCount":2,"recognizers":["a","b"],"notes":["'c' is \"disabled\""]}"#
    )
    #expect(
      line(.touchBegan(touch, location: Point(x: 1, y: 2), tapCount: 1, recognizers: [], notes: []))
        == #"{"type":"trace","time":12.5,"event":"touchBegan","touch":3,"view":"x","window":"w","location":{"x":1,"y":2},"tapCount":1,"recognizers":[],"notes":[]}"#
    )
    #expect(
      line(.touchSwallowed(touch: 4, window: "w", location: Point(x: 5, y: 6), reason: "no view was hit"))
        == #"{"type":"trace","time":12.5,"event":"touchSwallowed","touch":4,"window":"w","location":{"x":5,"y":6},"reason":"no view was hit"}"#
    )
    #expect(
      line(.touchSwallowed(touch: 4, window: nil, location: Point(x: 5, y: 6), reason: "no window has a view there"))
        == #"{"type":"trace","time":12.5,"event":"touchSwallowed","touch":4,"window":null,"location":{"x":5,"y":6},"reason":"no window has a view there"}"#
    )
    #expect(
      line(.held(touch, phase: .began, by: ["door-double"]))
        == #"{"type":"trace","time":12.5,"event":"held","touch":3,"view":"x","window":"w","phase":"began","by":["door-double"]}"#
    )
    #expect(
      line(.held(touch, phase: .moved, by: []))
        == #"{"type":"trace","time":12.5,"event":"held","touch":3,"view":"x","window":"w","phase":"moved","by":[]}"#
    )
    #expect(
      line(.released(touch, phase: .ended, location: Point(x: 7.5, y: 8)))
        == #"{"type":"trace","time":12.5,"event":"released","touch":3,"view":"x","window":"w","phase":"ended","location":{"x":7.5,"y":8}}"#
    )
    #expect(
      line(.cancelledInView(touch, by: "door-pan"))
        == #"{"type":"trace","time":12.5,"event":"cancelledInView","touch":3,"view":"x","window":"w","by":"door-pan"}"#
    )
    let unnamed = TraceMessage.RecognizerInfo(id: "TapGestureRecognizer", gesture: nil, view: "v", window: "w")
    #expect(
      line(.recognizer(unnamed, from: .ended, to: .possible, cause: "reset"))
        == #"{"type":"trace","time":12.5,"event":"recognizer","recognizer":"TapGestureRecognizer","gesture":null,"view":"v","window":"w","from":"ended","to":"possible","cause":"reset"}"#
    )
    let message = Message.trace(TraceMessage(time: 1, event: .cancelledInView(touch, by: "p")))
    #expect(message.seq == nil)
    #expect(message.type == "trace")
    #expect(TraceMessage(time: 1, event: .held(touch, phase: .began, by: [])).view == "x")
    #expect(TraceMessage(time: 1, event: .waiting(door, to: .ended, requirement: "q")).view == "door")
    #expect(
      TraceMessage(time: 1, event: .touchSwallowed(touch: 1, window: "w", location: Point(x: 0, y: 0), reason: ""))
        .view == nil)
  }

  @Test("--explain lines: time after the origin to the millisecond, then what happened")
  func explanationLines() {
    func text(_ event: TraceMessage.Event, at time: Double = 10.412) -> String {
      Explanation.line(.trace(TraceMessage(time: time, event: event)), origin: 10)
    }
    #expect(
      text(.recognizer(door, from: .possible, to: .failed, cause: "moved 46.2 pt > allowableMovement 45"))
        == "+0.412 door-tap: possible → failed: moved 46.2 pt > allowableMovement 45")
    #expect(
      text(.waiting(door, to: .ended, requirement: "door-double"), at: 22)
        == "+12.000 door-tap: ended waits until door-double fails")
    #expect(
      text(.touchBegan(touch, location: Point(x: 412, y: 300), tapCount: 1, recognizers: ["a", "b"], notes: []))
        == "+0.412 touch 3 began at (412, 300) in view 'x' → a, b")
    #expect(
      text(
        .touchBegan(
          touch, location: Point(x: 412.06, y: 299.96), tapCount: 2, recognizers: [],
          notes: ["blocked: exclusiveTouch view 'y' has a touch", "n2"]))
        == "+0.412 touch 3 began at (412.1, 300) in view 'x' (tap 2) → no recognizer; "
        + "blocked: exclusiveTouch view 'y' has a touch; n2")
    #expect(
      text(.touchSwallowed(touch: 4, window: "w", location: Point(x: 5, y: 6), reason: "no view was hit"))
        == "+0.412 touch 4 at (5, 6) swallowed: no view was hit")
    #expect(text(.held(touch, phase: .began, by: ["p", "q"])) == "+0.412 touch 3 began held by p, q")
    #expect(text(.held(touch, phase: .moved, by: [])) == "+0.412 touch 3 moved held behind an earlier held delivery")
    #expect(
      text(.released(touch, phase: .ended, location: Point(x: 7.5, y: 8)))
        == "+0.412 touch 3 ended released to view 'x' at (7.5, 8)")
    #expect(text(.cancelledInView(touch, by: "door-pan")) == "+0.412 touch 3 cancelled in view 'x' by door-pan")
    let action = ActionMessage(
      seq: 4, action: "open-door", gesture: .tap, state: .ended, view: "door", window: "main", recognizer: "door-tap",
      time: 10.65, location: Point(x: 412, y: 300), numberOfTouches: 1)
    #expect(Explanation.line(.action(action), origin: 10) == "+0.650 action open-door (door-tap ended) at (412, 300)")
    let pan = ActionMessage(
      seq: 4, action: "open-door", gesture: .tap, state: .changed, view: "door", window: "main", recognizer: "door-tap",
      time: 10.65, location: Point(x: 412, y: 300), numberOfTouches: 1,
      values: .pan(translation: Point(x: 10, y: -2.25), velocity: Point(x: 100.04, y: 0)))
    #expect(
      Explanation.line(.action(pan), origin: 10)
        == "+0.650 action open-door (door-tap changed) at (412, 300), translation (10, -2.3), velocity (100, 0)")
    let touches = TouchesMessage(
      seq: 5, phase: .moved, view: "canvas", window: "main", time: 10.0004,
      touches: [
        .init(id: 8, view: "canvas", phase: .moved, x: 1, y: 2, tapCount: 1),
        .init(id: 7, view: "child", phase: .moved, x: 3.5, y: 4, tapCount: 1),
      ])
    #expect(
      Explanation.line(.touches(touches), origin: 10)
        == "+0.000 touches moved on view 'canvas': 7 at (3.5, 4) in 'child', 8 at (1, 2)")
    #expect(Explanation.offset(9.995, 10) == "-0.005")
    #expect(Explanation.offset(11.25, 10) == "+1.250")
    #expect(Explanation.offset(10, 10) == "+0.000")
    let command = ScenePlayer.TimedCommand(at: 0.5, .ignoreInteraction(true))
    #expect(
      Explanation.line(.command(command, time: 10.5), origin: 10)
        == #"+0.500 command {"cmd":"ignoreInteraction","value":true}"#)
  }

  @Test("Commands parse as the daemon's socket commands; errors say what is wrong")
  func sceneCommands() throws {
    #expect(
      try SceneCommand.parse(json: #"{"cmd":"ignoreInteraction","value":true,"id":3}"#) == .ignoreInteraction(true))
    let set = try SceneCommand.parse(
      json: #"{"cmd":"set","view":"door","hidden":true,"alpha":0.5,"userInteractionEnabled":false,"#
        + #""frame":{"x":1,"y":2,"width":3,"height":4.5}}"#)
    #expect(
      set
        == .set(
          view: "door", hidden: true, alpha: 0.5, userInteractionEnabled: false,
          frame: Scene.Frame(x: 1, y: 2, width: 3, height: 4.5)))
    #expect(
      set.json
        == #"{"cmd":"set","view":"door","hidden":true,"alpha":0.5,"userInteractionEnabled":false,"frame":{"x":1,"y":2,"width":3,"height":4.5}}"#
    )
    #expect(try SceneCommand.parse(json: set.json) == set)
    #expect(try SceneCommand.parse(json: #"{"cmd":"set","view":"d"}"#).json == #"{"cmd":"set","view":"d"}"#)
    func error(_ json: String) -> String? {
      do {
        _ = try SceneCommand.parse(json: json)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(error(#"{"cmd":"set","view":"#) == "not JSON at column 21: unexpected end of the line, expected a value")
    #expect(error("[1]") == "a command must be a JSON object, found an array")
    #expect(error(#"{"view":"door"}"#) == "missing field 'cmd' (a string: the command name)")
    #expect(
      error(#"{"cmd":"reload"}"#)
        == "unknown command 'reload' (known: set, ignoreInteraction, update, announce, signature)")
    #expect(error(#"{"cmd":"ignoreInteraction","value":"yes"}"#) == #"'value' must be true or false, found "yes""#)
    #expect(
      error(#"{"cmd":"set","hidden":true}"#)
        == "missing field 'view' (a string: the view id, or 'window' with a window id)")
    #expect(
      error(#"{"cmd":"set","view":"d","hiden":true}"#)
        == "unknown field 'hiden' (did you mean 'hidden'? set takes view, hidden, alpha, userInteractionEnabled, "
        + "frame, contentOffset, zoomScale, zoomTo, animated, contentSize, scrollEnabled, enabled, selected, on, value, "
        + "selectedSegmentIndex, currentPage, firstResponder)")
    #expect(error(#"{"cmd":"set","view":"d","contentOffset":{"x":1}}"#) == "missing field 'contentOffset.y' (a number)")
    #expect(error(#"{"cmd":"set","view":"d","alpha":"x"}"#) == #"'alpha' must be a number, found "x""#)
    #expect(error(#"{"cmd":"set","view":"d","frame":{"x":1}}"#) == "missing field 'frame.y' (a number)")
    #expect(
      error(#"{"cmd":"set","view":"d","frame":[1,2,3,4]}"#)
        == #"'frame' must be an object {"x":..,"y":..,"width":..,"height":..}, found an array"#)
  }

  @Test("A tap that moves 60 pt fails with its cause; tracing changes no other message")
  func movedTapIsExplained() throws {
    let scene = try Scene.parse(doorSceneYAML)
    let recording = movedTapScript().recording
    let traced = try ScenePlayer.replay(recording, scene: scene, trace: true)
    let plain = try ScenePlayer.replay(recording, scene: scene)
    #expect(traces(plain).isEmpty)
    #expect(untraced(traced) == plain, "the same action and touches messages, seq included")
    #expect(plain.map(\.seq) == [1, 2, 3])
    let failed = try #require(
      traces(traced).first {
        if case .recognizer(_, _, "failed", _) = $0.detail { true } else { false }
      })
    #expect(failed.time == 10.05)
    guard case .recognizer(let r, let from, _, let cause) = failed.detail else {
      Issue.record("not .recognizer: \(failed.detail)")
      return
    }
    #expect(r == TraceMessage.RecognizerInfo(id: "door-tap", gesture: .tap, view: "door", window: "w"))
    #expect(from == "possible")
    #expect(cause.hasPrefix("moved ") && cause.hasSuffix(" pt > allowableMovement 45"), "\(cause)")
    let first = try #require(traces(traced).first)
    #expect(first.time == 10)
    guard case .touchBegan(let t, let location, let tapCount, let recognizers, let notes) = first.detail else {
      Issue.record("the first trace is the touch-down: \(first)")
      return
    }
    #expect(t == TraceMessage.TouchInfo(id: 1, view: "door", window: "w"))
    #expect(abs(location.x - 200) < 0.3 && abs(location.y - 300) < 0.3)
    #expect(tapCount == 1 && recognizers == ["door-tap"] && notes.isEmpty)
  }

  @Test("Tracing turns on and off on a live runtime; off, the application has no tracer")
  func tracingSwitch() throws {
    let scene = try Scene.parse(doorSceneYAML)
    let clock = VirtualClock(now: 10)
    var messages: [Message] = []
    let runtime = SceneRuntime(scene: scene, clock: clock) { messages.append($0) }
    #expect(!runtime.isTracing && runtime.application.tracer == nil)
    func play(_ script: FingerScript) {
      Replay.forEachFrame(of: script.recording) { frame in
        clock.advance(to: frame.time.seconds)
        runtime.handle(frame, inWindow: 0)
      }
    }
    runtime.isTracing = true
    play(movedTapScript())
    #expect(!traces(messages).isEmpty)
    runtime.isTracing = false
    #expect(runtime.application.tracer == nil)
    messages = []
    let later = FingerScript(windowWidth: 1000, windowHeight: 800, start: 20, sampleRate: 100)
    later.tap(at: .init(x: 200, y: 300))
    play(later)
    #expect(messages.contains { if case .action = $0 { true } else { false } })
    #expect(traces(messages).isEmpty)
  }

  @Test("ignoreInteraction at a time cancels the tap in progress and drops one that begins while ignoring")
  func timedIgnoring() throws {
    let scene = try Scene.parse(doorSceneYAML)
    let recording = ignoringScript().recording
    #expect(
      try ScenePlayer.replay(recording, scene: scene).compactMap { if case .action(let a) = $0 { a.time } else { nil } }
        == [10.15, 10.35, 10.75], "without commands, three taps")
    let commands: [ScenePlayer.TimedCommand] = [
      .init(at: 0.5, .ignoreInteraction(false)), .init(at: 0.1, .ignoreInteraction(true)),
    ]
    let messages = try ScenePlayer.replay(recording, scene: scene, commands: commands, trace: true)
    let actions = messages.compactMap { if case .action(let a) = $0 { a } else { nil } }
    #expect(actions.map(\.time) == [10.75] && actions.map(\.action) == ["open-door"])
    #expect(actions.map(\.seq) == [5])
    let touches = messages.compactMap { if case .touches(let t) = $0 { t } else { nil } }
    #expect(
      touches.map { "\($0.phase) \($0.touches.map(\.id)) \($0.time)" } == [
        "began [1] 10.0", "cancelled [1] 10.1", "began [3] 10.7", "cancelled [3] 10.75",
      ])
    let cancelled = traces(messages).first { $0.time == 10.1 }
    #expect(
      cancelled?.detail
        == .recognizer(
          .init(id: "door-tap", gesture: .tap, view: "door", window: "w"), from: .possible, to: .failed,
          cause: "a touch was cancelled"))
    let swallowed = try #require(
      traces(messages).first { if case .touchSwallowed = $0.detail { true } else { false } })
    #expect(swallowed.time == 10.3)
    guard case .touchSwallowed(let id, let window, _, let reason) = swallowed.detail else {
      Issue.record("not .touchSwallowed: \(swallowed.detail)")
      return
    }
    #expect(id == 2 && window == "w" && reason == "the application is ignoring interaction events")
  }

  @Test("A command applies after the timers due by its time and before a frame at the same time, in order")
  func commandOrder() throws {
    let scene = try Scene.parse(doorSceneYAML)
    // The second tap touches down at exactly +0.3: the door is hidden then, so the window is hit.
    let commands: [ScenePlayer.TimedCommand] = [
      .init(at: 0.3, .set(view: "door", hidden: true)), .init(at: 0.5, .set(view: "door", hidden: false)),
    ]
    var steps: [ScenePlayer.Step] = []
    try ScenePlayer.run(ignoringScript().recording, scene: scene, commands: commands, trace: true) {
      steps.append($0)
    }
    let lines = steps.map { Explanation.line($0, origin: 10) }
    let hide = try #require(lines.firstIndex(of: #"+0.300 command {"cmd":"set","view":"door","hidden":true}"#))
    #expect(lines[hide + 1].hasPrefix("+0.300 touch 2 began at (200.1, 300.1) in view 'w' (tap 2) → no recognizer"))
    #expect(lines.contains(#"+0.500 command {"cmd":"set","view":"door","hidden":false}"#))
    let actions = steps.compactMap { if case .message(.action(let a)) = $0 { a.time } else { nil } }
    #expect(actions == [10.15, 10.75])
  }

  @Test("A timed command that fails stops the replay, naming the command")
  func timedCommandErrors() throws {
    let scene = try Scene.parse(doorSceneYAML)
    let recording = ignoringScript().recording
    #expect(
      throws: SceneRuntimeError.timedCommand(
        label: "first", error: .unknownView("dor", suggestion: "door"))
    ) {
      try ScenePlayer.replay(recording, scene: scene, commands: [.init(at: 0.2, .set(view: "dor"), label: "first")])
    }
    #expect(
      throws: SceneRuntimeError.timedCommand(
        label: #"command at +9.0 s {"cmd":"ignoreInteraction","value":false}"#,
        error: .invalidValue("not ignoring interaction events"))
    ) {
      try ScenePlayer.replay(recording, scene: scene, commands: [.init(at: 9, .ignoreInteraction(false))])
    }
  }
}
