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
}
