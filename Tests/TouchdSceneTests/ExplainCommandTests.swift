import Foundation
import Testing
import TouchdTestKit

@testable import TouchdScene

/// `touchctl replay --scene S REC --explain / --trace / --at SECONDS JSON`, run as a process.
@Suite("touchctl replay --explain, --trace, --at")
struct ExplainCommandTests {
  /// The door scene and a script's recording in a fresh directory, removed when released.
  final class Files {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-explain-\(UUID())")
    var scene: String { directory.appendingPathComponent("door.yaml").path }
    var recording: String { directory.appendingPathComponent("input.evemu").path }

    init(_ script: FingerScript) throws {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try doorSceneYAML.write(toFile: scene, atomically: true, encoding: .utf8)
      try script.evemuText.write(toFile: recording, atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
  }

  func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

  @Test("--explain of a tap that moves 60 pt prints the touch-down and the failure with its cause")
  func explainsAMovedTap() throws {
    let files = try Files(movedTapScript())
    let (scene, recording) = (files.scene, files.recording)
    let result = try runTouchctl(["replay", recording, "--scene", scene, "--explain"])
    #expect(result.status == 0, "\(result.stderr)")
    let out = lines(result.stdout)
    #expect(out.first == "+0.000 touch 1 began at (200.1, 300.1) in view 'door' → door-tap")
    let failed = try #require(out.first { $0.hasPrefix("+0.050 door-tap: possible → failed: ") }, "\(out)")
    #expect(failed.contains("allowableMovement"))
    #expect(failed.hasSuffix(" pt > allowableMovement 45"))
    #expect(out.contains("+0.050 touches moved on view 'door': 1 at (259.9, 300.1)"))
    #expect(out.last == "+0.100 door-tap: failed → possible: reset: every touch it received has ended")
    #expect(!out.contains { $0.contains(" action ") }, "no action fires")
    let again = try runTouchctl(["replay", recording, "--scene", scene, "--explain"])
    #expect(again.stdout == result.stdout, "deterministic")
  }

  @Test("--trace prints the lines a trace subscriber gets; without it, the same actions and touches")
  func traceLines() throws {
    let script = movedTapScript()
    let files = try Files(script)
    let (scene, recording) = (files.scene, files.recording)
    let traced = try runTouchctl(["replay", recording, "--scene", scene, "--trace"])
    let plain = try runTouchctl(["replay", recording, "--scene", scene])
    #expect(traced.status == 0 && plain.status == 0)
    let expected = try ScenePlayer.replay(script.recording, scene: Scene.parse(doorSceneYAML), trace: true)
    #expect(lines(traced.stdout) == expected.map(\.jsonLine))
    #expect(lines(plain.stdout) == untraced(expected).map(\.jsonLine))
    #expect(lines(traced.stdout).filter { !$0.hasPrefix(#"{"type":"trace","#) } == lines(plain.stdout))
    #expect(
      lines(traced.stdout).contains {
        $0.hasPrefix(
          #"{"type":"trace","time":10.05,"event":"recognizer","recognizer":"door-tap","gesture":"tap","view":"door","window":"w","from":"possible","to":"failed","cause":"moved "#
        )
      })
  }

  @Test("--at ignoreInteraction cancels the tap in progress and drops the tap that begins while ignoring")
  func timedIgnoring() throws {
    let files = try Files(ignoringScript())
    let (scene, recording) = (files.scene, files.recording)
    let at = [
      "--at", "0.1", #"{"cmd":"ignoreInteraction","value":true}"#, "--at", "0.5",
      #"{"cmd":"ignoreInteraction","value":false}"#,
    ]
    let json = try runTouchctl(["replay", recording, "--scene", scene] + at)
    #expect(json.status == 0, "\(json.stderr)")
    #expect(
      lines(json.stdout).filter { $0.contains(#""type":"action""#) } == [
        #"{"type":"action","seq":5,"action":"open-door","gesture":"tap","state":"ended","view":"door","window":"w","recognizer":"door-tap","time":10.75,"location":{"x":200.073242,"y":300.097656},"numberOfTouches":1}"#
      ])
    #expect(
      lines(json.stdout).first { $0.contains(#""phase":"cancelled""#) }
        == #"{"type":"touches","seq":2,"phase":"cancelled","view":"door","window":"w","time":10.1,"touches":[{"id":1,"view":"door","phase":"cancelled","type":"direct","x":200.073242,"y":300.097656,"tapCount":1}]}"#
    )
    let explained = try runTouchctl(["replay", recording, "--scene", scene, "--explain"] + at)
    #expect(
      lines(explained.stdout) == [
        "+0.000 touch 1 began at (200.1, 300.1) in view 'door' → door-tap",
        "+0.000 touches began on view 'door': 1 at (200.1, 300.1)",
        #"+0.100 command {"cmd":"ignoreInteraction","value":true}"#,
        "+0.100 door-tap: possible → failed: a touch was cancelled",
        "+0.100 touches cancelled on view 'door': 1 at (200.1, 300.1)",
        "+0.100 door-tap: failed → possible: reset: every touch it received has ended",
        "+0.300 touch 2 at (200.1, 300.1) swallowed: the application is ignoring interaction events",
        #"+0.500 command {"cmd":"ignoreInteraction","value":false}"#,
        "+0.700 touch 3 began at (200.1, 300.1) in view 'door' → door-tap",
        "+0.700 touches began on view 'door': 3 at (200.1, 300.1)",
        "+0.750 door-tap: possible → ended: tap 1 of 1 lifted",
        "+0.750 touch 3 cancelled in view 'door' by door-tap",
        "+0.750 touches cancelled on view 'door': 3 at (200.1, 300.1)",
        "+0.750 action open-door (door-tap ended) at (200.1, 300.1)",
        "+0.750 door-tap: ended → possible: reset: every touch it received has ended",
      ])
  }

  @Test("--at update: a recognizer replaced mid-tap drops that tap; the new one takes the next taps")
  func timedUpdate() throws {
    let files = try Files(ignoringScript())
    let (scene, recording) = (files.scene, files.recording)
    let at = [
      "--at", "0.02",
      #"{"cmd":"update","op":"replace","recognizer":{"id":"door-tap","type":"tap","action":"enter"}}"#,
    ]
    let result = try runTouchctl(["replay", recording, "--scene", scene, "--explain"] + at)
    #expect(result.status == 0, "\(result.stderr)")
    let out = lines(result.stdout)
    #expect(
      Array(out.prefix(5)) == [
        "+0.000 touch 1 began at (200.1, 300.1) in view 'door' → door-tap",
        "+0.000 touches began on view 'door': 1 at (200.1, 300.1)",
        #"+0.020 command {"cmd":"update","op":"replace","recognizer":{"id":"door-tap","type":"tap","action":"enter"}}"#,
        "+0.020 door-tap: possible → possible: removed from its view",
        "+0.150 touches ended on view 'door': 1 at (200.1, 300.1)",
      ])
    #expect(
      out.filter { $0.contains(" action ") } == [
        "+0.350 action enter (door-tap ended) at (200.1, 300.1)",
        "+0.750 action enter (door-tap ended) at (200.1, 300.1)",
      ])
  }

  @Test("A bad --at names the argument: JSON, command, view, seconds, a missing --scene")
  func badArguments() throws {
    let files = try Files(ignoringScript())
    let (scene, recording) = (files.scene, files.recording)
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
      try runTouchctl(["replay", recording, "--scene", scene] + arguments)
    }
    let unknownView = try run(["--at", "0.2", #"{"cmd":"set","view":"dor","hidden":true}"#])
    #expect(unknownView.status == 1)
    #expect(unknownView.stdout.isEmpty)
    #expect(
      unknownView.stderr
        == #"--at 0.2 {"cmd":"set","view":"dor","hidden":true}: unknown view 'dor' (did you mean 'door'?)"# + "\n")
    let badJSON = try run(["--at", "0.2", #"{"cmd":"set","#])
    #expect(badJSON.status == 1)
    #expect(
      badJSON.stderr
        == #"--at 0.2 {"cmd":"set",: not JSON at column 14: unexpected end of the line, expected a key in double quotes"#
        + "\n")
    let unknownCommand = try run(["--at", "1", #"{"cmd":"reload"}"#])
    #expect(
      unknownCommand.stderr
        == #"--at 1 {"cmd":"reload"}: unknown command 'reload' (known: set, ignoreInteraction, update, announce, signature)"#
        + "\n")
    let unbalanced = try run(["--at", "1", #"{"cmd":"ignoreInteraction","value":false}"#])
    #expect(unbalanced.status == 1)
    #expect(
      unbalanced.stderr == #"--at 1 {"cmd":"ignoreInteraction","value":false}: not ignoring interaction events"#
        + "\n")
    let seconds = try run(["--at", "soon", "{}"])
    #expect(seconds.stderr == "--at soon {}: 'soon' is not a number of seconds (0 or more)\n")
    let odd = try run(["--at", "1"])
    #expect(odd.status == 1)
    #expect(odd.stderr.hasPrefix("--at takes SECONDS and a JSON command, got 1 value(s): 1"))
    let noScene = try runTouchctl(["replay", recording, "--explain"])
    #expect(noScene.status != 0)
    #expect(noScene.stderr.contains("--explain needs --scene"))
  }
}
