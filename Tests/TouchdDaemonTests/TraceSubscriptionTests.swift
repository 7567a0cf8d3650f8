import Foundation
import Testing
import TouchdScene
import TouchdTestKit

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// Records every `subscribedTypesChanged` call.
final class TypesHandler: CommandHandler, @unchecked Sendable {
  private let lock = NSLock()
  private var changes: [[String]] = []
  var reported: [[String]] { lock.withLock { changes } }

  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) { reply(.error("not here")) }

  func subscribedTypesChanged(_ types: Set<String>) { lock.withLock { changes.append(types.sorted()) } }

  /// Waits until `count` changes were reported (or 5 s pass); returns them.
  func waitFor(_ count: Int) -> [[String]] {
    let deadline = Date().addingTimeInterval(5)
    while reported.count < count && Date() < deadline { usleep(5000) }
    return reported
  }
}

@Suite(.serialized) struct TraceSubscriptionTests {
  @Test func theHandlerHearsWhichTypesAreSubscribedAsClientsComeSubscribeAndGo() throws {
    let path = temporarySocketPath()
    let handler = TypesHandler()
    let server = try makeServer(path, handler: handler)
    defer { server.shutdown(notice: nil) }
    var a: LineClient? = try LineClient(path: path)
    _ = a?.readLine()
    #expect(handler.waitFor(1) == [["action"]])
    a?.send(#"{"cmd":"subscribe","id":1,"types":["action","trace"]}"#)
    #expect(json(a?.readLine())?["types"] as? [String] == ["action", "trace"])
    #expect(handler.waitFor(2) == [["action"], ["action", "trace"]])
    let b = try LineClient(path: path)
    _ = b.readLine()
    b.send(#"{"cmd":"ping","id":2}"#)
    _ = b.readLine()
    #expect(handler.reported.count == 2, "a client with the default subscription changes nothing")
    a = nil
    #expect(handler.waitFor(3) == [["action"], ["action", "trace"], ["action"]], "the trace subscriber left")
  }

  @Test func traceMessagesPassTheViewsFilterByTheirViewAndIgnoreTheActionsFilter() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    let plain = try LineClient(path: path)
    let all = try LineClient(path: path)
    let door = try LineClient(path: path)
    for client in [plain, all, door] { _ = client.readLine() }
    all.send(#"{"cmd":"subscribe","id":1,"types":"trace","actions":"open-door"}"#)
    #expect(json(all.readLine())?["types"] as? [String] == ["trace"])
    door.send(#"{"cmd":"subscribe","id":2,"types":["trace","action"],"views":"door"}"#)
    #expect(json(door.readLine())?["views"] as? [String] == ["door"])
    let onDoor =
      #"{"type":"trace","time":1,"event":"held","touch":1,"view":"door","window":"w","phase":"began","by":[]}"#
    let onWall =
      #"{"type":"trace","time":2,"event":"held","touch":2,"view":"wall","window":"w","phase":"began","by":[]}"#
    let swallowed =
      #"{"type":"trace","time":3,"event":"touchSwallowed","touch":3,"window":"w","location":{"x":0,"y":0},"reason":"r"}"#
    server.publish(OutboundMessage(line: onDoor, type: "trace", view: "door"))
    server.publish(OutboundMessage(line: onWall, type: "trace", view: "wall"))
    server.publish(OutboundMessage(line: swallowed, type: "trace"))
    server.publish(action("ring-bell", seq: 1))
    #expect(all.readLine() == onDoor)
    #expect(all.readLine() == onWall)
    #expect(all.readLine() == swallowed)
    #expect(door.readLine() == onDoor)
    #expect(json(door.readLine())?["action"] as? String == "ring-bell")
    #expect(json(plain.readLine())?["action"] as? String == "ring-bell", "a plain subscriber gets no trace")
    #expect(plain.readLine(timeout: 0.3) == nil)
    #expect(all.readLine(timeout: 0.3) == nil)
    door.send(#"{"cmd":"subscribe","id":3,"types":["traces"]}"#)
    #expect(
      json(door.readLine())?["message"] as? String
        == "unknown message type 'traces' in 'types' (did you mean 'trace'? known: action, touches, scroll, control, "
        + "presses, idle, accessibility, stroke, signature, trace)")
  }
}

/// The real daemon with trace subscribers.
@Suite(.serialized)
struct DaemonTraceTests {
  private func lines(_ messages: [[String: Any]], type: String) -> [[String: Any]] {
    messages.filter { $0["type"] as? String == type }
  }

  /// "seq action recognizer state" of each action message.
  private func actionKeys(_ messages: [[String: Any]]) -> [String] {
    lines(messages, type: "action").map {
      "\($0["seq"] as? Int ?? -1) \($0["action"] as? String ?? "") \($0["recognizer"] as? String ?? "") "
        + "\($0["state"] as? String ?? "")"
    }
  }

  @Test func aTraceSubscriberGetsTraceLinesOthersNoneAndSeqIsAsWithoutTracing() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    script.tap(at: Kiosk.buyTicket)
    script.wait(0.6)
    script.drag(from: Kiosk.signature, to: FingerScript.Point(x: 1200, y: 900), duration: 0.2)
    script.wait(0.6)
    script.tap(at: Kiosk.help)
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 1.5)
    let (plain, _) = try daemon.connect()
    let (tracer, _) = try daemon.connect()
    let (buyTicket, _) = try daemon.connect()
    #expect(
      tracer.command(#"{"cmd":"subscribe","id":1,"types":["action","trace"]}"#, id: 1).reply?["ok"] as? Bool == true)
    #expect(
      buyTicket.command(#"{"cmd":"subscribe","id":2,"types":"trace","views":"buy-ticket"}"#, id: 2).reply?["ok"]
        as? Bool == true)
    let status = tracer.command(#"{"cmd":"status","id":3}"#, id: 3).reply
    #expect(status?["tracing"] as? Bool == true)
    let traced = tracer.collect(until: "shutdown")
    let plainMessages = plain.collect(until: "shutdown")
    let buyTicketMessages = buyTicket.collect(until: "shutdown")
    #expect(lines(plainMessages, type: "trace").isEmpty, "a plain subscriber gets no trace lines")
    let traces = lines(traced, type: "trace")
    #expect(traces.allSatisfy { $0["seq"] == nil && $0["time"] is Double && $0["event"] is String })
    let began = traces.first { $0["event"] as? String == "touchBegan" }
    #expect(began?["touch"] as? Int != nil)
    #expect(began?["view"] as? String == "buy-ticket")
    #expect(began?["window"] as? String == "main")
    #expect(began?["recognizers"] as? [String] == ["buy-ticket-tap", "admin"])
    #expect(began?["tapCount"] as? Int == 1)
    let recognized = traces.first {
      $0["event"] as? String == "recognizer" && $0["recognizer"] as? String == "buy-ticket-tap"
    }
    #expect(recognized?["gesture"] as? String == "tap")
    #expect(recognized?["view"] as? String == "buy-ticket")
    #expect(recognized?["from"] as? String == "possible")
    #expect(recognized?["to"] as? String == "ended")
    #expect((recognized?["cause"] as? String)?.isEmpty == false)
    #expect(traces.contains { $0["event"] as? String == "recognizer" && $0["view"] as? String == "root" })
    // The views filter: only trace lines about buy-ticket (the admin long press on root is not).
    #expect(!buyTicketMessages.isEmpty)
    #expect(
      buyTicketMessages.dropLast().allSatisfy {
        $0["type"] as? String == "trace" && $0["view"] as? String == "buy-ticket"
      })
    // Action seq as without any tracing (the drag's touches messages count too).
    let expected = try ScenePlayer.replay(script.recording, scene: Scene.load(path: kioskScenePath))
    let expectedKeys = expected.compactMap { message -> String? in
      guard case .action(let a) = message else { return nil }
      return "\(a.seq) \(a.action) \(a.recognizer ?? "") \(a.state ?? "")"
    }
    #expect(expectedKeys.count == 2)
    #expect(expected.contains { if case .touches = $0 { true } else { false } })
    #expect(actionKeys(traced) == expectedKeys)
    #expect(actionKeys(plainMessages) == expectedKeys)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func tracingFollowsTheSubscribersAcrossAReloadAndADisconnect() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    for _ in 0..<6 {
      script.tap(at: Kiosk.buyTicket)
      script.wait(1.0)
    }
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 1)
    let (observer, _) = try daemon.connect()
    #expect(observer.command(#"{"cmd":"status","id":1}"#, id: 1).reply?["tracing"] as? Bool == false)
    var tracer: LineClient? = try daemon.connect().0
    #expect(tracer?.command(#"{"cmd":"subscribe","id":1,"types":"trace"}"#, id: 1).reply?["ok"] as? Bool == true)
    #expect(observer.command(#"{"cmd":"status","id":2}"#, id: 2).reply?["tracing"] as? Bool == true)
    #expect(tracer?.readUntil(#""event":"touchBegan""#, timeout: 15).match != nil)
    let reload = tracer?.command(#"{"cmd":"reload","id":2}"#, id: 2)
    #expect(reload?.reply?["ok"] as? Bool == true)
    #expect(reload?.others.contains { $0.hasPrefix(#"{"type":"reloaded""#) } == true)
    // Lines after the reply come from the new scene's runtime (one queue, one event loop: in order).
    #expect(observer.command(#"{"cmd":"status","id":3}"#, id: 3).reply?["tracing"] as? Bool == true)
    #expect(
      tracer?.readUntil(#""event":"touchBegan""#, timeout: 5).match != nil, "the reloaded scene traces too")
    tracer = nil
    var tracing: Bool? = true
    let deadline = Date().addingTimeInterval(5)
    var id = 10
    while tracing == true && Date() < deadline {
      id += 1
      tracing = observer.command(#"{"cmd":"status","id":\#(id)}"#, id: id).reply?["tracing"] as? Bool
      usleep(20_000)
    }
    #expect(tracing == false, "no trace subscriber left: tracing is off")
  }
}
