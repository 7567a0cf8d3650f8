import Foundation
import TouchdInput
import TouchdTestKit

/// The inputs of the benchmarks: recordings from the repository, from `../shared/recordings`
/// beside it when present, and synthesized ones.
public enum BenchRecordings {
  /// The repository's root (this file is `Benchmarks/Sources/BenchSupport/Recordings.swift`).
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The shared recordings: `$TOUCHD_RECORDINGS`, else `../shared/recordings` beside the repository.
  public static var sharedDirectory: URL {
    if let path = ProcessInfo.processInfo.environment["TOUCHD_RECORDINGS"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/recordings")
  }

  /// The largest evemu recording the benchmarks parse (1.2 MB, ~60k events, 10 fingers).
  public static let largeRecordingName = "wacom-dth2242-finger-taps-to-10finger.evemu"

  /// The bytes of a shared recording, or nil (with a note on stderr) when it is not there.
  public static func shared(_ name: String) -> [UInt8]? {
    let url = sharedDirectory.appendingPathComponent(name)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      FileHandle.standardError.write(
        Data("skipped: \(url.path) not found (set TOUCHD_RECORDINGS to the shared recordings)\n".utf8))
      return nil
    }
    return [UInt8](data)
  }

  /// The bytes of a fixture of the repository's tests (MIT, see its ATTRIBUTION.md).
  public static func fixture(_ name: String) -> [UInt8] {
    let url = repositoryRoot.appendingPathComponent("Tests/TouchdInputTests/Fixtures/recordings")
      .appendingPathComponent(name)
    guard let data = FileManager.default.contents(atPath: url.path) else {
      fatalError("missing fixture \(url.path)")
    }
    return [UInt8](data)
  }

  /// Ten fingers on the synthetic protocol-B touchscreen: down in one frame, then each circling
  /// its own spot for `seconds` at 120 frames/s, then up. Every frame moves every finger.
  public static func tenFingers(seconds: Double) -> Recording {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080)
    let centers = (0..<10).map { i in
      FingerScript.Point(x: 192 + Double(i % 5) * 384, y: 270 + Double(i / 5) * 540)
    }
    let fingers = script.down(centers)
    script.animate(fingers, duration: seconds) { i, t in
      let angle = 2 * Double.pi * t * seconds + Double(i)
      return FingerScript.Point(x: centers[i].x + 60 * cos(angle), y: centers[i].y + 60 * sin(angle))
    }
    script.up(fingers)
    return script.recording
  }

  /// `recording` as evemu text.
  public static func evemuBytes(_ recording: Recording) -> [UInt8] {
    Array(EvemuWriter.write(recording).utf8)
  }
}

extension BenchRecordings {
  /// Ten fingers on ``BenchScenes/pipeline()``: six circle (30 pt radius, once a second) on the
  /// center children of tiles 0-5 (tap, double tap, long press; the tile's pan), and two pairs
  /// pinch in and out on tiles 10 and 11, for `seconds` at 120 frames/s.
  public static func pipelineFingers(seconds: Double) -> Recording {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080)
    func tileCenter(_ t: Int) -> FingerScript.Point {
      FingerScript.Point(x: Double(t % 5) * 384 + 192, y: Double(t / 5) * 270 + 135)
    }
    let circles = (0..<6).map(tileCenter)
    let pinches = [tileCenter(10), tileCenter(11)]
    func position(_ i: Int, _ time: Double) -> FingerScript.Point {
      if i < 6 {
        let angle = 2 * Double.pi * time
        return FingerScript.Point(x: circles[i].x + 30 * cos(angle) - 30, y: circles[i].y + 30 * sin(angle))
      }
      let pair = (i - 6) / 2
      let half = (120 + 40 * sin(2 * Double.pi * time)) / 2
      return FingerScript.Point(x: pinches[pair].x + (i % 2 == 0 ? -half : half), y: pinches[pair].y)
    }
    let fingers = script.down((0..<10).map { position($0, 0) })
    script.animate(fingers, duration: seconds) { i, t in position(i, t * seconds) }
    script.up(fingers)
    return script.recording
  }
}
