import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The messages the scene builds (MessageBuilding.swift's typed initializers) read back by the
/// protocol's decoders. Values with at most six decimals (what the writer keeps, JSONFormat)
/// decode to an equal message; the pipeline's own lines (the goldens' replays, traced, and the
/// rule tests' scroll views and controls) decode to a message that writes the same bytes again.
@Suite("Messages: the scene's lines decode back")
struct MessageRoundTripTests {
  /// Decodes `message`'s line with its protocol type: the same bytes again, and the decoded
  /// message a fixed point (decoding its line gives it back). With `exact`, equal to `message`.
  func expectRoundTrip<M: WireMessage>(_ message: M, exact: Bool) throws {
    let line = message.jsonLine
    let decoded = try M(jsonLine: line)
    #expect(decoded.jsonLine == line)
    #expect(try M(jsonLine: decoded.jsonLine) == decoded, "\(line)")
    if exact { #expect(decoded == message, "\(line)") }
  }

  func expectRoundTrips(_ messages: [Message], exact: Bool = false) throws {
    for message in messages {
      switch message {
      case .action(let m): try expectRoundTrip(m, exact: exact)
      case .touches(let m): try expectRoundTrip(m, exact: exact)
      case .scroll(let m): try expectRoundTrip(m, exact: exact)
      case .control(let m): try expectRoundTrip(m, exact: exact)
      case .presses(let m): try expectRoundTrip(m, exact: exact)
      case .idle(let m): try expectRoundTrip(m, exact: exact)
      case .accessibility(let m): try expectRoundTrip(m, exact: exact)
      case .stroke(let m): try expectRoundTrip(m, exact: exact)
      case .signature(let m): try expectRoundTrip(m, exact: exact)
      case .trace(let m): try expectRoundTrip(m, exact: exact)
      }
    }
  }

  @Test("Messages built by the scene's typed initializers decode to equal messages")
  func typedInitializers() throws {
    let door = TraceMessage.RecognizerInfo(id: "door-tap", gesture: .tap, view: "door", window: "main")
    let touch = TraceMessage.TouchInfo(id: 3, view: "x", window: "w")
    func action(_ gesture: RecognizerType, _ values: GestureValues, press: String? = nil) -> Message {
      .action(
        ActionMessage(
          seq: 1, action: "a", gesture: gesture, state: .changed, view: "v", window: "w", recognizer: "r",
          time: 10.25, location: Point(x: 412.5, y: 300.125), numberOfTouches: 2, values: values, press: press))
    }
    let messages: [Message] = [
      action(.tap, .none, press: "select"),
      action(.pan, .pan(translation: Point(x: 10, y: -2.25), velocity: Point(x: 100.5, y: 0))),
      action(.pinch, .pinch(scale: 1.5, velocity: -0.25)),
      action(.rotation, .rotation(rotation: 0.5, velocity: 1)),
      action(.swipe, .swipe(direction: "left")),
      .action(
        ActionMessage(
          seq: 2, action: "vol", event: "valueChanged", control: "slider", view: "v", window: "w", time: 1,
          value: .value(0.42))),
      .touches(
        TouchesMessage(
          seq: 3, phase: .moved, view: "pad", window: "w", time: 2.000001,
          touches: [
            .init(id: 8, view: "pad", phase: .moved, x: 1.25, y: -3, tapCount: 1),
            .init(id: 7, view: "p", phase: .stationary, x: 0, y: 4, tapCount: 2),
          ])),
      .scroll(
        ScrollMessage(
          seq: 4, phase: .willEndDragging, view: "list", window: "w", time: 3, contentOffset: Point(x: 0, y: 300),
          velocity: Point(x: 0, y: 1.5), targetContentOffset: Point(x: 0, y: 1049.2))),
      .scroll(
        ScrollMessage(
          seq: 5, phase: .didEndDragging, view: "list", window: "w", time: 3, contentOffset: Point(x: 0, y: 1),
          willDecelerate: false)),
      .control(
        ControlMessage(
          seq: 6, control: "switch", view: "s", window: "w", time: 4, enabled: true, highlighted: true,
          selected: false, value: .on(true))),
      .presses(
        PressesMessage(
          seq: 7, phase: .changed, view: "panel", window: "w", time: 5,
          presses: [.init(id: 2, type: "select", key: "KEY_ENTER", phase: .changed)])),
      .idle(IdleMessage(seq: 8, isIdle: true, time: 6, lastInput: nil, swallowed: false)),
      .trace(TraceMessage(time: 7, event: .recognizer(door, from: .possible, to: .failed, cause: "moved"))),
      .trace(TraceMessage(time: 7, event: .waiting(door, to: .ended, requirement: "door-double"))),
      .trace(
        TraceMessage(
          time: 7, event: .touchBegan(touch, location: Point(x: 1, y: 2), tapCount: 1, recognizers: [], notes: []))),
      .trace(
        TraceMessage(
          time: 7, event: .touchSwallowed(touch: 4, window: nil, location: Point(x: 5, y: 6), reason: "no window"))),
      .trace(TraceMessage(time: 7, event: .held(touch, phase: .began, by: ["door-double"]))),
      .trace(TraceMessage(time: 7, event: .released(touch, phase: .ended, location: Point(x: 7.5, y: 8)))),
      .trace(TraceMessage(time: 7, event: .cancelledInView(touch, by: "door-pan"))),
    ]
    try expectRoundTrips(messages, exact: true)
  }

  @Test("Every golden replay, traced", arguments: GoldenCase.all)
  func goldenReplays(_ c: GoldenCase) throws {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 10)
    c.script(script)
    let scene = try Scene.parse(try readText(TestPaths.config(c.scene)), file: c.scene)
    let messages = try ScenePlayer.replay(script.recording, scene: scene, trace: true)
    #expect(!messages.isEmpty)
    try expectRoundTrips(messages)
  }

  @Test("A fling on a scroll view and a tap on a switch: scroll, control and control actions")
  func scrollsAndControls() throws {
    let fling = ruleScript()
    fling.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 300), duration: 0.2)
    let scrolled = try RuleRun(listScene(), fling, trace: true)
    #expect(!scrolled.scrolls.isEmpty)
    try expectRoundTrips(scrolled.messages)

    let scene = ruleScene(
      """
      - id: lang
        frame: {x: 100, y: 100, width: 80, height: 40}
        control: {type: switch, actions: {valueChanged: set-lang}}
      """)
    let tap = ruleScript()
    tap.tap(at: .init(x: 140, y: 120))
    let tapped = try RuleRun(scene, tap)
    #expect(tapped.controlActions.map(\.controlValue) == [.on(true)])
    #expect(!tapped.controlStates.isEmpty)
    try expectRoundTrips(tapped.messages)
  }
}
