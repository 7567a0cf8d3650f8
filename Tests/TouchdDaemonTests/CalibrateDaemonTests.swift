import Foundation
import Testing
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// The calibration flow through the public interface (issue #19): `touchctl calibrate` against
/// `touchd --replay` of recorded taps on five known targets of a skewed, offset panel. It prompts
/// per target, gets the fit, applies it (`set`) and writes it into a copy of the scene file.
@Suite(.serialized)
struct CalibrateDaemonTests {
  static let skew = [0.9, 0.05, 0.03, -0.04, 0.95, 0.02]
  static let targets = [(100.0, 80.0), (900, 80), (900, 720), (100, 720), (500, 400)]

  static let scene = """
    version: 1
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - {id: pad, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}
    """

  /// Taps where the skewed panel reports each target, 0.4 s apart, from 0.2 s.
  static func script() -> FingerScript {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    for (x, y) in targets {
      let (u, v) = (x / 1000, y / 800)
      let raw = (skew[0] * u + skew[1] * v + skew[2], skew[3] * u + skew[4] * v + skew[5])
      script.tap(at: .init(x: raw.0 * 1000, y: raw.1 * 800))
      script.wait(0.35)
    }
    return script
  }

  @Test func touchctlCalibratePromptsFitsAppliesAndWritesTheScene() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("kiosk.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let recordingPath = try writeRecording(Self.script(), to: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recordingPath, "--replay-delay", "3"])
    // Errors first, through the socket: each names the problem, and nothing starts.
    let (client, _) = try daemon.connect()
    let unknown = client.command(#"{"cmd":"calibrate","id":1,"window":"side","targets":[[1,1],[9,1],[5,9]]}"#, id: 1)
    #expect(unknown.reply?["message"] as? String == "unknown window 'side'")
    let few = client.command(#"{"cmd":"calibrate","id":2,"window":"main","targets":[[1,1],[9,1]]}"#, id: 2)
    #expect(
      few.reply?["message"] as? String
        == "'targets' must be an array of 3 to 9 targets, each [x, y] in window points, found 2 targets")
    let bad = client.command(#"{"cmd":"calibrate","id":3,"window":"main","targets":[[1,1],[9,"1"],[5,9]]}"#, id: 3)
    #expect(bad.reply?["message"] as? String == #"'targets[1][1]' must be a finite number, found "1""#)
    let single = client.command(#"{"cmd":"calibrate","id":4,"window":"main","targets":[[1,1],[9],[5,9]]}"#, id: 4)
    #expect(
      single.reply?["message"] as? String
        == "'targets[1]' must be [x, y], two finite numbers, found an array of 1 items")

    let binary = try builtProduct("touchctl")
    let targets = Self.targets.map { "\(Int($0.0)),\(Int($0.1))" }.joined(separator: " ")
    let result = try runProcess(
      URL(fileURLWithPath: binary),
      [
        "calibrate", "--socket", daemon.socket, "--targets", targets, "--timeout", "30", "--apply",
        "--write-scene", scenePath,
      ])
    #expect(result.status == 0, "\(result.stderr)\n\(daemon.log)")
    let out = result.stdout
    #expect(
      out.hasPrefix("Calibrating window 'main' (1000 × 800 points).\nTouch target 1 of 5 at (100, 80), and lift.\n"))
    for i in 1...5 { #expect(out.contains("  target \(i): touched\n"), "\(out)") }
    #expect(out.contains("Touch target 5 of 5 at (500, 400)."))
    #expect(out.contains("\nMatrix: "))
    #expect(out.contains("Applied to window 'main'."))
    #expect(out.contains("Wrote calibration: to window 'main' of \(scenePath)"))
    #expect(!out.contains("Warning:"), "\(out)")
    // The file now holds the inverse of the panel's skew (to the device's 4096-unit resolution).
    let written = try Scene.load(path: scenePath).windows[0].calibration
    let det = Self.skew[0] * Self.skew[4] - Self.skew[1] * Self.skew[3]
    let (a, b, d, e) = (Self.skew[4] / det, -Self.skew[1] / det, -Self.skew[3] / det, Self.skew[0] / det)
    let inverse = [a, b, -(a * Self.skew[2] + b * Self.skew[5]), d, e, -(d * Self.skew[2] + e * Self.skew[5])]
    for (got, want) in zip(written, inverse) { #expect(abs(got - want) < 2e-3, "\(written)") }
    #expect(daemon.log.contains("calibration done"), "\(daemon.log)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }

  /// A client that begins a calibration and goes away ends it: otherwise the window's touches
  /// would reach no view until the time-out (120 s by default).
  @Test func aCalibrationEndsWhenItsClientGoesAway() throws {
    let dir = scratchDirectory()
    let scenePath = dir.appendingPathComponent("kiosk.yaml").path
    try Self.scene.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    script.tap(at: .init(x: 500, y: 400))
    let recordingPath = try writeRecording(script, to: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recordingPath, "--replay-delay", "3"])
    do {
      let (asker, _) = try daemon.connect()
      asker.send(#"{"cmd":"calibrate","id":1,"window":"main","targets":[[100,80],[900,80],[500,720]]}"#)
      // Gone only once the calibration runs (its socket closes when `asker` goes).
      let deadline = Date().addingTimeInterval(10)
      while !daemon.log.contains("calibration began"), Date() < deadline { usleep(20_000) }
      withExtendedLifetime(asker) {}
    }
    #expect(daemon.log.contains("calibration began"), "\(daemon.log)")
    let (watcher, _) = try daemon.connect()
    _ = watcher.command(#"{"cmd":"subscribe","id":1,"types":["touches"]}"#, id: 1)
    var phases: [String] = []
    while phases.count < 2, let line = watcher.readLine(timeout: 10), let object = json(line) {
      if object["type"] as? String == "touches" { phases.append("\(object["view"] ?? "") \(object["phase"] ?? "")") }
    }
    #expect(phases == ["pad began", "pad ended"], "the tap went to a calibration nobody waits for\n\(daemon.log)")
    #expect(daemon.log.contains("calibration failed"), "\(daemon.log)")
    #expect(daemon.log.contains("that asked for it disconnected"), "\(daemon.log)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
