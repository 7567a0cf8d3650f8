import Foundation
import Testing
import TouchdProtocol

/// The byte-level JSON writer (performance work, docs/performance.md) against the string-based
/// encoding it replaced, kept here as the reference.
@Suite("JSON encoding matches the reference")
struct JSONEncodingTests {
  static func referenceNumber(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    let scaled = (value * 1_000_000).rounded()
    guard scaled.magnitude < 9.0e18 else {
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

  static func referenceString(_ s: String) -> String {
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

  @Test("numbers: random magnitudes and fractions, signs, edges")
  func numbers() {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] = [
      0, -0.0, 1, -1, 0.5, 0.000001, 0.0000005, 0.0000004999, 9.999999, 10, 123456.789012, -98765.4321,
      1e12, 9.2e12, 9.3e12, 1e20, -1e20, .infinity, -.infinity, .nan, Double.greatestFiniteMagnitude,
      1_234_567_890.123456,
    ]
    for _ in 0..<20_000 {
      let magnitude = pow(10, Double.random(in: -8...14, using: &generator))
      values.append(Double.random(in: -magnitude...magnitude, using: &generator))
    }
    for v in values {
      #expect(JSONFormat.number(v) == Self.referenceNumber(v), "value \(v)")
    }
  }

  @Test("strings: plain, escapes, control characters, multi-byte characters")
  func strings() {
    let samples = [
      "", "door", "a\"b", "back\\slash", "line\nbreak\r\t", "\u{0}\u{1}\u{1f}\u{7f}", "ünïcödé → ✓ 🖐️",
      "mixed \"quotes\" and \u{8} bell \u{7}", String(repeating: "x", count: 300) + "\"",
    ]
    for s in samples {
      #expect(JSONFormat.string(s) == Self.referenceString(s), "string \(s.debugDescription)")
    }
  }
}
