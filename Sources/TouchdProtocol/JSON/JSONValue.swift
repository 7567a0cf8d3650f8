/// A JSON document with ordered object keys, written deterministically (the scene schema and
/// default values are built from it).
public indirect enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  /// Keys in the order they are written.
  case object([Member])

  /// One member of an object.
  public typealias Member = (key: String, value: JSONValue)

  public static func == (a: JSONValue, b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): true
    case (.bool(let x), .bool(let y)): x == y
    case (.number(let x), .number(let y)): x == y
    case (.string(let x), .string(let y)): x == y
    case (.array(let x), .array(let y)): x == y
    case (.object(let x), .object(let y)):
      x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(compact)
  }

  /// The value on one line, without spaces.
  public var compact: String {
    var out = ""
    write(to: &out, indent: nil, level: 0)
    return out
  }

  /// A command line's value as a client writes it: on one line, every object's keys sorted,
  /// numbers in their round-trip form (``JSONFormat/roundTripNumber(_:)``); nil when a number is
  /// not finite.
  public var clientText: String? {
    var out = ""
    return writeClientText(to: &out) ? out : nil
  }

  private func writeClientText(to out: inout String) -> Bool {
    switch self {
    case .number(let n):
      guard let text = JSONFormat.roundTripNumber(n) else { return false }
      out += text
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        guard item.writeClientText(to: &out) else { return false }
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        out += (i > 0 ? "," : "") + JSONFormat.string(member.key) + ":"
        guard member.value.writeClientText(to: &out) else { return false }
      }
      out += "}"
    case .null, .bool, .string: out += compact
    }
    return true
  }

  /// The value indented by two spaces per level, as in the checked-in schema, ending in a newline.
  public var pretty: String {
    var out = ""
    write(to: &out, indent: "  ", level: 0)
    return out + "\n"
  }

  private func write(to out: inout String, indent: String?, level: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let n): out += JSONFormat.number(n)
    case .string(let s): out += JSONFormat.string(s)
    case .array(let items):
      writeContainer(items.map { (nil, $0) }, open: "[", close: "]", to: &out, indent: indent, level: level)
    case .object(let pairs):
      writeContainer(pairs.map { ($0.key, $0.value) }, open: "{", close: "}", to: &out, indent: indent, level: level)
    }
  }

  private func writeContainer(
    _ items: [(String?, JSONValue)], open: String, close: String, to out: inout String, indent: String?,
    level: Int
  ) {
    out += open
    guard !items.isEmpty else { return out += close }
    // Short arrays of scalars stay on one line, as a person would write them.
    let inline =
      indent == nil
      || (open == "[" && items.count <= 8
        && items.allSatisfy {
          switch $0.1 {
          case .array, .object: false
          default: true
          }
        })
    for (i, (key, value)) in items.enumerated() {
      if i > 0 { out += inline && indent != nil ? ", " : "," }
      if !inline, let indent { out += "\n" + String(repeating: indent, count: level + 1) }
      if let key { out += JSONFormat.string(key) + (indent == nil ? ":" : ": ") }
      value.write(to: &out, indent: indent, level: level + 1)
    }
    if !inline, let indent { out += "\n" + String(repeating: indent, count: level) }
    out += close
  }
}

extension JSONValue {
  /// A strictly read value as a document: members kept in order, numbers read as `Double`s.
  public init(_ value: StrictJSON) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let text): self = .number(Double(text) ?? .nan)
    case .string(let s): self = .string(s)
    case .array(let items): self = .array(items.map(JSONValue.init))
    case .object(let members): self = .object(members.map { ($0.key, JSONValue($0.value)) })
    }
  }
}
