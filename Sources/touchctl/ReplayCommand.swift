import ArgumentParser
import Foundation
import TouchdInput
import TouchdScene

/// `touchctl replay RECORDING [--desc DESC]`: one JSON line per touch frame; with `--scene SCENE`,
/// the messages the scene publishes for the recording instead.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay an evemu or libinput recording and print its touch frames as JSON lines.",
    discussion: """
      Each line is {"time":T,"touches":[{"id":N,"phase":"began","x":0.25,"y":0.5},...]} with x and y \
      normalized to the device's axis ranges. Touches still down at the end are cancelled in a final frame.

      With --scene, the recording runs through the whole pipeline on virtual time (the first window whose \
      devices match the recording's device, its screen mapping, hit-testing and gesture recognizers) and \
      the action and touches messages are printed instead, one JSON line each, byte for byte the same \
      on every run.
      """)

  @Argument(help: "The recording (.evemu, .events, libinput record .yml).")
  var recording: String

  @Option(name: .customLong("desc"), help: "The evemu device description for an events-only recording.")
  var description: String?

  @Option(name: .customLong("scene"), help: "A scene file: print the messages it publishes instead of frames.")
  var scene: String?

  func run() throws {
    let loaded: Recording
    do {
      loaded = try RecordingReader.load(path: recording, descriptionPath: description)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      throw ExitCode(1)
    }
    if let scene {
      try replayScene(scene, loaded)
      return
    }
    if let message = loaded.notTouchscreenMessage {
      FileHandle.standardError.write(Data("\(message)\n".utf8))
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

  private func replayScene(_ path: String, _ recording: Recording) throws {
    do {
      let scene = try Scene.load(path: path)
      let messages = try ScenePlayer.replay(recording, scene: scene, devicePath: nil)
      let text = messages.map { $0.jsonLine + "\n" }.joined()
      FileHandle.standardOutput.write(Data(text.utf8))
    } catch let error as SceneError {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      throw ExitCode(1)
    } catch SceneRuntimeError.notTouchscreen(let message) {
      // The message names the recording: it is about the device, not the scene.
      FileHandle.standardError.write(Data("\(message)\n".utf8))
      throw ExitCode(1)
    } catch {
      FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
      throw ExitCode(1)
    }
  }
}
