import Foundation

/// Lines for standard output, written in 64 KiB blocks: a replay of a million events prints as it
/// goes, in constant memory, without one write per line.
struct LineOutput {
  private var buffer = ""

  /// Adds `line` and a newline; writes the block once it passes 64 KiB.
  mutating func write(_ line: String) {
    buffer += line
    buffer += "\n"
    if buffer.utf8.count > 1 << 16 { flush() }
  }

  /// Writes what is buffered.
  mutating func flush() {
    guard !buffer.isEmpty else { return }
    FileHandle.standardOutput.write(Data(buffer.utf8))
    buffer = ""
  }
}
