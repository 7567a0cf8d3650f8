/// The number and string spellings of every JSON that touchd writes.
public enum JSONFormat {
  /// A number with at most six decimals, no exponent and no trailing zeros; -0 is written 0 and
  /// non-finite values (which JSON cannot carry) are written null.
  public static func number(_ value: Double) -> String {
    var out = JSONBuffer(capacity: 24)
    out.appendNumber(value)
    return out.string()
  }

  /// A quoted JSON string: quotes, backslashes and control characters escaped.
  public static func string(_ s: String) -> String {
    var out = JSONBuffer(capacity: s.utf8.count + 2)
    out.appendString(s)
    return out.string()
  }

  /// A number as clients write their commands: an integer below 10^15 without a fraction, any
  /// other in Swift's shortest text that reads back as the same `Double` (`0.1`, `1e+20`); nil
  /// for a number that is not finite, which JSON cannot carry.
  public static func roundTripNumber(_ value: Double) -> String? {
    guard value.isFinite else { return nil }
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return "\(value)"
  }
}
