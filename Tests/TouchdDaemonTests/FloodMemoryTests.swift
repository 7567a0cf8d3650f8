import Foundation
import Testing
import TouchdInput
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// Issue #20, hostile devices: 10^6 events in one second, through `touchctl replay --scene` on a
/// process of its own, so that its resident set is the replay's alone (in the test process, the
/// suites running beside it add their own allocations).
struct FloodMemoryTests {
  /// A full-window view that publishes its touches, with a pan of any number of touches.
  static let panScene = """
    version: 1
    windows:
      - id: w
        size: {width: 1000, height: 800}
        views:
          - id: v
            frame: {x: 0, y: 0, width: 1000, height: 800}
            touches: true
            multipleTouchEnabled: true
            recognizers:
              - {id: pan, type: pan, action: p, cancelsTouchesInView: false}
    """

  @Test("touchctl replay of 10^6 events in one second ends every touch, and its memory stays flat while it prints")
  func aMillionEventsReplayInFlatMemory() throws {
    let directory = scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let recordingPath = directory.appendingPathComponent("flood.evemu").path
    let scenePath = directory.appendingPathComponent("pan.yaml").path
    try EvemuWriter.write(FloodRecording.recording).write(toFile: recordingPath, atomically: true, encoding: .utf8)
    try Self.panScene.write(toFile: scenePath, atomically: true, encoding: .utf8)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: try builtProduct("touchctl"))
    process.arguments = ["replay", recordingPath, "--scene", scenePath]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    // Read the output as it comes; touchctl blocks on the full pipe meanwhile, so a sample every
    // 1000 lines sees the replay at that point.
    var lines = 0
    var began = 0
    var ended = 0
    var lastLine = ""
    var lastAction = ""
    var samples: [Int] = []
    var partial = Data()
    let reader = pipe.fileHandleForReading
    while true {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      partial.append(chunk)
      while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: partial[partial.startIndex..<newline], as: UTF8.self)
        partial.removeSubrange(partial.startIndex...newline)
        lines += 1
        lastLine = line
        if line.hasPrefix(#"{"type":"action""#) { lastAction = line }
        if line.hasPrefix(#"{"type":"touches""#) {
          let count = line.components(separatedBy: #""id":"#).count - 1
          if line.contains(#""phase":"began""#) { began += count }
          if line.contains(#""phase":"ended""#) || line.contains(#""phase":"cancelled""#) { ended += count }
        }
        if lines % 1000 == 0 {
          let rss = residentKiB(process.processIdentifier)
          if rss > 0 { samples.append(rss) }
        }
      }
    }
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    // 323 rounds of ten fingers; the last round is still down at the end and is cancelled, as is
    // the pan.
    #expect(began == FloodRecording.touchCount && began == 3230)
    #expect(ended == began)
    #expect(lastAction.contains(#""state":"cancelled""#), "\(lastAction)")
    #expect(lastLine.hasPrefix(#"{"type":"touches""#) && lastLine.contains(#""phase":"cancelled""#))
    #expect(lastLine.components(separatedBy: #""id":"#).count - 1 == 10, "the last ten fingers, cancelled at the end")
    #expect(samples.count > 40, "\(lines) lines, \(samples.count) samples")
    // Nothing is kept per event, frame or message: from the first thousand lines to the last the
    // resident set of the replay grows by less than 4 MB (memory kept per frame or message would
    // add tens of MB over 32,258 frames). The lowest sample of the first and of the last quarter
    // are compared, past the allocator's passing peaks.
    let quarter = max(1, samples.count / 4)
    let early = try #require(samples.prefix(quarter).min())
    let late = try #require(samples.suffix(quarter).min())
    print(
      "touchctl replay of 1e6 events: \(lines) lines; VmRSS \(early / 1024) MB early, \(late / 1024) MB late, "
        + "\((samples.max() ?? 0) / 1024) MB at most over \(samples.count) samples")
    #expect(late - early < 4 * 1024, "\(early) KiB early, \(late) KiB late")
  }
}
