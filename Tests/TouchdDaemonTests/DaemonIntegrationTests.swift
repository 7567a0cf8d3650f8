import Foundation
import Testing
import TouchdInput
import TouchdScene
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// The real `touchd` binary, replaying scripted recordings in real time on a temporary socket,
/// with real clients. Each test says what a kiosk app relies on.
@Suite(.serialized)
struct DaemonIntegrationTests {
  private func actions(_ messages: [[String: Any]]) -> [String] {
    messages.filter { $0["type"] as? String == "action" }.compactMap { $0["action"] as? String }
  }

  @Test func greetsWithHelloThenPublishesActionsInOrderThenSaysShutdown() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    script.tap(at: Kiosk.buyTicket)
    script.wait(0.6)
    script.tap(at: Kiosk.showMap)
    script.wait(0.6)
    script.tap(at: Kiosk.help)
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 1)
    let (client, hello) = try daemon.connect()
    #expect(hello["type"] as? String == "hello")
    #expect(hello["version"] as? Int == 1)
    let instance = try #require(hello["instance"] as? String)
    #expect(instance.count == 16 && instance.allSatisfy(\.isHexDigit), "\(instance)")
    let (_, second) = try daemon.connect()
    #expect(second["instance"] as? String == instance, "one daemon, one instance")
    #expect(hello["views"] as? Int == 6)
    let window = (hello["windows"] as? [[String: Any]])?.first
    #expect(window?["id"] as? String == "main")
    #expect(window?["width"] as? Int == 1920)
    let messages = client.collect(until: "shutdown")
    #expect(actions(messages) == ["buy-ticket", "show-map", "call-help"])
    let first = messages.first { $0["type"] as? String == "action" }
    #expect(first?["gesture"] as? String == "tap")
    #expect(first?["state"] as? String == "ended")
    #expect(first?["view"] as? String == "buy-ticket")
    #expect(first?["recognizer"] as? String == "buy-ticket-tap")
    let location = first?["location"] as? [String: Double]
    #expect(abs((location?["x"] ?? 0) - 400) < 1 && abs((location?["y"] ?? 0) - 480) < 1)
    let seqs = messages.compactMap { $0["seq"] as? Int }
    #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count, "seq increases")
    #expect(messages.last?["type"] as? String == "shutdown")
    #expect(daemon.waitForExit() == 0)
    #expect(access(daemon.socket, F_OK) != 0, "the socket file is removed")
  }

  @Test func subscriptionsFilterByActionAndByType() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    script.tap(at: Kiosk.buyTicket)
    script.wait(0.6)
    script.tap(at: Kiosk.showMap)
    script.wait(0.6)
    script.drag(from: Kiosk.signature, to: FingerScript.Point(x: 1200, y: 900), duration: 0.2)
    let daemon = try DaemonProcess.replaying(
      script, in: dir, delay: 0.5, options: ["--exit-after-replay", "--wait-for-subscriber"])
    let (maps, _) = try daemon.connect()
    let (touches, _) = try daemon.connect()
    #expect(maps.command(#"{"cmd":"subscribe","id":1,"actions":"show-map"}"#, id: 1).reply?["ok"] as? Bool == true)
    #expect(touches.command(#"{"cmd":"subscribe","id":2,"types":["touches"]}"#, id: 2).reply?["ok"] as? Bool == true)
    let mapMessages = maps.collect(until: "shutdown")
    #expect(actions(mapMessages) == ["show-map"])
    #expect(!mapMessages.contains { $0["type"] as? String == "touches" })
    let touchMessages = touches.collect(until: "shutdown").filter { $0["type"] as? String != "shutdown" }
    #expect(touchMessages.allSatisfy { $0["type"] as? String == "touches" && $0["view"] as? String == "signature" })
    let phases = touchMessages.compactMap { $0["phase"] as? String }
    #expect(
      phases.first == "began" && phases.last == "ended" && phases.dropFirst().dropLast().allSatisfy { $0 == "moved" })
    #expect(phases.count > 10)
  }

  @Test func hidingAViewStopsItsActionsUntilShownAgain() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    for _ in 0..<3 {
      script.tap(at: Kiosk.buyTicket)
      script.wait(1.0)
    }
    script.tap(at: Kiosk.showMap)
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 1)
    let (client, _) = try daemon.connect()
    _ = client.readUntil(#""action":"buy-ticket""#, timeout: 15)
    #expect(
      client.command(#"{"cmd":"set","id":1,"view":"buy-ticket","hidden":true}"#, id: 1).reply?["ok"] as? Bool == true)
    let bad = client.command(#"{"cmd":"set","id":2,"view":"buy-tiket","hidden":true}"#, id: 2).reply
    #expect(bad?["type"] as? String == "error")
    #expect((bad?["message"] as? String)?.contains("did you mean 'buy-ticket'") == true)
    // The second tap lands on the hidden view's place: nothing. Show it before the third.
    let (second, _) = client.readUntil(#""type":"action""#, timeout: 1.5)
    #expect(second == nil, "no action while buy-ticket is hidden: \(second ?? "")")
    #expect(
      client.command(#"{"cmd":"set","id":3,"view":"buy-ticket","hidden":false}"#, id: 3).reply?["ok"] as? Bool == true)
    let rest = client.collect(until: "shutdown")
    #expect(actions(rest) == ["buy-ticket", "show-map"])
  }

  @Test func ignoringInteractionDropsTouchesThatBeginMeanwhile() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    for _ in 0..<3 {
      script.tap(at: Kiosk.buyTicket)
      script.wait(1.0)
    }
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 1)
    let (client, _) = try daemon.connect()
    _ = client.readUntil(#""action":"buy-ticket""#, timeout: 15)
    let begin = client.command(#"{"cmd":"ignoreInteraction","id":1,"value":true}"#, id: 1).reply
    #expect(begin?["ignoring"] as? Int == 1)
    let (second, _) = client.readUntil(#""type":"action""#, timeout: 1.5)
    #expect(second == nil, "the tap that began while ignoring is never delivered")
    #expect(client.command(#"{"cmd":"ignoreInteraction","id":2,"value":false}"#, id: 2).reply?["ignoring"] as? Int == 0)
    let unbalanced = client.command(#"{"cmd":"ignoreInteraction","id":3,"value":false}"#, id: 3).reply
    #expect(unbalanced?["type"] as? String == "error")
    #expect(actions(client.collect(until: "shutdown")) == ["buy-ticket"])
  }

  @Test func sighupReloadsAGoodSceneAndKeepsTheOldOneWhenTheNewIsBad() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("scene.yaml").path
    let original = try String(contentsOfFile: kioskScenePath, encoding: .utf8)
    try original.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let script = Kiosk.script()
    for _ in 0..<4 {
      script.tap(at: Kiosk.buyTicket)
      script.wait(1.2)
    }
    let daemon = try DaemonProcess.replaying(script, scene: scenePath, in: dir, delay: 1)
    let (client, _) = try daemon.connect()
    #expect(client.readUntil(#""action":"buy-ticket""#, timeout: 15).match != nil)
    // A good scene: the action is renamed; SIGHUP; clients are told.
    try original.replacingOccurrences(of: "action: buy-ticket", with: "action: purchase")
      .write(toFile: scenePath, atomically: true, encoding: .utf8)
    daemon.signal(SIGHUP)
    let reloaded = client.readUntil(#""type":"reloaded""#, timeout: 5)
    #expect(reloaded.match != nil, "log:\n\(daemon.log)")
    #expect(client.readUntil(#""action":"purchase""#, timeout: 5).match != nil)
    // A bad scene: rejected, the old one stays, the daemon keeps running.
    try "version: 1\nwindows:\n  - id: main\n    size: {width: -5, height: 1080}\n    views: []\n"
      .write(toFile: scenePath, atomically: true, encoding: .utf8)
    daemon.signal(SIGHUP)
    #expect(client.readUntil(#""action":"purchase""#, timeout: 5).match != nil, "the old scene still works")
    let status = client.command(#"{"cmd":"status","id":5}"#, id: 5).reply
    #expect((status?["counters"] as? [String: Any])?["reloadFailures"] as? Int == 1)
    #expect((status?["counters"] as? [String: Any])?["reloads"] as? Int == 1)
    let viaCommand = client.command(#"{"cmd":"reload","id":6}"#, id: 6).reply
    #expect(viaCommand?["type"] as? String == "error")
    #expect((viaCommand?["message"] as? String)?.contains("scene.yaml:4:") == true, "\(viaCommand ?? [:])")
    #expect(daemon.log.contains("scene reload rejected"))
    #expect(daemon.process.isRunning)
  }

  /// Hostile neighbours of a client that reads: one subscriber that never reads (disconnected),
  /// four that never read but skip (never disconnected), and one that floods `status` commands
  /// without reading a reply (docs/reliability.md, "Hostile clients").
  @Test func aStalledClientIsDisconnectedAndDoesNotDelayOthers() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script(sampleRate: 1000)
    script.drag(from: Kiosk.signature, to: FingerScript.Point(x: 1600, y: 900), duration: 2.5)
    script.wait(0.2)
    script.tap(at: Kiosk.help)
    let daemon = try DaemonProcess.replaying(
      script, in: dir, delay: 1, options: ["--exit-after-replay", "--client-buffer", "16384"])
    let stalled = try LineClient(path: daemon.socket, receiveBuffer: 4096)
    stalled.send(#"{"cmd":"subscribe","id":1,"types":["action","touches"]}"#)
    var skippers: [LineClient] = []
    for _ in 0..<4 {
      let skipper = try LineClient(path: daemon.socket, receiveBuffer: 4096)
      skipper.send(#"{"cmd":"subscribe","id":1,"types":["action","touches"],"overflow":"skip"}"#)
      skippers.append(skipper)
    }
    let rssBefore = residentKiB(daemon.process.processIdentifier)
    let flooder = try LineClient(path: daemon.socket, receiveBuffer: 4096)
    let flooded = LockedValue(0)
    let floodDone = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      flooded.withLock { $0 = flooder.floodWithoutReading(#"{"cmd":"status"}"#, seconds: 3) }
      floodDone.signal()
    }
    let (reader, _) = try daemon.connect()
    #expect(reader.command(#"{"cmd":"subscribe","id":1,"types":["action","touches"]}"#, id: 1).reply != nil)
    var lags: [Double] = []
    var firstTime: Double?
    var firstArrival: Date?
    var count = 0
    var sawHelp = false
    while let line = reader.readLine(timeout: 15), let object = json(line) {
      if object["type"] as? String == "shutdown" { break }
      guard let t = object["time"] as? Double else { continue }
      count += 1
      if object["action"] as? String == "call-help" { sawHelp = true }
      if firstTime == nil {
        firstTime = t
        firstArrival = Date()
      }
      lags.append(Date().timeIntervalSince(firstArrival!) - (t - firstTime!))
    }
    #expect(sawHelp)
    let expected = try ScenePlayer.replay(script.recording, scene: Scene.load(path: kioskScenePath)).count
    #expect(expected > 1000)
    #expect(count == expected, "every message of the 1 kHz stroke reached the reading client")
    let maxLag = lags.max() ?? 99
    // The most lag is while the skippers' kernel buffers still take messages (about 200 KiB each):
    // the cost of serving six subscribers at 1 kHz in a debug build.
    #expect(maxLag < 0.3, "the reading client was never more than 0.3 s behind: max \(maxLag)")
    #expect(stalled.closedByServer(timeout: 5), "the stalled client was disconnected")
    #expect(daemon.log.contains("send buffer full"))
    #expect(floodDone.wait(timeout: .now() + 10) == .success)
    let floodBytes = flooded.withLock { $0 }
    #expect(floodBytes < 1 << 20, "the flooder could push \(floodBytes) bytes: the daemon stops reading it")
    let rssGrowth = residentKiB(daemon.process.processIdentifier) - rssBefore
    print(
      "stalled neighbours: reader's worst lag \(String(format: "%.1f", maxLag * 1000)) ms; flooder pushed "
        + "\(floodBytes) bytes; daemon VmRSS grew \(rssGrowth) KiB")
    _ = skippers
  }

  @Test func fiftyClientsComeAndGoWhileTouchesFlow() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    for i in 0..<6 {
      script.tap(at: i.isMultiple(of: 2) ? Kiosk.buyTicket : Kiosk.showMap)
      script.wait(0.5)
    }
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 0.5, options: ["--loop"])
    let (steady, _) = try daemon.connect()
    let socket = daemon.socket
    let failures = LockedValue(0)
    let group = DispatchGroup()
    for i in 0..<50 {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        usleep(UInt32(i % 10) * 60_000)
        guard let client = try? LineClient(path: socket),
          json(client.readLine(timeout: 10))?["type"] as? String == "hello"
        else {
          failures.withLock { $0 += 1 }
          return
        }
        client.send(#"{"cmd":"ping","id":\#(i)}"#)
        if client.readUntil(#""type":"reply""#, timeout: 10).match == nil { failures.withLock { $0 += 1 } }
      }
    }
    var seen: [String] = []
    while seen.count < 8, let line = steady.readLine(timeout: 10) {
      if let a = json(line)?["action"] as? String { seen.append(a) }
    }
    #expect(group.wait(timeout: .now() + 30) == .success)
    #expect(failures.withLock { $0 } == 0)
    #expect(seen.count == 8, "the steady client kept getting actions: \(seen)")
    #expect(Array(seen.prefix(4)) == ["buy-ticket", "show-map", "buy-ticket", "show-map"])
    usleep(300_000)
    let status = steady.command(#"{"cmd":"status","id":99}"#, id: 99).reply
    #expect(status?["clients"] as? Int == 1, "the 50 clients are gone: \(status ?? [:])")
    #expect(((status?["counters"] as? [String: Any])?["clientsAccepted"] as? Int ?? 0) >= 51)
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  @Test func sigtermCancelsTouchesDownTellsClientsAndRemovesTheSocket() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    let finger = script.down([Kiosk.signature])
    script.wait(30)
    script.up(finger)
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 0.5, options: [])
    let (client, _) = try daemon.connect()
    #expect(client.command(#"{"cmd":"subscribe","id":1,"types":["touches"]}"#, id: 1).reply != nil)
    #expect(client.readUntil(#""phase":"began""#, timeout: 10).match != nil)
    let status = client.command(#"{"cmd":"status","id":2}"#, id: 2).reply
    #expect(status?["touchesDown"] as? Int == 1)
    daemon.signal(SIGTERM)
    let tail = client.collect(until: "shutdown")
    #expect(tail.contains { $0["phase"] as? String == "cancelled" && $0["view"] as? String == "signature" })
    #expect(tail.last?["type"] as? String == "shutdown")
    #expect(daemon.waitForExit() == 0)
    #expect(access(daemon.socket, F_OK) != 0)
    #expect(daemon.log.contains("stopping signal=SIGTERM"))
  }

  @Test("touchd --version and touchctl --version print the one version scripts/version.sh reads")
  func versions() throws {
    func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: executable)
      process.arguments = arguments
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, output)
    }
    let script = try run("/bin/sh", [TestPaths.repository("scripts/version.sh")])
    let version = script.output.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(script.status == 0 && version == TouchdVersion.current)
    let touchd = try run(try builtProduct("touchd"), ["--version"])
    #expect(touchd.status == 0 && touchd.output == "touchd \(version)\n")
    let touchctl = try run(try builtProduct("touchctl"), ["--version"])
    #expect(touchctl.status == 0 && touchctl.output == "touchctl \(version)\n")
  }

  @Test func aBadSceneAtStartIsReportedWithItsPositionAndExitsWithExConfig() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("bad.yaml").path
    try "version: 1\nwindows:\n  - id: main\n    size: {width: 100, hieght: 100}\n"
      .write(toFile: scenePath, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try builtProduct("touchd"))
    process.arguments = ["--scene", scenePath, "--socket", dir.appendingPathComponent("s.sock").path]
    let pipe = Pipe()
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 78, "EX_CONFIG: systemd's RestartPreventExitStatus=78 then stops retrying")
    #expect(output.contains("bad.yaml:4:"), "\(output)")
    #expect(output.contains("hieght"))
  }

  @Test func aBadCommandLineExitsWithUsageAndHelpListsTheOptions() throws {
    let touchd = URL(fileURLWithPath: try builtProduct("touchd"))
    let bad = try runProcess(touchd, ["--scene", "config/kiosk.yaml", "--sped", "2"])
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("touchd: unknown option '--sped' (did you mean '--speed'?)\n"), "\(bad.stderr)")
    #expect(bad.stdout.isEmpty)
    let help = try runProcess(touchd, ["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.hasPrefix("Usage: touchd --scene FILE [options]"))
    #expect(help.stdout.contains("--replay RECORDING"))
  }
}

/// `forward:` is live (docs/forward.md): the daemon loads such a scene as any other, no longer
/// warning that it does not forward, and takes `--uinput` for the node its virtual touchscreens
/// are created through (the VM suite's forward-* checks run it on real devices).
struct ForwardSceneDaemonTests {
  @Test("A scene with forward: loads without the old not-live warning; --uinput is an option")
  func loads() throws {
    let dir = scratchDirectory()
    let scene = URL(fileURLWithPath: kioskScenePath).deletingLastPathComponent()
      .appendingPathComponent("kiosk-forward.yaml").path
    let daemon = try DaemonProcess(scene: scene, directory: dir, arguments: ["--uinput", "/nonexistent/uinput"])
    let (client, _) = try daemon.connect()
    #expect(client.command(#"{"cmd":"ping","id":1}"#, id: 1).reply?["ok"] as? Bool == true)
    #expect(!daemon.log.contains("not live"), "\(daemon.log)")
    let help = try runProcess(URL(fileURLWithPath: try builtProduct("touchd")), ["--help"])
    #expect(help.stdout.contains("--uinput PATH"))
  }
}
