import Foundation
import Testing
import TouchdScene
import TouchdTestKit

/// A touches subscriber that asks for `coalesced` and `predicted` gets them, exactly as `touchctl
/// replay --coalesced --predicted` computes them; one that does not gets the lines it always got,
/// from the same daemon at the same time (docs/protocol.md, "Coalesced and predicted touches").
@Suite(.serialized)
struct TouchesEntriesSubscriptionTests {
  static let scene = """
    version: 1
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - id: canvas
            frame: {x: 0, y: 0, width: 1000, height: 800}
            touches: true
            recognizers:
              - {id: hold, type: tap, action: tapped, delaysTouchesBegan: true}
    """

  /// The touches lines a replay of `script` publishes with `entries`.
  static func expected(_ script: FingerScript, _ scene: Scene, _ entries: TouchesMessage.Entries) throws -> [String] {
    var lines: [String] = []
    try ScenePlayer.run([script.recording], scene: scene, touchesEntries: entries) { step in
      if case .message(.touches(let m)) = step { lines.append(m.jsonLine) }
    }
    return lines
  }

  /// The client's touches lines until the daemon's `shutdown`.
  static func touchesLines(_ client: LineClient) -> [String] {
    client.readUntil(#""type":"shutdown""#, timeout: 20).skipped.filter { $0.hasPrefix(#"{"type":"touches""#) }
  }

  @Test func eachClientGetsTheEntriesItAskedFor() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("canvas.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 50, sampleRate: 120)
    script.drag(from: .init(x: 100, y: 400), to: .init(x: 500, y: 400), duration: 0.2)
    let scene = try Scene.load(path: scenePath)
    let full = try Self.expected(script, scene, [.coalesced, .predicted])
    let coalescedOnly = try Self.expected(script, scene, [.coalesced])
    let plain = try Self.expected(script, scene, [])
    // The began (held until the tap fails at the third move), its catch-up moved, 21 moves, the end.
    #expect(plain.count == 24)
    #expect(plain.allSatisfy { !$0.contains("coalesced") && !$0.contains("predicted") })

    let daemon = try DaemonProcess.replaying(
      script, scene: scenePath, in: dir, delay: 1, options: ["--exit-after-replay", "--wait-for-subscriber"])
    let (both, _) = try daemon.connect()
    let (some, _) = try daemon.connect()
    let (none, _) = try daemon.connect()
    let reply = both.command(
      #"{"cmd":"subscribe","id":1,"types":"touches","coalesced":true,"predicted":true}"#, id: 1
    ).reply
    #expect(reply?["coalesced"] as? Bool == true)
    #expect(reply?["predicted"] as? Bool == true)
    let someReply = some.command(#"{"cmd":"subscribe","id":1,"types":"touches","coalesced":true}"#, id: 1).reply
    #expect(someReply?["coalesced"] as? Bool == true)
    #expect(someReply?["predicted"] as? Bool == false)
    let noneReply = none.command(#"{"cmd":"subscribe","id":1,"types":"touches"}"#, id: 1).reply
    #expect(noneReply?["coalesced"] as? Bool == false)

    let got = (Self.touchesLines(both), Self.touchesLines(some), Self.touchesLines(none))
    #expect(got.0 == full)
    #expect(got.1 == coalescedOnly)
    #expect(got.2 == plain)
    #expect(daemon.waitForExit() == 0)

    // The entries against the frames: every frame the finger began or moved in is listed once, at
    // its time (25 frames 1/120 s apart); the held began (the tap's delaysTouchesBegan) lists the
    // touch-down, its catch-up moved the three frames it waited for.
    let messages = try got.0.map { try TouchesMessage(jsonLine: $0) }
    let times = messages.flatMap { $0.coalesced ?? [] }.map(\.time)
    #expect(times.count == 25)
    #expect(times.first == 50)
    #expect(zip(times, times.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 120) < 1e-6 })
    #expect(Array(messages.map { $0.coalesced?.count }.prefix(3)) == [1, 3, 1])
    for m in messages.dropFirst() where m.phase != "ended" {
      let touch = m.touches[0]
      #expect(m.coalesced?.last == TouchesMessage.Sample(id: touch.id, x: touch.x, y: touch.y, time: m.time))
      // Times are written to the microsecond.
      let ahead = m.predicted?.map { $0.time - m.time } ?? []
      #expect(ahead.count == 2 && abs(ahead[0] - 0.008) < 1e-6 && abs(ahead[1] - 0.016) < 1e-6)
      #expect(m.predicted?.allSatisfy { $0.id == touch.id && $0.x >= touch.x } == true)
    }
    #expect(messages.last?.phase == "ended")
    #expect(messages.last?.predicted == [])
  }
}
