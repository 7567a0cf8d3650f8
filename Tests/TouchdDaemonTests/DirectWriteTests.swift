import Foundation
import Testing

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The publisher writes to clients' sockets itself (``ClientOutlet``): these pin what that must
/// keep from the event-loop path it replaced.
@Suite(.serialized) struct DirectWriteTests {
  @Test("a client gets every message published after its hello, however soon")
  func nothingLostAfterHello() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    for i in 1...200 {
      let client = try LineClient(path: path)
      #expect(json(client.readLine())?["type"] as? String == "hello")
      server.publish(action("a", seq: i))
      #expect(json(client.readLine(timeout: 2))?["seq"] as? Int == i, "client \(i)")
    }
  }

  @Test("replies and published messages share the stream without tearing a line")
  func repliesInterleaveWithMessages() throws {
    let path = temporarySocketPath()
    // A bound that a reader on a busy machine cannot hit: this test is about the bytes, not speed.
    let server = try makeServer(path) { $0.sendBufferLimit = 8 * 1024 * 1024 }
    defer { server.shutdown(notice: nil) }
    let client = try LineClient(path: path)
    _ = client.readLine()
    // Pings from one thread, messages published from another, the stream read on this one.
    let writer = Thread {
      for i in 1...500 { client.send(#"{"cmd":"ping","id":\#(i)}"#) }
    }
    let padding = String(repeating: "p", count: 300)
    let publisher = Thread {
      for i in 1...2000 {
        server.publish(
          OutboundMessage(
            line: #"{"type":"action","seq":\#(i),"action":"a","pad":"\#(padding)"}"#, type: "action", action: "a"))
        if i % 10 == 0 { usleep(1000) }
      }
    }
    writer.start()
    publisher.start()
    var seq = 0
    var pongs = 0
    while seq < 2000 || pongs < 500, let line = client.readLine(timeout: 5) {
      let object = try #require(json(line), "a torn line: \(line.prefix(80))")
      if object["type"] as? String == "reply" {
        pongs += 1
        #expect(object["id"] as? Int == pongs, "replies in order")
      } else {
        #expect(object["seq"] as? Int == seq + 1, "messages in order")
        seq = object["seq"] as? Int ?? seq
      }
    }
    #expect(seq == 2000)
    #expect(pongs == 500)
    #expect(server.counters().messagesSent == 2000, "direct writes are counted")
  }

  @Test("lines longer than the socket buffer arrive whole, in order, to a slow reader")
  func partialWritesCompleteTheirLine() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path) { $0.sendBufferLimit = 4 * 1024 * 1024 }
    defer { server.shutdown(notice: nil) }
    let client = try LineClient(path: path, receiveBuffer: 4096)
    _ = client.readLine()
    let padding = String(repeating: "q", count: 40_000)
    for i in 1...60 {
      server.publish(
        OutboundMessage(
          line: #"{"type":"action","seq":\#(i),"action":"a","pad":"\#(padding)"}"#, type: "action", action: "a"))
    }
    for i in 1...60 {
      let line = try #require(client.readLine(timeout: 5))
      #expect(line.utf8.count == 40_000 + 46 + String(i).utf8.count, "line \(i) whole")
      #expect(json(line)?["seq"] as? Int == i)
      usleep(2000)  // a slow reader: the publisher's writes stop part-way through lines
    }
  }

  @Test("a client that went away costs nothing: no SIGPIPE, the others still get everything")
  func goneClient() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    var gone: LineClient? = try LineClient(path: path)
    _ = gone?.readLine()
    let stays = try LineClient(path: path)
    _ = stays.readLine()
    gone = nil  // closes its socket; the server has not noticed yet
    for i in 1...100 { server.publish(action("a", seq: i)) }
    for i in 1...100 { #expect(json(stays.readLine())?["seq"] as? Int == i) }
    #expect(gone == nil)
  }
}

/// Answers `status` with the server counters it was handed, as the daemon's status does.
final class CountersHandler: CommandHandler, @unchecked Sendable {
  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    let p50 = server.handedLatency.summary?.p50 ?? -1
    reply(.ok(fieldsJSON: #""messagesSent":\#(server.messagesSent),"handedP50":\#(p50)"#))
  }
}

@Suite(.serialized) struct DirectWriteStatusTests {
  @Test("status counts the publisher's direct writes and its handoff latency")
  func statusSeesDirectWrites() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path, handler: CountersHandler())
    defer { server.shutdown(notice: nil) }
    let client = try LineClient(path: path)
    _ = client.readLine()
    server.publish([action("a", seq: 1), action("b", seq: 2)], kernelTime: MonotonicClock.microseconds() - 5000)
    #expect(json(client.readLine())?["seq"] as? Int == 1)
    #expect(json(client.readLine())?["seq"] as? Int == 2)
    client.send(#"{"cmd":"status","id":1}"#)
    let status = json(client.readLine())
    #expect(status?["messagesSent"] as? Int == 2)
    #expect((status?["handedP50"] as? Int ?? 0) >= 5000)
  }
}
