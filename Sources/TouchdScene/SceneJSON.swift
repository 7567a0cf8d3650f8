import Dispatch
import Foundation

extension Scene {
  /// Parses and validates a scene given as a JSON object of the YAML format (the `scene` command:
  /// an app that knows its layout hands it over). The same validator as for files checks it,
  /// with the same messages; each problem is placed by its path from the scene object
  /// (`scene.windows[0].views[3].fram: error: unknown key 'fram' in view 'buy' (did you mean
  /// 'frame'?)`, `name` first), since a client's scene is one line. A scene whose JSON is larger
  /// than ``maximumFileBytes`` is refused before it is validated.
  ///
  /// The validator walks the JSON itself (``SceneNode/make(json:)``, which holds it to what YAML
  /// composing its text would: no key twice in an object), and the scene is decoded from the same
  /// tree (SceneDecoding.swift); the line is parsed once (docs/performance.md, "Scene push").
  public static func parse(json value: StrictJSON, name: String = "scene") throws(SceneError) -> Scene {
    try parse(json: value, name: name, decodingConcurrently: nil)
  }

  /// ``parse(json:name:)``; `decodingConcurrently`: whether the scene is decoded while it is
  /// validated, on another thread (nil: when its JSON is at least ``concurrentDecodingBytes``).
  /// The result is the same either way, which the tests hold it to.
  static func parse(json value: StrictJSON, name: String, decodingConcurrently: Bool?) throws(SceneError) -> Scene {
    func failure(_ message: String) -> SceneError {
      SceneError(diagnostics: [SceneDiagnostic(file: name, line: 0, column: 0, message: message)])
    }
    guard case .object = value else {
      throw failure("expected the scene as a JSON object, found \(value.shortDescription)")
    }
    // The tree the validator walks, made with the size of the scene as one line (the compact form
    // escapes every control character, line breaks included), which is checked first.
    let (tree, bytes, duplicateKeys) = SceneNode.make(json: value)
    guard bytes <= maximumFileBytes else {
      throw failure(
        "the scene is \(bytes) bytes of JSON, more than the limit of \(maximumFileBytes) bytes for a scene")
    }
    /// The diagnostics, placed in the compact text, placed by their paths instead.
    func placed(_ diagnostics: [SceneDiagnostic]) -> SceneError {
      let text = value.compact
      return SceneError(
        diagnostics: diagnostics.map { diagnostic in
          var d = diagnostic
          if d.line > 0 { d.path = JSONPath.at(column: d.column, in: text) }
          d.message = placesAsPaths(d.message, in: text, name: name)
          return d
        })
    }
    if let error = duplicateKeys {
      throw placed([
        duplicateKeysDiagnostic(error.keys, line: error.place.line, column: error.place.column, file: name)
      ])
    }
    let (diagnostics, decoded) = validateAndDecode(
      tree, file: name, concurrently: decodingConcurrently ?? (bytes >= concurrentDecodingBytes))
    guard diagnostics.isEmpty else { throw placed(diagnostics) }
    do {
      return try decoded.get()
    } catch {
      throw placed(error.diagnostics)
    }
  }

  /// From how many bytes of JSON a pushed scene is decoded while it is validated, on the
  /// machine's other core (``validateAndDecode(_:file:concurrently:)``): 64 KiB, the size from
  /// which the server parses a line off its event loop (a few hundred views); below it the
  /// scene takes a few milliseconds and handing half to another thread gains nothing.
  static let concurrentDecodingBytes = 64 * 1024

  /// The validator's diagnostics for `tree` and the scene decoded from it, which counts only when
  /// there are none. `concurrently`: the decoder runs on another thread while the validator runs
  /// on this one (`DispatchQueue.concurrentPerform`, which runs what no other thread takes on
  /// this one, so it never waits for a free thread). Both only read the tree; the decoder reads
  /// any tree without trapping (an unreadable value is its error, at its place), and a pushed
  /// tree is at most ``StrictJSON/maximumDepth`` deep, so its recursion is bounded on any thread's
  /// stack. A push of 10,000 rows spends about as long validating as decoding (docs/performance.md,
  /// "The push on two cores").
  static func validateAndDecode(_ tree: SceneNode, file: String, concurrently: Bool) -> (
    diagnostics: [SceneDiagnostic], decoded: Result<Scene, SceneError>
  ) {
    @Sendable func decode() -> Result<Scene, SceneError> {
      Result { () throws(SceneError) in try Scene.decoded(from: tree, file: file) }
    }
    @Sendable func validate() -> [SceneDiagnostic] {
      var validator = SceneValidator(file: file)
      validator.validate(tree)
      return validator.diagnostics
    }
    guard concurrently else {
      let diagnostics = validate()
      return (diagnostics, diagnostics.isEmpty ? decode() : .failure(SceneError(diagnostics: [])))
    }
    // Each written by one iteration and read after `concurrentPerform` returns, which waits for both.
    final class Results: @unchecked Sendable {
      var diagnostics: [SceneDiagnostic] = []
      var decoded: Result<Scene, SceneError> = .failure(SceneError(diagnostics: []))
    }
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      if index == 0 { results.diagnostics = validate() } else { results.decoded = decode() }
    }
    return (results.diagnostics, results.decoded)
  }
}

/// `message` with the places it names in the one-line `text` (`first defined at 1:85`) given as
/// paths (`first defined at scene.windows[0].views[0].id`).
private func placesAsPaths(_ message: String, in text: String, name: String) -> String {
  let marker = "first defined at 1:"
  guard let start = message.range(of: marker) else { return message }
  let digits = message[start.upperBound...].prefix { $0.isNumber }
  guard let column = Int(digits) else { return message }
  return message.replacingCharacters(
    in: start.lowerBound..<digits.endIndex, with: "first defined at \(name)\(JSONPath.at(column: column, in: text))")
}

/// Where a position of a compact JSON text lies, as a path from its root value.
enum JSONPath {
  /// The path of the value or key that starts at or spans 1-based `column` (in Unicode scalars) of
  /// `text`, one line of JSON without spaces (``StrictJSON/compact``): `.windows[0].views[3]` for a
  /// value, `.windows[0].views[3].fram` for a key; empty for the root value.
  static func at(column: Int, in text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    let target = column - 1
    // Each container entered: an object with its current key, or an array with its current index.
    var stack: [(isObject: Bool, key: String, index: Int, expectingKey: Bool)] = []
    func path(_ stack: [(isObject: Bool, key: String, index: Int, expectingKey: Bool)]) -> String {
      stack.map { $0.isObject ? component($0.key) : "[\($0.index)]" }.joined()
    }
    var i = 0
    while i < scalars.count {
      let c = scalars[i]
      switch c {
      case "{", "[":
        if i >= target { return path(stack) }
        stack.append((c == "{", "", 0, c == "{"))
        i += 1
      case "}", "]":
        if !stack.isEmpty { stack.removeLast() }
        i += 1
      case ",":
        if let top = stack.indices.last {
          if stack[top].isObject { stack[top].expectingKey = true } else { stack[top].index += 1 }
        }
        i += 1
      case ":":
        if let top = stack.indices.last { stack[top].expectingKey = false }
        i += 1
      case "\"":
        let (string, end) = readString(scalars, from: i)
        if let top = stack.indices.last, stack[top].isObject, stack[top].expectingKey {
          stack[top].key = string
          if target < end { return path(stack) }
        } else if target < end {
          return path(stack)
        }
        i = end
      default:
        // A number, true, false or null.
        var end = i
        while end < scalars.count, !",}]".unicodeScalars.contains(scalars[end]) { end += 1 }
        if target < end { return path(stack) }
        i = end
      }
    }
    return path(stack)
  }

  /// `.name` for a key that is a name, `["…"]` otherwise.
  static func component(_ key: String) -> String {
    let isName =
      !key.isEmpty
      && key.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" }
      && !("0"..."9").contains(key.unicodeScalars.first!)
    return isName ? "." + key : "[\(JSONFormat.string(key))]"
  }

  /// The string that starts with the quote at `start`, unescaped, and the index after its closing quote.
  private static func readString(_ scalars: [Unicode.Scalar], from start: Int) -> (String, Int) {
    var out = String.UnicodeScalarView()
    var i = start + 1
    while i < scalars.count, scalars[i] != "\"" {
      if scalars[i] == "\\", i + 1 < scalars.count {
        let escaped = scalars[i + 1]
        switch escaped {
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "r": out.append("\r")
        case "b": out.append("\u{8}")
        case "f": out.append("\u{C}")
        case "u":
          let hex = String(String.UnicodeScalarView(scalars[min(i + 2, scalars.count)..<min(i + 6, scalars.count)]))
          if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) { out.append(scalar) }
          i += 4
        default: out.append(escaped)
        }
        i += 2
      } else {
        out.append(scalars[i])
        i += 1
      }
    }
    return (String(out), min(i + 1, scalars.count))
  }
}
