import Foundation
import Testing
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The touch prediction's error on the bundled real recordings (../shared/recordings), as
/// docs/performance.md "Touch prediction" reports it: the figures there are what this measures.
@Suite("Touch prediction: error on real recordings")
struct PredictionErrorTests {
  /// Every touchscreen recording of ../shared/recordings (the .evemu files; touchpads are not
  /// touchscreens), measured together.
  static func measureShared() throws -> (PredictionError, recordings: Int) {
    let directory = try TestPaths.sharedRecordings()
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".evemu") }
      .sorted()
    var all = PredictionError()
    var count = 0
    for name in names {
      let recording = try RecordingReader.load(path: directory + "/" + name)
      guard recording.notTouchscreenMessage == nil else { continue }
      var frames: [TouchFrame] = []
      let replay = MultiReplay([recording], readings: [MultiReplay.Reading(touches: true, keys: false)])
      replay.feed { _, frame in if case .touches(let f) = frame { frames.append(f) } }
      all.add(PredictionError(frames: frames))
      count += 1
    }
    return (all, count)
  }

  /// docs/performance.md's row for `ms`: predictions, mean, p95, mean and p95 not predicting.
  static func documentedRow(_ ms: Int) throws -> [String] {
    let text = try String(contentsOfFile: TestPaths.repository("docs/performance.md"), encoding: .utf8)
    let section = try #require(text.range(of: "## Touch prediction"))
    let row = try #require(
      text[section.upperBound...].split(separator: "\n").first { $0.hasPrefix("| \(ms) ms |") })
    return row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
  }

  @Test("The figures of docs/performance.md, measured again; prediction beats not predicting on average")
  func sharedRecordings() throws {
    let (measured, recordings) = try Self.measureShared()
    #expect(recordings == 20)
    let figures = measured.figures.compactMap { $0 }
    #expect(figures.map(\.horizon) == TouchPrediction.horizons)
    func points(_ value: Double) -> String { String(format: "%.2f", value) }
    for f in figures {
      let row = try Self.documentedRow(Int((f.horizon * 1000).rounded()))
      #expect(
        row.prefix(6)
          == [
            "\(Int((f.horizon * 1000).rounded())) ms", "\(f.samples)", points(f.mean), points(f.p95),
            points(f.unpredictedMean), points(f.unpredictedP95),
          ])
      #expect(f.mean < f.unpredictedMean)
    }
  }

  @Test("The ground truth: interpolated between frames, the last position after the last move, none past the end")
  func groundTruth() {
    let samples = [MotionSample(time: 1, x: 0, y: 0), MotionSample(time: 1.01, x: 10, y: 20)]
    #expect(PredictionError.position(samples, at: 1.004) == MotionSample(time: 1.004, x: 4, y: 8))
    #expect(PredictionError.position(samples, at: 1.5) == samples[1])
    var error = PredictionError()
    // The touch lifts 12 ms after its last frame: 8 ms ahead of both frames is compared, 16 ms
    // ahead only of the first.
    error.add(samples, end: 1.022)
    let figures = error.figures
    #expect(figures[0]?.samples == 2)
    #expect(figures[1]?.samples == 1)
    #expect(PredictionError.p95([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]) == 19)
    #expect(PredictionError.p95([3]) == 3)
  }
}
