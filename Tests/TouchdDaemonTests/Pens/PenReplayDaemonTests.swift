import Foundation
import Testing
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

/// `touchd --replay` of a pen display and the touchscreen of its panel (issue #41): the daemon
/// tells its runtime of both recordings, pairs them by their ids, and a subscriber gets what
/// `ScenePlayer` computes: the pen's pencil touches and hover, the hand's tap while the pen is near
/// rejected, the one after it left delivered (live equals replay).
@Suite(.serialized)
struct PenReplayDaemonTests {
  static let types = ["action", "touches"]

  @Test func aSubscriberGetsThePensTouchesAndTheHandRejectedAsReplayComputesThem() throws {
    let dir = scratchDirectory()
    let scenePath = TestPaths.repository("scripts/vm/scenes/pen.yaml")
    let penPath = TestPaths.repository("Tests/TouchdSceneTests/Fixtures/pen-signs.evemu")
    let handPath = TestPaths.repository("Tests/TouchdSceneTests/Fixtures/hand-taps.evemu")
    let recordings = [try RecordingReader.load(path: penPath), try RecordingReader.load(path: handPath)]
    let expected = try ScenePlayer.replay(recordings, scene: try Scene.load(path: scenePath))
      .filter { Self.types.contains($0.type) }.map(\.jsonLine)
    // One buy: the tap at 2 s is the pen's panel's while the pen is near.
    #expect(expected.filter { $0.contains(#""action":"buy""#) }.count == 1)
    #expect(expected.contains { $0.contains(#""type":"pencil""#) })
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir,
      arguments: ["--replay", penPath, "--replay", handPath, "--wait-for-subscriber", "--exit-after-replay"])
    let (client, _) = try daemon.connect()
    let reply = client.command(#"{"cmd":"subscribe","id":1,"types":["action","touches"]}"#, id: 1).reply
    #expect(reply?["types"] as? [String] == Self.types)
    let messages = client.collect(until: "shutdown").filter { Self.types.contains($0["type"] as? String ?? "") }
    let want = expected.map {
      KeyReplaySubscriptionTests.normalized(try! JSONSerialization.jsonObject(with: Data($0.utf8)))
    }
    #expect(messages.map(KeyReplaySubscriptionTests.normalized) == want)
    #expect(daemon.waitForExit() == 0)
  }
}
