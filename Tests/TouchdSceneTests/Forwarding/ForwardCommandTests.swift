import Foundation
import Testing
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// `forward:` in scene files, `touchctl replay --forward`, and the kiosk-forward example.
@Suite("forward: in scenes and touchctl replay --forward")
struct ForwardCommandTests {
  typealias P = FingerScript.Point

  @Test("forward: takes {} or {name}; other keys and values are errors with their place")
  func validation() throws {
    #expect(
      try Scene.parse(forwardScene(["{id: t, type: tap, action: t}"], forward: "{}")).windows[0].forward
        == Scene.Forward())
    #expect(
      try Scene.parse(forwardScene(["{id: t, type: tap, action: t}"], forward: "{name: \"Kiosk touchscreen\"}"))
        .windows[0].forward
        == Scene.Forward(name: "Kiosk touchscreen"))
    #expect(
      try Scene.parse(
        forwardScene(["{id: t, type: tap, action: t}"], forward: "{}").replacingOccurrences(of: "forward: {}", with: "")
      )
      .windows[0].forward == nil)
    let yaml = """
      version: 1
      windows:
        - id: a
          size: {width: 100, height: 100}
          forward: {nam: x}
        - id: b
          size: {width: 100, height: 100}
          forward: true
        - id: c
          size: {width: 100, height: 100}
          forward: {name: ""}
        - id: d
          size: {width: 100, height: 100}
          foward: {}
        - id: e
          size: {width: 100, height: 100}
          forward: {name: \(String(repeating: "x", count: 80))}
      """
    #expect(throws: SceneError.self) { try Scene.parse(yaml, file: "f.yaml") }
    do {
      _ = try Scene.parse(yaml, file: "f.yaml")
    } catch {
      #expect(
        error.description.split(separator: "\n") == [
          "f.yaml:5:15: error: unknown key 'nam' in forward of window 'a' (did you mean 'name'?)",
          "f.yaml:8:14: error: expected a mapping for the forward of window 'b', found true",
          "f.yaml:11:21: error: 'name' in forward of window 'c' must be a non-empty string, found ''",
          "f.yaml:14:5: error: unknown key 'foward' in window 'd' (did you mean 'forward'?)",
          "f.yaml:17:21: error: 'name' in forward of window 'e' must be at most 79 bytes long (a uinput device's name), found '\(String(repeating: "x", count: 80))'",
        ])
      #expect(
        try Scene.parse(
          forwardScene(["{id: t, type: tap, action: t}"], forward: "{name: \(String(repeating: "é", count: 39))x}")
        ).windows[0].forward?.name?.utf8.count == 79)
    }
  }

  /// The kiosk example's window is 1920 x 1080 on the synthetic 0...4095 axes.
  func kioskScript() -> FingerScript { FingerScript(windowWidth: 1920, windowHeight: 1080, start: 1) }

  @Test("config/kiosk-forward.yaml: the admin hold, the back swipe and the staff corner claim; a tap goes through")
  func kioskExample() throws {
    let scene = try Scene.load(path: TestPaths.config("kiosk-forward.yaml").path)
    #expect(scene.windows[0].forward == Scene.Forward(name: "Kiosk touchscreen"))
    let s = kioskScript()
    s.tap(at: P(x: 960, y: 540))  // the app's tap: through
    s.wait(1)
    s.drag(from: P(x: 4, y: 540), to: P(x: 400, y: 540), duration: 0.3)  // back: never forwarded
    s.wait(1)
    for _ in 0..<3 {  // staff: two taps through, the third cancelled
      s.tap(at: P(x: 1860, y: 60))
      s.wait(0.15)
    }
    s.wait(1)
    s.longPress(at: P(x: 960, y: 540), duration: 2.2, fingers: 3)  // admin: cancelled after 2 s
    let devices = try ScenePlayer.forwarded([s.recording], scene: scene)
    let device = try #require(devices.first)
    #expect(device.recording.description.name == "Kiosk touchscreen")
    let lines = forwardLines(device.recording.events)
    print(lines.joined(separator: "\n"))
    // The tap goes through; the edge swipe from 2.05 s never reaches the app; the
    // staff taps at 3.35, 3.55 and 3.75 s go down, the third is cancelled when it recognizes; the
    // admin fingers go down at 4.95 s and are cancelled when the hold begins 2 s later.
    #expect(
      lines == [
        "1.000000 id=0 x=2048 y=2048 touch=1 ax=2048 ay=2048", "1.050000 up touch=0",
        "3.350000 id=1 x=3968 y=227 touch=1 ax=3968 ay=227", "3.400000 up touch=0",
        // The same corner again: the slot's position is unchanged, so only the tracking id is sent
        // (the kernel drops repeated values, across touches too).
        "3.550000 id=2 touch=1", "3.600000 up touch=0",
        "3.750000 id=3 touch=1", "3.800000 palm", "3.800001 up touch=0",
        "4.950000 finger id=4 x=1962 y=2048 slot=1 id=5 x=2048 y=2048 slot=2 id=6 x=2133 y=2048 touch=1 ax=1962 ay=2048",
        "6.950000 slot=0 palm slot=1 palm slot=2 palm", "6.950001 slot=0 up slot=1 up slot=2 up touch=0",
      ])
    var actions: [String] = []
    for message in try ScenePlayer.replay(s.recording, scene: scene) {
      if case .action(let a) = message { actions.append("\(a.action) \(a.state ?? "")") }
    }
    #expect(actions.first == "go-back began")
    #expect(actions.contains("open-staff ended"))
    #expect(actions.suffix(2) == ["open-admin began", "open-admin ended"])
  }

  func scratch(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-forward-\(UUID())-\(name)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("touchctl replay --forward writes the virtual device as evemu that reads back; messages still go to stdout")
  func replayForward() throws {
    let dir = scratch("one")
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = kioskScript()
    s.tap(at: P(x: 960, y: 540))
    let recording = dir.appendingPathComponent("tap.evemu")
    try s.evemuText.write(to: recording, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("fwd.evemu")
    let scene = TestPaths.config("kiosk-forward.yaml").path
    let result = try runTouchctl(["replay", "--scene", scene, recording.path, "--forward", out.path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout.isEmpty)  // the tap hits no recognizer that publishes
    let text = try String(contentsOf: out, encoding: .utf8)
    #expect(text.hasPrefix("# EVEMU 1.3\n# Input device name: \"Kiosk touchscreen\"\n"))
    let parsed = try EvemuParser.parse(Array(text.utf8), source: out.path)
    #expect(parsed.description == VirtualTouchscreen.description(for: s.device, name: "Kiosk touchscreen"))
    #expect(
      forwardLines(parsed.events) == [
        "1.000000 id=0 x=2048 y=2048 touch=1 ax=2048 ay=2048", "1.050000 up touch=0",
      ])
  }

  @Test("touchctl replay --forward with two forwarding devices writes OUT.0.evemu and OUT.1.evemu")
  func replayForwardTwoDevices() throws {
    let dir = scratch("two")
    defer { try? FileManager.default.removeItem(at: dir) }
    var paths: [String] = []
    for (index, name) in ["left panel", "right panel"].enumerated() {
      var device = SyntheticTouchscreen.description
      device.name = name
      let s = FingerScript(windowWidth: 1000, windowHeight: 800, device: device, start: 1 + Double(index) / 10)
      s.tap(at: P(x: 400, y: 320))
      let url = dir.appendingPathComponent("\(index).evemu")
      try s.evemuText.write(to: url, atomically: true, encoding: .utf8)
      paths.append(url.path)
    }
    let scene = dir.appendingPathComponent("two.yaml")
    try """
    version: 1
    windows:
      - {id: left, size: {width: 1000, height: 800}, devices: ["left panel"], forward: {},
         views: [{id: l, frame: {x: 0, y: 0, width: 1000, height: 800}}]}
      - {id: right, size: {width: 1000, height: 800}, devices: ["right panel"], forward: {name: R},
         views: [{id: r, frame: {x: 0, y: 0, width: 1000, height: 800}}]}
    """.write(to: scene, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("fwd.evemu")
    let result = try runTouchctl(["replay", "--scene", scene.path] + paths + ["--forward", out.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path))
    let left = try EvemuParser.parse(
      Array(try String(contentsOf: dir.appendingPathComponent("fwd.0.evemu"), encoding: .utf8).utf8), source: "0")
    let right = try EvemuParser.parse(
      Array(try String(contentsOf: dir.appendingPathComponent("fwd.1.evemu"), encoding: .utf8).utf8), source: "1")
    #expect(left.description.name == "left panel (touchd)")
    #expect(right.description.name == "R")
    #expect(
      forwardLines(left.events) == ["1.000000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.050000 up touch=0"])
    #expect(
      forwardLines(right.events) == ["1.100000 id=0 x=1638 y=1638 touch=1 ax=1638 ay=1638", "1.150000 up touch=0"])
  }

  @Test("touchctl replay --forward: a scene without forward: is an error, and --forward needs --scene")
  func replayForwardErrors() throws {
    let dir = scratch("errors")
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = kioskScript()
    s.tap(at: P(x: 960, y: 540))
    let recording = dir.appendingPathComponent("tap.evemu")
    try s.evemuText.write(to: recording, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("fwd.evemu").path
    let scene = TestPaths.config("kiosk.yaml").path
    let result = try runTouchctl(["replay", "--scene", scene, recording.path, "--forward", out])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "\(scene): --forward: no window of the scene has forward: (docs/forward.md)\n")
    #expect(!FileManager.default.fileExists(atPath: out))
    let bare = try runTouchctl(["replay", recording.path, "--forward", out])
    #expect(bare.status != 0)
    #expect(bare.stderr.contains("--forward needs --scene"))
  }
}
