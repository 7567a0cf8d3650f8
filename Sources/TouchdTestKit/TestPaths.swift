import Foundation

/// Where the tests' data lives: the repository, the recordings it carries, and the shared recordings
/// that sit beside it (`../shared/recordings`, which CI lays next to every clone). One place for
/// every test target, so no test finds the repository its own way.
public enum TestPaths {
  /// The repository root, found from this file's path (Sources/TouchdTestKit/TestPaths.swift).
  public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// A path inside the repository.
  public static func repository(_ relative: String) -> String {
    repositoryRoot.appendingPathComponent(relative).path
  }

  /// An example scene of config/ (`kiosk.yaml`, …).
  public static func config(_ name: String) -> URL {
    repositoryRoot.appendingPathComponent("config").appendingPathComponent(name)
  }

  /// The real recordings the repository carries (Tests/TouchdInputTests/Fixtures/recordings,
  /// with their sources in ATTRIBUTION.md there).
  public static let carriedRecordings = repository("Tests/TouchdInputTests/Fixtures/recordings")
  /// The real pen recordings (issue #41), with their sources in SOURCES.md.
  public static let penRecordings = repositoryRoot.appendingPathComponent("Tests/TouchdSceneTests/Fixtures/pens")

  /// A product of this package's build (`touchd`, `touchctl`): beside the test bundle, else in
  /// the package's `.build/debug`. Throws when it is not built: a test of a binary never passes
  /// by skipping it.
  public static func builtProduct(_ name: String) throws -> URL {
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [
      Bundle.main.bundleURL.appendingPathComponent(name),
      bundleDirectory.appendingPathComponent(name),
      bundleDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(name),
      repositoryRoot.appendingPathComponent(".build/debug/\(name)"),
    ]
    guard let built = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
      throw NotBuilt(product: name)
    }
    return built
  }

  /// `../shared/recordings` beside the repository. A test that needs them fails when they are
  /// absent, naming the path: it never passes by skipping.
  public static func sharedRecordings() throws -> String {
    let path = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/recordings").path
    guard FileManager.default.fileExists(atPath: path + "/SOURCES.md") else { throw MissingFixture(path: path) }
    return path
  }
}

/// A test's data is not where the test looks for it.
public struct MissingFixture: Error, CustomStringConvertible {
  public let path: String
  public var description: String {
    "\(path) is absent: the shared recordings must sit beside the repository, as CI lays them (../shared)"
  }
}

/// A binary a test runs was not built.
public struct NotBuilt: Error, CustomStringConvertible {
  public let product: String
  public var description: String { "\(product) is not built: run swift build --build-tests first" }
}
