import ArgumentParser
import Foundation
import TouchdScene

/// `touchctl check SCENE`: validates a scene file and prints every problem in it.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Validate a scene file.",
    discussion: """
      Prints "SCENE: ok (N windows, M views, K recognizers)" and exits 0 when the scene is valid; \
      otherwise prints every error as file:line:column: error: message, one per line, to stderr and exits 1.
      """)

  @Argument(help: "The scene file (YAML).")
  var scene: String

  func run() throws {
    do {
      let loaded = try Scene.load(path: scene)
      let counts = loaded.counts
      print("\(scene): ok (\(counts.windows) windows, \(counts.views) views, \(counts.recognizers) recognizers)")
    } catch {
      var stderr = StandardError()
      for diagnostic in error.diagnostics { print(diagnostic.description, to: &stderr) }
      throw ExitCode.failure
    }
  }
}

/// Standard error as a text stream, for `print(_:to:)`.
struct StandardError: TextOutputStream {
  mutating func write(_ string: String) { FileHandle.standardError.write(Data(string.utf8)) }
}
