import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The keypad recording the press tests share: `Fixtures/keypad.evemu`.
let keypadFixturePath = TestPaths.repositoryRoot.appendingPathComponent("Tests/TouchdSceneTests/Fixtures/keypad.evemu")
  .path

/// The multi-device libinput record fixture of the input tests (touchscreen, keypad, power button).
let multiDeviceFixturePath = TestPaths.repositoryRoot.appendingPathComponent(
  "Tests/TouchdInputTests/Fixtures/recordings/touchscreen-and-keypad.libinput.yml"
).path

/// A message's JSON line without its `seq`: messages of another kind (presses) take sequence
/// numbers too, so a comparison across replays with and without them leaves `seq` out.
func withoutSeq(_ message: Message) -> String {
  message.jsonLine.replacingOccurrences(of: #","seq":\d+"#, with: "", options: .regularExpression)
}

/// Replays of key devices: the keypad fixture, routing, and several recordings merged by time.
@Suite("Key devices in replays")
struct KeyReplayTests {
  // <linux/input-event-codes.h>
  static let keyEnter: UInt16 = 28
  static let keyF1: UInt16 = 59
  static let keyUp: UInt16 = 103

  /// A 1000×800 window `main` taking the synthetic touchscreen, a view handling touches, and
  /// (with `keys`) the keypad's keys.
  static func scene(keys: [String]? = ["Kiosk Keypad"], devices: [String] = ["touchd synthetic*"]) -> Scene {
    var view = Scene.View(id: "pad", frame: Scene.Frame(x: 0, y: 0, width: 1000, height: 800))
    view.touches = true
    view.presses = true
    var window = Scene.Window(
      id: "main", size: Scene.Size(width: 1000, height: 800), devices: devices, views: [view])
    window.keys = keys.map {
      Scene.Keys(devices: $0, map: ["KEY_ENTER": "select", "KEY_F1": "menu", "KEY_UP": "upArrow"])
    }
    window.firstResponder = "pad"
    return Scene(windows: [window])
  }

  /// A tap at (500, 400) at 0.3 s and another at 1.0 s.
  static func taps() -> Recording {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.3)
    script.tap(at: .init(x: 500, y: 400))
    script.wait(0.65)
    script.tap(at: .init(x: 500, y: 400))
    return script.recording
  }

  @Test("The keypad fixture: Kiosk Keypad 1234:5678 with seven keys; ENTER, F1 held 1 s, UP with autorepeat")
  func keypadFixture() throws {
    let keypad = try RecordingReader.load(path: keypadFixturePath)
    #expect(keypad.description.name == "Kiosk Keypad")
    #expect(keypad.description.id.vendorProduct == "1234:5678")
    #expect(keypad.description.events[EV.key] == [1, 28, 59, 103, 105, 106, 108])
    #expect(keypad.notTouchscreenMessage != nil)
    #expect(KeyAssembler.hasKeys(keypad.description))
    #expect(keypad.events.filter { $0.type == EV.key && $0.value == 2 }.count == 2)
    let replay = MultiReplay([keypad], readings: [.unscened(keypad)])
    var frames: [KeyFrame] = []
    replay.feed { _, frame in if case .keys(let keys) = frame { frames.append(keys) } }
    func frame(_ us: Int64, _ code: UInt16, _ phase: KeyPhase) -> KeyFrame {
      KeyFrame(time: Timestamp(microseconds: us), changes: [KeyChange(code: code, phase: phase)])
    }
    #expect(
      frames == [
        frame(100_000, Self.keyEnter, .down), frame(250_000, Self.keyEnter, .up), frame(500_000, Self.keyF1, .down),
        frame(1_500_000, Self.keyF1, .up), frame(2_000_000, Self.keyUp, .down), frame(2_400_000, Self.keyUp, .up),
      ])
    // evemu-record's form: the writer reproduces the description and events.
    let again = try RecordingReader.parse(Array(EvemuWriter.write(keypad).utf8), source: "again")
    #expect(again.description == keypad.description)
    #expect(again.events == keypad.events)
  }

  @Test("A keypad a window's keys.devices names is routed to that window's keys")
  func routing() throws {
    let keypad = try RecordingReader.load(path: keypadFixturePath)
    let runtime = SceneRuntime(scene: Self.scene(), clock: VirtualClock(now: 0)) { _ in }
    #expect(try ScenePlayer.route(keypad, in: runtime) == ScenePlayer.Route(touchWindow: nil, keyWindow: 0))
    #expect(try ScenePlayer.route(Self.taps(), in: runtime) == ScenePlayer.Route(touchWindow: 0, keyWindow: nil))
    // By id or by path too.
    let byID = SceneRuntime(scene: Self.scene(keys: ["1234:5678"]), clock: VirtualClock(now: 0)) { _ in }
    #expect(try ScenePlayer.route(keypad, in: byID).keyWindow == 0)
    let byPath = SceneRuntime(scene: Self.scene(keys: ["/dev/input/by-id/*kbd"]), clock: VirtualClock(now: 0)) { _ in }
    #expect(try ScenePlayer.route(keypad, in: byPath, path: "/dev/input/by-id/usb-kiosk-event-kbd").keyWindow == 0)
  }

  @Test("A recording no window takes, as touches or as keys, is an error naming the file and the device")
  func unroutable() throws {
    let keypad = try RecordingReader.load(path: keypadFixturePath)
    let runtime = SceneRuntime(scene: Self.scene(keys: nil), clock: VirtualClock(now: 0)) { _ in }
    #expect(throws: SceneRuntimeError.self) { try ScenePlayer.route(keypad, in: runtime) }
    do throws(SceneRuntimeError) {
      _ = try ScenePlayer.route(keypad, in: runtime)
    } catch {
      guard case .notTouchscreen(let message) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(message.hasPrefix("\(keypadFixturePath): the recorded device \"Kiosk Keypad\" is not a touchscreen: "))
      #expect(
        message.hasSuffix(
          "touchd would not take it live either, nor its keys: no window's keys.devices matches its name "
            + "\"Kiosk Keypad\" or its id 1234:5678"))
    }
    let elsewhere = SceneRuntime(scene: Self.scene(devices: ["Other*"]), clock: VirtualClock(now: 0)) { _ in }
    #expect(throws: SceneRuntimeError.noWindow(device: "touchd synthetic touchscreen")) {
      try ScenePlayer.replay([Self.taps(), keypad], scene: elsewhere.scene)
    }
  }

  @Test("A touchscreen whose keys a window names feeds that window both; one with keys only is read for keys")
  func touchscreenWithKeys() throws {
    var description = SyntheticTouchscreen.description
    description.events[EV.key, default: []].insert(158)  // KEY_BACK
    let recording = Recording(description: description, events: [], source: "ts")
    let both = SceneRuntime(scene: Self.scene(keys: ["touchd synthetic*"]), clock: VirtualClock(now: 0)) { _ in }
    #expect(try ScenePlayer.route(recording, in: both) == ScenePlayer.Route(touchWindow: 0, keyWindow: 0))
    let keysOnly = SceneRuntime(
      scene: Self.scene(keys: ["touchd synthetic*"], devices: ["Other*"]), clock: VirtualClock(now: 0)
    ) { _ in }
    #expect(try ScenePlayer.route(recording, in: keysOnly) == ScenePlayer.Route(touchWindow: nil, keyWindow: 0))
    // Without keys that make presses (BTN_TOUCH only), keys.devices does not take it.
    let plain = Recording(description: SyntheticTouchscreen.description, events: [], source: "ts")
    #expect(try ScenePlayer.route(plain, in: both) == ScenePlayer.Route(touchWindow: 0, keyWindow: nil))
  }

  @Test("A keypad beside the touchscreen leaves the touches' messages as they are, in time and content")
  func keypadBesideTouches() throws {
    let keypad = try RecordingReader.load(path: keypadFixturePath)
    let scene = Self.scene()
    let alone = try ScenePlayer.replay(Self.taps(), scene: scene)
    #expect(alone.count == 4)
    let together = try ScenePlayer.replay([Self.taps(), keypad], scene: scene)
    let touches = together.filter { ["action", "touches", "scroll"].contains($0.type) }
    #expect(touches.map(withoutSeq) == alone.map(withoutSeq))
    // In time order, as the devices reported them.
    #expect(together.map(\.time) == together.map(\.time).sorted())
    #expect(ScenePlayer.origin(of: [Self.taps(), keypad]) == 0.1)
    #expect(ScenePlayer.origin(of: [Self.taps()]) == ScenePlayer.origin(of: Self.taps()))
    #expect(ScenePlayer.origin(of: []) == 0)
  }

  @Test("Several touchscreens merge by time; frames at one time follow the order of the recordings")
  func mergeOrder() throws {
    var second = SyntheticTouchscreen.description
    second.name = "Second Touchscreen"
    func taps(on device: DeviceDescription) -> Recording {
      let script = FingerScript(windowWidth: 1000, windowHeight: 800, device: device, start: 1)
      script.tap(at: .init(x: 100, y: 100))
      return Recording(description: device, events: script.events, source: device.name)
    }
    func window(_ id: String, _ devices: [String]) -> Scene.Window {
      var view = Scene.View(id: "\(id)-view", frame: Scene.Frame(x: 0, y: 0, width: 1000, height: 800))
      view.touches = true
      return Scene.Window(id: id, size: Scene.Size(width: 1000, height: 800), devices: devices, views: [view])
    }
    let scene = Scene(windows: [window("left", ["touchd synthetic*"]), window("right", ["Second*"])])
    let first = taps(on: SyntheticTouchscreen.description)
    let other = taps(on: second)
    func windows(_ messages: [Message]) -> [String] {
      messages.compactMap { message in
        guard case .touches(let touches) = message else { return nil }
        return "\(touches.window) \(touches.phase)"
      }
    }
    #expect(
      windows(try ScenePlayer.replay([first, other], scene: scene))
        == ["left began", "right began", "left ended", "right ended"])
    #expect(
      windows(try ScenePlayer.replay([other, first], scene: scene))
        == ["right began", "left began", "right ended", "left ended"])
  }

  @Test("A key still down when the recordings end is cancelled at their last event")
  func keyDownAtTheEnd() throws {
    let keypad = try RecordingReader.load(path: keypadFixturePath)
    // F1 goes down at 0.5 s; the recording stops before its release at 1.5 s.
    let cut = Recording(
      description: keypad.description, events: keypad.events.filter { $0.time.microseconds <= 500_000 },
      source: keypad.source)
    let messages = try ScenePlayer.replay([Self.taps(), cut], scene: Self.scene())
    let presses = messages.filter { $0.type == "presses" }
    #expect(presses.count == 4, "\(presses.map(\.jsonLine))")
    let last = try #require(presses.last)
    #expect(last.jsonLine.contains(#""phase":"cancelled""#), "\(last.jsonLine)")
    // The taps' last event, 1.05 s, ends the replay: the cancellation comes then, after the taps.
    #expect(abs(last.time - 1.05) < 1e-9)
    #expect(messages.last == last)
  }

  @Test("Timed commands count from the earliest recording and apply across devices")
  func commandsAcrossDevices() throws {
    let keypad = try RecordingReader.load(path: keypadFixturePath)
    // The keypad's first event, 0.1 s, is the origin: ignoring from 0.32 s (the first tap is down
    // from 0.3 s to 0.35 s) to 0.9 s.
    let commands = [
      ScenePlayer.TimedCommand(at: 0.22, try SceneCommand.parse(json: #"{"cmd":"ignoreInteraction","value":true}"#)),
      ScenePlayer.TimedCommand(at: 0.8, try SceneCommand.parse(json: #"{"cmd":"ignoreInteraction","value":false}"#)),
    ]
    var steps: [ScenePlayer.Step] = []
    try ScenePlayer.run([Self.taps(), keypad], scene: Self.scene(), commands: commands) { steps.append($0) }
    let times = steps.compactMap { step -> Double? in
      if case .command(_, let time) = step { return time }
      return nil
    }
    #expect(times.count == 2)
    #expect(zip(times, [0.32, 0.9]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
    let touches = steps.compactMap { step -> String? in
      guard case .message(.touches(let t)) = step else { return nil }
      return t.phase
    }
    // The first tap is cancelled by the ignoring; the second, after it, is delivered.
    #expect(touches == ["began", "cancelled", "began", "ended"])
  }
}
