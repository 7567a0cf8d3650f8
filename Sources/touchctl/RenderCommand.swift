import ArgumentParser
import Foundation
import TouchdInput
import TouchdProtocol
import TouchdRender
import TouchdScene

/// `touchctl render --scene SCENE [RECORDING [--desc DESC]] -o OUT.svg [--window ID]`: a picture of
/// the scene's views, with a recording's touch paths and actions drawn over them.
struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Draw a scene's windows and views, and a recording's touches and actions, as SVG.",
    discussion: """
      Every view's frame is outlined and labelled with its id and recognizers; hidden, transparent \
      (alpha <= 0.01) and non-interactive views are dimmed or dashed, and hit-test outsets are dotted. \
      A scroll view is its dashed viewport with its content drawn at the content offset and clipped to \
      the viewport, and scroll indicators; the offset is the scene's contentOffset, or with a recording \
      where the recording left it. A control is drawn as what it is (button, switch, slider, stepper, \
      segmented control, page control) in its state, dimmed when disabled: the scene's, or with a recording the state \
      of its last control message. With a recording, each touch's path is drawn in its own colour from a dot at touch-down to a ring \
      at lift (a cross where it was cancelled), in the window the scene's devices globs pick for the \
      recording's device, and every action the scene publishes is marked at its location (continuous \
      gestures at began, ended and cancelled; control events where the finger was). Several windows are stacked vertically in one document, \
      each under a title; a legend explains the styles. With --heatmap the touch-down grid of \
      touchscreen health is drawn over each window, cells shaded by their touch-downs and dead cells \
      outlined: the recording's (replayed as touchctl replay does) when one is given, else the running \
      daemon's (asked over --socket). With --accessibility each accessibility element's frame is \
      outlined and numbered in VoiceOver's reading order (docs/accessibility.md). See docs/render.md \
      and docs/operations.md.
      """)

  @Option(name: .customLong("scene"), help: "The scene file (YAML).")
  var scene: String

  @Argument(help: "A recording to draw over the scene (.evemu, .events, libinput record .yml).")
  var recording: String?

  @Option(name: .customLong("desc"), help: "The evemu device description for an events-only recording.")
  var description: String?

  @Option(
    name: [.customShort("o"), .customLong("output")],
    help: ArgumentHelp("Where to write the SVG ('-' for standard output).", valueName: "out.svg"))
  var output: String

  @Option(name: .customLong("window"), help: "Draw only the window with this id.")
  var window: String?

  @Flag(help: "Draw the touch-down grid of touchscreen health: the recording's, else the daemon's.")
  var heatmap = false

  @Flag(help: "Draw each accessibility element's frame, numbered in VoiceOver's reading order.")
  var accessibility = false

  @OptionGroup var connection: SocketOptions

  func validate() throws {
    if description != nil && recording == nil { throw ValidationError("--desc needs a RECORDING") }
  }

  func run() throws {
    var stderr = StandardError()
    let loadedScene: Scene
    do {
      loadedScene = try Scene.load(path: scene)
    } catch {
      for diagnostic in error.diagnostics { print(diagnostic.description, to: &stderr) }
      throw ExitCode.failure
    }
    var trace: RenderTrace?
    var health: HealthReply?
    if heatmap, recording == nil {
      health = try connection.reply(to: .health, as: HealthReply.self, context: "--heatmap: the daemon's health")
    }
    if let recording {
      do {
        let loaded = try RecordingReader.load(path: recording, descriptionPath: description)
        // One replay makes the picture's trace and, with --heatmap, the recording's health.
        let monitor = heatmap ? TouchHealth() : nil
        trace = try RenderTrace.replaying(loaded, scene: loadedScene, health: monitor)
        if let monitor { health = monitor.report() }
      } catch let error as RecordingError {
        print(error.description, to: &stderr)
        throw ExitCode.failure
      } catch {
        print("\(recording): \(error)", to: &stderr)
        throw ExitCode.failure
      }
    }
    let svg: String
    do {
      var renderer = try SceneRenderer(
        scene: loadedScene, trace: trace, windowID: window, sceneName: Self.fileName(scene),
        recordingName: recording.map(Self.fileName))
      renderer.heatmap = health
      renderer.accessibility = accessibility
      svg = renderer.svg()
    } catch {
      print("\(scene): \(error)", to: &stderr)
      throw ExitCode.failure
    }
    if let trace, let window, trace.windowID != window {
      print("note: \(recording ?? "the recording") feeds window '\(trace.windowID)', not '\(window)'", to: &stderr)
    }
    if output == "-" {
      FileHandle.standardOutput.write(Data(svg.utf8))
      return
    }
    guard FileManager.default.createFile(atPath: output, contents: Data(svg.utf8)) else {
      print("\(output): cannot write the file", to: &stderr)
      throw ExitCode.failure
    }
  }

  private static func fileName(_ path: String) -> String {
    URL(fileURLWithPath: path).lastPathComponent
  }
}
