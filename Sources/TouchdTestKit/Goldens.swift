import Foundation

/// Whether tests should rewrite checked-in expectations (goldens, the schemas) instead of comparing:
/// `TOUCHD_UPDATE_GOLDEN=1`.
public var updatingGoldens: Bool { ProcessInfo.processInfo.environment["TOUCHD_UPDATE_GOLDEN"] == "1" }

/// The python3 with jsonschema, the schemas' second validator: the one on the PATH, else Debian's
/// (scripts/setup.sh installs python3-jsonschema when neither has it). Throws when none has it:
/// the cross-check never passes by skipping.
public let jsonSchemaPython: Result<String, MissingPython> = {
  for candidate in ["python3", "/usr/bin/python3"] {
    if let probe = try? runCollectingOutput(["/usr/bin/env", candidate, "-c", "import jsonschema"]), probe.status == 0 {
      return .success(candidate)
    }
  }
  return .failure(MissingPython())
}()

/// No python3 with jsonschema was found.
public struct MissingPython: Error, CustomStringConvertible {
  public var description: String { "no python3 with jsonschema: run scripts/setup.sh (Debian's python3-jsonschema)" }
}

/// Runs `python3 -c script args…` with ``jsonSchemaPython``: its status, and its standard output
/// and error together.
public func runPython(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
  try runCollectingOutput(["/usr/bin/env", try jsonSchemaPython.get(), "-c", script] + arguments)
}

/// Runs `command`, its standard output and error together.
private func runCollectingOutput(_ command: [String]) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: command[0])
  process.arguments = Array(command.dropFirst())
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
