import Foundation
import Testing
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

/// `touchd --replay` against the kiosk-controls example: a subscriber to `action` and `control`
/// gets exactly what `ScenePlayer` computes (live equals replay), the pressed state included, and
/// `set` on a control answers and publishes its state.
@Suite(.serialized)
struct ControlSubscriptionTests {
  static let types = ["action", "control"]
  static let scenePath = TestPaths.config("kiosk-controls.yaml").path

  /// A tap on Buy, a tap on the receipt switch, a drag of the volume slider's thumb (at 0.5: its
  /// centre at x 1064) 100 pt right, and a tap on the stepper's plus half.
  static func script() -> FingerScript {
    let s = FingerScript(windowWidth: 1280, windowHeight: 800, start: 1, sampleRate: 100)
    s.tap(at: .init(x: 200, y: 700))
    s.wait(0.5)
    s.tap(at: .init(x: 1222, y: 447))
    s.wait(0.5)
    s.drag(from: .init(x: 1064, y: 668), to: .init(x: 1164, y: 668), duration: 0.2)
    s.wait(0.5)
    s.tap(at: .init(x: 200, y: 189))
    return s
  }

  static func normalized(_ object: Any) -> String {
    String(data: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!
  }

  @Test func aSubscriberGetsTheControlsActionsAndStatesReplayComputes() throws {
    let dir = scratchDirectory()
    let recording = try writeRecording(Self.script(), to: dir, name: "controls.evemu")
    let expected = try ScenePlayer.replay(
      try RecordingReader.load(path: recording), scene: try Scene.load(path: Self.scenePath)
    ).filter { Self.types.contains($0.type) }.map(\.jsonLine)
    // Buy's action, the switch turned off, the slider at about 0.77, two tickets.
    #expect(expected.contains { $0.contains(#""action":"buy-ticket","gesture":"control","event":"touchUpInside""#) })
    #expect(
      expected.contains {
        $0.contains(#""action":"receipt","gesture":"control","event":"valueChanged""#) && $0.contains(#""value":false"#)
      })
    #expect(expected.contains { $0.contains(#""action":"ticket-count""#) && $0.contains(#""value":2"#) })
    #expect(
      expected.contains {
        $0.hasPrefix(#"{"type":"control","seq":"#) && $0.contains(#""view":"buy""#)
          && $0.contains(#""highlighted":true"#)
      })

    let daemon = try DaemonProcess(
      scene: Self.scenePath, directory: dir,
      arguments: ["--replay", recording, "--wait-for-subscriber", "--exit-after-replay"])
    let (client, _) = try daemon.connect()
    // Held for the subscriber (--wait-for-subscriber): a client that subscribes late, here 1.5 s
    // after connecting, still gets the replay from its first frame.
    Thread.sleep(forTimeInterval: 1.5)
    let reply = client.command(#"{"cmd":"subscribe","id":1,"types":["action","control"]}"#, id: 1).reply
    #expect(reply?["types"] as? [String] == Self.types)
    let messages = client.collect(until: "shutdown").filter { Self.types.contains($0["type"] as? String ?? "") }
    let want = expected.map { Self.normalized(try! JSONSerialization.jsonObject(with: Data($0.utf8))) }
    #expect(messages.map(Self.normalized) == want)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func setOnAControlRepliesAndPublishesItsState() throws {
    let dir = scratchDirectory()
    let daemon = try DaemonProcess(scene: Self.scenePath, directory: dir, arguments: [])
    let (client, _) = try daemon.connect()
    _ = client.command(#"{"cmd":"subscribe","id":1,"types":["control"]}"#, id: 1)
    let ok = client.command(#"{"cmd":"set","id":2,"view":"volume","value":0.25,"enabled":false}"#, id: 2)
    #expect(ok.reply?["ok"] as? Bool == true)
    // The state message may come before or after the reply.
    let early = ok.others.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
      .filter { $0["type"] as? String == "control" }
    let state = early.last ?? client.collect(until: "control").last
    #expect(state?["view"] as? String == "volume")
    #expect(state?["value"] as? Double == 0.25)
    #expect(state?["enabled"] as? Bool == false)
    let bad = client.command(#"{"cmd":"set","id":3,"view":"volume","on":true}"#, id: 3)
    #expect(bad.reply?["type"] as? String == "error")
    #expect(bad.reply?["message"] as? String == "'on' is a switch property; view 'volume' is a slider")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
