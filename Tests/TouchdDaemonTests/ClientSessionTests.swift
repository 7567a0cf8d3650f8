import Foundation
import Testing
import TouchDelivery
import TouchdScene
import TouchdTestKit

@testable import TouchdDaemon

/// The line protocol without sockets: ClientSession and WireProtocol.execute, the path the daemon
/// takes for each line, against a runtime of the kiosk-controls example. Every reply is exact.
@Suite struct ClientSessionTests {
  private static let scenePath = TestPaths.config("kiosk-controls.yaml").path

  private let runtime: SceneRuntime
  private var session = ClientSession()
  private var reloads = 0

  init() throws {
    runtime = SceneRuntime(scene: try Scene.load(path: Self.scenePath), clock: VirtualClock()) { _ in }
  }

  /// The reply to one line.
  private mutating func reply(_ line: String) -> String? {
    reply(Array(line.utf8))
  }

  private mutating func reply(_ bytes: [UInt8]) -> String? {
    var reloads = self.reloads
    defer { self.reloads = reloads }
    return session.respond(
      to: bytes, runtime: runtime, status: { #""clients":1"# }, metrics: { "touchd_clients 1\n" },
      reload: {
        reloads += 1
        return .ok(fieldsJSON: "")
      }, pushScene: { _ in .ok(fieldsJSON: "") })
  }

  private func error(_ id: String, _ message: String) -> String {
    #"{"type":"error","id":\#(id),"message":\#(JSONFormat.string(message))}"#
  }

  @Test mutating func everyCommandIsAnswered() {
    #expect(reply(#"{"cmd":"ping","id":1}"#) == #"{"type":"reply","id":1,"ok":true}"#)
    #expect(reply(#"{"cmd":"status","id":2}"#) == #"{"type":"reply","id":2,"ok":true,"clients":1}"#)
    #expect(reply(#"{"cmd":"reload","id":3}"#) == #"{"type":"reply","id":3,"ok":true}"#)
    #expect(reloads == 1)
    #expect(!session.hasSubscribed)
    #expect(
      reply(#"{"cmd":"subscribe","id":4,"types":["control","action"],"views":"volume","overflow":"skip"}"#)
        == #"{"type":"reply","id":4,"ok":true,"types":["action","control"],"actions":[],"views":["volume"],"overflow":"skip","coalesced":false,"predicted":false}"#
    )
    #expect(session.subscription.types == ["action", "control"] && session.subscription.skipOnOverflow)
    #expect(session.hasSubscribed)
    #expect(
      reply(#"{"cmd":"set","id":5,"view":"volume","value":0.25,"alpha":0.5}"#)
        == #"{"type":"reply","id":5,"ok":true,"view":"volume"}"#)
    #expect(runtime.view("volume")?.alpha == 0.5)
    #expect(
      reply(#"{"cmd":"ignoreInteraction","id":6,"value":true}"#) == #"{"type":"reply","id":6,"ok":true,"ignoring":1}"#)
    #expect(reply("  \t\r") == nil, "a blank line gets no answer")
    #expect(reply(#"{"cmd":"ping","id":"crlf"}"# + "\r") == #"{"type":"reply","id":"crlf","ok":true}"#)
  }

  @Test mutating func hiddenOneIsAnErrorAndChangesNothing() {
    #expect(
      reply(#"{"cmd":"set","id":1,"view":"buy","hidden":1}"#) == error("1", "'hidden' must be true or false, found 1"))
    #expect(runtime.view("buy")?.isHidden == false, "the view stays shown")
    #expect(
      reply(#"{"cmd":"set","id":2,"view":"buy","hidden":true,"alpha":"0"}"#)
        == error("2", #"'alpha' must be a number, found "0""#))
    #expect(runtime.view("buy")?.isHidden == false, "a command with an error changes nothing, not even its good fields")
    #expect(
      reply(#"{"cmd":"set","id":3,"view":"language","selectedSegmentIndex":1.5}"#)
        == error("3", "'selectedSegmentIndex' must be an integer, found 1.5"))
    #expect(
      reply(#"{"cmd":"set","id":4,"view":"buy","frame":{"x":0,"y":0,"width":"w","height":1}}"#)
        == error("4", #"'frame.width' must be a number, found "w""#))
  }

  @Test mutating func theServersCommandsAreStrictToo() {
    #expect(
      reply(#"{"cmd":"ping","id":1,"verbose":true}"#)
        == error("1", "unknown field 'verbose' (ping takes no fields besides cmd and id)"))
    #expect(
      reply(#"{"cmd":"status","id":2,"all":1}"#)
        == error("2", "unknown field 'all' (status takes no fields besides cmd and id)"))
    #expect(
      reply(#"{"cmd":"subscribe","id":3,"type":"action"}"#)
        == error(
          "3",
          "unknown field 'type' (did you mean 'types'? subscribe takes types, actions, views, overflow, coalesced, predicted)"
        ))
    #expect(
      reply(#"{"cmd":"subscribe","id":3,"types":"touches","predicted":1}"#)
        == error("3", "'predicted' must be true or false, found 1"))
    #expect(
      reply(#"{"cmd":"subscribe","id":4,"types":["action",5]}"#) == error("4", "'types[1]' must be a string, found 5"))
    #expect(
      reply(#"{"cmd":"subscribe","id":5,"views":{"v":1}}"#)
        == error("5", "'views' must be a string or an array of strings, found an object"))
    #expect(
      reply(#"{"cmd":"subscribe","id":6,"overflow":true}"#)
        == error("6", #"'overflow' must be "skip" or "disconnect", found true"#))
    #expect(
      reply(#"{"cmd":"subscribe","id":7,"types":"toches"}"#)
        == error(
          "7",
          "unknown message type 'toches' in 'types' (did you mean 'touches'? known: action, touches, scroll, control, presses, idle, accessibility, stroke, signature, trace)"
        ))
    #expect(session.subscription == Subscription(), "a refused subscribe leaves the filter as it was")
    #expect(!session.hasSubscribed, "a refused subscribe does not count (a held replay waits on)")
    #expect(
      reply(#"{"cmd":"stauts","id":8}"#)
        == error(
          "8",
          "unknown command 'stauts' (did you mean 'status'? known: ping, subscribe, set, ignoreInteraction, reload, scene, update, status, calibrate, metrics, health, announce, signature)"
        ))
    #expect(reply(#"{"id":9}"#) == error("9", "missing field 'cmd' (a string: the command name)"))
  }

  @Test mutating func badJSONSaysWhereAndTheIdIsNull() {
    #expect(
      reply(#"{"cmd":"ping","id":1"#)
        == error("null", "not JSON at column 21: unexpected end of the line, expected ',' or '}'"))
    #expect(reply("[1]") == error("null", "a command must be a JSON object, found an array"))
    let utf8: [UInt8] = Array(#"{"cmd":"set","id":1,"view":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
    #expect(reply(utf8) == error("null", "not JSON at column 30: invalid UTF-8 (byte 0x28)"))
    let nul: [UInt8] = Array(#"{"cmd":"ping","id":"a"#.utf8) + [0] + Array(#""}"#.utf8)
    #expect(
      reply(nul) == error("null", "not JSON at column 22: control character U+0000 in a string (write it as an escape)")
    )
    #expect(
      reply(#"{"cmd":"set","id":2,"view":"a\u0000b"}"#) == error("2", "unknown view 'a\u{0}b'"),
      "an escaped NUL is a valid string, and an unknown view")
    let deep =
      #"{"cmd":"ping","id":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
    #expect(reply(deep) == error("null", "not JSON at column 83: nesting deeper than 64 levels"))
    #expect(reply(#"{"cmd":"ping","id":1}"#) == #"{"type":"reply","id":1,"ok":true}"#, "the session goes on")
  }

  @Test mutating func idsComeBackAsWritten() {
    #expect(
      reply(#"{"id":{"b":[1.50,-0,2E+3],"a":"é\n"},"cmd":"ping"}"#)
        == #"{"type":"reply","id":{"b":[1.50,-0,2E+3],"a":"é\n"},"ok":true}"#)
    #expect(reply(#"{"cmd":"ping"}"#) == #"{"type":"reply","id":null,"ok":true}"#)
    #expect(
      reply(#"{"cmd":"set","id":99999999999999999999,"view":"nope"}"#)
        == error("99999999999999999999", "unknown view 'nope'"))
    // Found by the protocol fuzz target: ids are echoed as written, even beyond a Double (which
    // Foundation's parser cannot read: the harness allows that).
    #expect(
      reply(#"{"cmd":"ignoreInteraction","id":11e4000,"vlau+e":false}"#)
        == error("11e4000", "unknown field 'vlau+e' (ignoreInteraction takes value)"))
  }

  /// Scenes the protocol fuzz target pushed whose rejection listed every problem, past the 600
  /// bytes an error message may take: the message now ends `… and N more`.
  @Test mutating func fuzzFindingsLongSceneRejections() throws {
    let lines = [
      #"{"cmd":"scene","id":1,"scene":{"version":1,"windows":[{"id":"main","size":{"width":1920,"heigKt":1080},"views":[{"id":"buy","frame":{"x":100,"y":400,"width":600,"height":161},"recognizers":[{"hd":"buy-tap","ptey":"tap","action":"buy-ticket"}]}]}]}}"#,
      #"{"cmd":"scene","id":1,"scene":{"version":1,"windows":[{"id":"main","size":{"widtl":1920,"height":1080},"views":[{"id":"buy","fra"#
        + String(repeating: "Z", count: 117)
        + #"me":{"x":100,"y":400,"width":600,"height":161},"recognizers":[{"id":"buy-tap","type":"tap","action":"buy-ticket"}]}]}]}}"#,
    ]
    for line in lines {
      let object = try #require(json(reply(line)))
      let message = try #require(object["message"] as? String)
      #expect(object["type"] as? String == "error")
      #expect(message.utf8.count <= 600, "\(message.utf8.count) bytes")
      #expect(
        message.hasPrefix("scene rejected, the old scene stays: scene.windows[0].size: error: missing required key"))
      #expect(message.hasSuffix(" more"), "\(message)")
    }
    // A problem of the scene as a whole is placed by its path too: the harness took a message
    // without quotes or a column for one that names no place.
    let version =
      #"{"cmd":"scene","id":1,"scene":{"version":2,"windows":[{"id":"main","size":{"width":1920,"height":1080},"#
      + #""views":[{"id":"buy","frame":{"x":101,"y":400,"width":600,"height":160},"#
      + #""recognizers":[{"id":"buy-tap","type":"tap","action":"buy-ticket"}]}]}]}}"#
    #expect(
      reply(version)
        == error(
          "1",
          "scene rejected, the old scene stays: scene.version: error: unsupported scene version 2 (this touchd reads version 1)"
        ))
    // A first problem longer than the bound alone is cut to fit.
    let long = SceneError(diagnostics: [
      SceneDiagnostic(file: "scene", line: 0, column: 0, message: String(repeating: "x", count: 1000)),
      SceneDiagnostic(file: "scene", line: 0, column: 0, message: "y"),
    ])
    let message = long.message(prefix: "p: ")
    #expect(
      message.utf8.count <= 600 && message.hasPrefix("p: scene: error: xxx") && message.hasSuffix("…; … and 1 more"))
    #expect(SceneError(diagnostics: []).message(prefix: "p") == "p")
  }

  /// Lines the protocol fuzz target found where Foundation's parser and the strict one disagree;
  /// the strict one is right (RFC 8259), and the daemon says where.
  @Test mutating func fuzzFindingsWhereFoundationIsLenient() {
    // Foundation reads NUL bytes at the start as UTF-16/32; the protocol is UTF-8.
    #expect(
      reply([0, 0, 0] + Array("2]}".utf8))
        == error("null", "not JSON at column 1: unexpected byte 0x00, expected a value"))
    // An empty command name is a name too: quoted as ''.
    #expect(
      reply(#"{"cmd":"","id":[0,2]}"#)
        == error(
          "[0,2]",
          "unknown command '' (known: ping, subscribe, set, ignoreInteraction, reload, scene, update, status, calibrate, metrics, health, announce, signature)"
        ))
    // A name that starts with a combining mark (U+064D) is quoted as any other; in Swift the
    // mark joins the quote before it into one Character, which the harness had counted wrong.
    #expect(
      reply(#"{"cmd":"ignoreInteraction","\#u{64D}id":20}"#)
        == error("null", "unknown field '\u{64D}id' (ignoreInteraction takes value)"))
    // Foundation takes a trailing comma.
    #expect(
      reply(#"{"cmd":"set","id":4,"view":"list","contentOffset":{"x":0,"y":100,}}"#)
        == error("null", "not JSON at column 66: unexpected '}', expected a key in double quotes"))
  }
}
