import Foundation
import Testing
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// The scene's `stuckTouchTimeout` in the daemon (issue #20): `touchd --replay` runs the recording
/// on the daemon's own clock (a `DispatchClock` on the recording's time line), so the stuck touch
/// is cancelled by a live dispatch timer; a subscriber gets what `ScenePlayer` computes on its
/// virtual clock, and `status` counts the stuck touch.
@Suite(.serialized)
struct StuckTouchDaemonTests {
  static let scene = """
    version: 1
    stuckTouchTimeout: 0.4
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - id: pad
            frame: {x: 0, y: 0, width: 1000, height: 800}
            touches: true
            recognizers:
              - {id: pad-tap, type: tap, action: tapped, cancelsTouchesInView: false}
    """

  /// A finger held still from 0.2 s to 1.0 s (cancelled at 0.6 s), then a tap at 1.3 s.
  static func script() -> FingerScript {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    script.longPress(at: .init(x: 500, y: 400), duration: 0.8)
    script.wait(0.3)
    script.tap(at: .init(x: 200, y: 200))
    return script
  }

  @Test func theDaemonCancelsTheStillFingerOnItsClockAsReplayDoesAndCountsIt() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("stuck.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let recordingPath = try writeRecording(Self.script(), to: dir)
    let expected = try ScenePlayer.replay(
      try RecordingReader.load(path: recordingPath), scene: try Scene.load(path: scenePath))
    let lines = expected.map(\.jsonLine)
    #expect(lines.filter { $0.contains(#""phase":"cancelled""#) }.count == 1)

    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recordingPath, "--wait-for-subscriber"])
    let (client, _) = try daemon.connect()
    _ = client.command(#"{"cmd":"subscribe","id":1,"types":["action","touches"]}"#, id: 1)
    var messages: [[String: Any]] = []
    while messages.count < expected.count, let line = client.readLine(timeout: 15), let object = json(line) {
      if ["action", "touches"].contains(object["type"] as? String ?? "") { messages.append(object) }
    }
    #expect(messages.count == expected.count)
    // The same messages, times included: the cancellation carries the timer's deadline (0.6 s after
    // the last move), as the virtual clock fires it, not the moment the dispatch timer ran.
    for (live, replayed) in zip(messages, expected) {
      let b = try #require(try JSONSerialization.jsonObject(with: Data(replayed.jsonLine.utf8)) as? [String: Any])
      #expect(NSDictionary(dictionary: live) == NSDictionary(dictionary: b), "\(live) vs \(replayed.jsonLine)")
    }
    let status = client.command(#"{"cmd":"status","id":2}"#, id: 2).reply ?? [:]
    let counters = status["counters"] as? [String: Any] ?? [:]
    #expect(counters["stuckTouches"] as? Int == 1, "\(status)")
    #expect(daemon.log.contains("touch cancelled: it did not move for stuckTouchTimeout"), "\(daemon.log)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
