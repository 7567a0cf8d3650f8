import Foundation
import Testing
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// `touchctl replay` with several recordings (a touchscreen and a keypad), run as a process.
@Suite("touchctl replay of several devices")
struct MultiReplayCommandTests {
  /// The taps of ``KeyReplayTests/taps()`` written as evemu to a temporary file.
  func tapsFile() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-taps-\(UUID()).evemu").path
    try EvemuWriter.write(KeyReplayTests.taps()).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A scene file of ``KeyReplayTests/scene(keys:devices:)``'s window, written to a temporary file.
  func sceneFile(keys: Bool = true) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-keys-\(UUID()).yaml").path
    let keysBlock =
      keys
      ? """
          keys:
            devices: ["Kiosk Keypad"]
            map: {KEY_ENTER: select, KEY_F1: menu, KEY_UP: upArrow}
          firstResponder: pad

      """ : ""
    let text = """
      version: 1
      windows:
        - id: main
          size: {width: 1000, height: 800}
          devices: ["touchd synthetic*"]
      \(keysBlock)    views:
            - id: pad
              frame: {x: 0, y: 0, width: 1000, height: 800}
              touches: true
              presses: true

      """
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Each output line as a JSON object.
  func objects(_ stdout: String) -> [[String: Any]] {
    stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
  }

  @Test("Two files print every frame merged by time, each line with its device's index; keys as key frames")
  func twoFilesWithoutScene() throws {
    let taps = try tapsFile()
    defer { try? FileManager.default.removeItem(atPath: taps) }
    let result = try runTouchctl(["replay", taps, keypadFixturePath])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = objects(result.stdout)
    #expect(lines.count == 10)
    #expect(lines.map { $0["device"] as? Int } == [1, 1, 0, 0, 1, 0, 0, 1, 1, 1])
    let times = lines.compactMap { $0["time"] as? Double }
    #expect(times == times.sorted())
    let keys = lines.filter { $0["keys"] != nil }.compactMap { ($0["keys"] as? [[String: Any]])?.first }
    #expect(keys.map { $0["code"] as? Int } == [28, 28, 59, 59, 103, 103])
    #expect(keys.map { $0["phase"] as? String } == ["down", "up", "down", "up", "down", "up"])
    let enter = EventNames.code(type: EV.key, code: 28)
    #expect(keys.first?["name"] as? String == enter)
    // The key line's exact form.
    let name = enter.map { #""name":"\#($0)","# } ?? ""
    #expect(
      result.stdout.hasPrefix(#"{"time":0.100000,"device":1,"keys":[{"code":28,\#(name)"phase":"down"}]}"# + "\n"))
  }

  @Test("One keypad file prints key frames without a device index, as one touchscreen prints its frames")
  func keypadAlone() throws {
    let result = try runTouchctl(["replay", keypadFixturePath])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = objects(result.stdout)
    #expect(lines.count == 6)
    #expect(lines.allSatisfy { $0["device"] == nil && $0["keys"] != nil })
    #expect(lines.compactMap { $0["time"] as? Double } == [0.1, 0.25, 0.5, 1.5, 2.0, 2.4])
  }

  @Test("A libinput record file of three devices replays every one of them")
  func multiDeviceFile() throws {
    let result = try runTouchctl(["replay", multiDeviceFixturePath])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = objects(result.stdout)
    #expect(lines.map { $0["device"] as? Int } == [0, 0, 1, 1])
    #expect(lines.map { $0["keys"] == nil } == [true, true, false, false])
  }

  @Test("With --scene: the messages ScenePlayer computes for both recordings, the keypad routed to its window's keys")
  func withScene() throws {
    let taps = try tapsFile()
    let scene = try sceneFile()
    defer {
      try? FileManager.default.removeItem(atPath: taps)
      try? FileManager.default.removeItem(atPath: scene)
    }
    let result = try runTouchctl(["replay", taps, keypadFixturePath, "--scene", scene])
    #expect(result.status == 0, "\(result.stderr)")
    let recordings = [try RecordingReader.load(path: taps), try RecordingReader.load(path: keypadFixturePath)]
    let expected = try ScenePlayer.replay(recordings, scene: try Scene.load(path: scene))
    #expect(result.stdout == expected.map { $0.jsonLine + "\n" }.joined())
    #expect(expected.filter { $0.type == "touches" }.count == 4)
    let explained =
      try runTouchctl(["replay", taps, keypadFixturePath, "--scene", scene, "--explain"])
    #expect(explained.status == 0)
    // Counted from the keypad's first event, 0.1 s: the first tap began at 0.3 s.
    #expect(explained.stdout.contains("+0.200 touches began on view 'pad'"), "\(explained.stdout)")
  }

  @Test("A keypad no window's keys.devices names is refused, naming the file and the device")
  func keypadWithoutKeysWindow() throws {
    let taps = try tapsFile()
    let scene = try sceneFile(keys: false)
    defer {
      try? FileManager.default.removeItem(atPath: taps)
      try? FileManager.default.removeItem(atPath: scene)
    }
    let result = try runTouchctl(["replay", taps, keypadFixturePath, "--scene", scene])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("\(keypadFixturePath): the recorded device \"Kiosk Keypad\" is not a touchscreen"))
    #expect(result.stderr.contains("nor its keys: no window's keys.devices matches its name \"Kiosk Keypad\""))
    // A touchscreen no window takes names the recording it is in.
    let other = try runTouchctl(["replay", keypadFixturePath, multiDeviceFixturePath, "--scene", scene])
    #expect(other.status == 1)
    #expect(other.stderr.hasPrefix("\(keypadFixturePath): the recorded device \"Kiosk Keypad\""))
    let keysScene = try sceneFile()
    defer { try? FileManager.default.removeItem(atPath: keysScene) }
    let atmel = try runTouchctl(["replay", multiDeviceFixturePath, "--scene", keysScene])
    #expect(atmel.status == 1)
    #expect(
      atmel.stderr
        == "\(keysScene): no window of the scene takes touches from 'Atmel maXTouch Touchscreen' (recorded in "
        + "\(multiDeviceFixturePath):15)\n")
  }

  @Test("--desc goes with one recording; no recording is a usage error")
  func usage() throws {
    let desc = try runTouchctl(["replay", keypadFixturePath, keypadFixturePath, "--desc", "x.desc"])
    #expect(desc.status != 0)
    #expect(desc.stderr.contains("--desc describes one recording"))
    let none = try runTouchctl(["replay"])
    #expect(none.status != 0)
    #expect(none.stderr.contains("give a recording"))
  }
}
