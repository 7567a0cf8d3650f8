/// Parses evemu files: `# EVEMU 1.x` header or none, `N: I: P: B: A: L: S:` description lines,
/// `E: sec.usec type code value` event lines (type and code hex, value decimal, zero-padded or not,
/// optional trailing `# comment`), and comments.
///
/// The `# Value` figures in the comment block are not read: evemu's description lines carry no
/// current axis values, so `AbsInfo.value` is 0.
public enum EvemuParser {
  /// Parses a whole recording. An events-only file (the old split format) needs `description`.
  public static func parse(
    _ bytes: [UInt8], source: String, description: DeviceDescription? = nil
  ) throws(RecordingError) -> Recording {
    var state = State(source: source)
    var events: [InputEvent] = []
    events.reserveCapacity(bytes.count / 32)
    try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) in
      try state.run(buffer, events: &events)
    }
    if let description {
      return Recording(description: description, events: events, source: source)
    }
    guard let parsed = try state.description() else {
      throw RecordingError(
        file: source, line: 1,
        message: "no device description (N:/I:/B:/A: lines); give the matching .desc file")
    }
    return Recording(description: parsed, events: events, source: source)
  }

  /// Parses a description-only file (`evemu-describe` output, `.desc`, `.prop`); event lines are
  /// not allowed.
  public static func parseDescription(_ bytes: [UInt8], source: String) throws(RecordingError) -> DeviceDescription {
    var state = State(source: source)
    var events: [InputEvent] = []
    try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) in
      try state.run(buffer, events: &events)
    }
    if !events.isEmpty {
      throw RecordingError(
        file: source, line: state.firstEventLine, message: "a description file must not contain E: lines")
    }
    guard let description = try state.description() else {
      throw RecordingError(file: source, line: 1, message: "no device description (N:/I: lines)")
    }
    return description
  }

  private struct State {
    let source: String
    var name: String?
    var nameLine = 0
    var id: InputID?
    var propertyBytes: [UInt8] = []
    var masks: [UInt16: [UInt8]] = [:]
    var absInfo: [UInt16: AbsInfo] = [:]
    var firstEventLine = 0
    var sawDescriptionLine = false

    init(source: String) { self.source = source }

    func fail(_ line: Int, _ message: String) -> RecordingError {
      RecordingError(file: source, line: line, message: message)
    }

    func description() throws(RecordingError) -> DeviceDescription? {
      guard sawDescriptionLine else { return nil }
      guard let name else { throw fail(1, "device description without an N: (name) line") }
      guard let id else { throw fail(nameLine, "device description without an I: (id) line") }
      var properties = Set<UInt16>()
      for (index, byte) in propertyBytes.enumerated() {
        for bit in 0..<8 where byte & (1 << bit) != 0 { properties.insert(UInt16(index * 8 + bit)) }
      }
      var events: [UInt16: Set<UInt16>] = [:]
      for (type, mask) in masks {
        var codes = Set<UInt16>()
        for (index, byte) in mask.enumerated() {
          for bit in 0..<8 where byte & (1 << bit) != 0 { codes.insert(UInt16(index * 8 + bit)) }
        }
        if !codes.isEmpty { events[type] = codes }
      }
      return DeviceDescription(name: name, id: id, properties: properties, events: events, absInfo: absInfo)
    }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>, events: inout [InputEvent]) throws(RecordingError) {
      var lineNumber = 0
      var start = 0
      let count = buffer.count
      while start < count {
        lineNumber += 1
        let end = Self.newline(in: buffer, from: start)
        var lineEnd = end
        if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let line = UnsafeBufferPointer(rebasing: buffer[start..<lineEnd])
        if line.count > 2 && line[0] == UInt8(ascii: "E") && line[1] == UInt8(ascii: ":") && firstEventLine != 0 {
          // Fast path for the bulk of a recording: event lines after the first; an unusual one
          // goes through the full parser, which also says what is wrong with it.
          if let event = Self.commonEvent(line) {
            events.append(event)
          } else {
            var cursor = Cursor(line)
            cursor.index = 2
            events.append(try parseEvent(&cursor, number: lineNumber))
          }
        } else {
          try parseLine(line, number: lineNumber, events: &events)
        }
        start = end + 1
      }
    }

    /// An event line as evemu writes it, `E: 12.345678 0003 0035 1234` with an optional trailing
    /// comment, read in one pass over the bytes; nil for anything else (the caller then runs
    /// ``parseEvent(_:number:)``, which accepts a superset of these lines and yields the same event
    /// for every line accepted here).
    @inline(__always) static func commonEvent(_ line: UnsafeBufferPointer<UInt8>) -> InputEvent? {
      guard line.count > 2, var p = line.baseAddress.map({ $0 + 2 }) else { return nil }
      let end = line.baseAddress! + line.count
      @inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
      @inline(__always) func separatorFollows() -> Bool { p == end || isSpace(p.pointee) || p.pointee == 0x23 }
      @inline(__always) func skipSpaces() { while p < end && isSpace(p.pointee) { p += 1 } }
      @inline(__always) func decimal(maxDigits: Int) -> UInt64? {
        var value: UInt64 = 0
        var n = 0
        while p < end {
          let d = p.pointee &- 0x30
          guard d < 10 else { break }
          value = value &* 10 &+ UInt64(d)
          p += 1
          n += 1
        }
        return n > 0 && n <= maxDigits ? value : nil
      }
      @inline(__always) func hex() -> UInt16? {
        var value: UInt32 = 0
        var n = 0
        while p < end {
          let c = p.pointee
          let d: UInt8
          if c &- 0x30 < 10 {
            d = c &- 0x30
          } else if (c | 0x20) &- 0x61 < 6 {
            d = (c | 0x20) &- 0x61 &+ 10
          } else {
            break
          }
          value = value << 4 | UInt32(d)
          p += 1
          n += 1
        }
        return n > 0 && n <= 4 && separatorFollows() ? UInt16(value) : nil
      }
      skipSpaces()
      // Ten digits: at most `Recording.maximumEventSeconds`; a longer time goes to the full parser.
      guard let seconds = decimal(maxDigits: 10), p < end, p.pointee == UInt8(ascii: ".") else { return nil }
      p += 1
      guard let micros = decimal(maxDigits: 6) else { return nil }
      skipSpaces()
      guard let type = hex() else { return nil }
      skipSpaces()
      guard let code = hex() else { return nil }
      skipSpaces()
      var negative = false
      if p < end && (p.pointee == UInt8(ascii: "-") || p.pointee == UInt8(ascii: "+")) {
        negative = p.pointee == UInt8(ascii: "-")
        p += 1
      }
      guard let magnitude = decimal(maxDigits: 10), separatorFollows() else { return nil }
      let value = negative ? -Int64(magnitude) : Int64(magnitude)
      guard value >= Int64(Int32.min) && value <= Int64(Int32.max) else { return nil }
      skipSpaces()
      guard p == end || p.pointee == 0x23 else { return nil }
      return InputEvent(
        time: Timestamp(seconds: Int64(seconds), microseconds: Int64(micros)), type: type, code: code,
        value: Int32(value))
    }

    /// The index of the first newline at or after `start` (`buffer.count` when none), eight bytes
    /// per step: a recording's event lines are ~70 bytes, most of them a trailing comment.
    @inline(__always) static func newline(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
      var i = start
      let count = buffer.count
      if let base = buffer.baseAddress {
        let raw = UnsafeRawPointer(base)
        while i + 8 <= count {
          // A byte of `x` is zero where the text has a newline; the lowest flagged byte is the first.
          let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
          let flags = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
          if flags != 0 { return i + flags.trailingZeroBitCount >> 3 }
          i += 8
        }
      }
      while i < count && buffer[i] != 0x0A { i += 1 }
      return i
    }

    mutating func parseLine(
      _ line: UnsafeBufferPointer<UInt8>, number: Int, events: inout [InputEvent]
    ) throws(RecordingError) {
      var cursor = Cursor(line)
      cursor.skipSpaces()
      guard let first = cursor.peek() else { return }
      if first == UInt8(ascii: "#") {
        if number == 1 { try checkVersion(line, number: number) }
        return
      }
      guard cursor.remaining >= 2, line[cursor.index + 1] == UInt8(ascii: ":") else {
        throw fail(number, "unexpected line: \"\(excerpt(line))\"")
      }
      cursor.index += 2
      switch first {
      case UInt8(ascii: "E"):
        if firstEventLine == 0 { firstEventLine = number }
        events.append(try parseEvent(&cursor, number: number))
        return
      case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "P"), UInt8(ascii: "B"), UInt8(ascii: "A"),
        UInt8(ascii: "L"), UInt8(ascii: "S"):
        if firstEventLine != 0 {
          throw fail(number, "device description line after the first E: line")
        }
        sawDescriptionLine = true
      default:
        throw fail(number, "unknown line type \"\(Character(Unicode.Scalar(first))):\"")
      }
      switch first {
      case UInt8(ascii: "N"):
        if name != nil { throw fail(number, "a second N: line") }
        cursor.skipSpaces()
        name = String(decoding: UnsafeBufferPointer(rebasing: line[cursor.index...]), as: UTF8.self)
        nameLine = number
      case UInt8(ascii: "I"):
        if id != nil { throw fail(number, "a second I: line") }
        var values: [UInt16] = []
        for field in ["bus type", "vendor", "product", "version"] {
          guard let value = cursor.hex(maxDigits: 4) else {
            throw fail(number, "I: expects 4 hex numbers (bus vendor product version); bad \(field)")
          }
          values.append(UInt16(value))
        }
        try expectEnd(&cursor, number: number, what: "I:")
        id = InputID(bustype: values[0], vendor: values[1], product: values[2], version: values[3])
      case UInt8(ascii: "P"):
        for _ in 0..<8 {
          guard let byte = cursor.hex(maxDigits: 2) else { throw fail(number, "P: expects 8 hex bytes") }
          propertyBytes.append(UInt8(byte))
        }
        try expectEnd(&cursor, number: number, what: "P:")
      case UInt8(ascii: "B"):
        guard let type = cursor.hex(maxDigits: 2), type <= UInt32(EV.max) else {
          throw fail(number, "B: expects an event type (hex, at most 1f) and 8 hex bytes")
        }
        var bytes: [UInt8] = []
        for _ in 0..<8 {
          guard let byte = cursor.hex(maxDigits: 2) else {
            throw fail(number, "B: expects an event type and 8 hex bytes")
          }
          bytes.append(UInt8(byte))
        }
        try expectEnd(&cursor, number: number, what: "B:")
        masks[UInt16(type), default: []].append(contentsOf: bytes)
      case UInt8(ascii: "A"):
        guard let code = cursor.hex(maxDigits: 2), code <= UInt32(ABS.max) else {
          throw fail(number, "A: expects an axis code (hex, at most 3f)")
        }
        var numbers: [Int32] = []
        while true {
          cursor.skipSpaces()
          if cursor.atEnd || cursor.peek() == UInt8(ascii: "#") { break }
          guard let value = cursor.decimal() else {
            throw fail(number, "A: expects decimal numbers: min max fuzz flat [resolution]")
          }
          numbers.append(value)
        }
        guard numbers.count == 4 || numbers.count == 5 else {
          throw fail(
            number, "A: expects 4 or 5 numbers after the code (min max fuzz flat [resolution]), found \(numbers.count)")
        }
        absInfo[UInt16(code)] = AbsInfo(
          minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
          resolution: numbers.count == 5 ? numbers[4] : 0)
      default:  // L: and S: (LED and switch states) are checked and ignored.
        guard cursor.hex(maxDigits: 2) != nil, cursor.decimal() != nil else {
          throw fail(number, "\(Character(Unicode.Scalar(first))): expects a hex code and a decimal state")
        }
        try expectEnd(&cursor, number: number, what: "\(Character(Unicode.Scalar(first))):")
      }
    }

    func checkVersion(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(RecordingError) {
      let text = String(decoding: line, as: UTF8.self)
      guard text.hasPrefix("# EVEMU ") else { return }
      let version = text.dropFirst("# EVEMU ".count).split(separator: " ").first ?? ""
      let parts = version.split(separator: ".")
      guard parts.count == 2, let major = Int(parts[0]), Int(parts[1]) != nil else {
        throw fail(number, "bad evemu version \"\(version)\"")
      }
      guard major == 1 else { throw fail(number, "unsupported evemu file format \(version) (1.x is read)") }
    }

    func parseEvent(_ cursor: inout Cursor, number: Int) throws(RecordingError) -> InputEvent {
      guard let seconds = cursor.unsigned(maxDigits: 18) else {
        throw fail(number, "E: expects \"sec.usec type code value\"; bad seconds")
      }
      guard seconds <= UInt64(Recording.maximumEventSeconds) else {
        throw fail(number, "E: time \(seconds) s is out of range (at most \(Recording.maximumEventSeconds) s)")
      }
      guard cursor.peek() == UInt8(ascii: "."), cursor.advance(),
        let micros = cursor.digits(maxDigits: 6)
      else {
        throw fail(number, "E: expects \"sec.usec type code value\"; bad microseconds")
      }
      guard let type = cursor.hex(maxDigits: 4) else {
        throw fail(number, "E: expects a hex event type after the time")
      }
      guard let code = cursor.hex(maxDigits: 4) else {
        throw fail(number, "E: expects a hex event code after the type")
      }
      guard let value = cursor.decimal() else {
        throw fail(number, "E: expects a decimal value after the code")
      }
      try expectEnd(&cursor, number: number, what: "E:")
      return InputEvent(
        time: Timestamp(seconds: Int64(seconds), microseconds: Int64(micros)), type: UInt16(type),
        code: UInt16(code), value: value)
    }

    func expectEnd(_ cursor: inout Cursor, number: Int, what: String) throws(RecordingError) {
      cursor.skipSpaces()
      if cursor.atEnd || cursor.peek() == UInt8(ascii: "#") { return }
      throw fail(number, "unexpected text after the \(what) fields: \"\(excerpt(cursor.rest))\"")
    }

    func excerpt(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
      let text = String(decoding: bytes, as: UTF8.self)
      return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
  }

  /// A byte cursor over one line.
  struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var remaining: Int { bytes.count - index }
    var rest: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[index...]) }

    @inline(__always) func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always) mutating func advance() -> Bool {
      index += 1
      return true
    }

    @inline(__always) mutating func skipSpaces() {
      while index < bytes.count && (bytes[index] == 0x20 || bytes[index] == 0x09) { index += 1 }
    }

    /// Up to `maxDigits` decimal digits, at least one, with no leading spaces skipped.
    @inline(__always) mutating func digits(maxDigits: Int) -> UInt64? {
      var value: UInt64 = 0
      var n = 0
      while index < bytes.count, n < maxDigits {
        let d = bytes[index] &- 0x30
        guard d < 10 else { break }
        value = value * 10 + UInt64(d)
        index += 1
        n += 1
      }
      if n == 0 { return nil }
      // A longer run of digits than allowed is malformed.
      if index < bytes.count && bytes[index] &- 0x30 < 10 { return nil }
      return value
    }

    /// Skips spaces, then an unsigned decimal.
    @inline(__always) mutating func unsigned(maxDigits: Int) -> UInt64? {
      skipSpaces()
      return digits(maxDigits: maxDigits)
    }

    /// Skips spaces, then a signed decimal that fits `Int32`, followed by a separator.
    @inline(__always) mutating func decimal() -> Int32? {
      skipSpaces()
      var negative = false
      if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
        negative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      guard let magnitude = digits(maxDigits: 11) else { return nil }
      guard separatorFollows() else { return nil }
      let value = negative ? -Int64(magnitude) : Int64(magnitude)
      guard value >= Int64(Int32.min) && value <= Int64(Int32.max) else { return nil }
      return Int32(value)
    }

    /// Skips spaces, then up to `maxDigits` hex digits followed by a separator.
    @inline(__always) mutating func hex(maxDigits: Int) -> UInt32? {
      skipSpaces()
      var value: UInt32 = 0
      var n = 0
      while index < bytes.count, n < maxDigits {
        let c = bytes[index]
        let d: UInt8
        switch c {
        case 0x30...0x39: d = c - 0x30
        case 0x61...0x66: d = c - 0x61 + 10
        case 0x41...0x46: d = c - 0x41 + 10
        default: d = 0xFF
        }
        guard d != 0xFF else { break }
        value = value << 4 | UInt32(d)
        index += 1
        n += 1
      }
      guard n > 0, separatorFollows() else { return nil }
      return value
    }

    @inline(__always) func separatorFollows() -> Bool {
      index >= bytes.count || bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == UInt8(ascii: "#")
    }
  }
}
