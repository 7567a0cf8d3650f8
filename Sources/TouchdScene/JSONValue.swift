/// A JSON document with ordered object keys, written deterministically (the scene schema and
/// default values are built from it).
public indirect enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  /// Keys in the order they are written.
  case object([(key: String, value: JSONValue)])

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

/// The number and string spellings of every JSON that touchd writes.
public enum JSONFormat {
  /// A number with at most six decimals, no exponent and no trailing zeros; -0 is written 0 and
  /// non-finite values (which JSON cannot carry) are written null.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    let scaled = (value * 1_000_000).rounded()
    guard scaled.magnitude < 9.0e18 else {
      // Beyond Int64 microseconds: only the integral part is meaningful at this magnitude.
      var digits = ""
      var rest = value.magnitude.rounded()
      while rest >= 1 {
        let digit = Int(rest.truncatingRemainder(dividingBy: 10))
        digits = String(digit) + digits
        rest = ((rest - Double(digit)) / 10).rounded()
      }
      return (value < 0 ? "-" : "") + digits
    }
    let micros = Int64(scaled)
    if micros == 0 { return "0" }
    let sign = micros < 0 ? "-" : ""
    let m = micros.magnitude
    let whole = m / 1_000_000
    var frac = String(m % 1_000_000)
    if frac == "0" { return "\(sign)\(whole)" }
    frac = String(repeating: "0", count: 6 - frac.count) + frac
    while frac.hasSuffix("0") { frac.removeLast() }
    return "\(sign)\(whole).\(frac)"
  }

  /// A quoted JSON string: quotes, backslashes and control characters escaped.
  public static func string(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let c where c.value < 0x20:
        let hex = String(c.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
