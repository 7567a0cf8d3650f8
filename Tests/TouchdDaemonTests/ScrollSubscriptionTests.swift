import Foundation
import Testing
import TouchdScene
import TouchdTestKit

/// The daemon publishes scroll views' delegate callbacks to `scroll` subscribers, exactly as
/// `touchctl replay` computes them (the deceleration ticks included).
@Suite(.serialized)
struct ScrollSubscriptionTests {
  static let scene = """
    version: 1
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - id: list
            frame: {x: 0, y: 0, width: 400, height: 800}
            scroll: {contentSize: {width: 400, height: 4000}}
            views:
              - id: row
                frame: {x: 0, y: 0, width: 400, height: 100}
                recognizers:
                  - {id: row-tap, type: tap, action: buy}
    """

  @Test func aScrollSubscriberGetsTheFlingAsReplayComputesIt() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("scroll.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 50, sampleRate: 120)
    script.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 400), duration: 0.15)
    let expected = try ScenePlayer.replay(script.recording, scene: try Scene.load(path: scenePath))
      .filter { $0.type == "scroll" }.map(\.jsonLine)
    #expect(expected.count > 50)

    let daemon = try DaemonProcess.replaying(
      script, scene: scenePath, in: dir, delay: 0, options: ["--exit-after-replay", "--wait-for-subscriber"])
    let (client, _) = try daemon.connect()
    let reply = client.command(#"{"cmd":"subscribe","id":1,"types":["scroll"]}"#, id: 1).reply
    #expect(reply?["types"] as? [String] == ["scroll"])
    let messages = client.collect(until: "shutdown").filter { $0["type"] as? String == "scroll" }
    let lines = messages.map { m in
      String(data: try! JSONSerialization.data(withJSONObject: m, options: [.sortedKeys]), encoding: .utf8)!
    }
    let want = expected.map { line in
      let object = try! JSONSerialization.jsonObject(with: Data(line.utf8))
      return String(data: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), encoding: .utf8)!
    }
    #expect(lines == want)
    #expect(messages.last?["phase"] as? String == "didEndDecelerating")
    #expect(daemon.waitForExit() == 0)
  }
}
