import Foundation
import Testing
import TouchdScene
import TouchdTestKit

/// The scene size bound (issue #20, docs/reliability.md "Limits"): a file over
/// `Scene.maximumFileBytes` is refused unparsed, naming the file, its size and the bound.
@Suite struct SceneSizeLimitTests {
  private let kiosk = TestPaths.config("kiosk.yaml").path

  /// The kiosk scene padded with a comment to `size` bytes, written to a temporary file.
  private func paddedScene(size: Int) throws -> String {
    let text = try String(contentsOfFile: kiosk, encoding: .utf8)
    let padded = text + "#" + String(repeating: "x", count: size - text.utf8.count - 2) + "\n"
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-size-\(size)-\(getpid()).yaml")
      .path
    try padded.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func aSceneOfTheBoundLoadsAndOneByteMoreIsRefused() throws {
    #expect(Scene.maximumFileBytes == 2_097_152)
    let fits = try paddedScene(size: Scene.maximumFileBytes)
    defer { try? FileManager.default.removeItem(atPath: fits) }
    #expect(try Scene.load(path: fits).counts.views == 6)
    let over = try paddedScene(size: Scene.maximumFileBytes + 1)
    defer { try? FileManager.default.removeItem(atPath: over) }
    #expect(throws: SceneError.self) { try Scene.load(path: over) }
    do {
      _ = try Scene.load(path: over)
    } catch {
      #expect(
        error.description
          == "\(over): error: the file is 2097153 bytes, more than the limit of 2097152 bytes for a scene")
    }
  }

  @Test func aFileWithoutEndIsReadOnlyUpToTheBound() {
    let start = Date()
    do {
      _ = try Scene.load(path: "/dev/zero", maximumBytes: 4096)
      Issue.record("/dev/zero loaded")
    } catch {
      #expect(error.description == "/dev/zero: error: the file is more than the limit of 4096 bytes for a scene")
    }
    #expect(Date().timeIntervalSince(start) < 1)
  }
}
