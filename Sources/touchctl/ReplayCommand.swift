import ArgumentParser
import Foundation
import TouchdInput
import TouchdScene

/// `touchctl replay RECORDING... [--desc DESC]`: one JSON line per touch or key frame; with `--scene
/// SCENE`, the messages the scene publishes for the recordings instead (`--trace`: with trace
/// messages, `--explain`: as readable lines; `--at SECONDS JSON`: commands applied at a time).
/// Several recordings (files, or the devices of a `libinput record` file) replay together, merged
/// by time, as the daemon reads several devices.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay evemu or libinput recordings and print their touch and key frames as JSON lines.",
    discussion: """
      Each line is {"time":T,"touches":[{"id":N,"phase":"began","x":0.25,"y":0.5},...]} with x and y \
      normalized to the device's axis ranges. Touches still down at the end are cancelled in a final frame. \
      A pen display's frames add the pen, near or touching, as "pen":{"proximity":true,"x":...,"y":..., \
      "altitudeAngle":...,"azimuthAngle":...,"buttons":[...],"eraser":false}, and its tip's touch \
      "type":"pencil" with its "force" (docs/pens.md).

      A device with keys (a keypad, gpio-keys buttons, a touchscreen's own keys) prints key frames, \
      {"time":T,"keys":[{"code":28,"name":"KEY_ENTER","phase":"down"}]}, phase down, up or cancelled \
      (keys still down at the end). Several RECORDINGs, and the devices of a multi-device libinput \
      record file, replay together, merged by time; every line then carries "device":N after the time, \
      N counting the devices from 0 in the order given (docs/protocol.md, "touchctl replay output").

      With --scene, the recordings run through the whole pipeline on virtual time (the first window whose \
      devices match a touchscreen, its screen mapping, hit-testing and gesture recognizers; the first \
      window whose keys.devices match a key device, its presses) and the messages are printed instead, \
      one JSON line each, byte for byte the same on every run. A recording that no window takes, as \
      touches or as keys, is an error naming it.

      --trace adds the trace messages (every recognizer state change with its cause, touches held and \
      released…): the lines touchd sends a client subscribed to types action, touches and trace. \
      --explain prints the same steps as readable lines instead, time first as seconds after the \
      recording's first event:
        +0.412 door-tap: possible → failed: moved 46.2 pt > allowableMovement 45
      (docs/explain.md).

      --at SECONDS JSON (repeatable) applies a command when the replay's clock reaches the recording's \
      first event + SECONDS, before a frame at that time: the JSON object a client sends touchd, \
      {"cmd":"ignoreInteraction","value":true}, {"cmd":"set","view":"door","hidden":true} or \
      {"cmd":"update","op":"remove","view":"door"}. Give the recordings before the --at options.

      --forward OUT (with --scene) also writes what touchd would send to the virtual touchscreen of each \
      recording a window with forward: takes, as an evemu recording: the virtual device's description, \
      then its events on the replay's clock (docs/forward.md). With one such recording the file is OUT; \
      with several, one file per recording, named OUT with the recording's number (from 0, in the order \
      given) before its extension: --forward fwd.evemu writes fwd.0.evemu and fwd.1.evemu. A scene \
      without forward: on any window is an error.

      --coalesced and --predicted (with --scene) add those entries to each touches message, as touchd \
      sends them to a client subscribed with "coalesced": true and "predicted": true: every kernel frame \
      of the call's moving touches since their last message, and positions 8 and 16 ms ahead of the \
      touches still down, each {"id":N,"x":X,"y":Y,"time":T} (docs/protocol.md, "Coalesced and predicted \
      touches").

      --prediction-error (without --scene) measures the prediction instead: for every frame a touch \
      moved in, the distance between its predicted position 8 and 16 ms ahead and where it was then \
      (interpolated between its frames; none past the touch's end), in points of a 1920x1080 window the \
      device's axes span; prints the mean and p95 per recording and over all, beside not predicting \
      (docs/performance.md, "Touch prediction").
      """)

  @Argument(help: "The recordings (.evemu, .events, libinput record .yml), replayed together.")
  var recordings: [String] = []

  @Option(
    name: .customLong("desc"), help: "The evemu device description for an events-only recording (one RECORDING).")
  var description: String?

  @Option(name: .customLong("scene"), help: "A scene file: print the messages it publishes instead of frames.")
  var scene: String?

  @Flag(name: .customLong("trace"), help: "With --scene: print the trace messages too (JSON lines).")
  var trace = false

  @Option(
    name: .customLong("udev-property"),
    help: ArgumentHelp(
      "With --scene: a udev property of the recorded devices, KEY=VALUE (repeatable), for windows whose devices match KEY=GLOB patterns.",
      valueName: "KEY=VALUE"))
  var udevProperties: [String] = []

  @Flag(
    name: .customLong("explain"),
    help: "With --scene: print every recognizer state change with its cause, touches and actions as text.")
  var explain = false

  @Option(
    name: .customLong("at"), parsing: .upToNextOption,
    help: ArgumentHelp(
      "With --scene: apply a command (touchd's socket JSON) at SECONDS after the first event (repeatable).",
      valueName: "SECONDS JSON"))
  var at: [String] = []

  @Option(
    name: .customLong("forward"),
    help: ArgumentHelp(
      "With --scene: write the virtual touchscreen's events as an evemu recording (one file per forwarded device: OUT.N.ext when several).",
      valueName: "OUT"))
  var forward: String?

  @Flag(name: .customLong("coalesced"), help: "With --scene: touches messages list their coalesced frames.")
  var coalesced = false

  @Flag(name: .customLong("predicted"), help: "With --scene: touches messages list predicted positions.")
  var predicted = false

  @Flag(
    name: .customLong("prediction-error"),
    help: "Measure the touch prediction's error on the recordings (mean, p95 at 8 and 16 ms) instead.")
  var predictionError = false

  func validate() throws {
    if recordings.isEmpty { throw ValidationError("give a recording (several replay together)") }
    if description != nil && recordings.count > 1 {
      throw ValidationError("--desc describes one recording; give a single RECORDING with it")
    }
    if scene == nil {
      for (flag, given) in [
        ("--trace", trace), ("--explain", explain), ("--at", !at.isEmpty), ("--forward", forward != nil),
        ("--coalesced", coalesced), ("--predicted", predicted),
      ]
      where given {
        throw ValidationError("\(flag) needs --scene")
      }
    }
    if trace && explain { throw ValidationError("--trace and --explain are alternatives: give one") }
    if predictionError && scene != nil { throw ValidationError("--prediction-error measures frames: give no --scene") }
  }

  /// The `--at` pairs as timed commands; errors name the argument.
  func timedCommands() throws(AtArgumentError) -> [ScenePlayer.TimedCommand] {
    guard at.count.isMultiple(of: 2) else {
      throw AtArgumentError(
        "--at takes SECONDS and a JSON command, got \(at.count) value(s): \(at.joined(separator: " ")) "
          + "(give the recording before --at)")
    }
    var commands: [ScenePlayer.TimedCommand] = []
    for i in stride(from: 0, to: at.count, by: 2) {
      let (seconds, json) = (at[i], at[i + 1])
      let label = "--at \(seconds) \(json)"
      guard let offset = Double(seconds), offset.isFinite, offset >= 0 else {
        throw AtArgumentError("\(label): '\(seconds)' is not a number of seconds (0 or more)")
      }
      do {
        commands.append(ScenePlayer.TimedCommand(at: offset, try SceneCommand.parse(json: json), label: label))
      } catch {
        throw AtArgumentError("\(label): \(error)")
      }
    }
    return commands
  }

  func run() throws {
    let loaded: [Recording]
    do {
      if let description {
        loaded = try RecordingReader.loadAll(path: recordings[0], descriptionPath: description)
      } else {
        loaded = try RecordingReader.loadAll(paths: recordings)
      }
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      throw ExitCode(1)
    }
    if let scene {
      try replayScene(scene, loaded)
      return
    }
    if predictionError {
      try measurePrediction(loaded)
      return
    }
    let readings = loaded.map(MultiReplay.Reading.unscened)
    for (recording, reading) in zip(loaded, readings) where !reading.touches && !reading.keys {
      // Neither a touchscreen nor a device with keys: the message names the file and the device.
      FileHandle.standardError.write(Data("\(recording.notTouchscreenMessage ?? recording.source)\n".utf8))
      throw ExitCode(1)
    }
    let device: (Int) -> Int? = { loaded.count > 1 ? $0 : nil }
    var output = LineOutput()
    func emit(_ index: Int, _ frame: DeviceFrame) {
      switch frame {
      case .touches(let touches): output.write(FrameJSON.line(touches, device: device(index)))
      case .keys(let keys): output.write(FrameJSON.line(keys, device: device(index)))
      }
    }
    let replay = MultiReplay(loaded, readings: readings)
    replay.feed(emit)
    replay.cancelAll(at: replay.endTime ?? Timestamp(microseconds: 0), emit)
    output.flush()
  }

  /// `--prediction-error`: one JSON line per touchscreen recording, then one for all of them
  /// (`"recording":null`), each with the figures at 8 and 16 ms (``PredictionError``).
  private func measurePrediction(_ loaded: [Recording]) throws {
    var output = LineOutput()
    defer { output.flush() }
    var all = PredictionError()
    for recording in loaded where recording.notTouchscreenMessage == nil {
      var frames: [TouchFrame] = []
      let replay = MultiReplay([recording], readings: [MultiReplay.Reading(touches: true, keys: false)])
      func collect(_ index: Int, _ frame: DeviceFrame) { if case .touches(let f) = frame { frames.append(f) } }
      replay.feed(collect)
      replay.cancelAll(at: replay.endTime ?? Timestamp(microseconds: 0), collect)
      let measured = PredictionError(frames: frames)
      all.add(measured)
      output.write(Self.predictionLine(recording.source, measured))
    }
    output.write(Self.predictionLine(nil, all))
  }

  /// `{"recording":R,"horizons":[{"ms":8,"samples":N,"mean":…,"p95":…,"unpredictedMean":…,"unpredictedP95":…},…]}`,
  /// distances in points rounded to hundredths; a horizon with nothing to compare is left out.
  static func predictionLine(_ recording: String?, _ error: PredictionError) -> String {
    func points(_ value: Double) -> String { JSONFormat.number((value * 100).rounded() / 100) }
    let horizons = error.figures.compactMap { $0 }.map { f in
      #"{"ms":\#(Int((f.horizon * 1000).rounded())),"samples":\#(f.samples),"mean":\#(points(f.mean)),"#
        + #""p95":\#(points(f.p95)),"unpredictedMean":\#(points(f.unpredictedMean)),"#
        + #""unpredictedP95":\#(points(f.unpredictedP95))}"#
    }
    let name = recording.map { JSONFormat.string(($0 as NSString).lastPathComponent) } ?? "null"
    return #"{"recording":\#(name),"horizons":[\#(horizons.joined(separator: ","))]}"#
  }

  /// The touches entries `--coalesced` and `--predicted` ask for.
  private var touchesEntries: TouchesMessage.Entries {
    var entries: TouchesMessage.Entries = []
    if coalesced { entries.insert(.coalesced) }
    if predicted { entries.insert(.predicted) }
    return entries
  }

  /// `--udev-property KEY=VALUE` as a dictionary; a KEY that is not a udev property name is an error.
  private func properties() throws -> [String: String] {
    var out: [String: String] = [:]
    for text in udevProperties {
      guard let (key, value) = SceneRuntime.propertyPattern(text) else {
        throw ValidationError(
          "--udev-property \(text): expected KEY=VALUE with KEY a udev property name (capitals, digits, _)")
      }
      out[key] = value
    }
    return out
  }

  private func replayScene(_ path: String, _ recordings: [Recording]) throws {
    let deviceProperties = try properties()
    let commands: [ScenePlayer.TimedCommand]
    do {
      commands = try timedCommands()
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      throw ExitCode(1)
    }
    do {
      let loaded = try Scene.loadDocument(path: path)
      let scene = loaded.scene
      var collector: ScenePlayer.ForwardCollector?
      if forward != nil {
        guard scene.windows.contains(where: { $0.forward != nil }) else {
          FileHandle.standardError.write(
            Data("\(path): --forward: no window of the scene has forward: (docs/forward.md)\n".utf8))
          throw ExitCode(1)
        }
        collector = ScenePlayer.ForwardCollector()
      }
      let origin = ScenePlayer.origin(of: recordings)
      // Printed as the replay goes: a bad --at command met midway ends it with the lines before.
      var output = LineOutput()
      defer { output.flush() }
      try ScenePlayer.run(
        recordings, scene: scene, deviceProperties: deviceProperties, commands: commands, trace: trace || explain,
        document: loaded.json, forwarding: collector, touchesEntries: touchesEntries
      ) { step in
        if explain {
          output.write(Explanation.line(step, origin: origin))
        } else if case .message(let message) = step {
          output.write(message.jsonLine)
        }
      }
      if let forward, let collector { try writeForwarded(collector.devices, to: forward, scene: path, scene) }
    } catch let error as ExitCode {
      throw error
    } catch let error as SceneError {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      throw ExitCode(1)
    } catch SceneRuntimeError.notTouchscreen(let message) {
      // The message names the recording: it is about the device, not the scene.
      FileHandle.standardError.write(Data("\(message)\n".utf8))
      throw ExitCode(1)
    } catch SceneRuntimeError.noWindow(let device) where recordings.count > 1 {
      // Which of the recordings holds the device no window takes.
      let sources = recordings.filter { $0.description.name == device }.map(\.source)
      let error = SceneRuntimeError.noWindow(device: device)
      FileHandle.standardError.write(
        Data("\(path): \(error) (recorded in \(sources.joined(separator: ", ")))\n".utf8))
      throw ExitCode(1)
    } catch let error as SceneRuntimeError {
      if case .timedCommand = error {
        // The message names the --at argument.
        FileHandle.standardError.write(Data("\(error)\n".utf8))
      } else {
        FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
      }
      throw ExitCode(1)
    } catch {
      FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
      throw ExitCode(1)
    }
  }
}

extension ReplayCommand {
  /// Where `--forward OUT` writes the virtual device of recording `source` when `count` recordings
  /// are forwarded: OUT itself for one, else OUT with `.source` before its extension
  /// (`fwd.evemu` → `fwd.1.evemu`; `fwd` → `fwd.1`).
  static func forwardPath(_ out: String, source: Int, count: Int) -> String {
    guard count > 1 else { return out }
    let slash = out.lastIndex(of: "/")
    if let dot = out.lastIndex(of: "."), slash.map({ dot > $0 }) ?? true, dot != out.startIndex,
      out[out.index(before: dot)] != "/"
    {
      return "\(out[..<dot]).\(source)\(out[dot...])"
    }
    return "\(out).\(source)"
  }

  /// Writes each forwarded device's recording as evemu text.
  private func writeForwarded(
    _ devices: [ScenePlayer.ForwardedDevice], to out: String, scene path: String, _ scene: Scene
  ) throws {
    guard !devices.isEmpty else {
      let windows = scene.windows.filter { $0.forward != nil }.map { "'\($0.id)'" }.joined(separator: ", ")
      FileHandle.standardError.write(
        Data(
          "\(path): --forward: no recording feeds a window with forward: (\(windows)); check the windows' devices\n"
            .utf8))
      throw ExitCode(1)
    }
    for device in devices {
      let file = Self.forwardPath(out, source: device.source, count: devices.count)
      do {
        try EvemuWriter.write(device.recording).write(toFile: file, atomically: true, encoding: .utf8)
      } catch {
        FileHandle.standardError.write(Data("--forward: cannot write \(file): \(error.localizedDescription)\n".utf8))
        throw ExitCode(1)
      }
    }
  }
}

/// A `--at` argument that is not SECONDS and a command; the message names it.
struct AtArgumentError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
