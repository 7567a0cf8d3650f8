import Testing
import TouchdProtocol

/// The session's messages and replies as the protocol writes them, and read back as a client reads
/// them (the daemon's lines are pinned byte for byte by TouchdDaemonTests' SessionLineGoldenTests).
@Suite("Session messages and replies")
struct SessionMessageTests {
  static func decode<T: Decodable>(_ type: T.Type, _ line: String) throws -> T {
    try StrictJSONDecoder.decode(T.self, from: StrictJSON.parse(line))
  }

  static let windows = [
    WindowInfo(id: "main", width: 1920, height: 1080.5), WindowInfo(id: "side \"b\"", width: 800, height: 480),
  ]

  @Test("hello: the placeholder has no instance; a daemon's has every key, in order")
  func hello() throws {
    #expect(HelloMessage.placeholder.jsonLine == #"{"type":"hello","version":1,"windows":[],"views":0}"#)
    let hello = HelloMessage(instance: "5f2c", windows: Self.windows, views: 12)
    #expect(
      hello.jsonLine
        == #"{"type":"hello","version":1,"instance":"5f2c","windows":[{"id":"main","width":1920,"height":1080.5},{"id":"side \"b\"","width":800,"height":480}],"views":12}"#
    )
    #expect(try Self.decode(HelloMessage.self, hello.jsonLine) == hello)
    #expect(try Self.decode(HelloMessage.self, HelloMessage.placeholder.jsonLine) == HelloMessage.placeholder)
  }

  @Test("reloaded, gap, shutdown, calibration: their lines, read back")
  func notices() throws {
    let reloaded = ReloadedMessage(source: "client", windows: Self.windows, views: 3)
    #expect(reloaded.jsonLine.hasPrefix(#"{"type":"reloaded","source":"client","windows":[{"id":"main","#))
    #expect(try Self.decode(ReloadedMessage.self, reloaded.jsonLine) == reloaded)
    #expect(GapMessage(skipped: 41).jsonLine == #"{"type":"gap","skipped":41}"#)
    #expect(try Self.decode(GapMessage.self, #"{"type":"gap","skipped":41,"later":true}"#) == GapMessage(skipped: 41))
    #expect(ShutdownMessage().jsonLine == #"{"type":"shutdown"}"#)
    let calibration = CalibrationMessage(
      window: "main", target: 2, targets: 4, at: WirePoint(x: 100, y: 80), touched: WirePoint(x: 103.25, y: 77))
    #expect(
      calibration.jsonLine
        == #"{"type":"calibration","window":"main","target":2,"targets":4,"at":{"x":100,"y":80},"touched":{"x":103.25,"y":77}}"#
    )
    #expect(try Self.decode(CalibrationMessage.self, calibration.jsonLine) == calibration)
    // A strict reader refuses a count written as a string.
    #expect(throws: (any Error).self) { try Self.decode(GapMessage.self, #"{"type":"gap","skipped":"41"}"#) }
  }

  @Test("updated and windowChanged: the notice is the reply's fields with its type, read back")
  func sceneChanges() throws {
    let added = UpdatedMessage(.add, .view, id: "bell", parent: "main", index: 3, views: 4, recognizers: 3)
    #expect(
      added.jsonLine
        == #"{"type":"updated","op":"add","view":"bell","parent":"main","index":3,"views":4,"recognizers":3}"#)
    #expect(added.fieldsJSON == #""op":"add","view":"bell","parent":"main","index":3,"views":4,"recognizers":3"#)
    #expect(try Self.decode(UpdatedMessage.self, added.jsonLine) == added)
    let removed = UpdatedMessage(.remove, .recognizer, id: "tap", parent: "bell", index: 0, views: 3, recognizers: 2)
    #expect(
      removed.jsonLine
        == #"{"type":"updated","op":"remove","recognizer":"tap","parent":"bell","index":0,"views":3,"recognizers":2}"#
    )
    #expect(try Self.decode(UpdatedMessage.self, removed.jsonLine) == removed)
    let window = WindowChangedMessage(
      window: "main", width: 1080.5, height: 1920, rotation: 90, calibration: [1, 0, 0.25, 0, 1, 0])
    #expect(
      window.jsonLine
        == #"{"type":"windowChanged","window":"main","width":1080.5,"height":1920,"rotation":90,"calibration":[1,0,0.25,0,1,0]}"#
    )
    #expect(try Self.decode(WindowChangedMessage.self, window.jsonLine) == window)
    let replies: [SceneChangeReply] = [.view("door"), .ignoring(2), .window(window), .updated(added)]
    #expect(
      replies.map(\.fieldsJSON) == [
        #""view":"door""#, #""ignoring":2"#,
        String(window.jsonLine.dropFirst(#"{"type":"windowChanged","#.count).dropLast()),
        added.fieldsJSON,
      ])
    #expect(replies.map(\.noticeJSONLine) == [nil, nil, window.jsonLine, added.jsonLine])
  }

  @Test("replies and errors echo the id as the client wrote it")
  func replies() {
    #expect(
      ReplyMessage.ok(idJSON: #"{"n":[1,2]}"#, fieldsJSON: "").jsonLine
        == #"{"type":"reply","id":{"n":[1,2]},"ok":true}"#)
    #expect(
      ReplyMessage.ok(idJSON: "7", fieldsJSON: #""view":"door""#).jsonLine
        == #"{"type":"reply","id":7,"ok":true,"view":"door"}"#)
    #expect(ReplyMessage.accessDenied.jsonLine == #"{"type":"error","id":null,"message":"access denied"}"#)
    #expect(
      ReplyMessage.error(idJSON: "\"a\"", message: "unknown view 'x\"'").jsonLine
        == #"{"type":"error","id":"a","message":"unknown view 'x\"'"}"#)
  }

  @Test("status: every part in its order, nulls where a part does not apply, read back whole")
  func status() throws {
    var counters = StatusReply.Counters()
    counters.frames = 12
    counters.messagesSkipped = 3
    let status = StatusReply(
      scene: "/etc/touchd/scene.yaml", windows: [Self.windows[0]],
      devices: [
        .init(
          path: "/dev/input/event5", name: "ILITEK", window: "main", keysWindow: nil, grabbed: true,
          forward: .init(
            node: nil, name: "ILITEK (touchd)", forwarded: 4, held: 1, released: 2, cancelled: 0, noSlot: 0,
            writeErrors: 0, shortcutFrames: 9, shortcutMismatches: 0))
      ],
      replay: nil, touchesDown: 1,
      latency: .init(
        frames: 5, window: 1024, wake: .init(samples: 5, p50: 40, p90: 60, p99: 70, max: 71), assembled: nil,
        encoded: nil, forwarded: nil, delivered: nil, handed: nil),
      idle: .init(state: "active", after: 60, wake: "swallow", lastInput: nil, secondsSinceInput: nil), ignoring: 0,
      tracing: false, clients: 2,
      webSocket: .init(address: "127.0.0.1:8911", origins: ["http://localhost"], allowRemote: false),
      limits: .init(
        clients: 128, clientsPerUser: 16, lineBytes: 2162688, clientBufferBytes: 262144, sceneBytes: 2097152,
        openFiles: 1024, firstLineSeconds: 30, partialLineSeconds: 10),
      counters: counters)
    let fields = status.fieldsJSON
    #expect(
      fields.hasPrefix(#""scene":"/etc/touchd/scene.yaml","windows":[{"id":"main","width":1920,"height":1080.5}],"#))
    #expect(
      fields.contains(
        #""devices":[{"path":"/dev/input/event5","name":"ILITEK","window":"main","keysWindow":null,"grabbed":true,"forward":{"node":null,"name":"ILITEK (touchd)","forwarded":4,"#
      ))
    #expect(
      fields.contains(
        #""replay":null,"touchesDown":1,"latency":{"unit":"us","frames":5,"window":1024,"wake":{"samples":5,"p50":40,"p90":60,"p99":70,"max":71},"assembled":null,"#
      ))
    #expect(
      fields.contains(
        #""idle":{"state":"active","after":60,"wake":"swallow","lastInput":null,"secondsSinceInput":null},"#))
    #expect(fields.hasSuffix(#""messagesSent":0,"messagesSkipped":3}"#))
    let line = ReplyMessage.ok(idJSON: "1", fieldsJSON: fields).jsonLine
    #expect(try Self.decode(StatusReply.self, line) == status)
  }
}
