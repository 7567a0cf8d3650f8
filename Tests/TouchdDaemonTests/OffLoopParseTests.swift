import Foundation
import NIOConcurrencyHelpers
import Testing
import TouchdScene

@testable import TouchdDaemon

/// Answers a pushed scene with its view count, and `status` with ok.
private final class PushHandler: CommandHandler, @unchecked Sendable {
  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    switch command.request {
    case .pushScene(let document): reply(.ok(fieldsJSON: #""views":\#(document.scene.counts.views)"#))
    default: reply(.ok(fieldsJSON: ""))
    }
  }
}

/// A long line (a pushed scene of 10,000 rows, issue #43) is parsed off the server's event loop:
/// while it waits to be parsed, other clients' commands are answered and published messages
/// reach them; its own client's next line waits for it.
@Suite(.serialized) struct OffLoopParseTests {
  /// A `scene` command of a window with `rows` rows of 88 pt, each with a tap.
  static func pushLine(rows: Int) -> String {
    let items = (0..<rows).map { i in
      #"{"id":"row\#(i)","frame":{"x":0,"y":\#(i * 88),"width":400,"height":88},"#
        + #""recognizers":[{"id":"tap\#(i)","type":"tap","action":"open-\#(i)"}]}"#
    }
    return #"{"cmd":"scene","id":"push","scene":{"version":1,"windows":[{"id":"w","size":{"width":1000,"#
      + #""height":800},"views":["# + items.joined(separator: ",") + "]}]}}"
  }

  @Test("while a 10,000-row scene waits to be parsed, another client's ping and messages go through")
  func anotherClientIsNotDelayed() throws {
    let held = NIOLockedValueBox<[@Sendable () -> Void]>([])
    let path = temporarySocketPath()
    let server = try makeServer(path, handler: PushHandler()) { config in
      config.parseOffLoop = { work in held.withLockedValue { $0.append(work) } }
    }
    defer { server.shutdown(notice: nil) }
    let pusher = try LineClient(path: path)
    let other = try LineClient(path: path)
    _ = pusher.readLine()
    _ = other.readLine()
    let line = Self.pushLine(rows: 10_000)
    #expect(line.utf8.count > 1_000_000)
    // The pusher's ping after the scene waits for it: lines are answered in order.
    pusher.send(line + "\n" + #"{"cmd":"ping","id":"after"}"#)
    // The scene is taken and handed over to be parsed, not parsed on the loop.
    let deadline = Date().addingTimeInterval(10)
    while held.withLockedValue({ $0.isEmpty }) && Date() < deadline { usleep(5_000) }
    #expect(held.withLockedValue { $0.count } == 1)
    // Meanwhile the other client is answered, and a published message reaches it.
    other.send(#"{"cmd":"ping","id":1}"#)
    #expect(json(other.readLine())?["id"] as? Int == 1)
    other.send(#"{"cmd":"status","id":2}"#)
    #expect(json(other.readLine())?["id"] as? Int == 2)
    server.publish(action("ring-bell", seq: 1))
    #expect(json(other.readLine())?["action"] as? String == "ring-bell")
    #expect(json(pusher.readLine())?["action"] as? String == "ring-bell")
    #expect(pusher.readLine(timeout: 0.3) == nil, "no reply before the scene is parsed")
    // Parsed now: the scene's reply, then the ping's.
    let work = held.withLockedValue { $0.removeFirst() }
    work()
    let reply = json(pusher.readLine())
    #expect(reply?["id"] as? String == "push")
    #expect(reply?["views"] as? Int == 10_000)
    #expect(json(pusher.readLine())?["id"] as? String == "after")
    #expect(held.withLockedValue { $0.isEmpty }, "a short line is parsed on the loop")
  }
}
