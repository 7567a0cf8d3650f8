import Foundation
import Testing

/// A reload reads its scene file off the pipeline's queue (issue #43 admits scene files of 10,000
/// rows, whose YAML takes seconds): while a large file is read, the pipeline goes on with the old
/// scene and answers other clients' pipeline commands, and the reload's own client is answered
/// once the new scene runs. A client's scene installed while the file is read stays.
@Suite(.serialized) struct ReloadOffQueueTests {
  /// A scene file of one window whose list has `rows` rows of 88 pt, each with a tap (about 170
  /// bytes a row: 6,000 rows are 1 MB, seconds of YAML for a debug build).
  static func listScene(rows: Int) -> String {
    var yaml = "version: 1\nwindows:\n  - id: main\n    size: {width: 1920, height: 1080}\n    devices: [\"*\"]\n"
    yaml += "    views:\n      - id: list\n        frame: {x: 560, y: 0, width: 800, height: 1080}\n"
    yaml += "        scroll: {contentSize: {width: 800, height: \(rows * 88)}}\n        views:\n"
    for i in 0..<rows {
      yaml += "          - id: row\(i)\n            frame: {x: 0, y: \(i * 88), width: 800, height: 88}\n"
      yaml += "            recognizers:\n              - {id: tap\(i), type: tap, action: open\(i)}\n"
    }
    return yaml
  }

  /// An idle daemon (its replay starts in 10 minutes) on a copy of the kiosk scene it may reload.
  private func daemon(_ name: String = #function) throws -> (DaemonProcess, scenePath: String) {
    let dir = scratchDirectory(name)
    let scenePath = dir.appendingPathComponent("scene.yaml").path
    try String(contentsOfFile: kioskScenePath, encoding: .utf8).write(
      toFile: scenePath, atomically: true, encoding: .utf8)
    let script = Kiosk.script()
    script.tap(at: Kiosk.buyTicket)
    return (try DaemonProcess.replaying(script, scene: scenePath, in: dir, delay: 600), scenePath)
  }

  /// The daemon, its client that asked for a reload of a 6,000-row scene file 0.3 s ago (the file
  /// is being read: 6,000 rows take seconds in a debug build), and another client.
  private func reloadingALargeScene(_ name: String = #function) throws -> (
    DaemonProcess, reloader: LineClient, other: LineClient
  ) {
    let (daemon, scenePath) = try self.daemon(name)
    let (reloader, _) = try daemon.connect()
    let (other, _) = try daemon.connect()
    try Self.listScene(rows: 6_000).write(toFile: scenePath, atomically: true, encoding: .utf8)
    reloader.send(#"{"cmd":"reload","id":"reload"}"#)
    usleep(300_000)
    return (daemon, reloader, other)
  }

  private func reloads(_ reply: [String: Any]?) -> Int? {
    (reply?["counters"] as? [String: Any])?["reloads"] as? Int
  }

  @Test("while a large scene file is read, another client's status is answered from the old scene")
  func theOldSceneRunsWhileTheFileIsRead() throws {
    let (daemon, reloader, other) = try reloadingALargeScene()
    // Answered by the pipeline before the reload is: the old scene still runs.
    let status = other.command(#"{"cmd":"status","id":1}"#, id: 1).reply
    #expect(reloads(status) == 0)
    #expect((status?["windows"] as? [[String: Any]])?.first?["id"] as? String == "main")
    let (reply, _) = reloader.readUntil(#""id":"reload""#, timeout: 60)
    #expect(json(reply)?["ok"] as? Bool == true, "\(reply ?? "no reply"); log:\n\(daemon.log)")
    // The other client is told (the notice comes before its next reply), and the new scene runs.
    let after = other.command(#"{"cmd":"status","id":2}"#, id: 2)
    #expect(reloads(after.reply) == 1)
    #expect(after.others.contains { json($0)?["type"] as? String == "reloaded" })
    #expect(daemon.process.isRunning)
  }

  @Test("a client's scene pushed while the file is read stays; the reload says it was dropped")
  func aPushWhileTheFileIsReadWins() throws {
    let (daemon, reloader, pusher) = try reloadingALargeScene()
    let push =
      #"{"cmd":"scene","id":1,"scene":{"version":1,"windows":[{"id":"pushed","size":{"width":1920,"height":1080},"#
      + #""devices":["*"],"views":[{"id":"door","frame":{"x":0,"y":0,"width":100,"height":100}}]}]}}"#
    #expect(pusher.command(push, id: 1).reply?["ok"] as? Bool == true)
    let (reply, _) = reloader.readUntil(#""id":"reload""#, timeout: 60)
    let error = json(reply)
    #expect(error?["type"] as? String == "error")
    #expect(
      error?["message"] as? String
        == "scene reload dropped: a client's scene replaced the scene while the file was read, and stays")
    let status = pusher.command(#"{"cmd":"status","id":2}"#, id: 2).reply
    #expect((status?["windows"] as? [[String: Any]])?.map { $0["id"] as? String } == ["pushed"])
    #expect(reloads(status) == 0)
    #expect(daemon.log.contains("scene reload dropped"))
  }
}
