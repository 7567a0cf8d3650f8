import Foundation
import Testing
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// `touchd --replay` of a touchscreen and a kiosk keypad together: the daemon merges the two
/// recordings by time and routes the keypad to its window's keys, and a subscriber gets what
/// `ScenePlayer` computes from the same recordings (live equals replay).
@Suite(.serialized)
struct KeyReplaySubscriptionTests {
  static let scene = """
    version: 1
    windows:
      - id: main
        size: {width: 1000, height: 800}
        devices: ["touchd synthetic*"]
        keys:
          devices: ["Kiosk Keypad"]
          map: {KEY_ENTER: select, KEY_F1: menu, KEY_UP: upArrow, KEY_DOWN: downArrow}
        firstResponder: pad
        views:
          - id: pad
            frame: {x: 0, y: 0, width: 1000, height: 800}
            touches: true
            presses: true
            recognizers:
              - {id: pad-tap, type: tap, action: tapped}
    """

  /// The message types the test subscribes to and compares: the keypad's presses, the taps'
  /// touches and actions.
  static let types = ["action", "presses", "touches"]

  /// The keypad fixture (`Tests/TouchdSceneTests/Fixtures/keypad.evemu`): ENTER at 0.1–0.25 s,
  /// F1 held 0.5–1.5 s, UP 2.0–2.4 s with two autorepeats.
  static let keypadPath = TestPaths.repository("Tests/TouchdSceneTests/Fixtures/keypad.evemu")

  /// Taps at 0.3 s and 1.0 s, between the keypad's presses, on the synthetic touchscreen.
  static func taps() -> FingerScript {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.3)
    script.tap(at: .init(x: 500, y: 400))
    script.wait(0.65)
    script.tap(at: .init(x: 500, y: 400))
    return script
  }

  /// A JSON line with its keys sorted, to compare lines whatever their key order.
  static func normalized(_ object: Any) -> String {
    String(data: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!
  }

  /// Writes the scene and the taps; returns their paths.
  static func files(in dir: URL) throws -> (scene: String, taps: String) {
    let scenePath = dir.appendingPathComponent("keys.yaml").path
    try scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    return (scenePath, try writeRecording(taps(), to: dir, name: "taps.evemu"))
  }

  @Test func aSubscriberGetsWhatReplayComputesForATouchscreenAndAKeypad() throws {
    let dir = scratchDirectory()
    let (scenePath, tapsPath) = try Self.files(in: dir)
    let recordings = [try RecordingReader.load(path: tapsPath), try RecordingReader.load(path: Self.keypadPath)]
    let expected = try ScenePlayer.replay(recordings, scene: try Scene.load(path: scenePath))
      .filter { Self.types.contains($0.type) }.map(\.jsonLine)
    #expect(expected.contains { $0.contains(#""action":"tapped""#) })
    // ENTER, F1 and UP, each began and ended: the autorepeats make none.
    #expect(expected.filter { $0.hasPrefix(#"{"type":"presses""#) }.count == 6)

    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir,
      arguments: [
        "--replay", tapsPath, "--replay", Self.keypadPath, "--wait-for-subscriber", "--exit-after-replay",
      ])
    let (client, _) = try daemon.connect()
    let types = Self.types.map { "\"\($0)\"" }.joined(separator: ",")
    let reply = client.command(#"{"cmd":"subscribe","id":1,"types":[\#(types)]}"#, id: 1).reply
    #expect(reply?["types"] as? [String] == Self.types.sorted())
    let messages = client.collect(until: "shutdown").filter { Self.types.contains($0["type"] as? String ?? "") }
    let want = expected.map { Self.normalized(try! JSONSerialization.jsonObject(with: Data($0.utf8))) }
    #expect(messages.map(Self.normalized) == want)
    #expect(daemon.waitForExit() == 0)
    #expect(daemon.log.contains("replaying recordings"), "\(daemon.log)")
    #expect(daemon.log.contains("a client subscribed: the replay starts"), "\(daemon.log)")
  }

  @Test func theDaemonDeliversTheKeypadsKeyFramesAndNamesBothRecordings() throws {
    let dir = scratchDirectory()
    let (scenePath, tapsPath) = try Self.files(in: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", tapsPath, "--replay", Self.keypadPath, "--speed", "4"])
    let (client, _) = try daemon.connect()
    // The keypad makes six key frames (its autorepeats none), the taps four touch frames.
    var counters: [String: Any] = [:]
    var status: [String: Any] = [:]
    let deadline = Date().addingTimeInterval(15)
    var id = 10
    while Date() < deadline {
      id += 1
      status = client.command(#"{"cmd":"status","id":\#(id)}"#, id: id).reply ?? [:]
      counters = status["counters"] as? [String: Any] ?? [:]
      if counters["keyFrames"] as? Int == 6 && counters["frames"] as? Int == 4 { break }
      usleep(50_000)
    }
    #expect(counters["keyFrames"] as? Int == 6, "\(status)")
    #expect(counters["frames"] as? Int == 4, "\(status)")
    #expect(status["replay"] as? String == "\(tapsPath), \(Self.keypadPath)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func aKeypadNoWindowTakesStopsTheDaemonNamingTheRecording() throws {
    let dir = scratchDirectory()
    let (_, tapsPath) = try Self.files(in: dir)
    let plain = dir.appendingPathComponent("plain.yaml").path
    try Self.scene.replacingOccurrences(of: "\"Kiosk Keypad\"", with: "\"Other Keypad\"")
      .write(toFile: plain, atomically: true, encoding: .utf8)
    let binary = try builtProduct("touchd")
    let result = try runProcess(
      URL(fileURLWithPath: binary),
      [
        "--scene", plain, "--socket", dir.appendingPathComponent("s.sock").path, "--replay", tapsPath, "--replay",
        Self.keypadPath,
      ])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "cannot start error=\(Self.keypadPath): the recorded device \"Kiosk Keypad\" is not a touchscreen"),
      "\(result.stderr)")
    #expect(result.stderr.contains("nor its keys"), "\(result.stderr)")
  }
}

/// `--replay` is repeatable: a touchscreen's and a keypad's recordings replay together.
@Suite struct ReplayOptionsTests {
  @Test func replayIsRepeatableAndDescGoesWithOneRecording() throws {
    guard case .run(let options) = try DaemonOptions.parse(["--scene", "s", "--replay", "a", "--replay", "b"]) else {
      Issue.record("not a run")
      return
    }
    #expect(options.replayPaths == ["a", "b"])
    #expect(options.replayPath == "a")
    var one = DaemonOptions(scenePath: "s")
    one.replayPath = "r"
    #expect(one.replayPaths == ["r"])
    one.replayPath = nil
    #expect(one.replayPaths.isEmpty)
    do {
      _ = try DaemonOptions.parse(["--scene", "s", "--replay", "a", "--replay", "b", "--desc", "d"])
      Issue.record("accepted --desc with two recordings")
    } catch {
      #expect(error.description == "--desc describes one recording: give a single --replay with it")
    }
  }
}
