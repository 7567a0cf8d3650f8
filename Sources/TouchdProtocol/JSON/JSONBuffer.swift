/// A growing UTF-8 buffer for writing JSON: raw stores, no per-append checks beyond capacity.
/// Non-copyable, so that its storage has one owner; ``string()`` consumes it.
@usableFromInline struct JSONBuffer: ~Copyable {
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int

  @inlinable init(capacity: Int) {
    self.capacity = Swift.max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  @inlinable deinit { base.deallocate() }

  @inlinable @inline(__always) mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(count + extra) }
  }

  @usableFromInline @inline(never) mutating func grow(_ needed: Int) {
    let newCapacity = Swift.max(needed, capacity * 2)
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  @inlinable @inline(__always) mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  @inlinable @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends an ASCII literal (a key with its punctuation, say `,"seq":`).
  @inlinable @inline(__always) mutating func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends ``JSONFormat/number(_:)``'s spelling: the value rounded to microunits, written as an
  /// integer part and up to six decimals.
  @inlinable mutating func appendNumber(_ value: Double) {
    guard value.isFinite else { return append("null") }
    let scaled = (value * 1_000_000).rounded()
    guard scaled.magnitude < 9.0e18 else { return appendHugeNumber(value) }
    let micros = Int64(scaled)
    if micros == 0 { return append(UInt8(ascii: "0")) }
    // Sign, at most 13 integral digits (9e18 microunits), "." and 6 decimals.
    reserve(24)
    if micros < 0 {
      base[count] = UInt8(ascii: "-")
      count += 1
    }
    let m = micros.magnitude
    writeDecimal(m / 1_000_000)
    var frac = UInt32(truncatingIfNeeded: m % 1_000_000)
    if frac == 0 { return }
    // Trailing zeros dropped: fewer decimals to write.
    var decimals = 6
    while frac % 10 == 0 {
      frac /= 10
      decimals -= 1
    }
    base[count] = UInt8(ascii: ".")
    let end = count + 1 + decimals
    var at = end
    while at > count + 1 {
      at -= 1
      base[at] = 0x30 + UInt8(truncatingIfNeeded: frac % 10)
      frac /= 10
    }
    count = end
  }

  /// Numbers of at least 9e12: the integral part's digits (the decimals are noise at this size).
  @usableFromInline @inline(never) mutating func appendHugeNumber(_ value: Double) {
    var digits: [UInt8] = []
    var rest = value.magnitude.rounded()
    while rest >= 1 {
      let digit = rest.truncatingRemainder(dividingBy: 10)
      digits.append(0x30 + UInt8(digit))
      rest = ((rest - digit) / 10).rounded()
    }
    if value < 0 { append(UInt8(ascii: "-")) }
    for byte in digits.reversed() { append(byte) }
  }

  /// Appends a signed integer's decimal digits.
  @inlinable @inline(__always) mutating func appendInteger(_ value: Int) {
    reserve(21)
    if value < 0 {
      base[count] = UInt8(ascii: "-")
      count += 1
    }
    writeDecimal(UInt64(value.magnitude))
  }

  /// Writes `value`'s digits; the caller reserved 20 bytes.
  @inlinable @inline(__always) mutating func writeDecimal(_ value: UInt64) {
    var digits = 1
    var limit: UInt64 = 10
    while digits < 20 && value >= limit {
      digits += 1
      limit = limit &* 10
    }
    var v = value
    var at = count + digits
    count = at
    repeat {
      at -= 1
      base[at] = 0x30 + UInt8(truncatingIfNeeded: v % 10)
      v /= 10
    } while v > 0
  }

  /// Appends ``JSONFormat/string(_:)``'s spelling: only bytes below 0x20, `"` and `\` are
  /// escaped, so multi-byte characters pass through whole; a string with nothing to escape (the
  /// usual id) is one copy.
  @inlinable mutating func appendString(_ s: String) {
    var s = s
    s.withUTF8 { bytes in
      reserve(bytes.count + 2)
      base[count] = UInt8(ascii: "\"")
      count += 1
      var start = 0
      var i = 0
      while i < bytes.count {
        let byte = bytes[i]
        if byte < 0x20 || byte == 0x22 || byte == 0x5C {
          append(UnsafeBufferPointer(rebasing: bytes[start..<i]))
          appendEscape(byte)
          start = i + 1
        }
        i += 1
      }
      append(UnsafeBufferPointer(rebasing: bytes[start...]))
    }
    append(UInt8(ascii: "\""))
  }

  @usableFromInline @inline(never) mutating func appendEscape(_ byte: UInt8) {
    append(UInt8(ascii: "\\"))
    switch byte {
    case 0x22: append(UInt8(ascii: "\""))
    case 0x5C: append(UInt8(ascii: "\\"))
    case 0x0A: append(UInt8(ascii: "n"))
    case 0x0D: append(UInt8(ascii: "r"))
    case 0x09: append(UInt8(ascii: "t"))
    default:
      let hex: StaticString = "0123456789abcdef"
      append("u00")
      append(hex.utf8Start[Int(byte >> 4)])
      append(hex.utf8Start[Int(byte & 0xF)])
    }
  }

  /// The text written.
  @inlinable consuming func string() -> String {
    String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
  }
}
