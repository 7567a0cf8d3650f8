/// A JSON value as a client's command line carries it, read by a strict parser: RFC 8259's grammar
/// and nothing more (no comments, no trailing commas, no NaN), UTF-8 checked byte by byte, nesting
/// bounded (``maximumDepth``) and parsed without recursion, so no line can overflow the stack.
/// Booleans, numbers and strings stay distinct (Foundation's `JSONSerialization` on Linux lets
/// `1 as? Bool` succeed), and numbers keep their text, so an `id` is echoed digit for digit.
///
/// Errors name the byte where the line stops being JSON (``SyntaxError/column``). Object members
/// keep their order and duplicates; ``CommandFields`` rejects duplicate fields by name.
public enum StrictJSON: Hashable, Sendable {
  case null
  case bool(Bool)
  /// A number, as written (valid JSON number text: `-0.5`, `1e400`).
  case number(String)
  case string(String)
  case array([StrictJSON])
  /// Members in the order written.
  case object([Member])

  /// One member of an object.
  public struct Member: Hashable, Sendable {
    public var key: String
    public var value: StrictJSON
    public init(key: String, value: StrictJSON) {
      self.key = key
      self.value = value
    }
  }

  /// The deepest nesting of arrays and objects accepted. A command needs 2 levels (`frame` in
  /// `set`); the rest is room for structured `id`s.
  public static let maximumDepth = 64

  /// Where and why a line is not JSON.
  public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending byte, counted from 0.
    public var offset: Int
    /// What is wrong there: `expected ':' after the key`.
    public var problem: String
    /// The offending byte, counted from 1 (what the error message says).
    public var column: Int { offset + 1 }
    /// `at column <column>: <problem>`.
    public var description: String { "at column \(column): \(problem)" }
  }

  /// Parses one JSON value filling all of `bytes` (whitespace around it allowed).
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = maximumDepth
  ) throws(SyntaxError) -> StrictJSON {
    var parser = StrictJSONParser(bytes: bytes, maximumDepth: maximumDepth)
    return try parser.parseDocument()
  }

  /// Parses one JSON value from bytes of any contiguous or non-contiguous collection.
  public static func parse(
    _ bytes: some Collection<UInt8>, maximumDepth: Int = maximumDepth
  ) throws(SyntaxError) -> StrictJSON {
    let result: Result<StrictJSON, SyntaxError>? = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(SyntaxError) in try parse(buffer, maximumDepth: maximumDepth) }
    }
    if let result { return try result.get() }
    let copy = Array(bytes)
    return try copy.withUnsafeBufferPointer { buffer throws(SyntaxError) in
      try parse(buffer, maximumDepth: maximumDepth)
    }
  }

  /// Parses a string's UTF-8.
  public static func parse(_ text: String, maximumDepth: Int = maximumDepth) throws(SyntaxError) -> StrictJSON {
    try parse(Array(text.utf8), maximumDepth: maximumDepth)
  }

  /// The value on one line without spaces; numbers as written, strings in ``JSONFormat``'s escaping.
  public var compact: String {
    var out = ""
    write(to: &out)
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let text): out += text
    case .string(let s): out += JSONFormat.string(s)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, member) in members.enumerated() {
        if i > 0 { out += "," }
        out += JSONFormat.string(member.key) + ":"
        member.value.write(to: &out)
      }
      out += "}"
    }
  }

  /// The number's value (infinite when it overflows a `Double`); nil for other values.
  public var numberValue: Double? {
    guard case .number(let text) = self else { return nil }
    return Double(text)
  }

  /// A name or value as an error message quotes it: cut at 40 characters (with `…`), so a message
  /// stays short whatever a client sent.
  public static func shortened(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(40)) + "…" : text
  }

  /// The value as an error message shows what was found: `1`, `"yes"` (cut at 40 characters),
  /// `true`, `null`, `an object`, `an array`.
  public var shortDescription: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let text): return StrictJSON.shortened(text)
    case .string(let s):
      return JSONFormat.string(StrictJSON.shortened(s))
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// The parser's state: a cursor over the bytes and a stack of the arrays and objects open.
private struct StrictJSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let maximumDepth: Int
  var index = 0

  /// An array or object being read: its values so far are the parser's `values` from
  /// `valueStart` on, and an object's keys (one more than its values while a value is read) its
  /// `keys` from `keyStart` on. One stack of values for all, so that appending to the innermost
  /// container never copies it.
  struct Open {
    var isObject: Bool
    var valueStart: Int
    var keyStart: Int
  }

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  private func fail(_ problem: String, at offset: Int? = nil) -> StrictJSON.SyntaxError {
    StrictJSON.SyntaxError(offset: offset ?? index, problem: problem)
  }

  /// What the byte at the cursor is, for "unexpected …" errors.
  private func found() -> String {
    guard index < bytes.count else { return "end of the line" }
    let byte = bytes[index]
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  mutating func parseDocument() throws(StrictJSON.SyntaxError) -> StrictJSON {
    var stack: [Open] = []
    var values: [StrictJSON] = []
    var keys: [String] = []
    skipWhitespace()
    if index == bytes.count { throw fail("empty line, expected a JSON value") }
    while true {
      // A value starts at the cursor (whitespace skipped).
      var value: StrictJSON
      guard index < bytes.count else { throw fail("unexpected end of the line, expected a value") }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        guard stack.count < maximumDepth else {
          throw fail("nesting deeper than \(maximumDepth) levels")
        }
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
          index += 1
          value = .object([])
        } else {
          stack.append(Open(isObject: true, valueStart: values.count, keyStart: keys.count))
          keys.append(try parseKey())
          continue
        }
      case UInt8(ascii: "["):
        guard stack.count < maximumDepth else {
          throw fail("nesting deeper than \(maximumDepth) levels")
        }
        index += 1
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
          index += 1
          value = .array([])
        } else {
          stack.append(Open(isObject: false, valueStart: values.count, keyStart: keys.count))
          continue
        }
      case UInt8(ascii: "\""): value = .string(try parseString())
      case UInt8(ascii: "t"): value = try parseLiteral("true", .bool(true))
      case UInt8(ascii: "f"): value = try parseLiteral("false", .bool(false))
      case UInt8(ascii: "n"): value = try parseLiteral("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
      default: throw fail("unexpected \(found()), expected a value")
      }
      // The value is complete: it goes into the innermost open container, or it is the document.
      while true {
        skipWhitespace()
        guard let open = stack.last else {
          guard index == bytes.count else { throw fail("unexpected \(found()) after the JSON value") }
          return value
        }
        values.append(value)
        let close = open.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let expected = open.isObject ? "expected ',' or '}'" : "expected ',' or ']'"
        guard index < bytes.count else { throw fail("unexpected end of the line, \(expected)") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          skipWhitespace()
          if open.isObject { keys.append(try parseKey()) }
        } else if bytes[index] == close {
          index += 1
          stack.removeLast()
          // The container's values (and keys) are moved off the stacks, from the last: neither
          // copied nor released one by one.
          let count = values.count - open.valueStart
          if open.isObject {
            value = .object(
              Array(unsafeUninitializedCapacity: count) { members, initialized in
                for i in (0..<count).reversed() {
                  (members.baseAddress! + i).initialize(
                    to: StrictJSON.Member(key: keys.removeLast(), value: values.removeLast()))
                }
                initialized = count
              })
          } else {
            value = .array(
              Array(unsafeUninitializedCapacity: count) { items, initialized in
                for i in (0..<count).reversed() { (items.baseAddress! + i).initialize(to: values.removeLast()) }
                initialized = count
              })
          }
          continue
        } else {
          throw fail("unexpected \(found()), \(expected)")
        }
        break
      }
      skipWhitespace()
    }
  }

  /// `"key"` and the `:` after it; the cursor ends at the value.
  private mutating func parseKey() throws(StrictJSON.SyntaxError) -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw fail("unexpected \(found()), expected a key in double quotes")
    }
    let key = try parseString()
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
      throw fail("unexpected \(found()), expected ':' after the key \(JSONFormat.string(StrictJSON.shortened(key)))")
    }
    index += 1
    skipWhitespace()
    return key
  }

  private mutating func parseLiteral(_ word: StaticString, _ value: StrictJSON) throws(StrictJSON.SyntaxError)
    -> StrictJSON
  {
    for i in 0..<word.utf8CodeUnitCount {
      guard index < bytes.count, bytes[index] == word.utf8Start[i] else {
        throw fail("unexpected \(found()), expected \(word)")
      }
      index += 1
    }
    return value
  }

  /// A number's text, checked against JSON's grammar: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
  private mutating func parseNumber() throws(StrictJSON.SyntaxError) -> String {
    let start = index
    func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard isDigit(index) else { throw fail("unexpected \(found()), expected a digit in the number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if isDigit(index) { throw fail("a number must not start with 0 (found a digit after it)") }
    } else {
      while isDigit(index) { index += 1 }
    }
    if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard isDigit(index) else { throw fail("unexpected \(found()), expected a digit after the decimal point") }
      while isDigit(index) { index += 1 }
    }
    if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
      index += 1
      if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
        index += 1
      }
      guard isDigit(index) else { throw fail("unexpected \(found()), expected a digit in the exponent") }
      while isDigit(index) { index += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  /// A string from its opening quote to its closing one: escapes decoded, UTF-8 checked.
  private mutating func parseString() throws(StrictJSON.SyntaxError) -> String {
    let open = index
    index += 1
    // Nearly every string of a line (every key, every id) has no escape: it is made from the
    // line's bytes directly, without a buffer to collect them.
    var end = index
    while end < bytes.count {
      let byte = bytes[end]
      guard byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20, byte < 0x80 else { break }
      end += 1
    }
    if end < bytes.count && bytes[end] == UInt8(ascii: "\"") {
      let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
      index = end + 1
      return text
    }
    var out: [UInt8] = []
    var runStart = index
    while true {
      guard index < bytes.count else {
        throw fail("unexpected end of the line, the string opened at column \(open + 1) is not closed")
      }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        index += 1
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        try parseEscape(into: &out)
        runStart = index
      case 0x00..<0x20:
        throw fail(
          "control character U+00" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            + " in a string (write it as an escape)")
      case 0x80...:
        index += try utf8SequenceLength()
      default:
        index += 1
      }
    }
  }

  /// The length of the well-formed UTF-8 sequence at the cursor (Unicode's table 3-7: no
  /// overlong forms, no surrogates, nothing above U+10FFFF); an ill-formed one is an error.
  private func utf8SequenceLength() throws(StrictJSON.SyntaxError) -> Int {
    let lead = bytes[index]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: throw invalidUTF8(at: index)
    }
    for i in 1..<length {
      let at = index + i
      guard at < bytes.count else { throw invalidUTF8(at: at) }
      let byte = bytes[at]
      let (lo, hi) = i == 1 ? (low, high) : (0x80, 0xBF)
      guard byte >= lo && byte <= hi else { throw invalidUTF8(at: at) }
    }
    return length
  }

  private func invalidUTF8(at offset: Int) -> StrictJSON.SyntaxError {
    guard offset < bytes.count else {
      return fail("invalid UTF-8 (a character cut short by the end of the line)", at: offset)
    }
    return fail(
      "invalid UTF-8 (byte 0x" + String(bytes[offset], radix: 16, uppercase: true).leftPadded(to: 2) + ")", at: offset)
  }

  /// One escape after a backslash at the cursor; `\u` pairs make one character.
  private mutating func parseEscape(into out: inout [UInt8]) throws(StrictJSON.SyntaxError) {
    let start = index
    index += 1
    guard index < bytes.count else { throw fail("unexpected end of the line in an escape", at: start) }
    let simple: UInt8?
    switch bytes[index] {
    case UInt8(ascii: "\""): simple = 0x22
    case UInt8(ascii: "\\"): simple = 0x5C
    case UInt8(ascii: "/"): simple = 0x2F
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"): simple = nil
    default:
      let byte = bytes[index]
      let what = byte >= 0x21 && byte < 0x7F ? "\\\(Character(Unicode.Scalar(byte)))" : "a backslash before \(found())"
      throw fail("invalid escape \(what) in a string", at: start)
    }
    if let simple {
      out.append(simple)
      index += 1
      return
    }
    index += 1
    var scalar = try hex4()
    if (0xD800...0xDBFF).contains(scalar) {
      // A high surrogate: a low one must follow, as \uDC00...\uDFFF.
      guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
      else { throw fail("\\u escape of a lone surrogate (a high surrogate needs a low one after it)", at: start) }
      let second = index
      index += 2
      let low = try hex4()
      guard (0xDC00...0xDFFF).contains(low) else {
        throw fail("\\u escape of a lone surrogate (expected a low surrogate \\uDC00-\\uDFFF)", at: second)
      }
      scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(scalar) {
      throw fail("\\u escape of a lone surrogate (a low surrogate without a high one)", at: start)
    }
    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
  }

  /// Four hex digits at the cursor.
  private mutating func hex4() throws(StrictJSON.SyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count else { throw fail("unexpected end of the line in a \\u escape") }
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw fail("unexpected \(found()), a \\u escape needs four hex digits")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }

}
