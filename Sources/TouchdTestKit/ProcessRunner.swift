import Foundation

/// Runs `executable` with `arguments` to completion: its exit status and everything it wrote
/// (tests of the command-line tools through their real binaries).
public func runProcess(_ executable: URL, _ arguments: [String]) throws -> (
  status: Int32, stdout: String, stderr: String
) {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  // Both pipes are read before waiting: a child filling one pipe would otherwise never exit.
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
}

/// Runs the built touchctl (``TestPaths/builtProduct(_:)``) with `arguments` to completion.
public func runTouchctl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
  try runProcess(try TestPaths.builtProduct("touchctl"), arguments)
}
