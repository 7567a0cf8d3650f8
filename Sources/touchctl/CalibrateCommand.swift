import ArgumentParser
import Foundation
import TouchdConnection
import TouchdProtocol
import TouchdScene

/// `touchctl calibrate`: the calibration flow from a terminal, for a panel whose app cannot draw
/// targets: prompts for each target, prints the fit, and can apply it, write it into the scene file
/// or into a udev rule.
struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Calibrate a window's touchscreen: touch each target when asked, get the matrix.",
    discussion: """
      Sends {"cmd":"calibrate"} (docs/protocol.md): until the last target is touched, the window's \
      touches go to the calibration, not to its views. Touch each target where the screen shows it \
      (the app draws them; without one, mark them on the glass: the prompt gives each in window \
      points). The default targets are the window's four corners 10% in and its centre.

      The fit is printed with each target's error in points and a warning when it is poor. \
      --apply sets it on the running window (a set command); --write-scene FILE writes it as the \
      window's calibration: in the scene file (comments and layout kept); --udev-rule FILE writes a \
      udev rule that gives the device the matrix as LIBINPUT_CALIBRATION_MATRIX, for libinput and \
      touchd alike (then keep the scene's calibration the identity, or both apply).
      """)

  @OptionGroup var connection: SocketOptions
  @Option(help: "The window to calibrate (default: the scene's first).") var window: String?
  @Option(
    help: ArgumentHelp(
      "The targets in window points, 3 to 9: \"X,Y X,Y ...\" (default: corners 10% in, and the centre).",
      valueName: "X,Y ..."))
  var targets: String?
  @Option(help: "Seconds to wait for the touches.") var timeout: Double = 120
  @Flag(help: "Set the fitted matrix on the running window.") var apply = false
  @Option(help: ArgumentHelp("Write the matrix as the window's calibration: in this scene file.", valueName: "FILE"))
  var writeScene: String?
  @Option(help: ArgumentHelp("Write a udev rule with the matrix as LIBINPUT_CALIBRATION_MATRIX.", valueName: "FILE"))
  var udevRule: String?

  func run() throws {
    let client = try connection.connect()
    guard let helloLine = try client.readLine(timeout: 10),
      let hello = try? StrictJSONDecoder.decode(HelloMessage.self, line: helloLine), let first = hello.windows.first
    else { throw ValidationError("touchd sent no hello with its windows") }
    let name = window ?? first.id
    guard let spec = hello.windows.first(where: { $0.id == name }) else {
      throw ValidationError(
        "touchd has no window '\(name)' (it has \(hello.windows.map(\.id).joined(separator: ", ")))")
    }
    let points = try targets.map(Self.parseTargets) ?? Self.defaultTargets(width: spec.width, height: spec.height)
    Self.say("Calibrating window '\(name)' (\(Self.number(spec.width)) × \(Self.number(spec.height)) points).")
    Self.say("Touch target 1 of \(points.count) at \(Self.describe(points[0])), and lift.")
    let calibrate = TouchdProtocol.CalibrateCommand(window: name, targets: points, timeout: timeout)
    let line = try client.answer(.calibrate(calibrate), timeout: timeout + 10) { other in
      guard BlockingConnection.type(of: other) == "calibration",
        let notice = try? StrictJSONDecoder.decode(CalibrationMessage.self, line: other)
      else { return }
      let done = notice.target
      Self.say("  target \(done): touched")
      if done < points.count {
        Self.say("Touch target \(done + 1) of \(points.count) at \(Self.describe(points[done])).")
      }
    }
    guard BlockingConnection.type(of: line) == "reply",
      let reply = try? StrictJSONDecoder.decode(CalibrateReply.self, line: line), reply.matrix.count == 6
    else {
      let message = (try? StrictJSON.parse(line))?["message"]?.stringValue ?? line
      throw ValidationError("calibration failed: \(message)")
    }
    let matrix = reply.matrix
    Self.say(Self.report(reply))
    if apply {
      let change = WindowChange(calibration: matrix)
      let set = try client.answer(.setWindow(SetWindowCommand(window: name, change: change)))
      guard BlockingConnection.type(of: set) == "reply" else {
        throw ValidationError("touchd refused the new calibration: \(set)")
      }
      Self.say("Applied to window '\(name)'.")
    }
    if let path = writeScene {
      let text = try String(contentsOfFile: path, encoding: .utf8)
      let edited: String
      do {
        edited = try SceneCalibrationEdit.setting(matrix, window: name, in: text, file: path)
      } catch {
        throw ValidationError(error.description)
      }
      try edited.write(toFile: path, atomically: true, encoding: .utf8)
      Self.say("Wrote calibration: to window '\(name)' of \(path) (reload touchd to use it from the file).")
    }
    if let path = udevRule {
      let udevMatrix = reply.udevMatrix
      guard let deviceName = reply.device?.name else {
        throw ValidationError("touchd did not name the calibrated device (a replay?): no udev rule written")
      }
      try SceneCalibrationEdit.udevRule(deviceName: deviceName, matrix: udevMatrix).write(
        toFile: path, atomically: true, encoding: .utf8)
      Self.say("Wrote \(path); install it in /etc/udev/rules.d, then: udevadm control --reload && udevadm trigger")
    }
  }

  /// Writes a line at once, unbuffered: each prompt must show when it is due, on a terminal or a
  /// pipe (`print` holds its lines until exit when standard output is not a terminal).
  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// `"X,Y X,Y ..."` as points; a malformed one is an error naming it.
  static func parseTargets(_ text: String) throws -> [Scene.Point] {
    try text.split(whereSeparator: { $0 == " " || $0 == ";" }).enumerated().map { i, pair in
      let parts = pair.split(separator: ",")
      guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else {
        throw ValidationError("--targets: target \(i + 1) \"\(pair)\" is not X,Y")
      }
      return Scene.Point(x: x, y: y)
    }
  }

  /// The four corners 10% in, then the centre: five targets, one more than an exact fit needs, so
  /// a missed one shows in the residual.
  static func defaultTargets(width: Double, height: Double) -> [Scene.Point] {
    let (left, right, top, bottom) = (width * 0.1, width * 0.9, height * 0.1, height * 0.9)
    return [
      Scene.Point(x: left, y: top), Scene.Point(x: right, y: top), Scene.Point(x: right, y: bottom),
      Scene.Point(x: left, y: bottom), Scene.Point(x: width / 2, y: height / 2),
    ]
  }

  static func number(_ value: Double) -> String { CalibrationFit.points(value) }

  static func describe(_ p: Scene.Point) -> String { "(\(number(p.x)), \(number(p.y)))" }

  /// The reply as lines: the matrix, each target's error, the warning.
  static func report(_ reply: CalibrateReply) -> String {
    var lines = ["Matrix: " + CalibrationFit.numbers(reply.matrix).joined(separator: " ")]
    for (i, point) in reply.points.enumerated() {
      lines.append("  target \(i + 1): off by \(number(point.error)) pt")
    }
    lines.append("Residual: \(number(reply.rmsError)) pt RMS, \(number(reply.maxError)) pt at most")
    if let warning = reply.warning { lines.append("Warning: \(warning)") }
    return lines.joined(separator: "\n")
  }
}
