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
    var out = JSONBuffer(capacity: 24)
    appendNumber(value, to: &out)
    return out.string()
  }

  /// A quoted JSON string: quotes, backslashes and control characters escaped.
  public static func string(_ s: String) -> String {
    var out = JSONBuffer(capacity: s.utf8.count + 2)
    appendString(s, to: &out)
    return out.string()
  }

  /// Appends ``number(_:)``'s UTF-8 to `out`, without intermediate strings.
  static func appendNumber(_ value: Double, to out: inout JSONBuffer) {
    guard value.isFinite else {
      out.append("null")
      return
    }
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
      if value < 0 { out.append(UInt8(ascii: "-")) }
      for byte in digits.utf8 { out.append(byte) }
      return
    }
    let micros = Int64(scaled)
    if micros == 0 {
      out.append(UInt8(ascii: "0"))
      return
    }
    if micros < 0 { out.append(UInt8(ascii: "-")) }
    let m = micros.magnitude
    appendDecimal(m / 1_000_000, to: &out)
    let frac = m % 1_000_000
    if frac == 0 { return }
    // "." and six digits, zero-padded, trailing zeros dropped (constant divisors only).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 7) { text in
      text[0] = UInt8(ascii: ".")
      var rest = frac
      for i in (1...6).reversed() {
        text[i] = 0x30 + UInt8(rest % 10)
        rest /= 10
      }
      var end = 7
      while text[end - 1] == UInt8(ascii: "0") { end -= 1 }
      out.append(UnsafeBufferPointer(rebasing: text[0..<end]))
    }
  }

  /// Appends a signed integer's decimal digits.
  static func appendInteger(_ value: Int, to out: inout JSONBuffer) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    appendDecimal(UInt64(value.magnitude), to: &out)
  }

  /// Appends an unsigned integer's decimal digits.
  static func appendDecimal(_ value: UInt64, to out: inout JSONBuffer) {
    if value < 10 {
      out.append(0x30 + UInt8(value))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var v = value
      var i = 20
      while v > 0 {
        i -= 1
        digits[i] = 0x30 + UInt8(v % 10)
        v /= 10
      }
      out.append(UnsafeBufferPointer(rebasing: digits[i..<20]))
    }
  }

  /// Appends ``string(_:)``'s UTF-8 to `out`: only bytes below 0x20, `"` and `\` are escaped, so
  /// multi-byte characters pass through whole.
  static func appendString(_ s: String, to out: inout JSONBuffer) {
    out.append(UInt8(ascii: "\""))
    var s = s
    s.withUTF8 { bytes in
      var start = 0
      for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
        out.append(UnsafeBufferPointer(rebasing: bytes[start..<i]))
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: out.append(UInt8(ascii: "\""))
        case 0x5C: out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
          let hex: [UInt8] = Array("0123456789abcdef".utf8)
          out.append("u00")
          out.append(hex[Int(byte >> 4)])
          out.append(hex[Int(byte & 0xF)])
        }
        start = i + 1
      }
      out.append(UnsafeBufferPointer(rebasing: bytes[start...]))
    }
    out.append(UInt8(ascii: "\""))
  }
}

/// A growing UTF-8 buffer for writing JSON: raw stores, no per-append checks beyond capacity.
/// Non-copyable, so that its storage has one owner; ``string()`` consumes it.
struct JSONBuffer: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  @inline(__always) private mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  private mutating func grow(_ needed: Int) {
    let newCapacity = Swift.max(needed, capacity * 2)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inline(__always) mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends an ASCII literal.
  @inline(__always) mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// The text written.
  consuming func string() -> String {
    String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
  }
}
