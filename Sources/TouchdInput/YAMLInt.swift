import Yams

/// Integers from YAML scalars as Yams reads them (`Node.int`: decimal, `0x`, `0o`, `0b`, `0`
/// octal and YAML 1.1's sexagesimal `1:30`), without Yams' trap: Yams multiplies the groups of a
/// sexagesimal integer with unchecked arithmetic, so one past `Int`'s range
/// (`+476666666660368547:5808`) crashed the process (found by `FuzzLibinputRecord`). Such a value is
/// read here with checked arithmetic and is nil when it does not fit, as the other forms are.
package enum YAMLInt {
  /// The integer `node` holds, or nil (not a scalar, not an integer, or out of `Int`'s range).
  package static func value(of node: Node) -> Int? {
    guard let scalar = node.scalar else { return nil }
    let text = String(scalar.string.filter { $0 != "_" })
    let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    // Yams reads a leading 0 as a radix prefix (`Int(_:radix:)`, nil on overflow) before it looks
    // for a colon: only the sexagesimal path needs the check.
    guard text.contains(":"), !unsigned.hasPrefix("0") else { return node.int }
    var magnitude = 0
    for group in unsigned.split(separator: ":", omittingEmptySubsequences: false) {
      guard let digit = Int(group, radix: 10) else { return nil }
      let (shifted, overflowed) = magnitude.multipliedReportingOverflow(by: 60)
      let (sum, overflowedSum) = shifted.addingReportingOverflow(digit)
      guard !overflowed, !overflowedSum else { return nil }
      magnitude = sum
    }
    return text.hasPrefix("-") ? -magnitude : magnitude
  }
}
