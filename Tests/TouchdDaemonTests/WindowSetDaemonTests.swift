import Foundation
import Testing
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// `set` on a window through the daemon's socket (issue #19): the reply, the `windowChanged`
/// notice to every client, the hello of clients that connect later, `status`, and the touches that
/// follow mapped the new way.
@Suite(.serialized)
struct WindowSetDaemonTests {
  static let scene = """
    version: 1
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - {id: tl, frame: {x: 0, y: 0, width: 100, height: 100}, touches: true}
          - {id: tr, frame: {x: 900, y: 0, width: 100, height: 100}, touches: true}
    """

  @Test func aRotatedWindowMapsTheNextTapToItsOtherCornerAndEveryClientHearsOfIt() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("window.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    // A tap at the device's top-left corner, 3 s after the daemon starts.
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    script.tap(at: .init(x: 50, y: 50))
    let recordingPath = try writeRecording(script, to: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recordingPath, "--replay-delay", "3"])
    let (a, _) = try daemon.connect()
    _ = a.command(#"{"cmd":"subscribe","id":1,"types":["touches"]}"#, id: 1)

    let rotated = a.command(#"{"cmd":"set","id":2,"window":"main","rotation":90}"#, id: 2)
    #expect(rotated.reply?["rotation"] as? Int == 90, "\(rotated)")
    #expect(rotated.reply?["calibration"] as? [Double] == [1, 0, 0, 0, 1, 0])
    // The notice goes out on the server's loop, the reply on the client's path: either may come first.
    var aLines = rotated.others
    let wide = a.command(#"{"cmd":"set","id":3,"window":"main","size":{"width":2000,"height":1600}}"#, id: 3)
    aLines += wide.others
    #expect(wide.reply?["width"] as? Int == 2000, "\(wide)")
    let (b, hello) = try daemon.connect()
    let windows = hello["windows"] as? [[String: Any]] ?? []
    #expect(windows.first?["width"] as? Int == 2000 && windows.first?["height"] as? Int == 1600, "\(hello)")
    let status = b.command(#"{"cmd":"status","id":4}"#, id: 4).reply ?? [:]
    #expect((status["windows"] as? [[String: Any]])?.first?["width"] as? Int == 2000, "\(status)")
    let bad = b.command(#"{"cmd":"set","id":5,"window":"main","rotation":45}"#, id: 5).reply ?? [:]
    #expect(bad["message"] as? String == "'rotation' must be 0, 90, 180 or 270, found 45")
    let unknown = b.command(#"{"cmd":"set","id":6,"window":"side","rotation":0}"#, id: 6).reply ?? [:]
    #expect(unknown["message"] as? String == "unknown window 'side'")
    _ = b.command(#"{"cmd":"set","id":7,"window":"main","size":{"width":1000,"height":800}}"#, id: 7)

    // Rotated 90° clockwise, the device's top-left corner is the window's top-right: `tr`.
    while !aLines.contains(where: { $0.contains(#""phase":"ended""#) }), let line = a.readLine(timeout: 10) {
      aLines.append(line)
    }
    let objects = aLines.compactMap(json)
    let notices = objects.filter { $0["type"] as? String == "windowChanged" }
    #expect(notices.count == 3, "\(aLines)")  // rotation, size, size again (b's command: every client hears)
    #expect(notices.first?["window"] as? String == "main" && notices.first?["rotation"] as? Int == 90, "\(aLines)")
    #expect(notices.last?["width"] as? Int == 1000 && notices.last?["height"] as? Int == 800, "\(aLines)")
    let views = objects.filter { $0["type"] as? String == "touches" }.map { "\($0["view"] ?? "") \($0["phase"] ?? "")" }
    #expect(views == ["tr began", "tr ended"])
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  /// VoiceOver turned on over the socket (issue #40): every subscriber hears it, and the replayed
  /// double tap then activates the element a tap selected, instead of reaching the view.
  @Test func voiceOverTurnedOnOverTheSocketTakesTheNextTouches() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("voiceover.yaml").path
    try Self.scene.replacingOccurrences(of: "touches: true}", with: "touches: true, accessibility: {label: Corner}}")
      .write(toFile: scenePath, atomically: true, encoding: .utf8)
    // A tap on `tr`, then a double tap on empty space, 3 s after the daemon starts.
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    script.tap(at: .init(x: 950, y: 50))
    script.wait(1)
    script.doubleTap(at: .init(x: 500, y: 400))
    script.wait(1)
    let recordingPath = try writeRecording(script, to: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recordingPath, "--replay-delay", "3"])
    let (a, _) = try daemon.connect()
    _ = a.command(#"{"cmd":"subscribe","id":1,"types":["touches","accessibility"]}"#, id: 1)
    let on = a.command(#"{"cmd":"set","id":2,"window":"main","voiceOver":true}"#, id: 2)
    #expect(on.reply?["ok"] as? Bool == true, "\(on)")
    var lines = on.others
    while !lines.contains(where: { $0.contains(#""phase":"ended""#) }), let line = a.readLine(timeout: 10) {
      lines.append(line)
    }
    let events = lines.compactMap(json).filter { ["accessibility", "touches"].contains($0["type"] as? String) }
      .map { "\($0["type"] ?? "") \($0["event"] ?? $0["phase"] ?? "") \($0["view"] ?? "-")" }
    #expect(
      events == [
        "accessibility voiceOver -", "accessibility focus tr", "accessibility activate tr", "touches began tr",
        "touches ended tr",
      ], "\(lines)")
    let focus = lines.compactMap(json).first { $0["event"] as? String == "focus" }
    #expect(focus?["spoken"] as? String == "Corner." && focus?["label"] as? String == "Corner", "\(lines)")
    let announced = a.command(#"{"cmd":"announce","id":3,"text":"Your ticket is printing"}"#, id: 3)
    #expect(announced.reply?["spoken"] as? Bool == true, "\(announced)")
    var after = announced.others
    while !after.contains(where: { $0.contains(#""event":"announce""#) }), let line = a.readLine(timeout: 10) {
      after.append(line)
    }
    let said = after.compactMap(json).first { $0["event"] as? String == "announce" }
    #expect(said?["spoken"] as? String == "Your ticket is printing" && said?["view"] == nil, "\(after)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
