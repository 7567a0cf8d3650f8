/// One problem found in a scene file, with its position.
public struct SceneDiagnostic: Hashable, Sendable, CustomStringConvertible, Comparable {
  /// The file as named to the loader (`scene.yaml`, `/etc/touchd/scene.yaml`).
  public var file: String
  /// 1-based line, or 0 when the problem has no position (an unreadable file).
  public var line: Int
  /// 1-based column in Unicode scalars, or 0 when the problem has no position.
  public var column: Int
  /// The offending key (`hidden`, `requireToFail`), when there is one.
  public var key: String?
  /// What is wrong, without the position: `unknown key 'hiden' in view 'door' (did you mean 'hidden'?)`.
  public var message: String
  /// For a scene given as JSON (``Scene/parse(json:name:)``), where the problem is as a path from
  /// the scene object (`.windows[0].views[3].fram`, empty for the scene itself), shown instead of
  /// the line and column.
  public var path: String?

  public init(file: String, line: Int, column: Int, key: String? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.key = key
    self.message = message
  }

  /// `file:line:column: error: message`, as compilers write it; `file.path: error: message` for a
  /// scene given as JSON.
  public var description: String {
    if let path { return "\(file)\(path): error: \(message)" }
    return line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
  }

  /// By position, then by message.
  public static func < (a: SceneDiagnostic, b: SceneDiagnostic) -> Bool {
    (a.line, a.column, a.message) < (b.line, b.column, b.message)
  }
}

/// Every problem found in a scene file, sorted by position. Thrown by ``Scene/parse(_:file:)``.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
  public var diagnostics: [SceneDiagnostic]

  public init(diagnostics: [SceneDiagnostic]) {
    self.diagnostics = diagnostics.sorted()
  }

  /// One diagnostic per line.
  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }

  /// The longest error message a client gets for a rejected scene (`scene`, `update`, `reload`):
  /// a hostile scene can have thousands of problems, and replies are one line each.
  public static let maximumMessageBytes = 600

  /// `prefix` and the diagnostics joined by `; `, within ``maximumMessageBytes``: the first ones
  /// that fit whole (the first one cut to fit, if it alone does not), then `… and N more`.
  public func message(prefix: String) -> String {
    let limit = Self.maximumMessageBytes
    let all = diagnostics.map(\.description)
    var out = prefix
    for (i, text) in all.enumerated() {
      let separator = i == 0 ? "" : "; "
      let left = all.count - i - 1
      // Room for what may have to follow: "; … and N more".
      let tail = left > 0 ? "; … and \(left) more".utf8.count : 0
      if out.utf8.count + separator.utf8.count + text.utf8.count + tail <= limit {
        out += separator + text
        continue
      }
      let more = all.count - i
      if i == 0 {
        // Not even the first fits: as much of it as does.
        let room = limit - out.utf8.count - "…".utf8.count - (more > 1 ? "; … and \(more - 1) more".utf8.count : 0)
        out += String(decoding: text.utf8.prefix(max(0, room)), as: UTF8.self) + "…"
        if more > 1 { out += "; … and \(more - 1) more" }
      } else {
        out += "; … and \(more) more"
      }
      break
    }
    return out
  }
}
