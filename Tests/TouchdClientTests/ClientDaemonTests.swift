import Foundation
import Testing
import TouchdTestKit

@testable import TouchdClient

#if canImport(Glibc)
  import Glibc
#endif

/// The client against the real `touchd`, replaying scripted recordings in real time on a socket of
/// its own. Serialized: each test runs one or two daemons, and the machine may be small.
///
/// The client is async: it needs the cooperative thread pool, which the other suites' blocking
/// tests (sockets read with timeouts, sleeps) hold while they run beside it. On a 2-core machine
/// the pool has two threads, and a client then waited seconds to connect, past the end of a
/// replay. scripts/test.sh therefore runs this suite on its own, after the others
/// (`TOUCHD_CLIENT_DAEMON_TESTS=separately` skips it in the first run).
@Suite(
  .serialized,
  .disabled(
    if: ProcessInfo.processInfo.environment["TOUCHD_CLIENT_DAEMON_TESTS"] == "separately",
    "run on its own afterwards (scripts/test.sh)"))
struct ClientDaemonTests {
  @Test func greetsThenPublishesTheTapsActionsThenShutsDown() async throws {
    let work = try Workspace()
    let daemon = try work.start(tapsScript(gap: 0.3), delay: 3, exitAfterReplay: true)
    let client = TouchdClient(socketPath: work.socket, reconnect: .never)
    let hello = try await client.connect()
    #expect(hello.version == 1)
    let instance = try #require(hello.instance)
    #expect(instance.count == 16 && instance.allSatisfy(\.isHexDigit), "\(instance)")
    #expect(hello.windows == [TouchdClient.Window(id: "main", width: 1920, height: 1080)])
    #expect(hello.views == 3)
    #expect(await client.hello == hello)

    let messages = try await client.messagesUntilShutdown()
    let actions = messages.compactMap { message -> TouchdClient.Action? in
      if case .action(let action) = message { return action }
      return nil
    }
    #expect(messages.count == 3, "the default subscription: actions only, then the shutdown notice")
    #expect(actions.map(\.action) == ["open-door", "toggle-lamp"])
    #expect(actions.map(\.seq) == [3, 4])
    let door = try #require(actions.first)
    #expect(door.gesture == "tap")
    #expect(door.state == "ended")
    #expect(door.view == "door")
    #expect(door.window == "main")
    #expect(door.recognizer == "door-tap")
    #expect(door.numberOfTouches == 1)
    let location = try #require(door.location)
    #expect(abs(location.x - 300) < 1 && abs(location.y - 250) < 1, "\(location)")
    #expect(door.time >= 10 && door.time < 10.2, "the recording's clock: \(door.time)")
    #expect(actions[1].view == "lamp" && actions[1].recognizer == "lamp-tap")
    #expect(messages.last == .shutdown)

    // Without reconnection, the end of the connection ends the messages with connectionLost.
    await #expect(throws: TouchdError.connectionLost) { _ = try await client.next(within: 10) }
    await #expect(throws: TouchdError.connectionLost) { try await client.ping() }
    #expect(try await daemon.stop() == 0)
    await client.close()
  }

  @Test func subscriptionsFilterByTypeViewAndAction() async throws {
    let work = try Workspace()
    let daemon = try work.start(tapsScript(gap: 0.3), delay: 3, exitAfterReplay: true)
    let touches = TouchdClient(socketPath: work.socket, reconnect: .never)
    let lamp = TouchdClient(socketPath: work.socket, reconnect: .never)
    let door = TouchdClient(socketPath: work.socket, reconnect: .never)
    let reply = try await touches.subscribe(types: [.touches], coalesced: true, predicted: true)
    #expect(reply["types"] == ["touches"])
    #expect(reply["overflow"] == "disconnect")
    #expect(reply["coalesced"] == true && reply["predicted"] == true)
    #expect(await touches.subscription == ["types": ["touches"], "coalesced": true, "predicted": true])
    try await lamp.subscribe(types: [.action, .touches], views: ["lamp"])
    try await door.subscribe(actions: ["open-door"])

    let touchMessages = try await touches.messagesUntilShutdown()
    let phases = touchMessages.compactMap { message -> String? in
      guard case .touches(let m) = message else { return nil }
      return "\(m.seq) \(m.view) \(m.phase) \(m.touches.map(\.phase)) \(m.touches.map(\.view))"
    }
    #expect(
      phases == [
        #"1 door began ["began"] ["door"]"#, #"2 door cancelled ["cancelled"] ["door"]"#,
        #"5 pad began ["began"] ["pad"]"#, #"6 pad ended ["ended"] ["pad"]"#,
      ])
    #expect(touchMessages.count == 5, "touches only, then shutdown: \(touchMessages.map(kind))")
    if case .touches(let first) = touchMessages[0], let touch = first.touches.first {
      #expect(abs(touch.x - 300) < 1 && abs(touch.y - 250) < 1 && touch.tapCount == 1, "\(touch)")
      // The touch-down frame, and a touch at rest predicted where it is.
      #expect(first.coalesced == [.init(id: touch.id, x: touch.x, y: touch.y, time: first.time)])
      #expect(first.predicted?.map { [$0.x, $0.y] } == [[touch.x, touch.y], [touch.x, touch.y]])
    } else {
      Issue.record("not a touches message: \(touchMessages[0])")
    }
    #expect(kinds(try await lamp.messagesUntilShutdown()) == ["action lamp toggle-lamp"])
    #expect(kinds(try await door.messagesUntilShutdown()) == ["action door open-door"])
    #expect(try await daemon.stop() == 0)
    for client in [touches, lamp, door] { await client.close() }
  }

  @Test func commandsReturnRepliesAndThrowTheDaemonsErrors() async throws {
    let work = try Workspace()
    let daemon = try work.start()
    let client = TouchdClient(socketPath: work.socket, reconnect: fast)
    // The first command connects.
    #expect(try await client.ping().fields == [:])
    await #expect(throws: TouchdError.daemon(message: "unknown view 'dor' (did you mean 'door'?)")) {
      try await client.setView("dor", hidden: true)
    }
    let set = try await client.setView(
      "door", hidden: true, alpha: 0.5, frame: .init(x: 90, y: 90, width: 420, height: 320))
    #expect(set.id == 3)
    await #expect(throws: TouchdError.daemon(message: "alpha 2.0 is outside 0...1")) {
      try await client.setView("door", alpha: 2)
    }
    await #expect(
      throws: TouchdError.daemon(
        message:
          "unknown command 'stauts' (did you mean 'status'? known: ping, subscribe, set, ignoreInteraction, reload, scene, update, status, calibrate, metrics, health, announce, signature)"
      )
    ) { try await client.send("stauts") }
    await #expect(throws: TouchdError.daemon(message: "not ignoring interaction events")) {
      try await client.ignoreInteraction(false)
    }
    #expect(try await client.ignoreInteraction(true)["ignoring"] == 1)
    #expect(try await client.ignoreInteraction(true)["ignoring"] == 2)
    await #expect(throws: TouchdError.daemon(message: "'hidden' must be true or false, found 1")) {
      try await client.setView("door", fields: ["hidden": 1])
    }
    // A window's size: the reply, and the notice every client gets (here, before the reply).
    let window = try await client.setWindow("main", size: .init(width: 1280, height: 720))
    #expect(window["width"] == 1280 && window["height"] == 720 && window["rotation"] == 0)
    #expect(
      try window.decode(WindowChangedMessage.self)
        == .init(window: "main", width: 1280, height: 720, rotation: 0, calibration: [1, 0, 0, 0, 1, 0]))
    let notice = try await client.nextMessage()
    #expect(
      notice
        == .windowChanged(
          .init(window: "main", width: 1280, height: 720, rotation: 0, calibration: [1, 0, 0, 0, 1, 0])),
      "\(notice)")
    #expect(await client.isConnected)
    // Closing the client: a command waiting for its answer throws closed, the messages end.
    let calibrating = Task {
      try await client.calibrate(
        window: "main", targets: [.init(x: 10, y: 10), .init(x: 500, y: 10), .init(x: 10, y: 500)])
    }
    try await Task.sleep(for: .milliseconds(200))
    await client.close()
    await #expect(throws: TouchdError.closed) { try await calibrating.value }
    await #expect(throws: TouchdError.closed) { try await client.ping() }
    var iterator = client.messages.makeAsyncIterator()
    #expect(try await iterator.next() == nil)
    #expect(await !client.isConnected)
    _ = daemon
  }

  @Test func statusHasTheDaemonsCountsAndLimits() async throws {
    let work = try Workspace()
    let daemon = try work.start(tapsScript(gap: 0.2), delay: 0.5, loop: true, extra: ["--client-buffer", "65536"])
    let client = TouchdClient(socketPath: work.socket)
    try await client.subscribe(types: [.action])
    // Two actions sent to this client (the replay loops; it may have subscribed mid-round).
    _ = try await client.messages(until: { kind($0).hasPrefix("action ") })
    _ = try await client.messages(until: { kind($0).hasPrefix("action ") })
    let status = try await client.status()
    #expect(status["clients"] == 1)
    #expect(status["ignoring"] == 0)
    #expect(status["tracing"] == false)
    #expect(status["limits"]?["clientBufferBytes"] == 65536)
    #expect(status["limits"]?["clients"] == 128)
    #expect(status["windows"] == [["id": "main", "width": 1920, "height": 1080]])
    #expect(status["devices"] == [])
    #expect(status["replay"]?.isNull == false, "a replay: \(status["replay"] ?? .null)")
    // The metrics count the same clients, in Prometheus' text format.
    let metrics = try await client.metrics()
    #expect(metrics.contains("# TYPE touchd_frames_total counter\n"), "\(metrics)")
    #expect(metrics.contains("\ntouchd_clients 1.0\n"), "\(metrics)")
    // The same reply read as the protocol's type.
    let typed = try status.decode(StatusReply.self)
    #expect(typed.clients == 1 && typed.limits.clientBufferBytes == 65536 && typed.devices.isEmpty)
    #expect(typed.windows == [WindowInfo(id: "main", width: 1920, height: 1080)])
    let counters = try #require(status["counters"])
    #expect(counters["clientsAccepted"] == 1)
    #expect((counters["actions"]?.intValue ?? 0) >= 2)
    #expect((counters["touchesBegan"]?.intValue ?? 0) >= 2)
    #expect((counters["messagesSent"]?.intValue ?? 0) >= 2)
    #expect(status["scene"] == .string(work.scene) || status["scene"]?.stringValue?.hasSuffix("scene.yaml") == true)
    _ = daemon
    await client.close()
  }

  @Test func aPushedSceneTakesTheNextTap() async throws {
    let work = try Workspace()
    let script = FingerScript(start: 10)
    script.tap(at: Spot.door)
    let daemon = try work.start(script, delay: 3, exitAfterReplay: true)
    let client = TouchdClient(socketPath: work.socket, reconnect: .never)
    let scene: TouchdJSON = [
      "version": 1,
      "windows": [
        [
          "id": "main", "size": ["width": 1920, "height": 1080], "devices": ["*"],
          "views": [
            [
              "id": "bell", "frame": ["x": 200, "y": 200, "width": 200, "height": 100],
              "recognizers": [["id": "bell-tap", "type": "tap", "action": "ring"]],
            ]
          ],
        ]
      ],
    ]
    let reply = try await client.pushScene(scene)
    #expect(reply["views"] == 1 && reply["recognizers"] == 1, "\(reply)")
    #expect(reply["windows"] == [["id": "main", "width": 1920, "height": 1080]])
    let reloaded = try await client.nextMessage()
    #expect(
      reloaded == .reloaded(.init(source: "client", windows: [.init(id: "main", width: 1920, height: 1080)], views: 1)))
    let messages = try await client.messagesUntilShutdown()
    guard case .action(let ring) = messages.first else {
      Issue.record("no action: \(messages)")
      return
    }
    #expect(ring.action == "ring" && ring.view == "bell" && ring.recognizer == "bell-tap" && ring.seq == 1)
    #expect(messages.count == 2)
    // A scene the daemon refuses: its error, word for word; the pushed scene stays.
    _ = daemon
    await client.close()
  }

  @Test func aRefusedSceneIsTheDaemonsErrorAndReloadReadsTheFile() async throws {
    let work = try Workspace()
    let daemon = try work.start()
    let client = TouchdClient(socketPath: work.socket, reconnect: .never)
    let bad: TouchdJSON = [
      "version": 1,
      "windows": [["id": "main", "size": ["width": 800, "height": 600], "views": [["id": "x", "fram": [:]]]]],
    ]
    do {
      try await client.pushScene(bad)
      Issue.record("the scene was taken")
    } catch TouchdError.daemon(let message) {
      #expect(message.hasPrefix("scene rejected, the old scene stays: scene.windows[0].views[0]"), "\(message)")
      #expect(message.contains("'fram'"), "\(message)")
    }
    #expect(try await client.status()["counters"]?["scenePushes"] == 0)
    // reload reads the scene file again: every client hears of it.
    #expect(try await client.reload().fields == [:])
    #expect(
      try await client.nextMessage()
        == .reloaded(.init(source: "file", windows: [.init(id: "main", width: 1920, height: 1080)], views: 3)))
    #expect(try await client.status()["counters"]?["reloads"] == 1)
    _ = daemon
    await client.close()
  }

  @Test func updateAddsAndRemovesAViewWithNotices() async throws {
    let work = try Workspace()
    let script = FingerScript(start: 10)
    script.tap(at: .init(x: 1700, y: 200))
    let daemon = try work.start(script, delay: 3)
    let client = TouchdClient(socketPath: work.socket, reconnect: .never)
    let bell: TouchdJSON = [
      "id": "bell", "frame": ["x": 1600, "y": 100, "width": 200, "height": 200],
      "recognizers": [["id": "bell-tap", "type": "tap", "action": "ring"]],
    ]
    let added = try await client.update(.addView(bell, parent: "main"))
    let expected: [String: TouchdJSON] = [
      "op": "add", "view": "bell", "parent": "main", "index": 3, "views": 4, "recognizers": 3,
    ]
    #expect(added.fields == expected)
    #expect(
      try added.decode(UpdatedMessage.self)
        == .init(op: "add", view: "bell", recognizer: nil, parent: "main", index: 3, views: 4, recognizers: 3))
    let notice = try await client.nextMessage()
    #expect(
      notice
        == .updated(.init(op: "add", view: "bell", recognizer: nil, parent: "main", index: 3, views: 4, recognizers: 3))
    )
    let ring = try await client.nextMessage()
    #expect(kind(ring) == "action bell ring")

    let removed = try await client.update(.removeView("bell"))
    #expect(removed["op"] == "remove" && removed["views"] == 3 && removed["recognizers"] == 2)
    #expect(
      try await client.nextMessage()
        == .updated(
          .init(op: "remove", view: "bell", recognizer: nil, parent: "main", index: 3, views: 3, recognizers: 2))
    )
    await #expect(throws: TouchdError.daemon(message: "unknown view 'lam' (did you mean 'lamp'?)")) {
      try await client.update(.removeView("lam"))
    }
    _ = daemon
    await client.close()
  }

  @Test func reconnectsToARestartedDaemonAndSubscribesAgain() async throws {
    let work = try Workspace()
    let script = tapsScript(gap: 0.15)
    let first = try work.start(script, delay: 0.3, loop: true, speed: 2)
    let client = TouchdClient(socketPath: work.socket, reconnect: fast)
    let oldInstance = try await client.connect().instance
    try await client.subscribe(types: [.touches])
    let before = try await client.messages(until: { ($0.seq ?? 0) >= 5 })
    #expect(before.allSatisfy { $0.type == "touches" }, "\(before.map(kind))")

    #expect(try await first.stop(SIGTERM) == 0)
    let rest = try await client.messagesUntilShutdown()
    #expect(rest.dropLast().allSatisfy { $0.type == "touches" })
    let second = try work.start(script, delay: 1.5, loop: true, speed: 2)

    guard case .reconnected(let reconnected) = try await client.next() else {
      Issue.record("no reconnected event")
      return
    }
    #expect(reconnected.restarted)
    #expect(reconnected.previousInstance == oldInstance)
    #expect(reconnected.instance != nil && reconnected.instance != oldInstance)
    #expect(await client.hello == reconnected.hello)
    #expect(reconnected.lastSeq == nil)
    #expect(reconnected.resubscribeError == nil)
    #expect(reconnected.attempts >= 1)
    #expect(await client.subscription == ["types": ["touches"]])
    // The new daemon counts from 1, and the filter is back: touches only (3 and 4 are actions).
    var after: [String] = []
    for _ in 0..<4 {
      let message = try await client.nextMessage()
      after.append("\(message.seq ?? 0) \(kind(message))")
    }
    #expect(
      after == ["1 touches door began", "2 touches door cancelled", "5 touches pad began", "6 touches pad ended"])
    let status = try await client.status()
    #expect(status["clients"] == 1)
    #expect(status["counters"]?["clientsAccepted"] == 1)
    _ = second
    await client.close()
  }

  @Test func countsTheMessagesMissedWhileDisconnectedFromTheSameDaemon() async throws {
    let work = try Workspace()
    let daemon = try work.start(tapsScript(gap: 0.1), delay: 0.6, loop: true)
    // 1.5 s away after the connection drops while the daemon goes on: the loop publishes 6 messages
    // in 0.35 s, then pauses 1 s (--loop starts again 1 s after the recording's end), so at least 6.
    let away = TouchdClient.ReconnectPolicy(initialDelay: .milliseconds(1500), jitter: 0)
    let everything = TouchdClient(socketPath: work.socket, reconnect: away)
    let lamp = TouchdClient(socketPath: work.socket, reconnect: away)
    let instance = try await everything.connect().instance
    try await everything.subscribe(types: TouchdClient.MessageType.pipeline)  // every seq: exact
    try await lamp.subscribe(types: [.action], views: ["lamp"])  // a filter: an upper bound
    let before = try await everything.messages(until: { ($0.seq ?? 0) >= 8 })
    #expect(before.map { $0.seq ?? 0 } == Array(1...8))
    #expect(before.map(kind) == (0..<8).map { tapsMessages[$0 % 6] })
    let lampBefore = try await lamp.messages(until: { ($0.seq ?? 0) >= 10 })
    #expect(
      lampBefore.map { "\($0.seq ?? 0) \(kind($0))" } == ["4 action lamp toggle-lamp", "10 action lamp toggle-lamp"])

    await everything.dropConnection()
    await lamp.dropConnection()

    let (queued, reconnected) = try await everything.untilReconnected()
    let lastSeen = try #require((before + queued).last?.seq)
    #expect(!reconnected.restarted)
    #expect(reconnected.instance == instance && reconnected.previousInstance == instance)
    #expect(reconnected.lastSeq == lastSeen)
    guard case .missed(let missed) = try await everything.next() else {
      Issue.record("no missed event")
      return
    }
    let first = try await everything.nextMessage()
    let seq = try #require(first.seq)
    #expect(missed == .init(count: seq - lastSeen - 1, lastSeq: lastSeen, seq: seq, exact: true))
    #expect(missed.count >= 6, "1.5 s away: \(missed)")
    // What comes after is whole again, and is what the looping recording publishes at that seq.
    var after = [first]
    for _ in 0..<6 { after.append(try await everything.nextMessage()) }
    #expect(after.map { $0.seq ?? 0 } == Array(seq..<(seq + 7)))
    #expect(after.map(kind) == after.map { tapsMessages[(($0.seq ?? 1) - 1) % 6] })

    // The filtered client: the same count from seq, which is only an upper bound for it.
    let (lampQueued, lampReconnected) = try await lamp.untilReconnected()
    let lampLast = try #require((lampBefore + lampQueued).last?.seq)
    #expect(!lampReconnected.restarted && lampReconnected.lastSeq == lampLast)
    guard case .missed(let lampMissed) = try await lamp.next() else {
      Issue.record("lamp: no missed event")
      return
    }
    let lampAction = try await lamp.nextMessage()
    #expect(kind(lampAction) == "action lamp toggle-lamp")
    #expect(
      lampMissed
        == .init(count: (lampAction.seq ?? 0) - lampLast - 1, lastSeq: lampLast, seq: lampAction.seq ?? 0, exact: false)
    )
    #expect(lampMissed.seq % 6 == 4)
    _ = daemon
    await everything.close()
    await lamp.close()
  }

  @Test func theDaemonsGapNoticeWhenTheClientFallsBehind() async throws {
    // 3000 touches messages in 1.5 s (at --speed 2) on a 4 KiB send buffer, then after 1.5 s two
    // taps: the pause lets the client catch up (and get its gap notice) before the daemon stops.
    let work = try Workspace()
    let script = FingerScript(start: 10, sampleRate: 1000)
    script.drag(from: Spot.pad, to: .init(x: 1700, y: 950), duration: 3)
    script.wait(3)
    script.tap(at: Spot.pad)
    script.wait(0.2)
    script.tap(at: Spot.pad)
    let daemon = try work.start(
      script, delay: 2, exitAfterReplay: true, speed: 2, extra: ["--client-buffer", "4096"])
    // A small buffer: the client stops reading the socket while nobody takes its messages.
    let client = TouchdClient(socketPath: work.socket, reconnect: .never, bufferLimit: 16)
    let reply = try await client.subscribe(types: [.touches], overflow: .skip)
    #expect(reply["overflow"] == "skip")
    // The replay begins 2 s after the start and the drag lasts 1.5 s: nobody reads meanwhile.
    try await Task.sleep(for: .milliseconds(3500))
    let messages = try await client.messagesUntilShutdown()
    let gaps = messages.indices.filter { if case .gap = messages[$0] { true } else { false } }
    #expect(!gaps.isEmpty, "no gap notice")
    var skipped = 0
    for i in gaps {
      guard case .gap(let gap) = messages[i], i > 0, i + 1 < messages.count else { continue }
      skipped += gap.skipped
      #expect(gap.skipped > 0)
      #expect(messages[i + 1].seq == (messages[i - 1].seq ?? 0) + gap.skipped + 1)
    }
    let touches = messages.compactMap { message -> TouchdClient.Touches? in
      if case .touches(let t) = message { return t }
      return nil
    }
    #expect(touches.first?.seq == 1 && touches.first?.phase == "began")
    #expect(touches.suffix(4).map(\.phase) == ["began", "ended", "began", "ended"])
    #expect(touches.count + skipped == touches.last?.seq, "nothing lost but what the notices say")
    #expect(skipped > 500, "skipped \(skipped) of \(touches.last?.seq ?? 0)")
    let status = try? await client.status()
    #expect(status == nil, "the daemon stopped")
    #expect(try await daemon.stop() == 0)
    await client.close()
  }

  @Test func aCommandInFlightThrowsConnectionLost() async throws {
    let work = try Workspace()
    let daemon = try work.start()
    let client = TouchdClient(socketPath: work.socket, reconnect: fast)
    try await client.connect()
    let targets: [TouchdClient.Point] = [.init(x: 100, y: 100), .init(x: 1800, y: 100), .init(x: 960, y: 1000)]
    // A calibration waits for touches that never come: its reply is outstanding.
    let dropped = Task { try await client.calibrate(window: "main", targets: targets, timeout: .seconds(30)) }
    try await Task.sleep(for: .milliseconds(300))
    await client.dropConnection()
    await #expect(throws: TouchdError.connectionLost) { try await dropped.value }
    // The next command waits for the reconnection (to the same daemon).
    #expect(try await client.ping().fields == [:])
    guard case .reconnected(let reconnected) = try await client.next() else {
      Issue.record("no reconnected event")
      return
    }
    #expect(!reconnected.restarted)

    // The daemon stops while a calibration waits.
    let stopped = Task { try await client.calibrate(window: "main", targets: targets, timeout: .seconds(30)) }
    try await Task.sleep(for: .milliseconds(300))
    #expect(try await daemon.stop(SIGTERM) == 0)
    await #expect(throws: TouchdError.connectionLost) { try await stopped.value }
    #expect(try await client.nextMessage() == .shutdown)
    await client.close()
  }

  @Test func withoutReconnectionConnectThrowsTheSocketsError() async throws {
    let work = try Workspace()
    let client = TouchdClient(socketPath: work.socket, reconnect: .never)
    do {
      try await client.connect()
      Issue.record("connected to nothing")
    } catch TouchdError.cannotConnect(let path, _) {
      #expect(path == work.socket)
    }
    // With reconnection: it keeps trying until the timeout.
    let patient = TouchdClient(socketPath: work.socket, reconnect: fast, commandTimeout: .milliseconds(300))
    await #expect(throws: TouchdError.timeout) { try await patient.connect(timeout: .milliseconds(300)) }
    await #expect(throws: TouchdError.timeout) { try await patient.ping() }
    // ... and connects once the daemon is there.
    let daemon = try work.start()
    #expect(try await patient.connect(timeout: .seconds(5)).version == 1)
    _ = daemon
    await patient.close()
    await client.close()
  }
}
