import ArgumentParser
import Foundation
import TouchdInput

/// `touchctl replay RECORDING [--desc DESC]`: one JSON line per touch frame.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay an evemu or libinput recording and print its touch frames as JSON lines.",
    discussion: """
      Each line is {"time":T,"touches":[{"id":N,"phase":"began","x":0.25,"y":0.5},...]} with x and y \
      normalized to the device's axis ranges. Touches still down at the end are cancelled in a final frame.
      """)

  @Argument(help: "The recording (.evemu, .events, libinput record .yml).")
  var recording: String

  @Option(name: .customLong("desc"), help: "The evemu device description for an events-only recording.")
  var description: String?

  func run() throws {
    let loaded: Recording
    do {
      loaded = try RecordingReader.load(path: recording, descriptionPath: description)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      throw ExitCode(1)
    }
    var buffer = ""
    Replay.forEachFrame(of: loaded) { frame in
      buffer += FrameJSON.line(frame)
      buffer += "\n"
      if buffer.utf8.count > 1 << 16 {
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
      }
    }
    FileHandle.standardOutput.write(Data(buffer.utf8))
  }
}
