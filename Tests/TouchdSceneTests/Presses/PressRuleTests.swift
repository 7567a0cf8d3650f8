import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// UIPress delivery through the whole pipeline (scene replay of the keypad fixture): presses go to
/// the window's first responder and up its responder chain, key repeat makes no press, tap and
/// long-press recognizers with `allowedPressTypes` recognize presses and take them from the
/// responder (`cancelsTouchesInView`), and a vanished key device cancels its presses.
///
/// The fixture (`Fixtures/keypad.evemu`, "Kiosk Keypad"): ENTER down 0.10 up 0.25, F1 down 0.50 up
/// 1.50, UP down 2.00 (autorepeats at 2.25 and 2.283) up 2.40.
@Suite struct PressRuleTests {
  /// A window whose keys are the fixture keypad's (ENTER select, F1 help, UP upArrow; ESC and the
  /// other arrows unmapped), first responder `field` inside `panel`.
  func scene(field: String = "", panel: String = "", firstResponder: String = "field") throws -> Scene {
    try Scene.parse(
      """
      version: 1
      windows:
        - id: w
          size: {width: 1000, height: 800}
          devices: ["touchd synthetic*"]
          keys: {devices: ["Kiosk Keypad"], map: {KEY_ENTER: select, KEY_F1: help, KEY_UP: upArrow}}
          firstResponder: \(firstResponder)
          views:
            - id: panel
              frame: {x: 0, y: 0, width: 1000, height: 800}
              \(panel)
              views:
                - id: field
                  frame: {x: 100, y: 100, width: 300, height: 60}
                  \(field)
      """)
  }

  func keypad() throws -> Recording { try RecordingReader.load(path: keypadFixturePath) }

  func presses(_ messages: [Message]) -> [String] {
    messages.compactMap { m -> String? in
      guard case .presses(let p) = m else { return nil }
      return "\(p.view).\(p.phase)(" + p.presses.map { "\($0.type)/\($0.key)" }.joined(separator: " ") + ")"
    }
  }

  @Test func pressesGoToTheFirstResponderAndKeyRepeatMakesNoPress() throws {
    let messages = try ScenePlayer.replay([try keypad()], scene: try scene(field: "presses: true"))
    #expect(
      presses(messages) == [
        "field.began(select/KEY_ENTER)", "field.ended(select/KEY_ENTER)", "field.began(help/KEY_F1)",
        "field.ended(help/KEY_F1)", "field.began(upArrow/KEY_UP)", "field.ended(upArrow/KEY_UP)",
      ])
    let times = messages.map(\.time)
    for (time, expected) in zip(times, [0.10, 0.25, 0.50, 1.50, 2.00, 2.40]) { #expect(abs(time - expected) < 1e-9) }
  }

  @Test func aFirstResponderThatDoesNotHandlePressesPassesThemUpTheChain() throws {
    let messages = try ScenePlayer.replay([try keypad()], scene: try scene(panel: "presses: true"))
    #expect(presses(messages).first == "panel.began(select/KEY_ENTER)")
    #expect(presses(messages).count == 6)
  }

  @Test func withoutAFirstResponderTheWindowGetsThemAndNoViewReports() throws {
    let s = try scene(field: "presses: true", panel: "presses: true")
    var noResponder = s
    noResponder.windows[0].firstResponder = nil
    #expect(presses(try ScenePlayer.replay([try keypad()], scene: noResponder)).isEmpty)
  }

  @Test func aPressTapRecognizerFiresAtKeyUpAndTakesThePressFromTheResponder() throws {
    let messages = try ScenePlayer.replay(
      [try keypad()],
      scene: try scene(
        field: "presses: true",
        panel: "recognizers: [{id: ok, type: tap, action: confirm, allowedPressTypes: [select]}]"))
    let actions = messages.compactMap { if case .action(let a) = $0 { a } else { nil } }
    #expect(actions.map(\.action) == ["confirm"])
    let action = try #require(actions.first)
    #expect(action.press == "select")
    #expect(action.numberOfTouches == 0)
    #expect(abs(action.time - 0.25) < 1e-9)
    // The panel's centre in window points.
    #expect(action.locationPoint == Point(x: 500, y: 400))
    #expect(action.jsonLine.contains(#""press":"select""#))
    // delaysTouchesEnded held ENTER's end; the recognition cancels it in the responder. The other
    // keys are not select: the recognizer never sees them, the field hears them as usual.
    #expect(
      Array(presses(messages).prefix(3)) == [
        "field.began(select/KEY_ENTER)", "field.cancelled(select/KEY_ENTER)", "field.began(help/KEY_F1)",
      ])
  }

  @Test func aPressLongPressBeginsAfterMinimumPressDurationAndEndsAtKeyUp() throws {
    let messages = try ScenePlayer.replay(
      [try keypad()],
      scene: try scene(
        panel: "recognizers: [{id: hold, type: longPress, action: help, allowedPressTypes: help}]"))
    let actions = messages.compactMap { if case .action(let a) = $0 { a } else { nil } }
    #expect(actions.map { "\($0.state ?? "")@\($0.time)" } == ["began@1.0", "ended@1.5"])
    #expect(actions.allSatisfy { $0.press == "help" })
  }

  @Test func aKeyUpBeforeMinimumPressDurationFailsThePressLongPress() throws {
    // ENTER is held 0.15 s: a long press over select fails, and the responder hears the press.
    let messages = try ScenePlayer.replay(
      [try keypad()],
      scene: try scene(
        field: "presses: true",
        panel: "recognizers: [{id: hold, type: longPress, action: hold, allowedPressTypes: select}]"))
    #expect(messages.allSatisfy { if case .action = $0 { false } else { true } })
    #expect(presses(messages).prefix(2) == ["field.began(select/KEY_ENTER)", "field.ended(select/KEY_ENTER)"])
  }

  /// The fixture keypad pressing KEY_ENTER (select) for each (down, up) time, in seconds.
  func enterTaps(_ times: [(Double, Double)]) throws -> Recording {
    let description = try keypad().description
    var events: [InputEvent] = []
    func at(_ t: Double) -> Timestamp { Timestamp(microseconds: Int64((t * 1_000_000).rounded())) }
    for (down, up) in times {
      for (t, value) in [(down, Int32(1)), (up, Int32(0))] {
        events.append(InputEvent(time: at(t), type: EV.key, code: 28, value: value))  // KEY_ENTER
        events.append(InputEvent(time: at(t), type: EV.syn, code: SYN.report, value: 0))
      }
    }
    return Recording(description: description, events: events, source: "enter taps")
  }

  func holdScene(taps: Int) throws -> Scene {
    try scene(
      field: "presses: true",
      panel:
        "recognizers: [{id: hold, type: longPress, action: hold, allowedPressTypes: select, numberOfTapsRequired: \(taps), minimumPressDuration: 0.8}]"
    )
  }

  @Test("a press long press with numberOfTapsRequired 1: a quick key tap, then the key held minimumPressDuration")
  func aPressLongPressCountsKeyTapsFirst() throws {
    // Tap 0.10-0.20, then down at 0.40 (0.2 s after the lift, within 0.35 s) held to 1.60.
    let messages = try ScenePlayer.replay([try enterTaps([(0.1, 0.2), (0.4, 1.6)])], scene: try holdScene(taps: 1))
    let actions = messages.compactMap { if case .action(let a) = $0 { a } else { nil } }
    // minimumPressDuration 0.8 s counts from the second key-down.
    #expect(actions.map(\.state) == ["began", "ended"])
    #expect(abs(try #require(actions.first).time - 1.2) < 1e-9)
    #expect(abs(try #require(actions.last).time - 1.6) < 1e-9)
    #expect(actions.allSatisfy { $0.press == "select" })
  }

  @Test(
    "a press long press with numberOfTapsRequired 1 fails on a key held without the tap, a tap held too long, or a late second key-down"
  )
  func aPressLongPressWithoutItsTapsFails() throws {
    func actions(_ times: [(Double, Double)]) throws -> [String] {
      let messages = try ScenePlayer.replay([try enterTaps(times)], scene: try holdScene(taps: 1))
      return messages.compactMap { if case .action(let a) = $0 { a.state } else { nil } }
    }
    // One long hold: it is the preliminary tap, held past maximumTapDuration (0.75 s).
    #expect(try actions([(0.1, 1.5)]) == [])
    // The second key-down 0.4 s after the tap's lift: more than maximumIntervalBetweenTaps 0.35 s.
    #expect(try actions([(0.1, 0.2), (0.6, 1.8)]) == [])
    // The same with the gap at 0.3 s recognizes (the edge of the interval on the other side).
    #expect(try actions([(0.1, 0.2), (0.5, 1.8)]) == ["began", "ended"])
    // Without taps required, the plain hold recognizes.
    let plain = try ScenePlayer.replay([try enterTaps([(0.1, 1.5)])], scene: try holdScene(taps: 0))
    #expect(plain.compactMap { if case .action(let a) = $0 { a.state } else { nil } } == ["began", "ended"])
  }

  @Test func aVanishedKeyDeviceCancelsItsPressesAndThePressGesture() throws {
    let clock = VirtualClock(now: 0)
    var messages: [Message] = []
    let runtime = SceneRuntime(
      scene: try scene(
        field: "presses: true",
        panel: "recognizers: [{id: hold, type: longPress, action: help, allowedPressTypes: help}]"),
      clock: clock
    ) { messages.append($0) }
    let assembler = KeyAssembler(device: try keypad().description)
    func feed(_ time: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) {
      let event = InputEvent(
        time: Timestamp(microseconds: Int64(time * 1_000_000)), type: type, code: code, value: value)
      clock.advance(to: time)
      if let frame = assembler.process(event) { runtime.handle(frame, inWindow: 0, source: 0) }
    }
    feed(1.0, EV.key, 59, 1)  // F1 down
    feed(1.0, EV.syn, SYN.report, 0)
    clock.advance(to: 1.7)  // the long press began at 1.5
    if let frame = assembler.cancelAll(at: Timestamp(microseconds: 1_700_000)) {
      runtime.handle(frame, inWindow: 0, source: 0)
    }
    clock.runUntilIdle()
    let actions = messages.compactMap { if case .action(let a) = $0 { "\(a.state ?? "")@\(a.time)" } else { nil } }
    #expect(actions == ["began@1.5", "cancelled@1.7"])
    // The long press took the press from the field when it began: the field hears the cancel then.
    #expect(presses(messages) == ["field.began(help/KEY_F1)", "field.cancelled(help/KEY_F1)"])
  }

  @Test func setFirstResponderMovesWhereLaterPressesGo() throws {
    let commands = [
      ScenePlayer.TimedCommand(
        at: 0.3, try SceneCommand.parse(json: #"{"cmd":"set","view":"panel","firstResponder":true}"#))
    ]
    let messages = try ScenePlayer.replay(
      [try keypad()], scene: try scene(field: "presses: true", panel: "presses: true"), commands: commands)
    #expect(
      presses(messages) == [
        "field.began(select/KEY_ENTER)", "field.ended(select/KEY_ENTER)", "panel.began(help/KEY_F1)",
        "panel.ended(help/KEY_F1)", "panel.began(upArrow/KEY_UP)", "panel.ended(upArrow/KEY_UP)",
      ])
  }

  @Test func ignoringInteractionSwallowsAKeyUntilItGoesUp() throws {
    let commands = [
      ScenePlayer.TimedCommand(at: 0.6, .ignoreInteraction(true)),
      ScenePlayer.TimedCommand(at: 1.0, .ignoreInteraction(false)),
    ]
    let messages = try ScenePlayer.replay(
      [try keypad()], scene: try scene(field: "presses: true"), commands: commands)
    // F1 went down at 0.5 (+0.1 origin): ignoring at 0.7 cancels it; nothing more of it, even after.
    #expect(
      presses(messages) == [
        "field.began(select/KEY_ENTER)", "field.ended(select/KEY_ENTER)", "field.began(help/KEY_F1)",
        "field.cancelled(help/KEY_F1)", "field.began(upArrow/KEY_UP)", "field.ended(upArrow/KEY_UP)",
      ])
  }
}
