import Testing
import TouchDelivery
import TouchdInput
import TouchdProtocol
import TouchdTestKit

@testable import TouchdScene

/// What VoiceOver says (issue #40): the speech requests beside the accessibility messages, in the
/// window's language; the two- and three-finger gestures of speech (pause and resume, read all,
/// where the focus is), escape and magic tap with the window's `voiceOverActions`; replayed on each
/// kind of touchscreen that can make the gesture.
@Suite struct VoiceOverSpeechTests {
  /// One replay's steps: the accessibility messages as `event view spoken`, actions as `action
  /// NAME gesture recognizer`, speech requests as their description.
  func steps(_ script: FingerScript, scene yaml: String, kind: SyntheticDeviceKind = .protocolB) throws -> [String] {
    var out: [String] = []
    try ScenePlayer.run(kind.encode(script.recording), scene: try Scene.parse(yaml)) { step in
      if case .speech(let request, _) = step {
        out.append("\(request.kind)")
      } else if case .message(let message) = step {
        if case .accessibility(let a) = message {
          out.append("\(a.event) \(a.view ?? "-") \(a.spoken ?? "-")")
        } else if case .action(let a) = message {
          out.append("action \(a.action) \(a.gesture) \(a.recognizer ?? "-") \(a.view)")
        }
      }
    }
    return out
  }

  /// The touchscreens that report several fingers (a single-touch one has no gesture of two).
  static let multiTouch: [SyntheticDeviceKind] = [.protocolB, .protocolA]

  static func scene(speech: String = "", actions: String = "") -> String {
    VoiceOverTests.scene(VoiceOverTests.views).replacingOccurrences(
      of: "    voiceOver: true", with: "    voiceOver: true\n" + speech + actions)
  }

  @Test(arguments: SyntheticDeviceKind.allCases)
  func aFocusInterruptsWithItsUtteranceAndItsHintFollows(kind: SyntheticDeviceKind) throws {
    let s = ruleScript()
    s.tap(at: .init(x: 100, y: 250))  // single, which has a hint
    s.wait(1)
    s.tap(at: .init(x: 500, y: 250))  // day, which has none
    s.wait(1)
    let got1 = try steps(s, scene: Self.scene(), kind: kind)
    #expect(
      got1 == [
        "focus single Single, button. Buys one ticket.",
        #"say(text: "Single, button.", hint: Optional("Buys one ticket."), interrupting: true)"#,
        "focus day Day pass, button.", #"say(text: "Day pass, button.", hint: nil, interrupting: true)"#,
      ])
  }

  /// A German window: VoiceOver's words (trait words, a switch's on, a segment's position, a page)
  /// are German; the scene's labels are said as written.
  @Test func aGermanWindowSaysVoiceOversWordsInGerman() throws {
    let yaml = VoiceOverTests.scene(
      """
      - {id: buy, frame: {x: 0, y: 0, width: 300, height: 100}, control: {type: button}, accessibility: {label: Kaufen}}
      - {id: light, frame: {x: 400, y: 0, width: 51, height: 31}, control: {type: switch, on: true}, accessibility: {label: Licht}}
      - {id: size, frame: {x: 0, y: 200, width: 300, height: 40}, control: {type: segmented, segments: [S, M, L], selectedSegmentIndex: 1}}
      - {id: dots, frame: {x: 400, y: 200, width: 200, height: 30}, control: {type: pageControl, numberOfPages: 4, currentPage: 2}}
      """
    ).replacingOccurrences(of: "    voiceOver: true", with: "    voiceOver: true\n    speech: {language: de}")
    let runtime = SceneRuntime(scene: try Scene.parse(yaml), clock: VirtualClock()) { _ in }
    #expect(
      runtime.accessibilityElements(inWindow: 0).map { $0.spoken(in: runtime.spokenLanguage(inWindow: 0)) ?? "" } == [
        "Kaufen, Taste.", "Licht, ein, Taste.", "S, 1 von 3, Taste.", "M, 2 von 3, Taste, ausgewählt.",
        "L, 3 von 3, Taste.", "Seite 3 von 4, anpassbar.",
      ])
    let s = ruleScript()
    s.tap(at: .init(x: 100, y: 50))
    s.wait(1)
    s.drag(from: .init(x: 500, y: 600), to: .init(x: 350, y: 600), duration: 0.1)  // left: at the first
    s.wait(1)
    let got2 = try steps(s, scene: yaml)
    #expect(
      got2 == [
        "focus buy Kaufen, Taste.", #"say(text: "Kaufen, Taste.", hint: nil, interrupting: true)"#,
        "boundary buy Anfang", #"say(text: "Anfang", hint: nil, interrupting: true)"#,
      ])
  }

  /// A two-finger tap pauses speech and the next resumes it; a focus while paused resumes first. A
  /// two-finger flick up reads every element from the first, down from the focus; a three-finger
  /// tap says where the focus is.
  @Test(arguments: Self.multiTouch)
  func twoAndThreeFingerGesturesPauseResumeReadAllAndSayThePosition(kind: SyntheticDeviceKind) throws {
    let s = ruleScript()
    s.tap(at: .init(x: 500, y: 500), fingers: 2)
    s.wait(1)
    s.tap(at: .init(x: 500, y: 500), fingers: 2)
    s.wait(1)
    s.tap(at: .init(x: 500, y: 500), fingers: 2)
    s.wait(1)
    s.tap(at: .init(x: 500, y: 250))  // day, while paused
    s.wait(1)
    s.tap(at: .init(x: 500, y: 600), fingers: 3)
    s.wait(1)
    s.drag(from: .init(x: 500, y: 550), to: .init(x: 500, y: 700), duration: 0.1, fingers: 2)  // down: from day
    s.wait(1)
    s.drag(from: .init(x: 500, y: 700), to: .init(x: 500, y: 550), duration: 0.1, fingers: 2)  // up: from the top
    s.wait(1)
    let fromDay = ["Day pass, button.", "Week pass, button.", "Volume, 50%, adjustable.", "Tickets, 1, adjustable."]
    let all = ["Tickets, heading.", "Single, button. Buys one ticket."] + fromDay
    func quoted(_ texts: [String]) -> String { "[" + texts.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
    let got3 = try steps(s, scene: Self.scene(), kind: kind)
    #expect(
      got3 == [
        "pause - -", "pause", "resume - -", "resume", "pause - -", "pause",
        "focus day Day pass, button.", "resume", #"say(text: "Day pass, button.", hint: nil, interrupting: true)"#,
        "position day 3 of 6", #"say(text: "3 of 6", hint: nil, interrupting: true)"#,
        "readAll day \(fromDay.joined(separator: " "))", "sayAll(\(quoted(fromDay)))",
        "readAll title \(all.joined(separator: " "))", "sayAll(\(quoted(all)))",
      ])
  }

  /// A two-finger double tap is the magic tap and a two-finger scrub (a Z: three strokes sideways)
  /// is escape: each an accessibility event about the focus and, with `voiceOverActions`, an action
  /// of gesture `voiceOver`; the keypad's menu key is escape too. Without `voiceOverActions`, the
  /// events alone.
  @Test(arguments: Self.multiTouch)
  func magicTapAndEscapePublishTheWindowsActions(kind: SyntheticDeviceKind) throws {
    let s = ruleScript()
    s.tap(at: .init(x: 100, y: 250))  // single
    s.wait(1)
    s.doubleTap(at: .init(x: 500, y: 600), fingers: 2)
    s.wait(1)
    let fingers = s.down([.init(x: 400, y: 600), .init(x: 500, y: 600)])
    // Right, left, right: 150 pt strokes, a Z in 0.6 s.
    s.animate(fingers, duration: 0.6) { i, t in
      let x = t < 1.0 / 3 ? t * 3 * 150 : t < 2.0 / 3 ? 150 - (t * 3 - 1) * 150 : (t * 3 - 2) * 150
      return .init(x: 400 + Double(i) * 100 + x, y: 600 + t * 80)
    }
    s.up(fingers)
    s.wait(1)
    let actions = "    voiceOverActions: {escape: back, magicTap: play}\n"
    let got4 = try steps(s, scene: Self.scene(actions: actions), kind: kind)
    #expect(
      got4 == [
        "focus single Single, button. Buys one ticket.",
        #"say(text: "Single, button.", hint: Optional("Buys one ticket."), interrupting: true)"#,
        "magicTap single -", "action play voiceOver magicTap single",
        "escape single -", "action back voiceOver escape single",
      ])
    let got5 = try steps(s, scene: Self.scene(), kind: kind)
    #expect(
      got5.filter { !$0.hasPrefix("say") } == [
        "focus single Single, button. Buys one ticket.", "magicTap single -", "escape single -",
      ])
  }

  /// `speech: {enabled: false}`: VoiceOver works and publishes, and asks speech for nothing.
  @Test func speechDisabledAsksForNothing() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 100, y: 250))
    s.wait(1)
    s.tap(at: .init(x: 500, y: 500), fingers: 2)
    s.wait(1)
    let got6 = try steps(s, scene: Self.scene(speech: "    speech: {enabled: false}\n"))
    #expect(
      got6 == [
        "focus single Single, button. Buys one ticket.", "pause - -",
      ])
  }

  /// An announcement is queued after what VoiceOver says, interrupting nothing; VoiceOver turned
  /// off says so, interrupting.
  @Test func anAnnouncementIsQueuedAndVoiceOverOffIsSaid() throws {
    var requests: [SpeechRequest.Kind] = []
    let runtime = SceneRuntime(scene: try Scene.parse(Self.scene()), clock: VirtualClock()) { _ in }
    runtime.speaker = { requests.append($0.kind) }
    _ = try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"announce","text":"Printing"}"#))
    _ = try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"set","window":"w","voiceOver":false}"#))
    #expect(
      requests == [
        .say(text: "Printing", hint: nil, interrupting: false),
        .say(text: "VoiceOver off", hint: nil, interrupting: true),
      ])
  }

  @Test func badSpeechSettingsAreReportedAtTheirPlace() throws {
    let yaml = Self.scene(speech: "    speech: {language: fr, rate: 200}\n")
    let error = #expect(throws: SceneError.self) { try Scene.parse(yaml) }
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains("speech") && text.contains("'fr'") && text.contains("en, de"), "\(text)")
    #expect(text.contains("an integer from -100 to 100"), "\(text)")
  }
}

/// `voiceOver: headphones` (issue #40): the sound card's headphone switch, read like a keypad
/// through the window's `keys.devices`, turns VoiceOver on when headphones are plugged in and off
/// when they are pulled out; touches before and after reach the views.
@Suite struct VoiceOverHeadphonesTests {
  static let jackPath = TestPaths.repositoryRoot.appendingPathComponent(
    "Tests/TouchdSceneTests/Fixtures/headphone-jack.evemu")

  static let scene = VoiceOverTests.scene(VoiceOverTests.views).replacingOccurrences(
    of: "    voiceOver: true",
    with: "    voiceOver: headphones\n    keys: {devices: [\"HDA Intel PCH Headphone\"]}")

  @Test(arguments: SyntheticDeviceKind.allCases)
  func pluggingHeadphonesInTurnsVoiceOverOnAndPullingThemOutOff(kind: SyntheticDeviceKind) throws {
    // The jack: plugged in at 2 s, pulled out at 6 s (the fixture's times).
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    s.tap(at: .init(x: 100, y: 250))  // 1 s: `single`'s tap recognizer, VoiceOver off
    s.wait(2)
    s.tap(at: .init(x: 100, y: 250))  // 3 s: selects `single`
    s.wait(1)
    s.doubleTap(at: .init(x: 500, y: 700))  // 4 s: activates it
    s.wait(3)
    s.tap(at: .init(x: 500, y: 250))  // 7 s: `day`'s button, VoiceOver off again
    s.wait(1)
    let jack = try RecordingReader.load(path: Self.jackPath.path)
    let messages = try ScenePlayer.replay(
      [kind.encode(s.recording), jack], scene: try Scene.parse(Self.scene))
    let log = messages.compactMap { m -> String? in
      switch m {
      case .accessibility(let a): "\(a.event) \(a.view ?? a.on.map { "\($0)" } ?? "-")"
      case .action(let a): "action \(a.action)"
      default: nil
      }
    }
    #expect(
      log == [
        "action buy-single", "voiceOver true", "focus single", "activate single", "action buy-single",
        "voiceOver false", "action buy-day",
      ])
  }

  @Test func headphonesWithoutKeysAreReportedAtTheirPlace() throws {
    let yaml = VoiceOverTests.scene(VoiceOverTests.views).replacingOccurrences(
      of: "    voiceOver: true", with: "    voiceOver: headphones")
    let error = #expect(throws: SceneError.self) { try Scene.parse(yaml) }
    let text = error.map { "\($0)" } ?? ""
    #expect(text.contains("'voiceOver: headphones' in window 'w' needs keys.devices"), "\(text)")
    let bad = VoiceOverTests.scene(VoiceOverTests.views).replacingOccurrences(
      of: "    voiceOver: true", with: "    voiceOver: headphone")
    let other = #expect(throws: SceneError.self) { try Scene.parse(bad) }
    #expect("\(other.map { "\($0)" } ?? "")".contains("(did you mean 'headphones'?)"))
  }

  /// The VM suite's touches for the jack (`live-equals-replay-headphones*`, scripts/vm/guest-plain.sh):
  /// a finger resting on the "Buy ticket" button of scripts/vm/scenes/headphones.yaml from 3 s, then
  /// a double tap elsewhere, while the jack is plugged in (2 s to 6 s).
  static let touchesPath = TestPaths.repositoryRoot.appendingPathComponent(
    "Tests/TouchdSceneTests/Fixtures/headphones-touches.evemu")
  static let vmScenePath = TestPaths.repositoryRoot.appendingPathComponent("scripts/vm/scenes/headphones.yaml")

  static func vmTouches() -> FingerScript {
    let s = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 3, sampleRate: 100)
    let finger = s.down([.init(x: 560, y: 340)])
    s.wait(0.6)  // explores from 0.25 s (VoiceOverGestures.exploreDelay): focuses the button
    s.up(finger)
    s.wait(0.5)
    s.doubleTap(at: .init(x: 1500, y: 850))  // empty space: activates the focus
    s.wait(0.5)
    return s
  }

  /// The fixture is this script's (TOUCHD_UPDATE_GOLDEN=1 rewrites it), and replayed with the jack on
  /// the VM's scene it explores and activates while the jack is in: what the live guest must publish.
  @Test func theVMsJackAndTouchesExploreAndActivateWhileTheJackIsIn() throws {
    let text = Self.vmTouches().evemuText
    if updatingGoldens { try text.write(to: Self.touchesPath, atomically: true, encoding: .utf8) }
    #expect(text == (try String(contentsOf: Self.touchesPath, encoding: .utf8)))
    let messages = try ScenePlayer.replay(
      [RecordingReader.load(path: Self.jackPath.path), RecordingReader.load(path: Self.touchesPath.path)],
      scene: try Scene.parse(String(contentsOf: Self.vmScenePath, encoding: .utf8)))
    let log = messages.compactMap { m -> String? in
      switch m {
      case .accessibility(let a): "\(a.event) \(a.view ?? a.on.map { "\($0)" } ?? "-") \(a.time)"
      case .action(let a): "action \(a.action) \(a.time)"
      case .touches: "touches"
      default: nil
      }
    }
    #expect(
      log == [
        "voiceOver true 2.0", "focus buy 3.25", "activate buy 4.35", "action buy 4.35", "voiceOver false 6.0",
      ], "\(log)")
  }

  /// The jack's state at open: headphones already plugged in make the switch down from the start.
  @Test func aJackAlreadyPluggedInAtOpenIsDownFromTheStart() throws {
    let jack = try RecordingReader.load(path: Self.jackPath.path)
    let keys = KeyAssembler(device: jack.description)
    #expect(KeyAssembler.hasKeys(jack.description) && KeyAssembler.hasHeadphoneSwitch(jack.description))
    let time = Timestamp(microseconds: 500_000)
    #expect(
      keys.seedHeadphones(plugged: true, at: time)
        == KeyFrame(time: time, changes: [KeyChange(code: KeyAssembler.headphoneSwitch, phase: .down)]))
    // The recording's plug-in finds the switch down already (no change); its pull-out releases it.
    let frames = jack.events.compactMap(keys.process)
    #expect(
      frames == [
        KeyFrame(
          time: Timestamp(microseconds: 6_000_000),
          changes: [KeyChange(code: KeyAssembler.headphoneSwitch, phase: .up)])
      ])
  }
}
