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

  public init(file: String, line: Int, column: Int, key: String? = nil, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.key = key
    self.message = message
  }

  /// `file:line:column: error: message`, as compilers write it.
  public var description: String {
    line > 0 ? "\(file):\(line):\(column): error: \(message)" : "\(file): error: \(message)"
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
}

/// The closest of `candidates` to a misspelt `name`, if one is close enough to suggest (scene
/// keys and ids, the daemon's options).
public func closestMatch(to name: String, in candidates: [String]) -> String? {
  let lower = name.lowercased()
  var best: (String, Int)?
  for candidate in candidates {
    let c = candidate.lowercased()
    var distance = editDistance(lower, c)
    if lower.count >= 4 && (c.hasPrefix(lower) || lower.hasPrefix(c)) { distance = min(distance, 2) }
    if distance <= max(1, min(3, name.count / 3)) && distance < (best?.1 ?? .max) { best = (candidate, distance) }
  }
  return best?.0
}

/// The Levenshtein distance between two strings, in characters.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    swap(&previous, &current)
  }
  return previous[b.count]
}
