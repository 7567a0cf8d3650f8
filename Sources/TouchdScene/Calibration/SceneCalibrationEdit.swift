import Foundation
import Yams

/// Writes a calibration into a scene file's text, changing nothing else (comments, order and
/// layout stay): what `touchctl calibrate --write-scene` does.
public enum SceneCalibrationEdit {
  /// Why the text could not be edited; the message names the place.
  public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// `text` with window `window`'s `calibration:` set to `matrix`: its value replaced when the key
  /// is there as a one-line list, or a `calibration:` line added under the window's `id:` line (a
  /// block mapping). The result is checked to parse as a scene with the new matrix. `file` names
  /// the text in errors.
  public static func setting(
    _ matrix: [Double], window: String, in text: String, file: String
  ) throws(Failure) -> String {
    let root: Node?
    do {
      root = try Yams.compose(yaml: text, .basic)
    } catch {
      throw Failure(description: "\(file): not YAML: \(error)")
    }
    guard let windows = root?.mapping?["windows"]?.sequence else {
      throw Failure(description: "\(file): no windows list")
    }
    guard let spec = windows.first(where: { $0.mapping?["id"]?.string == window }), let mapping = spec.mapping
    else {
      throw Failure(description: "\(file): no window '\(window)'")
    }
    let value = "[" + CalibrationFit.numbers(matrix).joined(separator: ", ") + "]"
    var lines = text.components(separatedBy: "\n")
    if let (key, old) = mapping.first(where: { $0.key.string == "calibration" }) {
      guard let mark = old.mark, case .sequence = old, mark.line >= 1, mark.line <= lines.count,
        let line = Optional(lines[mark.line - 1]),
        let close = line.unicodeScalars.lastIndex(of: "]")
      else {
        throw Failure(
          description:
            "\(file):\(key.mark?.line ?? 1): the calibration of window '\(window)' is not a one-line list; set it to \(value) by hand"
        )
      }
      let scalars = Array(line.unicodeScalars)
      let start = mark.column - 1
      let end = line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: close)
      guard start >= 0, start < end, scalars[start] == "[" else {
        throw Failure(
          description:
            "\(file):\(mark.line):\(mark.column): the calibration of window '\(window)' is not a one-line [..] list; set it to \(value) by hand"
        )
      }
      var edited = String.UnicodeScalarView()
      edited.append(contentsOf: scalars[..<start])
      edited.append(contentsOf: value.unicodeScalars)
      edited.append(contentsOf: scalars[(end + 1)...])
      lines[mark.line - 1] = String(edited)
    } else {
      guard let idKey = mapping.keys.first(where: { $0.string == "id" }), let mark = idKey.mark,
        case .mapping(let m) = spec, m.style != .flow, mark.line >= 1, mark.line <= lines.count
      else {
        throw Failure(
          description:
            "\(file):\(spec.mark?.line ?? 1): window '\(window)' is written on one line; add calibration: \(value) to it by hand"
        )
      }
      // The window's keys line up under its `id:` key.
      let indent = String(repeating: " ", count: mark.column - 1)
      lines.insert("\(indent)calibration: \(value)", at: mark.line)
    }
    let result = lines.joined(separator: "\n")
    do {
      let scene = try Scene.parse(result, file: file)
      guard scene.windows.first(where: { $0.id == window })?.calibration.count == 6 else {
        throw Failure(description: "\(file): the edited scene lost window '\(window)'")
      }
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure(description: "\(file): the edited scene does not validate: \(error)")
    }
    return result
  }

  /// A udev rule that gives the input device named `deviceName` the matrix as
  /// `LIBINPUT_CALIBRATION_MATRIX` (libinput's property, which touchd reads too): what `touchctl
  /// calibrate --udev-rule` writes. The name is matched with `ATTRS{name}`, quotes and backslashes
  /// escaped as udev's rule syntax wants.
  public static func udevRule(deviceName: String, matrix: [Double]) -> String {
    let escaped = deviceName.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    let values = CalibrationFit.numbers(matrix).joined(separator: " ")
    return """
      # Written by touchctl calibrate. Install in /etc/udev/rules.d (before touchd's 70-touchd.rules),
      # then: udevadm control --reload && udevadm trigger --subsystem-match=input --action=change
      SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="\(escaped)", ENV{LIBINPUT_CALIBRATION_MATRIX}="\(values)"

      """
  }
}
