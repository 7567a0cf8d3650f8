import Foundation
import Testing
import TouchdTestKit

/// What touchctl's socket commands write and print today, byte for byte (docs/proposals/0001,
/// step 0): `send` re-encodes the command through `JSONSerialization` (keys sorted, its own `id`,
/// one value per key), `subscribe --verbose` prints every line as the daemon wrote it, `status`
/// pretty-prints the reply. The `id` (touchctl's pid) and values that vary are replaced by
/// ``normalized(_:_:)``.
@Suite(.serialized)
struct SocketCommandTests {
  /// A kiosk daemon whose replay waits 600 s: nothing happens but the commands.
  static func idleKiosk(_ name: String = #function) throws -> Touchd {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 100, sampleRate: 120)
    script.tap(at: .init(x: 400, y: 480))
    return try Touchd(replaying: script, arguments: ["--replay-delay", "600"], name: name)
  }

  @Test("send: keys out of order and a duplicate key, as sent and as answered")
  func sendReencodes() throws {
    let touchd = try Self.idleKiosk()
    let outOfOrder = #"{"view":"buy-ticket","hidden":true,"alpha":0.25,"cmd":"set"}"#
    let duplicate = #"{"cmd":"set","view":"help","hidden":false,"view":"buy-ticket"}"#
    for command in [outOfOrder, duplicate] {
      let result = try runTouchctl(["send", "--socket", touchd.socket, command])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.isEmpty)
      #expect(pidless(result.stdout) == #"{"type":"reply","id":#,"ok":true,"view":"buy-ticket"}"# + "\n")
    }
    // An error reply is printed too, and exits 1.
    let error = try runTouchctl(["send", "--socket", touchd.socket, #"{"view":"nope","cmd":"set"}"#])
    #expect(error.status == 1)
    #expect(
      pidless(error.stdout)
        == #"{"type":"error","id":#,"message":"unknown view 'nope'"}"#
        + "\n")

    // What goes over the socket: keys sorted, touchctl's id in place of the command's, the last
    // value of a duplicate key; -0 loses its sign, 2e3 is written 2000, `/` is escaped.
    let path = touchd.directory.appendingPathComponent("fake.sock").path
    for (command, sent) in [
      (outOfOrder, #"{"alpha":0.25,"cmd":"set","hidden":true,"id":#,"view":"buy-ticket"}"#),
      (duplicate, #"{"cmd":"set","hidden":false,"id":#,"view":"buy-ticket"}"#),
      (
        #"{"id":7,"cmd":"ping","n":[1.5,-0,2e3,{"b":null,"a":"é/"}]}"#,
        #"{"cmd":"ping","id":#,"n":[1.5,0,2000,{"a":"é\/","b":null}]}"#
      ),
    ] {
      let server = try RecordingServer(path: path) { line in
        #"{"type":"reply","id":\#(SocketCommandTests.id(in: line)),"ok":true}"#
      }
      let result = try runTouchctl(["send", "--socket", path, command])
      #expect(result.status == 0, "\(result.stderr)")
      let line = pidless(try #require(server.line))
      #expect(line == sent)
      #expect(pidless(result.stdout) == #"{"type":"reply","id":#,"ok":true}"# + "\n")
    }
  }

  /// The `id` member of a line as written (`"touchctl-PID"`).
  static func id(in line: String) -> String {
    guard let range = line.range(of: #""touchctl-[0-9]+""#, options: .regularExpression) else { return "null" }
    return String(line[range])
  }

  @Test("subscribe --verbose prints hello, the reply and each message verbatim")
  func subscribeVerbose() throws {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 100, sampleRate: 120)
    script.tap(at: .init(x: 400, y: 480))
    let touchd = try Touchd(
      replaying: script, arguments: ["--replay-delay", "0.5", "--wait-for-subscriber", "--exit-after-replay"])
    let result = try runTouchctl(
      ["subscribe", "--socket", touchd.socket, "--verbose", "--type", "action", "--type", "touches"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(
      normalized(pidless(result.stdout), ["instance"]) == """
        {"type":"hello","version":1,"instance":#,"windows":[{"id":"main","width":1920,"height":1080}],"views":6}
        {"type":"reply","id":#,"ok":true,"types":["action","touches"],"actions":[],"views":[],"overflow":"disconnect","coalesced":false,"predicted":false}
        {"type":"action","seq":1,"action":"buy-ticket","gesture":"tap","state":"ended","view":"buy-ticket","window":"main","recognizer":"buy-ticket-tap","time":100.05,"location":{"x":400.078125,"y":480.014648},"numberOfTouches":1}
        {"type":"shutdown"}

        """)
    touchd.process.waitUntilExit()
  }

  @Test("status pretty-prints the reply, keys sorted")
  func statusPretty() throws {
    let touchd = try Self.idleKiosk()
    let result = try runTouchctl(["status", "--socket", touchd.socket])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    // JSONSerialization writes `/` as `\/`.
    func escaped(_ path: String) -> String { path.replacingOccurrences(of: "/", with: #"\/"#) }
    #expect(
      normalized(pidless(result.stdout), ["openFiles", "timerWakeups"]) == """
        {
          "clients" : 1,
          "counters" : {
            "actions" : 0,
            "clientsAccepted" : 1,
            "clientsDenied" : 0,
            "clientsDisconnectedSlow" : 0,
            "clientsRefused" : 0,
            "clientsRefusedPerUser" : 0,
            "clientsTimedOut" : 0,
            "frames" : 0,
            "keyFrames" : 0,
            "messages" : 0,
            "messagesSent" : 0,
            "messagesSkipped" : 0,
            "reloadFailures" : 0,
            "reloads" : 0,
            "resyncs" : 0,
            "scenePushes" : 0,
            "stuckTouches" : 0,
            "timerWakeups" : #,
            "touchesBegan" : 0,
            "traceMessages" : 0
          },
          "devices" : [

          ],
          "id" : #,
          "idle" : null,
          "ignoring" : 0,
          "latency" : {
            "assembled" : null,
            "delivered" : null,
            "encoded" : null,
            "forwarded" : null,
            "frames" : 0,
            "handed" : null,
            "unit" : "us",
            "wake" : null,
            "window" : 1024
          },
          "limits" : {
            "clientBufferBytes" : 262144,
            "clients" : 128,
            "clientsPerUser" : 16,
            "firstLineSeconds" : 30,
            "lineBytes" : 2162688,
            "openFiles" : #,
            "partialLineSeconds" : 10,
            "sceneBytes" : 2097152
          },
          "ok" : true,
          "replay" : "\(escaped(touchd.recording))",
          "scene" : "\(escaped(touchd.scene))",
          "touchesDown" : 0,
          "tracing" : false,
          "type" : "reply",
          "webSocket" : null,
          "windows" : [
            {
              "height" : 1080,
              "id" : "main",
              "width" : 1920
            }
          ]
        }

        """)
  }
}
