import Foundation
import Testing
import TouchdInput
import TouchdScene
import TouchdTestKit

/// `touchctl replay --coalesced --predicted` and `--prediction-error` (docs/protocol.md,
/// "Coalesced and predicted touches"; docs/performance.md, "Touch prediction").
@Suite("touchctl replay: coalesced and predicted touches")
struct ReplayEntriesTests {
  static let scene = """
    version: 1
    windows:
      - id: main
        size: {width: 1000, height: 800}
        views:
          - id: canvas
            frame: {x: 0, y: 0, width: 1000, height: 800}
            touches: true
    """

  func files() throws -> (scene: String, recording: String, script: FingerScript) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-entries-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let scene = dir.appendingPathComponent("canvas.yaml").path
    try Self.scene.write(toFile: scene, atomically: true, encoding: .utf8)
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 2, sampleRate: 120)
    script.drag(from: .init(x: 100, y: 400), to: .init(x: 500, y: 400), duration: 0.1)
    let recording = dir.appendingPathComponent("drag.evemu").path
    try script.evemuText.write(toFile: recording, atomically: true, encoding: .utf8)
    return (scene, recording, script)
  }

  @Test("--coalesced --predicted prints the entries beside touches, the lines touchd sends such a subscriber")
  func printsEntries() throws {
    let (scene, recording, _) = try files()
    let result = try runTouchctl(["replay", "--scene", scene, "--coalesced", "--predicted", recording])
    #expect(result.status == 0, "\(result.stderr)")
    var expected: [String] = []
    try ScenePlayer.run(
      [try RecordingReader.load(path: recording)], scene: try Scene.load(path: scene),
      touchesEntries: [.coalesced, .predicted]
    ) { step in
      if case .message(let m) = step { expected.append(m.jsonLine) }
    }
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines == expected)
    // The second message: the touch's one new frame, then two predictions 8 and 16 ms ahead.
    let second = try TouchesMessage(jsonLine: lines[1])
    #expect(second.phase == "moved")
    let touch = second.touches[0]
    #expect(second.coalesced == [.init(id: touch.id, x: touch.x, y: touch.y, time: second.time)])
    #expect(second.predicted?.map(\.time) == [second.time + 0.008, second.time + 0.016])
    #expect(lines.last?.hasSuffix(#""coalesced":[],"predicted":[]}"#) == true)
    let plain = try runTouchctl(["replay", "--scene", scene, "--predicted", recording]).stdout
    #expect(!plain.contains("coalesced"))
    #expect(plain.split(separator: "\n").count == lines.count)
  }

  @Test("--coalesced and --predicted need --scene; --prediction-error takes none")
  func needScene() throws {
    let (scene, recording, _) = try files()
    for flag in ["--coalesced", "--predicted"] {
      let result = try runTouchctl(["replay", flag, recording])
      #expect(result.status != 0)
      #expect(result.stderr.contains("\(flag) needs --scene"), "\(result.stderr)")
    }
    let result = try runTouchctl(["replay", "--prediction-error", "--scene", scene, recording])
    #expect(result.status != 0)
    #expect(result.stderr.contains("--prediction-error measures frames: give no --scene"), "\(result.stderr)")
  }

  @Test("--prediction-error prints the figures per recording and over all, as PredictionError measures them")
  func predictionError() throws {
    let (_, recording, script) = try files()
    let result = try runTouchctl(["replay", "--prediction-error", recording])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(lines[0].hasPrefix(#"{"recording":"drag.evemu","horizons":[{"ms":8,"samples":"#))
    #expect(lines[1].hasPrefix(#"{"recording":null,"horizons":[{"ms":8,"#))
    #expect(lines[0].dropFirst(#"{"recording":"drag.evemu""#.count) == lines[1].dropFirst(#"{"recording":null"#.count))
    var frames: [TouchFrame] = []
    let replay = MultiReplay([script.recording], readings: [MultiReplay.Reading(touches: true, keys: false)])
    replay.feed { _, frame in if case .touches(let f) = frame { frames.append(f) } }
    let measured = PredictionError(frames: frames)
    #expect(lines[0] == ReplayEntriesTests.line("drag.evemu", measured))
    // A straight drag at constant speed: prediction lands nearer than not predicting.
    let figures = measured.figures.compactMap { $0 }
    #expect(figures.map(\.horizon) == [0.008, 0.016])
    #expect(figures.allSatisfy { $0.mean < $0.unpredictedMean })
  }

  /// The line touchctl prints, written here from the figures.
  static func line(_ name: String, _ error: PredictionError) -> String {
    func points(_ value: Double) -> String { JSONFormat.number((value * 100).rounded() / 100) }
    let horizons = error.figures.compactMap { $0 }.map { f in
      "{\"ms\":\(Int((f.horizon * 1000).rounded())),\"samples\":\(f.samples),\"mean\":\(points(f.mean)),"
        + "\"p95\":\(points(f.p95)),\"unpredictedMean\":\(points(f.unpredictedMean)),"
        + "\"unpredictedP95\":\(points(f.unpredictedP95))}"
    }
    return "{\"recording\":\"\(name)\",\"horizons\":[\(horizons.joined(separator: ","))]}"
  }
}
