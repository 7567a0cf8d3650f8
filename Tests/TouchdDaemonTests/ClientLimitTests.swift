import Foundation
import Testing
import TouchdScene
import TouchdTestKit

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// Clients that cannot lock the app out (issue #42), against the real `touchd`: a limit per user
/// besides the total, a deadline for the first complete line and one for a line begun, and a slot
/// freed as soon as its client is gone (docs/reliability.md "Limits").
@Suite(.serialized)
struct ClientLimitTests {
  /// A daemon that idles (its recording starts in 10 minutes) with `options` added.
  private func idleDaemon(_ options: [String], name: String = #function) throws -> DaemonProcess {
    let script = Kiosk.script()
    script.tap(at: Kiosk.buyTicket)
    return try DaemonProcess.replaying(script, in: scratchDirectory(name), delay: 600, options: options)
  }

  private func counters(_ client: LineClient, id: Int) -> [String: Any]? {
    client.command(#"{"cmd":"status","id":\#(id)}"#, id: id).reply?["counters"] as? [String: Any]
  }

  @Test func oneUsersClientsCannotTakeEverySlot() throws {
    let (daemon, port) = try WebSocketDaemonTests.start(
      scratchDirectory(), options: ["--max-clients", "10", "--max-clients-per-user", "3"])
    // WebSocketDaemonTests.start kept no client; its status client's close is read first.
    usleep(300_000)
    var clients: [LineClient] = []
    for _ in 0..<3 { clients.append(try daemon.connect().0) }
    let extra = try LineClient(path: daemon.socket)
    let uid = getuid()
    #expect(
      extra.readLine(timeout: 5)
        == #"{"type":"error","id":null,"message":"too many clients of uid \#(uid): the limit is 3 per user (--max-clients-per-user)"}"#
    )
    #expect(extra.closedByServer(timeout: 5))
    // Another user (here, the WebSocket clients, which count as one) still gets in.
    let web = try WebSocketTestClient(port: port, origin: "http://kiosk.local:8080")
    #expect(json(web.readText())?["type"] as? String == "hello")
    web.send(#"{"cmd":"ping","id":"w"}"#)
    #expect(web.readText() == #"{"type":"reply","id":"w","ok":true}"#)
    let counted = counters(clients[0], id: 7)
    #expect(counted?["clientsRefusedPerUser"] as? Int == 1)
    #expect(counted?["clientsRefused"] as? Int == 0)
    #expect(daemon.log.contains("client refused: too many clients of one user"), "\(daemon.log)")
    // One of the user's clients leaves: its slot is free at once.
    clients.removeLast()
    let next = try welcome(daemon.socket)
    #expect(next != nil, "a client of the user is welcome again once one left")
    for (i, client) in clients.enumerated() {
      #expect(client.command(#"{"cmd":"ping","id":\#(i)}"#, id: i).reply?["ok"] as? Bool == true)
    }
  }

  @Test func aClientThatSaysNothingIsClosedAndOneThatSubscribedStays() throws {
    let daemon = try idleDaemon(["--first-line-timeout", "0.5", "--max-clients", "2"])
    let (listener, _) = try daemon.connect()
    listener.send(#"{"cmd":"subscribe","id":1}"#)
    #expect(listener.readUntil(#""id":1"#).match?.contains(#""ok":true"#) == true)
    let (silent, _) = try daemon.connect()
    let started = Date()
    #expect(
      silent.readLine(timeout: 5)
        == #"{"type":"error","id":null,"message":"no complete line in 0.5 s after connecting (send a command, or subscribe to listen; --first-line-timeout); closing the connection"}"#
    )
    let waited = Date().timeIntervalSince(started)
    #expect(waited > 0.3 && waited < 3, "closed after \(waited) s")
    #expect(silent.closedByServer(timeout: 5))
    // The limit is 2: the silent client's slot is free again, and the listener is still there.
    #expect(try welcome(daemon.socket) != nil)
    usleep(700_000)
    #expect(listener.command(#"{"cmd":"ping","id":2}"#, id: 2).reply?["ok"] as? Bool == true)
    #expect(counters(listener, id: 3)?["clientsTimedOut"] as? Int == 1)
  }

  @Test func aLineLeftIncompleteClosesItsClientAndALineInPartsDoesNot() throws {
    let daemon = try idleDaemon(["--partial-line-timeout", "0.5"])
    let (slow, _) = try daemon.connect()
    // A line in three parts, 0.2 s apart, then a second line begun and finished the same way.
    for part in [#"{"cmd":"pi"#, #"ng","id":"#, "1}\n{\"cmd\":", #""ping","#, #""id":2}"# + "\n"] {
      slow.sendAll(Array(part.utf8))
      usleep(200_000)
    }
    #expect(slow.readUntil(#""id":1"#).match == #"{"type":"reply","id":1,"ok":true}"#)
    #expect(slow.readUntil(#""id":2"#).match == #"{"type":"reply","id":2,"ok":true}"#)
    let (stuck, _) = try daemon.connect()
    stuck.send(#"{"cmd":"ping","id":3}"#)
    #expect(stuck.readUntil(#""id":3"#).match != nil)
    stuck.sendAll(Array(#"{"cmd":"ping","#.utf8))
    #expect(
      stuck.readLine(timeout: 5)
        == #"{"type":"error","id":null,"message":"line 2 still incomplete after 0.5 s (--partial-line-timeout); closing the connection"}"#
    )
    #expect(stuck.closedByServer(timeout: 5))
    #expect(counters(slow, id: 4)?["clientsTimedOut"] as? Int == 1)
    #expect(daemon.log.contains("client timed out; closing"))
  }

  @Test func theOptionsAreCheckedAndStatusReportsThem() throws {
    typealias Usage = DaemonOptions.UsageError
    #expect(throws: Usage(description: "--max-clients-per-user must be between 1 and 1000000")) {
      try DaemonOptions.parse(["--scene", "s", "--max-clients-per-user", "0"])
    }
    #expect(throws: Usage(description: "--first-line-timeout must be between 0.001 and 86400 seconds")) {
      try DaemonOptions.parse(["--scene", "s", "--first-line-timeout", "0"])
    }
    #expect(throws: Usage(description: "--partial-line-timeout expects a number, got 'x'")) {
      try DaemonOptions.parse(["--scene", "s", "--partial-line-timeout", "x"])
    }
    let daemon = try idleDaemon([
      "--max-clients-per-user", "5", "--first-line-timeout", "12.5", "--partial-line-timeout", "4",
    ])
    let (client, _) = try daemon.connect()
    let limits = client.command(#"{"cmd":"status","id":1}"#, id: 1).reply?["limits"] as? [String: Any]
    #expect(limits?["clientsPerUser"] as? Int == 5)
    #expect(limits?["firstLineSeconds"] as? Double == 12.5)
    #expect(limits?["partialLineSeconds"] as? Double == 4)
  }

  /// A new client, connected now, greeted with `hello` (no retry: a slot just freed is free at
  /// once, even while the daemon has not read the close that freed it); nil if it is refused.
  /// A refusal is an error line at once; the wide wait is for a host so loaded that a `hello`
  /// takes seconds (four hundred connections in a row, as aClosedClientsSlotIsFreeAtOnce makes,
  /// once missed a 5 s wait with parallel builds running).
  private func welcome(_ socket: String) throws -> LineClient? {
    let client = try LineClient(path: socket)
    return json(client.readLine(timeout: 30))?["type"] as? String == "hello" ? client : nil
  }

  @Test func aClosedClientsSlotIsFreeAtOnce() throws {
    // The user's limit and the total: each full but for the slot the last client closed.
    for options in [["--max-clients-per-user", "2"], ["--max-clients", "2"]] {
      let daemon = try idleDaemon(options, name: "aClosedClientsSlotIsFreeAtOnce\(options[0])")
      let first = try #require(try welcome(daemon.socket))
      for round in 0..<200 {
        // Connected right after the last one closed, before the daemon may have read that close.
        let next = try welcome(daemon.socket)
        #expect(next != nil, "\(options) round \(round)")
        if next == nil { break }
      }
      let counters = self.counters(first, id: 1)
      #expect(counters?["clientsRefused"] as? Int == 0 && counters?["clientsRefusedPerUser"] as? Int == 0)
    }
  }
}
