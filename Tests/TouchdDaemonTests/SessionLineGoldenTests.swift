import Foundation
import Testing
import TouchdProtocol
import TouchdTestKit

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's session lines byte for byte (docs/proposals/0001-touchd-protocol-target.md, step
/// 0): hello, the replies of `subscribe`, `scene`, `update`, `set` (window), `reload`, `status` and
/// `calibrate`, the `reloaded`, `updated`, `windowChanged`, `calibration` and `shutdown` notices,
/// the server's placeholder hello and `gap`. The pipeline's lines are pinned by
/// Tests/TouchdSceneTests/Golden; the `set` (view), `ignoreInteraction` and skip `subscribe`
/// replies by ClientSessionTests. Values that vary from run to run are replaced by
/// ``normalized(_:_:)``; every other byte is compared.
@Suite(.serialized)
struct SessionLineGoldenTests {
  /// One window, two views, an idle timer that never fires during a test.
  static let scene = """
    version: 1
    idle: {after: 600, wake: swallow}
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - {id: tl, frame: {x: 0, y: 0, width: 100, height: 100}, touches: true}
          - id: pad
            frame: {x: 200, y: 200, width: 600, height: 400}
            recognizers: [{id: pad-tap, type: tap, action: pad}]
    """

  static let pushed =
    #"{"version":1,"windows":[{"id":"main","size":{"width":1920,"height":1080},"views":[{"id":"pad","#
    + #""frame":{"x":0,"y":0,"width":1920,"height":1080},"recognizers":[{"id":"pad-tap","type":"tap","action":"a"}]}]}]}"#

  /// Sends `line` and reads until the reply with `id` and, when `notice` is given, a line of that
  /// type have both arrived (the notice goes out on the server's loop, the reply on the client's
  /// path: either may come first). Nil for what did not come.
  private func exchange(
    _ client: LineClient, _ line: String, id: Int, notice: String? = nil
  ) -> (reply: String?, notice: String?) {
    client.send(line)
    var reply: String?
    var seen: String?
    while reply == nil || (notice != nil && seen == nil), let text = client.readLine(timeout: 10) {
      if text.hasPrefix(#"{"type":"reply","id":\#(id),"#) || text.hasPrefix(#"{"type":"error","id":\#(id),"#) {
        reply = text
      } else if let notice, text.hasPrefix(#"{"type":"\#(notice)","#) {
        seen = text
      }
    }
    return (reply, seen)
  }

  @Test("hello, the scene/update/set/reload/status replies and every notice they cause, then shutdown")
  func sessionLines() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("scene.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    // The replay starts after the test is done: no frame, no timer, so every counter is known.
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    script.tap(at: .init(x: 500, y: 400))
    let recording = try writeRecording(script, to: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recording, "--replay-delay", "600"])
    let a = try LineClient(path: daemon.socket)
    let hello = try #require(a.readLine(timeout: 10))
    #expect(
      normalized(hello, ["instance"])
        == #"{"type":"hello","version":1,"instance":#,"windows":[{"id":"main","width":1000,"height":800}],"views":2}"#)
    let instance = try #require(json(hello)?["instance"] as? String)
    #expect(instance.count == 16 && instance.allSatisfy(\.isHexDigit), "\(hello)")

    #expect(
      exchange(a, #"{"cmd":"subscribe","id":1,"types":["touches","action"],"actions":"x"}"#, id: 1).reply
        == #"{"type":"reply","id":1,"ok":true,"types":["action","touches"],"actions":["x"],"views":[],"overflow":"disconnect","coalesced":false,"predicted":false}"#
    )

    let push = exchange(a, #"{"cmd":"scene","id":2,"scene":"# + Self.pushed + "}", id: 2, notice: "reloaded")
    #expect(
      push.reply
        == #"{"type":"reply","id":2,"ok":true,"windows":[{"id":"main","width":1920,"height":1080}],"views":1,"recognizers":1}"#
    )
    #expect(
      push.notice
        == #"{"type":"reloaded","source":"client","windows":[{"id":"main","width":1920,"height":1080}],"views":1}"#
    )

    let update = exchange(
      a,
      #"{"cmd":"update","id":3,"op":"add","parent":"main","view":{"id":"corner","#
        + #""frame":{"x":10.5,"y":20,"width":240,"height":200}}}"#, id: 3, notice: "updated")
    #expect(
      update.reply
        == #"{"type":"reply","id":3,"ok":true,"op":"add","view":"corner","parent":"main","index":1,"views":2,"recognizers":1}"#
    )
    #expect(
      update.notice
        == #"{"type":"updated","op":"add","view":"corner","parent":"main","index":1,"views":2,"recognizers":1}"#
    )

    let window = exchange(
      a, #"{"cmd":"set","id":4,"window":"main","rotation":90,"size":{"width":1080.5,"height":1920}}"#, id: 4,
      notice: "windowChanged")
    #expect(
      window.reply
        == #"{"type":"reply","id":4,"ok":true,"window":"main","width":1080.5,"height":1920,"rotation":90,"calibration":[1,0,0,0,1,0]}"#
    )
    #expect(
      window.notice
        == #"{"type":"windowChanged","window":"main","width":1080.5,"height":1920,"rotation":90,"calibration":[1,0,0,0,1,0]}"#
    )

    // A later client is greeted with the scene as changed.
    let b = try LineClient(path: daemon.socket)
    #expect(
      normalized(try #require(b.readLine(timeout: 10)), ["instance"])
        == #"{"type":"hello","version":1,"instance":#,"windows":[{"id":"main","width":1080.5,"height":1920}],"views":2}"#
    )

    let reload = exchange(a, #"{"cmd":"reload","id":5}"#, id: 5, notice: "reloaded")
    #expect(reload.reply == #"{"type":"reply","id":5,"ok":true}"#)
    #expect(
      reload.notice
        == #"{"type":"reloaded","source":"file","windows":[{"id":"main","width":1000,"height":800}],"views":2}"#
    )
    _ = b.readUntil(#""type":"reloaded""#, timeout: 10)

    let status = try #require(exchange(b, #"{"cmd":"status","id":6}"#, id: 6).reply)
    #expect(
      normalized(status, Self.varyingStatus)
        == #"{"type":"reply","id":6,"ok":true,"scene":\#(JSONFormat.string(scenePath)),"#
        + #""windows":[{"id":"main","width":1000,"height":800}],"devices":[],"replay":\#(JSONFormat.string(recording)),"#
        + #""touchesDown":0,"latency":{"unit":"us","frames":0,"window":1024,"wake":null,"assembled":null,"#
        + #""encoded":null,"forwarded":null,"delivered":null,"handed":null},"#
        + #""idle":{"state":"active","after":600,"wake":"swallow","lastInput":#,"secondsSinceInput":#},"#
        + #""ignoring":0,"tracing":false,"clients":2,"webSocket":null,"#
        + #""limits":{"clients":128,"clientsPerUser":16,"lineBytes":2162688,"clientBufferBytes":262144,"#
        + #""sceneBytes":2097152,"openFiles":#,"firstLineSeconds":30,"partialLineSeconds":10},"#
        + #""counters":{"frames":0,"touchesBegan":0,"keyFrames":0,"actions":0,"messages":0,"traceMessages":0,"#
        + #""reloads":1,"reloadFailures":0,"scenePushes":1,"resyncs":0,"stuckTouches":0,"timerWakeups":#,"#
        + #""clientsAccepted":#,"clientsDenied":0,"clientsRefused":0,"clientsRefusedPerUser":0,"clientsTimedOut":0,"#
        + #""clientsDisconnectedSlow":0,"#
        + #""messagesSent":0,"messagesSkipped":0}}"#)

    daemon.signal(SIGTERM)
    var last: String?
    while let line = a.readLine(timeout: 10) { last = line }
    #expect(last == #"{"type":"shutdown"}"#)
    #expect(daemon.waitForExit() == 0)
  }

  /// The members of `status` whose values depend on the machine or on time (`clientsAccepted`:
  /// ``DaemonProcess`` connects until the daemon listens).
  static let varyingStatus: Set<String> = [
    "openFiles", "timerWakeups", "clientsAccepted", "lastInput", "secondsSinceInput", "samples", "p50", "p90", "p99",
    "max",
  ]

  /// `touched` is where the touch landed before the window's mapping, in the window's unit square
  /// (taps 3 points right of and 2 above each target, at the centre of the device unit's cell on
  /// the 4096-unit grid: each off by its own fraction of a unit, so the fit is not a pure shift).
  @Test("The calibration notices as each target's touch lifts, then the calibrate reply")
  func calibrationLines() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("scene.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    for target in [FingerScript.Point(x: 100, y: 80), .init(x: 900, y: 80), .init(x: 500, y: 720)] {
      script.tap(at: .init(x: target.x + 3, y: target.y - 2))
      script.wait(0.35)
    }
    let recording = try writeRecording(script, to: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recording, "--replay-delay", "2"])
    let (client, _) = try daemon.connect()
    client.send(#"{"cmd":"calibrate","id":1,"window":"main","targets":[[100,80],[900,80],[500,720]],"timeout":30}"#)
    var lines: [String] = []
    while let line = client.readLine(timeout: 15) {
      lines.append(line)
      if line.hasPrefix(#"{"type":"reply""#) || line.hasPrefix(#"{"type":"error""#) { break }
    }
    #expect(
      lines == [
        #"{"type":"calibration","window":"main","target":1,"targets":3,"at":{"x":100,"y":80},"touched":{"x":0.102905,"y":0.097534}}"#,
        #"{"type":"calibration","window":"main","target":2,"targets":3,"at":{"x":900,"y":80},"touched":{"x":0.902954,"y":0.097534}}"#,
        #"{"type":"calibration","window":"main","target":3,"targets":3,"at":{"x":500,"y":720},"touched":{"x":0.503052,"y":0.897583}}"#,
        #"{"type":"reply","id":1,"ok":true,"window":"main","matrix":[0.999939,-0.000153,-0.002884,0,0.999939,0.002472],"rmsError":0,"maxError":0,"#
          + #""warning":"3 targets fit exactly, so a missed target cannot show: use 4 or more to check the fit","#
          + #""points":[{"at":{"x":100,"y":80},"landed":{"x":100,"y":80},"error":0},"#
          + #"{"at":{"x":900,"y":80},"landed":{"x":900,"y":80},"error":0},"#
          + #"{"at":{"x":500,"y":720},"landed":{"x":500,"y":720},"error":0}],"#
          + #""device":null,"udevMatrix":[0.999939,-0.000153,-0.002884,0,0.999939,0.002472]}"#,
      ], "\(daemon.log)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test("The server's hello before the daemon sets one")
  func placeholderHello() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    let client = try LineClient(path: path)
    #expect(client.readLine() == #"{"type":"hello","version":1,"windows":[],"views":0}"#)
  }

  /// A skip-on-overflow client 1000 messages behind (as SocketServerTests): each `gap` line, the
  /// one sent once it catches up and the one owed at shutdown, is exactly `{"type":"gap","skipped":N}`.
  @Test("gap lines, as the client catches up and at shutdown")
  func gapLines() throws {
    for atShutdown in [false, true] {
      let path = temporarySocketPath(#function + "\(atShutdown)")
      let server = try makeServer(path) { $0.sendBufferLimit = 16 * 1024 }
      let slow = try LineClient(path: path, receiveBuffer: 4096)
      _ = slow.readLine()
      slow.send(#"{"cmd":"subscribe","id":1,"overflow":"skip"}"#)
      _ = slow.readLine()
      let padding = String(repeating: "y", count: 900)
      for i in 1...1000 {
        server.publish(
          OutboundMessage(
            line: #"{"type":"action","seq":\#(i),"pad":"\#(padding)"}"#, type: "action", action: "a"))
      }
      _ = server.counters()
      let lines = LockedValue<[String]>([])
      let done = DispatchSemaphore(value: 0)
      Thread.detachNewThread {
        while let line = slow.readLine(timeout: 3) { lines.withLock { $0.append(line) } }
        done.signal()
      }
      if atShutdown { server.shutdown(notice: #"{"type":"shutdown"}"#, timeout: .seconds(3)) }
      #expect(done.wait(timeout: .now() + 10) == .success)
      if !atShutdown { server.shutdown(notice: nil) }
      let read = lines.withLock { $0 }
      let gaps = read.filter { !$0.hasPrefix(#"{"type":"action","#) && $0 != #"{"type":"shutdown"}"# }
      #expect(!gaps.isEmpty)
      #expect(gaps.map { normalized($0, ["skipped"]) } == gaps.map { _ in #"{"type":"gap","skipped":#}"# }, "\(gaps)")
      let skipped = gaps.compactMap { json($0)?["skipped"] as? Int }.reduce(0, +)
      #expect(skipped + read.count - gaps.count - (atShutdown ? 1 : 0) == 1000)
      if atShutdown { #expect(read.suffix(2).first?.hasPrefix(#"{"type":"gap","#) == true, "\(read.suffix(2))") }
    }
  }

  @Test("normalized replaces the named members' scalar values only")
  func normalizer() {
    #expect(
      normalized(#"{"a":1,"b":"x\"y","c":{"a":null},"d":[1,2],"e":true}"#, ["a", "b", "d"])
        == #"{"a":#,"b":#,"c":{"a":#},"d":[1,2],"e":true}"#)
    #expect(normalized("{\n  \"a\" : -1.5e3,\n  \"b\" : 2\n}", ["a"]) == "{\n  \"a\" : #,\n  \"b\" : 2\n}")
  }
}
