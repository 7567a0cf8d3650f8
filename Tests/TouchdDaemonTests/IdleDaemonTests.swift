import Foundation
import Testing
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// The scene's `idle:` in the daemon (issue #19): `touchd --replay` runs the idle timer on the
/// daemon's own dispatch clock; a subscriber gets the `idle` messages `ScenePlayer` computes, line
/// for line (their times are deadlines, not the moment the timer ran), a views filter does not hold
/// them back, and `status` reports the state and the last input.
@Suite(.serialized)
struct IdleDaemonTests {
  static let scene = """
    version: 1
    idle: {after: 1.5, wake: swallow}
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - id: buy
            frame: {x: 400, y: 300, width: 200, height: 200}
            touches: true
            recognizers:
              - {id: buy-tap, type: tap, action: buy}
    """

  /// Taps on `buy` at 0.2 s, 2.5 s (it wakes the scene, idle since 1.75 s: swallowed) and 2.8 s.
  /// The idle time counts from the daemon's start, which is `--replay-delay` (1 s) before the
  /// recording's first event where a replay's count starts: `after` is longer than the delay, so
  /// both see the same first deadline.
  static func script() -> FingerScript {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    script.tap(at: .init(x: 500, y: 400))
    script.wait(2.25)
    script.tap(at: .init(x: 500, y: 400))
    script.wait(0.25)
    script.tap(at: .init(x: 500, y: 400))
    return script
  }

  @Test func aSubscriberGetsTheReplaysIdleMessagesAndStatusReportsTheState() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("idle.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let recordingPath = try writeRecording(Self.script(), to: dir)
    let expected = try ScenePlayer.replay(
      try RecordingReader.load(path: recordingPath), scene: try Scene.load(path: scenePath)
    ).filter { ["idle", "action"].contains($0.type) }.map(\.jsonLine)
    #expect(
      expected.map { line in (json(line)?["state"] as? String).map { $0 == "ended" ? "buy" : $0 } ?? line }
        == ["buy", "idle", "active", "buy", "idle"])

    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recordingPath, "--wait-for-subscriber"])
    let (client, _) = try daemon.connect()
    _ = client.command(#"{"cmd":"subscribe","id":1,"types":["action","idle"],"views":["buy"]}"#, id: 1)
    var lines: [String] = []
    while lines.count < expected.count, let line = client.readLine(timeout: 15) {
      if line.hasPrefix(#"{"type":"idle""#) || line.hasPrefix(#"{"type":"action""#) { lines.append(line) }
    }
    #expect(lines == expected)
    let status = client.command(#"{"cmd":"status","id":2}"#, id: 2).reply ?? [:]
    let idle = status["idle"] as? [String: Any] ?? [:]
    #expect(idle["state"] as? String == "idle", "\(status)")
    #expect(idle["after"] as? Double == 1.5, "\(status)")
    #expect(idle["wake"] as? String == "swallow", "\(status)")
    let lastInput = try #require(idle["lastInput"] as? Double, "\(status)")
    let last = try #require(json(expected.last ?? "")?["lastInput"] as? Double)
    #expect(abs(lastInput - last) < 1e-9, "\(status)")
    #expect((idle["secondsSinceInput"] as? Double ?? -1) >= 1.5, "\(status)")
    // Idle, the daemon arms no timer: the timer wake-ups stand still (docs/performance.md's idle budget).
    let before = (status["counters"] as? [String: Any])?["timerWakeups"] as? Int
    usleep(1_500_000)
    let later = client.command(#"{"cmd":"status","id":3}"#, id: 3).reply ?? [:]
    #expect((later["counters"] as? [String: Any])?["timerWakeups"] as? Int == before, "\(status)\n\(later)")
    #expect((later["idle"] as? [String: Any])?["state"] as? String == "idle")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
