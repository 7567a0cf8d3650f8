import Foundation
import Testing
import TouchdTestKit

/// The WebSocket endpoint (issue #18) against the real daemon: the same protocol as the Unix
/// socket, message for message; bad input gets the Unix socket's error replies, or an error and a
/// close with RFC 6455's status where WebSocket has its own failure (binary, oversized, broken
/// frames, a page whose Origin is not allowed); the daemon stays up through all of it.
@Suite(.serialized)
struct WebSocketDaemonTests {
  /// A daemon with the endpoint on a free loopback port (`127.0.0.1:0`), and that port, read
  /// back from `status`.
  static func start(
    _ directory: URL, script: FingerScript? = nil, delay: Double = 1, options: [String] = []
  ) throws -> (DaemonProcess, Int) {
    let arguments = ["--websocket", "127.0.0.1:0", "--websocket-origin", "http://kiosk.local:8080"] + options
    let daemon =
      try script.map { try DaemonProcess.replaying($0, in: directory, delay: delay, options: arguments) }
      ?? DaemonProcess(scene: kioskScenePath, directory: directory, arguments: arguments)
    let (client, _) = try daemon.connect()
    let status = try #require(client.command(#"{"cmd":"status","id":1}"#, id: 1).reply)
    let webSocket = try #require(status["webSocket"] as? [String: Any], "\(status)")
    let address = try #require(webSocket["address"] as? String)
    #expect(address.hasPrefix("127.0.0.1:"))
    #expect(webSocket["origins"] as? [String] == ["http://kiosk.local:8080"])
    let port = try #require(Int(address.split(separator: ":").last ?? ""))
    return (daemon, port)
  }

  @Test("A subscriber over WebSocket gets exactly the Unix socket subscriber's messages for a replayed tap and drag")
  func sameMessagesAsUnixSocket() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    script.wait(1.5)
    script.tap(at: Kiosk.buyTicket)
    script.wait(0.5)
    script.drag(from: Kiosk.signature, to: FingerScript.Point(x: 1100, y: 900), duration: 0.4)
    script.wait(0.5)
    script.tap(at: Kiosk.help)
    let (daemon, port) = try Self.start(dir, script: script, delay: 1, options: ["--exit-after-replay"])
    let (unix, _) = try daemon.connect()
    let web = try WebSocketTestClient(port: port)
    #expect(web.upgraded, "\(web.response)")
    let hello = try #require(json(web.readText()))
    #expect(hello["type"] as? String == "hello" && hello["views"] as? Int == 6)
    let subscribe = #"{"cmd":"subscribe","id":2,"types":["action","touches"]}"#
    #expect(unix.command(subscribe, id: 2).reply?["ok"] as? Bool == true)
    web.send(subscribe)
    #expect(json(web.readText())?["ok"] as? Bool == true)

    var unixLines: [String] = []
    while let line = unix.readLine(timeout: 10) {
      unixLines.append(line)
      if line.contains(#""type":"shutdown""#) { break }
    }
    var webLines: [String] = []
    while let text = web.readText(timeout: 10) {
      webLines.append(text)
      if text.contains(#""type":"shutdown""#) { break }
    }
    let actions = unixLines.compactMap(json).filter { $0["type"] as? String == "action" }.compactMap {
      $0["action"] as? String
    }
    #expect(actions == ["buy-ticket", "call-help"])
    // The signature pad's drag as raw touches: began, moved ones, ended.
    let phases = unixLines.compactMap(json).filter { $0["type"] as? String == "touches" }.compactMap {
      ($0["touches"] as? [[String: Any]])?.first?["phase"] as? String
    }
    #expect(phases.first == "began" && phases.last == "ended" && phases.count > 10, "\(phases)")
    #expect(webLines == unixLines)
  }

  @Test("Commands and bad lines get the Unix socket's replies, text for text")
  func sameRepliesAsUnixSocket() throws {
    let dir = scratchDirectory()
    let (daemon, port) = try Self.start(dir)
    let (unix, _) = try daemon.connect()
    let web = try WebSocketTestClient(port: port)
    _ = web.readText()
    let lines = [
      #"{"cmd":"ping","id":7}"#,
      "nonsense",
      #"{"cmd":"fly","id":8}"#,
      #"{"cmd":"set","id":9,"view":"nowhere","hidden":true}"#,
      #"{"cmd":"subscribe","id":10,"types":["gestures"]}"#,
      #"{"cmd":"set","id":11,"view":"help","hidden":false}"#,
    ]
    for line in lines {
      unix.send(line)
      web.send(line)
      let expected = try #require(unix.readLine(timeout: 10))
      #expect(web.readText(timeout: 10) == expected, "\(line)")
    }
    // A message spread over lines (pretty-printed JSON) is one command.
    web.send("{\n  \"cmd\": \"ping\",\n  \"id\": 12\n}")
    #expect(web.readText() == #"{"type":"reply","id":12,"ok":true}"#)
    // One command in fragments is joined.
    web.send(opcode: 0x1, Array(#"{"cmd":"pi"#.utf8), fin: false)
    web.send(opcode: 0x0, Array(#"ng","id":13}"#.utf8), fin: true)
    #expect(web.readText() == #"{"type":"reply","id":13,"ok":true}"#)
    // A ping frame is answered with a pong carrying its payload.
    web.send(opcode: 0x9, Array("are you there".utf8))
    #expect(web.readFrame() == .init(opcode: 0xA, payload: Array("are you there".utf8)))
    // A close is answered with a close, with the same status.
    web.send(opcode: 0x8, [0x03, 0xE8])
    let closing = web.framesUntilClose()
    #expect(closing.last?.closeCode == 1000)
    #expect(web.connectionEnded())
  }

  @Test(
    "Binary, oversized and broken frames get an error message and a close with RFC 6455's status; the daemon stays up")
  func badFrames() throws {
    let dir = scratchDirectory()
    let (daemon, port) = try Self.start(dir, options: ["--max-line-length", "2048"])

    func refusal(_ send: (WebSocketTestClient) -> Void) throws -> (message: String?, code: Int?) {
      let web = try WebSocketTestClient(port: port)
      _ = web.readText()
      send(web)
      let frames = web.framesUntilClose()
      #expect(web.connectionEnded())
      let error = frames.first { $0.opcode == 0x1 }.flatMap { json($0.text) }
      #expect(error?["type"] as? String == "error")
      return (error?["message"] as? String, frames.last?.closeCode)
    }

    let binary = try refusal { $0.send(opcode: 0x2, Array(#"{"cmd":"ping","id":1}"#.utf8)) }
    #expect(binary.message == "message 1 is binary: commands are JSON text messages; closing the connection")
    #expect(binary.code == 1003)

    let oversized = try refusal {
      $0.send(#"{"cmd":"ping","id":1}"#)
      _ = $0.readText()
      $0.send(String(repeating: " ", count: 3000))
    }
    #expect(
      oversized.message
        == "message 2 is longer than the limit of 2048 bytes (--max-line-length); closing the connection")
    #expect(oversized.code == 1009)

    let fragments = try refusal {
      $0.send(opcode: 0x1, Array(repeating: UInt8(ascii: " "), count: 1500), fin: false)
      $0.send(opcode: 0x0, Array(repeating: UInt8(ascii: " "), count: 1500), fin: true)
    }
    #expect(
      fragments.message
        == "message 1 is longer than the limit of 2048 bytes (--max-line-length); closing the connection")
    #expect(fragments.code == 1009)

    let stray = try refusal { $0.send(opcode: 0x0, Array("x".utf8), fin: true) }
    #expect(stray.message?.hasPrefix("broken WebSocket message") == true)
    #expect(stray.code == 1002)

    // Through all of it the daemon answered, and answers still, on both endpoints.
    let (unix, _) = try daemon.connect()
    #expect(unix.command(#"{"cmd":"ping","id":1}"#, id: 1).reply?["ok"] as? Bool == true)
    let web = try WebSocketTestClient(port: port)
    #expect(json(web.readText())?["type"] as? String == "hello")
  }

  @Test(
    "Origin: a listed page and a program (no Origin) get hello; another page gets an error and close 1008, counted as denied"
  )
  func originAllowList() throws {
    let dir = scratchDirectory()
    let (daemon, port) = try Self.start(dir)
    for origin in [nil, "http://kiosk.local:8080", "HTTP://Kiosk.Local:8080"] {
      let web = try WebSocketTestClient(port: port, origin: origin)
      #expect(json(web.readText())?["type"] as? String == "hello", "\(origin ?? "no origin")")
    }
    for origin in ["http://evil.example", "http://kiosk.local:8081", "null"] {
      let web = try WebSocketTestClient(port: port, origin: origin)
      #expect(web.upgraded)
      let frames = web.framesUntilClose()
      #expect(frames.count == 2, "\(origin)")
      #expect(
        json(frames.first?.text)?["message"] as? String
          == "origin '\(origin)' is not allowed: touchd takes pages of the origins given with --websocket-origin; "
          + "closing the connection")
      #expect(frames.last?.closeCode == 1008)
      #expect(web.connectionEnded())
    }
    let (unix, _) = try daemon.connect()
    let status = unix.command(#"{"cmd":"status","id":1}"#, id: 1).reply
    #expect((status?["counters"] as? [String: Any])?["clientsDenied"] as? Int == 3)
    #expect(daemon.log.contains("WebSocket client denied: origin not allowed"))
  }

  @Test("A plain HTTP request gets 426 Upgrade Required and a line saying what the endpoint is")
  func plainHTTP() throws {
    let dir = scratchDirectory()
    let (daemon, port) = try Self.start(dir)
    defer { withExtendedLifetime(daemon) {} }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    try #require(connected == 0)
    let request = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    var response: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&pfd, 1, 5000) > 0 else { break }
      let n = read(fd, &chunk, chunk.count)
      guard n > 0 else { break }
      response += chunk[..<n]
    }
    let text = String(decoding: response, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"), "\(text)")
    #expect(text.hasSuffix("touchd: this is a WebSocket endpoint (docs/protocol.md, \"WebSocket\")\n"))
  }

  @Test("An address other than loopback is refused at start unless --websocket-allow-remote")
  func remoteNeedsPermission() throws {
    let dir = scratchDirectory()
    let binary = try builtProduct("touchd")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = [
      "--scene", kioskScenePath, "--socket", dir.appendingPathComponent("t.sock").path, "--websocket", "0.0.0.0:0",
    ]
    let pipe = Pipe()
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus != 0)
    #expect(output.contains("is not a loopback address: pass --websocket-allow-remote"), "\(output)")

    let allowed = try DaemonProcess(
      scene: kioskScenePath, directory: dir, arguments: ["--websocket", "0.0.0.0:0", "--websocket-allow-remote"])
    let (client, _) = try allowed.connect()
    let webSocket = client.command(#"{"cmd":"status","id":1}"#, id: 1).reply?["webSocket"] as? [String: Any]
    #expect((webSocket?["address"] as? String)?.hasPrefix("0.0.0.0:") == true)
    #expect(webSocket?["allowRemote"] as? Bool == true)
  }

  @Test("A WebSocket subscriber that does not read is disconnected as slow; the Unix subscriber gets every touch")
  func slowWebSocketClient() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script(sampleRate: 1000)
    script.wait(1.5)
    for _ in 0..<6 {
      script.drag(from: Kiosk.signature, to: FingerScript.Point(x: 1300, y: 950), duration: 0.4)
      script.wait(0.05)
    }
    let (daemon, port) = try Self.start(dir, script: script, delay: 1, options: ["--client-buffer", "16384"])
    let (unix, _) = try daemon.connect()
    #expect(unix.command(#"{"cmd":"subscribe","id":2,"types":["touches"]}"#, id: 2).reply?["ok"] as? Bool == true)
    let web = try WebSocketTestClient(port: port, receiveBuffer: 4096)
    _ = web.readText()
    web.send(#"{"cmd":"subscribe","id":3,"types":["touches"]}"#)
    // The WebSocket client reads nothing more.
    var ended = 0
    while let line = unix.readLine(timeout: 5) {
      if line.contains(#""phase":"ended""#) { ended += 1 }
      if ended == 6 { break }
    }
    #expect(ended == 6)
    let status = unix.command(#"{"cmd":"status","id":4}"#, id: 4).reply
    #expect((status?["counters"] as? [String: Any])?["clientsDisconnectedSlow"] as? Int == 1)
    #expect(daemon.log.contains("client disconnected: send buffer full"))
    #expect(daemon.log.contains("websocket 127.0.0.1:"))
  }
}
