import Foundation
import Logging
import NIOConcurrencyHelpers
import Testing

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// Answers `status` with ok and `set` with an error naming the view; records what it saw.
final class FakeHandler: CommandHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [String] = []
  var commands: [String] { lock.withLock { seen } }

  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    lock.withLock { seen.append(command.name) }
    DispatchQueue.global().async {
      switch command.name {
      case "status": reply(.ok(fieldsJSON: #""clients":1"#))
      default:
        guard case .scene(.set(let set)) = command.request else {
          return reply(.error("not set"))
        }
        reply(.error("unknown view '\(set.view)'"))
      }
    }
  }
}

func makeServer(
  _ path: String, handler: CommandHandler = FakeHandler(),
  configure: (inout SocketServer.Configuration) -> Void = { _ in }
) throws -> SocketServer {
  var config = SocketServer.Configuration(path: path)
  configure(&config)
  var logger = Logger(label: "test")
  logger.logLevel = .critical
  return try SocketServer(configuration: config, handler: handler, logger: logger)
}

func action(_ name: String, seq: Int, view: String = "door") -> OutboundMessage {
  OutboundMessage(
    line: #"{"type":"action","seq":\#(seq),"action":"\#(name)","view":"\#(view)"}"#, type: "action", action: name,
    view: view)
}

@Suite(.serialized) struct SocketServerTests {
  @Test func greetsEachClientWithHelloAndCreatesTheSocket0660() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    server.setHello(#"{"type":"hello","version":1,"windows":["main"],"views":3}"#)
    let client = try LineClient(path: path)
    let hello = json(client.readLine())
    #expect(hello?["type"] as? String == "hello")
    #expect(hello?["views"] as? Int == 3)
    var st = stat()
    #expect(stat(path, &st) == 0)
    #expect(st.st_mode & 0o777 == 0o660)
  }

  @Test func answersPingEchoingAnyIdAndKeepsTheConnectionAfterBadLines() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    let client = try LineClient(path: path)
    _ = client.readLine()
    client.send("this is not json")
    let bad = json(client.readLine())
    #expect(bad?["type"] as? String == "error")
    #expect(bad?["message"] as? String == "not JSON at column 2: unexpected 'h', expected true")
    client.send(#"{"cmd":"frobnicate","id":"x"}"#)
    let unknown = json(client.readLine())
    #expect(unknown?["id"] as? String == "x")
    #expect((unknown?["message"] as? String)?.contains("unknown command 'frobnicate'") == true)
    client.send(#"{"id":7}"#)
    #expect(json(client.readLine())?["message"] as? String == "missing field 'cmd' (a string: the command name)")
    client.send(#"{"cmd":"ping","id":{"k":[1,2]}}"#)
    let pong = json(client.readLine())
    #expect(pong?["type"] as? String == "reply")
    #expect(pong?["ok"] as? Bool == true)
    #expect((pong?["id"] as? [String: Any])?["k"] as? [Int] == [1, 2])
  }

  @Test func forwardsPipelineCommandsAndRepliesWithTheirResult() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    let client = try LineClient(path: path)
    _ = client.readLine()
    client.send(#"{"cmd":"set","id":1,"view":"nope","hidden":true}"#)
    let error = json(client.readLine())
    #expect(error?["type"] as? String == "error")
    #expect(error?["id"] as? Int == 1)
    #expect(error?["message"] as? String == "unknown view 'nope'")
    client.send(#"{"cmd":"status","id":2}"#)
    let status = json(client.readLine())
    #expect(status?["ok"] as? Bool == true)
    #expect(status?["clients"] as? Int == 1)
  }

  @Test func deliversActionsByDefaultAndFiltersBySubscription() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    let all = try LineClient(path: path)
    let some = try LineClient(path: path)
    _ = all.readLine()
    _ = some.readLine()
    some.send(#"{"cmd":"subscribe","id":1,"actions":["open-door"],"types":["action","touches"]}"#)
    let reply = json(some.readLine())
    #expect(reply?["actions"] as? [String] == ["open-door"])
    #expect(reply?["types"] as? [String] == ["action", "touches"])
    server.publish(action("ring-bell", seq: 1))
    server.publish(action("open-door", seq: 2))
    server.publish(OutboundMessage(line: #"{"type":"touches","seq":3}"#, type: "touches", view: "canvas"))
    #expect(json(all.readLine())?["seq"] as? Int == 1)
    #expect(json(all.readLine())?["seq"] as? Int == 2)
    #expect(all.readLine(timeout: 0.3) == nil, "touches are not sent without subscribing to them")
    #expect(json(some.readLine())?["seq"] as? Int == 2)
    #expect(json(some.readLine())?["seq"] as? Int == 3)
    some.send(#"{"cmd":"subscribe","id":2,"types":["gestures"]}"#)
    #expect(
      json(some.readLine())?["message"] as? String
        == "unknown message type 'gestures' in 'types' (known: action, touches, scroll, control, presses, idle, accessibility, stroke, signature, trace)"
    )
  }

  @Test func disconnectsAStalledClientWithoutDelayingOthers() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path) { $0.sendBufferLimit = 64 * 1024 }
    defer { server.shutdown(notice: nil) }
    let stalled = try LineClient(path: path, receiveBuffer: 4096)
    let reader = try LineClient(path: path)
    _ = reader.readLine()
    // The reader reads as messages arrive, on its own thread; the stalled client never reads.
    let lastSeen = LockedValue(0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      while let line = reader.readLine(timeout: 5), let seq = json(line)?["seq"] as? Int {
        let inOrder = lastSeen.withLock { last in
          defer { last = seq }
          return seq == last + 1
        }
        if !inOrder || seq == 2000 { break }
      }
      done.signal()
    }
    let padding = String(repeating: "x", count: 100)
    let start = Date()
    for i in 1...2000 {
      server.publish(
        OutboundMessage(
          line: #"{"type":"action","seq":\#(i),"action":"a","pad":"\#(padding)"}"#, type: "action", action: "a"))
    }
    #expect(Date().timeIntervalSince(start) < 1, "publish never waits for clients")
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(lastSeen.withLock { $0 } == 2000, "the reading client got every message, in order")
    #expect(stalled.closedByServer(timeout: 5))
    #expect(server.counters().disconnectedSlow == 1)
  }

  /// A server with a 16 KiB send buffer and a client subscribed with `overflow: skip` that has
  /// not read 1000 published actions of 900 bytes: the server has handled every publish (a
  /// `counters()` barrier), so the client is behind and messages were skipped.
  private func skippingClientBehind() throws -> (SocketServer, LineClient) {
    let path = temporarySocketPath(#function + "\(UInt32.random(in: 0...UInt32.max))")
    let server = try makeServer(path) { $0.sendBufferLimit = 16 * 1024 }
    let slow = try LineClient(path: path, receiveBuffer: 4096)
    _ = slow.readLine()
    slow.send(#"{"cmd":"subscribe","id":1,"overflow":"skip"}"#)
    #expect(json(slow.readLine())?["overflow"] as? String == "skip")
    let padding = String(repeating: "y", count: 900)
    for i in 1...1000 {
      server.publish(
        OutboundMessage(
          line: #"{"type":"action","seq":\#(i),"action":"a","pad":"\#(padding)"}"#, type: "action", action: "a"))
    }
    _ = server.counters()
    return (server, slow)
  }

  @Test func aSkippingClientIsToldHowManyMessagesItMissed() throws {
    let (server, slow) = try skippingClientBehind()
    defer { server.shutdown(notice: nil) }
    var received = 0
    var skipped = 0
    while let line = slow.readLine(timeout: 2) {
      let object = json(line)
      if object?["type"] as? String == "gap" { skipped += object?["skipped"] as? Int ?? 0 } else { received += 1 }
    }
    #expect(skipped > 0)
    #expect(received + skipped == 1000, "every message is either received or counted in a gap")
  }

  @Test func aSkippingClientBehindAtShutdownIsToldWhatItMissedBeforeTheShutdown() throws {
    let (server, slow) = try skippingClientBehind()
    // The client reads again only while the server shuts down.
    let lines = NIOLockedValueBox<[String]>([])
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      while let line = slow.readLine(timeout: 3) { lines.withLockedValue { $0.append(line) } }
      done.signal()
    }
    server.shutdown(notice: #"{"type":"shutdown"}"#, timeout: .seconds(3))
    #expect(done.wait(timeout: .now() + 10) == .success)
    let read = lines.withLockedValue { $0 }.map { json($0) }
    let skipped = read.filter { $0?["type"] as? String == "gap" }.compactMap { $0?["skipped"] as? Int }.reduce(0, +)
    let received = read.filter { $0?["type"] as? String == "action" }.count
    #expect(skipped > 0)
    #expect(received + skipped == 1000, "every message is received or counted, the owed gap included")
    #expect(read.last??["type"] as? String == "shutdown")
    #expect(read.dropLast().last??["type"] as? String == "gap", "the gap comes before the shutdown")
  }

  @Test func shutdownTellsClientsAndRemovesTheSocketFile() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    let client = try LineClient(path: path)
    _ = client.readLine()
    server.shutdown(notice: #"{"type":"shutdown"}"#)
    #expect(json(client.readLine())?["type"] as? String == "shutdown")
    #expect(client.closedByServer(timeout: 2))
    #expect(access(path, F_OK) != 0)
  }

  @Test func accessPolicyAllowsListedUsersAndGroupsOnly() throws {
    let policy = AccessPolicy(users: [1001], groups: [50])
    #expect(policy.allows(PeerCredentials(pid: 1, uid: 1001, gid: 9), supplementaryGroups: [], daemonUID: 999))
    #expect(policy.allows(PeerCredentials(pid: 1, uid: 1002, gid: 50), supplementaryGroups: [], daemonUID: 999))
    #expect(policy.allows(PeerCredentials(pid: 1, uid: 1003, gid: 9), supplementaryGroups: [7, 50], daemonUID: 999))
    #expect(!policy.allows(PeerCredentials(pid: 1, uid: 1004, gid: 9), supplementaryGroups: [7], daemonUID: 999))
    #expect(policy.allows(PeerCredentials(pid: 1, uid: 999, gid: 9), supplementaryGroups: [], daemonUID: 999))
    #expect(AccessPolicy().allows(PeerCredentials(pid: 1, uid: 1004, gid: 9), supplementaryGroups: [], daemonUID: 0))
    #expect(throws: AccessPolicyError.self) { try AccessPolicy.resolve(users: ["no-such-user-touchd"], groups: []) }
    #expect(
      try AccessPolicy.resolve(users: ["root", "42"], groups: ["0"]) == AccessPolicy(users: [0, 42], groups: [0]))
  }
}

/// A value shared between a test and a reader thread.
final class LockedValue<T>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: T
  init(_ value: T) { self.value = value }
  func withLock<R>(_ body: (inout T) -> R) -> R { lock.withLock { body(&value) } }
}
