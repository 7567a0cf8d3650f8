import Testing
import TouchDelivery
import TouchdInput
import TouchdProtocol
import TouchdTestKit

@testable import TouchdScene

/// VoiceOver in a window (`voiceOver: true`, `set`): touches explore, select, activate, step and
/// adjust through the accessibility elements instead of reaching the views, replayed on each kind
/// of touchscreen.
@Suite struct VoiceOverTests {
  /// RuleSupport's 1000 x 800 window with VoiceOver on: a header, three buttons in a row (each with
  /// a tap recognizer or a control action), a slider and a stepper below.
  static let views = """
    - {id: title, frame: {x: 0, y: 0, width: 1000, height: 100}, accessibility: {label: Tickets, traits: header}}
    - id: single
      frame: {x: 0, y: 200, width: 300, height: 100}
      accessibility: {label: Single, hint: Buys one ticket., traits: button}
      recognizers: [{id: single-tap, type: tap, action: buy-single}]
    - {id: day, frame: {x: 350, y: 200, width: 300, height: 100}, control: {type: button, actions: {touchUpInside: buy-day}}, accessibility: {label: Day pass}}
    - {id: week, frame: {x: 700, y: 200, width: 300, height: 100}, touches: true, accessibility: {label: Week pass, traits: button}}
    - {id: volume, frame: {x: 0, y: 400, width: 500, height: 40}, control: {type: slider, value: 0.5, actions: {valueChanged: volume}}, accessibility: {label: Volume}}
    - {id: count, frame: {x: 600, y: 400, width: 94, height: 29}, control: {type: stepper, value: 1, maximumValue: 3}, accessibility: {label: Tickets}}
    """

  static func scene(voiceOver: Bool = true) -> String { scene(views, voiceOver: voiceOver) }

  /// RuleSupport's window of `views`, with `voiceOver:` as given.
  static func scene(_ views: String, voiceOver: Bool = true) -> String {
    ruleScene(views).replacingOccurrences(
      of: "size: {width: 1000, height: 800}", with: "size: {width: 1000, height: 800}\n    voiceOver: \(voiceOver)")
  }

  func run(_ script: FingerScript, kind: SyntheticDeviceKind = .protocolB) throws -> [Message] {
    try ScenePlayer.replay(kind.encode(script.recording), scene: try Scene.parse(Self.scene()))
  }

  /// Each accessibility message as `event view`, each action as `action NAME`, each touches
  /// message as `touches VIEW PHASE`.
  func log(_ messages: [Message]) -> [String] {
    messages.compactMap { m in
      switch m {
      case .accessibility(let a): "\(a.event) \(a.view ?? "-")"
      case .action(let a): "action \(a.action)"
      case .touches(let t): "touches \(t.view) \(t.phase)"
      default: nil
      }
    }
  }

  @Test(arguments: SyntheticDeviceKind.allCases)
  func anExploringFingerCrossingThreeButtonsFocusesEachOnceAndFiresNone(kind: SyntheticDeviceKind) throws {
    let s = ruleScript()
    // Held 0.3 s on `single`, then across `day` and `week`, slowly, and lifted on `week`.
    let finger = s.down([.init(x: 100, y: 250)])
    s.wait(0.3)
    s.animate(finger, duration: 1) { _, t in .init(x: 100 + 800 * t, y: 250) }
    s.up(finger)
    s.wait(1)
    let messages = try run(s, kind: kind)
    #expect(log(messages) == ["focus single", "focus day", "focus week"])
    let focus = messages.compactMap { if case .accessibility(let a) = $0 { a } else { nil } }
    #expect(focus[0].spoken == "Single, button. Buys one ticket.")
    #expect(focus[1].spoken == "Day pass, button." && focus[1].traits == ["button"])
  }

  @Test(arguments: SyntheticDeviceKind.allCases)
  func aDoubleTapOnEmptySpaceActivatesTheFocusedButtonOnce(kind: SyntheticDeviceKind) throws {
    let s = ruleScript()
    s.tap(at: .init(x: 500, y: 250))  // selects `day`
    s.wait(1)
    s.doubleTap(at: .init(x: 500, y: 700))  // empty space
    s.wait(1)
    #expect(log(try run(s, kind: kind)) == ["focus day", "activate day", "action buy-day"])
  }

  /// Split tap (Apple, "Use VoiceOver gestures": "touch an item with one finger, then tap the
  /// screen with another finger"): a finger explores to `day` and rests there; a second finger's
  /// tap elsewhere activates `day`, once; the resting finger lifting does nothing more, and a second
  /// finger that moves like no tap activates nothing.
  @Test(arguments: [SyntheticDeviceKind.protocolB, .protocolA])
  func aSecondFingersTapWhileTheFirstRestsActivatesTheElementUnderTheFirst(kind: SyntheticDeviceKind) throws {
    let s = ruleScript()
    let resting = s.down([.init(x: 500, y: 250)])
    s.wait(0.4)
    s.move(resting, to: [.init(x: 501, y: 250)])
    s.wait(0.2)
    let tapping = s.down([.init(x: 850, y: 650)])
    s.wait(0.05)
    s.up(tapping)
    s.wait(0.3)
    let dragging = s.down([.init(x: 700, y: 650)])
    s.animate(dragging, duration: 0.2) { _, t in .init(x: 700 - 200 * t, y: 650) }
    s.up(dragging)
    s.wait(0.3)
    s.up(resting)
    s.wait(1)
    #expect(log(try run(s, kind: kind)) == ["focus day", "activate day", "action buy-day"])
  }

  @Test func activationTapsTheActivationPointThroughTheViewsOwnDelivery() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 100, y: 250))
    s.wait(1)
    s.doubleTap(at: .init(x: 500, y: 700))
    s.wait(1)
    s.tap(at: .init(x: 850, y: 250))
    s.wait(1)
    s.doubleTap(at: .init(x: 500, y: 700))
    s.wait(1)
    let messages = try run(s)
    #expect(
      log(messages) == [
        "focus single", "activate single", "action buy-single", "focus week", "activate week",
        "touches week began", "touches week ended",
      ])
    let touches = messages.compactMap { if case .touches(let t) = $0 { t } else { nil } }
    #expect(touches.first?.touches.first.map { ($0.x, $0.y) } ?? (0, 0) == (850, 250))
  }

  @Test func flicksStepInReadingOrderAndStopAtTheEnds() throws {
    let s = ruleScript()
    for _ in 0..<3 {
      s.drag(from: .init(x: 500, y: 600), to: .init(x: 650, y: 600), duration: 0.1)
      s.wait(0.5)
    }
    s.drag(from: .init(x: 500, y: 600), to: .init(x: 350, y: 600), duration: 0.1)
    s.wait(0.5)
    for _ in 0..<3 {
      s.drag(from: .init(x: 500, y: 600), to: .init(x: 350, y: 600), duration: 0.1)
      s.wait(0.5)
    }
    #expect(
      log(try run(s))
        == [
          "focus title", "focus single", "focus day", "focus single", "focus title", "boundary title",
          "boundary title",
        ],
      "the last two flicks left are at the first element: the focus stays and the boundary is said")
  }

  @Test func flicksUpAndDownAdjustTheFocusedSliderAndStepper() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 250, y: 420))  // the slider
    s.wait(1)
    s.drag(from: .init(x: 500, y: 700), to: .init(x: 500, y: 600), duration: 0.1)  // up: +0.1
    s.wait(0.5)
    s.tap(at: .init(x: 640, y: 410))  // the stepper
    s.wait(1)
    for _ in 0..<3 {
      s.drag(from: .init(x: 500, y: 600), to: .init(x: 500, y: 700), duration: 0.1)  // down: −1, to 0, then stays
      s.wait(0.5)
    }
    let messages = try run(s)
    let events = messages.compactMap { m -> String? in
      switch m {
      case .accessibility(let a): "\(a.event) \(a.view ?? "") \(a.value ?? "")"
      case .action(let a): "action \(a.action) \(a.controlValue.map { "\($0)" } ?? "")"
      default: nil
      }
    }
    #expect(
      events == [
        "focus volume 50%", "action volume value(0.6)", "adjust volume 60%", "focus count 1", "adjust count 0",
      ],
      "at its minimum the stepper neither changes nor says anything")
  }

  @Test func setTurnsVoiceOverOnAndOffAndCancelsTheTouchesDown() throws {
    var messages: [Message] = []
    let clock = VirtualClock(now: 0)
    let runtime = SceneRuntime(scene: try Scene.parse(Self.scene(voiceOver: false)), clock: clock) {
      messages.append($0)
    }
    func frame(_ t: Double, _ phase: TouchPhase, id: UInt64 = 1, x: Double = 0.85, y: Double = 0.31) {
      clock.advance(to: t)
      runtime.handle(
        TouchFrame(
          time: Timestamp(microseconds: Int64(t * 1e6)),
          contacts: [Contact(id: TouchID(rawValue: id), phase: phase, x: x, y: y)]),
        inWindow: 0)
    }
    frame(1, .began)
    _ = try runtime.setWindow("w", WindowChange(voiceOver: true))
    frame(1.1, .moved)
    frame(1.2, .ended)
    #expect(runtime.isVoiceOverOn(inWindow: 0) && runtime.scene.windows[0].voiceOver)
    // A finger that lands with VoiceOver on and stays down while it goes off is ignored until it lifts.
    frame(2, .began, id: 2)
    clock.advance(to: 2.5)
    _ = try runtime.setWindow("w", WindowChange(voiceOver: false))
    frame(2.6, .moved, id: 2)
    frame(2.7, .ended, id: 2)
    frame(3, .began, id: 3)
    frame(3.05, .ended, id: 3)
    #expect(
      log(messages) == [
        "touches week began", "touches week cancelled", "voiceOver -", "focus week", "voiceOver -",
        "touches week began", "touches week ended",
      ])
    let switches = messages.compactMap {
      if case .accessibility(let a) = $0, a.event == "voiceOver" { a.on } else { nil }
    }
    #expect(switches == [true, false])
  }

  @Test func aFlickScrollsTheNewFocusIntoView() throws {
    let yaml = Self.scene(
      """
      - id: list
        frame: {x: 0, y: 0, width: 500, height: 200}
        scroll: {contentSize: {width: 500, height: 1000}}
        views:
          - {id: row0, frame: {x: 0, y: 0, width: 500, height: 150}, accessibility: {label: Row 0}}
          - {id: row1, frame: {x: 0, y: 150, width: 500, height: 150}, accessibility: {label: Row 1}}
          - {id: row2, frame: {x: 0, y: 300, width: 500, height: 150}, accessibility: {label: Row 2}}
      """)
    let s = ruleScript()
    for _ in 0..<3 {
      s.drag(from: .init(x: 500, y: 600), to: .init(x: 650, y: 600), duration: 0.1)
      s.wait(0.5)
    }
    let messages = try ScenePlayer.replay(s.recording, scene: try Scene.parse(yaml))
    #expect(log(messages) == ["focus row0", "focus row1", "focus row2"])
    let scrolls = messages.compactMap { if case .scroll(let m) = $0 { m.contentOffset.y } else { nil } }
    // row1 ends at 300 of a 200 pt viewport: scrolled to 100; row2 to 250.
    #expect(scrolls == [100, 250])
  }

  /// config/kiosk.yaml with VoiceOver on: its elements in reading order, and a ticket bought by
  /// touch exploration alone (explore to the button, double tap anywhere) and by flicks alone.
  @Test func aTicketIsBoughtOnTheExampleKioskByTouchAloneAndByFlicksAlone() throws {
    var scene = try Scene.load(path: TestPaths.config("kiosk.yaml").path)
    scene.windows[0].voiceOver = true
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    #expect(
      runtime.accessibilityElements(inWindow: 0).map { $0.spoken() ?? "" } == [
        "Language, button. Switches to the next language.", "Buy a ticket, button. Starts buying a ticket.",
        "Map, button. Shows the map of the lines.", "Help, button. Calls a member of staff.",
        "Signature pad. Sign here with one finger.",
      ])
    // The kiosk's 1920 x 1080 window on the script's synthetic panel.
    let explore = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 10, sampleRate: 100)
    let finger = explore.down([.init(x: 1000, y: 100)])
    explore.wait(0.3)
    explore.animate(finger, duration: 0.5) { _, t in .init(x: 1000 - 600 * t, y: 100 + 400 * t) }
    explore.up(finger)
    explore.wait(1)
    explore.doubleTap(at: .init(x: 960, y: 1050))
    explore.wait(1)
    #expect(
      log(try ScenePlayer.replay(explore.recording, scene: scene)) == [
        "focus buy-ticket", "activate buy-ticket", "action buy-ticket",
      ])
    let flicks = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 10, sampleRate: 100)
    for _ in 0..<2 {
      flicks.drag(from: .init(x: 900, y: 700), to: .init(x: 1100, y: 700), duration: 0.1)
      flicks.wait(0.5)
    }
    flicks.doubleTap(at: .init(x: 960, y: 700))
    flicks.wait(1)
    #expect(
      log(try ScenePlayer.replay(flicks.recording, scene: scene))
        == ["focus language", "focus buy-ticket", "activate buy-ticket", "action buy-ticket"])
  }

  /// The kiosk with an EZ Access keypad (`keys.map`: arrows, enter, help, back) and VoiceOver on:
  /// a ticket bought with the keypad alone; keys VoiceOver does not take reach the first responder.
  @Test func theKeypadStepsActivatesSaysTheHintAndEscapes() throws {
    var scene = try Scene.load(path: TestPaths.config("kiosk.yaml").path)
    scene.windows[0].voiceOver = true
    scene.windows[0].keys = Scene.Keys(
      devices: ["*"],
      map: [
        "KEY_DOWN": "downArrow", "KEY_UP": "upArrow", "KEY_ENTER": "select", "KEY_HELP": "help", "KEY_ESC": "menu",
        "KEY_F1": "f1",
      ])
    scene.windows[0].views[0].presses = true
    scene.windows[0].firstResponder = "root"
    var messages: [Message] = []
    let clock = VirtualClock(now: 0)
    let runtime = SceneRuntime(scene: scene, clock: clock) { messages.append($0) }
    var time = 1.0
    func press(_ name: String) {
      let code = try! #require(EventNames.keyCode(named: name))
      for phase in [KeyPhase.down, .up] {
        clock.advance(to: time)
        runtime.handle(
          KeyFrame(time: Timestamp(microseconds: Int64(time * 1e6)), changes: [KeyChange(code: code, phase: phase)]),
          inWindow: 0)
        time += 0.1
      }
    }
    for name in ["KEY_DOWN", "KEY_DOWN", "KEY_UP", "KEY_DOWN", "KEY_HELP", "KEY_ENTER", "KEY_ESC", "KEY_F1"] {
      press(name)
    }
    clock.advance(to: time + 1)
    let lines = messages.compactMap { m -> String? in
      switch m {
      case .accessibility(let a): "\(a.event) \(a.view ?? "-")" + (a.event == "announce" ? " \(a.spoken ?? "")" : "")
      case .action(let a): "action \(a.action)"
      case .presses(let p): "presses \(p.phase) \(p.presses.map(\.type).joined())"
      default: nil
      }
    }
    #expect(
      lines == [
        "focus language", "focus buy-ticket", "focus language", "focus buy-ticket",
        "announce buy-ticket Starts buying a ticket.", "activate buy-ticket", "action buy-ticket", "escape buy-ticket",
        "presses began f1", "presses ended f1",
      ])
  }

  @Test func anAnnouncementIsSaidOnlyWhereVoiceOverIsOn() throws {
    var messages: [Message] = []
    let runtime = SceneRuntime(scene: try Scene.parse(Self.scene(voiceOver: false)), clock: VirtualClock()) {
      messages.append($0)
    }
    let command = try SceneCommand.parse(json: #"{"cmd":"announce","text":"Your ticket is printing"}"#)
    #expect(try runtime.apply(command) == .announced(window: "w", spoken: false))
    #expect(messages.isEmpty)
    _ = try runtime.setWindow("w", WindowChange(voiceOver: true))
    #expect(try runtime.apply(command).fieldsJSON == #""window":"w","spoken":true"#)
    let said = messages.compactMap { if case .accessibility(let a) = $0, a.event == "announce" { a } else { nil } }
    #expect(said.map(\.spoken) == ["Your ticket is printing"] && said.first?.view == nil)
    #expect(
      throws: SceneRuntimeError.unknownWindow("side", suggestion: nil),
      performing: { try runtime.apply(.announce(AnnounceCommand(text: "x", window: "side"))) })
  }

  /// Three fingers flicking scroll the scroll view under them (or around the focus) by a page,
  /// bounded by its content, saying the position; a two-finger tap pauses speech and a two-finger
  /// flick sideways does nothing, and neither counts as a one-finger gesture.
  @Test func threeFingerFlicksScrollByAPageAndSayThePosition() throws {
    let yaml = Self.scene(
      """
      - id: list
        frame: {x: 0, y: 0, width: 500, height: 200}
        scroll: {contentSize: {width: 500, height: 1000}}
        views:
          - {id: row0, frame: {x: 0, y: 0, width: 500, height: 150}, accessibility: {label: Row 0}}
      """)
    let s = ruleScript()
    for _ in 0..<5 {
      s.drag(from: .init(x: 250, y: 180), to: .init(x: 250, y: 80), duration: 0.1, fingers: 3)  // up: the next page
      s.wait(0.5)
    }
    s.drag(from: .init(x: 250, y: 80), to: .init(x: 250, y: 180), duration: 0.1, fingers: 3)  // down: back one
    s.wait(0.5)
    s.tap(at: .init(x: 250, y: 100), fingers: 2)
    s.wait(1)
    s.drag(from: .init(x: 100, y: 100), to: .init(x: 400, y: 100), duration: 0.1, fingers: 2)
    s.wait(1)
    let messages = try ScenePlayer.replay(s.recording, scene: try Scene.parse(yaml))
    let said = messages.compactMap {
      if case .accessibility(let a) = $0 { "\(a.event) \(a.view ?? "") \(a.spoken ?? "")" } else { nil }
    }
    #expect(
      said == [
        "scroll list page 2 of 5", "scroll list page 3 of 5", "scroll list page 4 of 5", "scroll list page 5 of 5",
        "scroll list page 4 of 5", "pause  ",
      ], "the fifth flick up is at the end: nothing moves or is said")
    let offsets = messages.compactMap { if case .scroll(let m) = $0 { m.contentOffset.y } else { nil } }
    #expect(offsets == [200, 400, 600, 800, 600])
  }

  /// Double tap and hold: the second finger, held, is an ordinary touch of the window until it lifts
  /// (the view under it gets began, moved and ended; nothing is explored or activated); a double
  /// tap lifted at once still activates.
  @Test(arguments: SyntheticDeviceKind.allCases)
  func aDoubleTapsSecondFingerHeldPassesThrough(kind: SyntheticDeviceKind) throws {
    let s = ruleScript()
    s.tap(at: .init(x: 850, y: 250))  // selects `week`
    s.wait(1)
    s.tap(at: .init(x: 850, y: 250))
    s.wait(0.15)
    let finger = s.down([.init(x: 850, y: 250)])
    s.wait(0.7)
    s.animate(finger, duration: 0.3) { _, t in .init(x: 850 + 100 * t, y: 250) }
    s.up(finger)
    s.wait(1)
    s.doubleTap(at: .init(x: 500, y: 700))
    s.wait(1)
    let messages = try run(s, kind: kind)
    let lines = log(messages).reduce(into: [String]()) { out, line in
      if out.last != line || !line.hasSuffix("moved") { out.append(line) }
    }
    #expect(
      lines == [
        "focus week", "passthrough -", "touches week began", "touches week moved", "touches week ended",
        "activate week", "touches week began", "touches week ended",
      ])
  }
}
