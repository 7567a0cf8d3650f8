import Yams

/// The tag of a YAML node, resolved without regular expressions.
///
/// Yams resolves an untagged plain scalar's tag by matching it against seven `NSRegularExpression`s
/// (`Resolver.default`: bool, int, float, merge, null, timestamp, value, in that order). On Linux
/// that was a third of the time touchd spends reading a scene, and compiling them loads ICU's
/// tables (3 MB resident) at start. touchd composes with `Resolver.basic` (no rules: nothing is
/// matched) and asks this type instead, which decides the same tag as `Resolver.default` by
/// scanning the scalar's bytes once. `YAMLTagsTests` checks the two agree on every pattern's edge
/// cases and on a quarter of a million generated scalars.
///
/// Only plain, untagged scalars are resolved this way; a quoted or block scalar is a string, and an
/// explicit tag (`!!int "7"`) is kept, as in Yams.
public enum YAMLTags {
  /// The resolved tag of `node` (`tag:yaml.org,2002:int`, `…:str`, `…:map`, …).
  public static func name(of node: Node) -> Tag.Name {
    guard case .scalar(let scalar) = node else { return Tag.Name(rawValue: node.tag.rawValue) }
    switch scalar.tag.rawValue {
    case Tag.Name.implicit.rawValue: return implicitName(of: scalar.string)
    case "!": return .str
    default: return Tag.Name(rawValue: scalar.tag.rawValue)
    }
  }

  /// The tag `Resolver.default` gives an untagged plain scalar whose text is `string`.
  public static func implicitName(of string: String) -> Tag.Name {
    var string = string
    return string.withUTF8 { implicitName(ofBytes: $0) }
  }

  static func implicitName(ofBytes all: UnsafeBufferPointer<UInt8>) -> Tag.Name {
    // ICU's `$` (the patterns end with it) also matches before one line terminator that ends the
    // text: \n, \r, \r\n, U+0085, U+2028 or U+2029.
    var end = all.count
    if end >= 2, all[end - 2] == 0x0D, all[end - 1] == 0x0A {
      end -= 2
    } else if end >= 1, all[end - 1] == 0x0A || all[end - 1] == 0x0D {
      end -= 1
    } else if end >= 2, all[end - 2] == 0xC2, all[end - 1] == 0x85 {
      end -= 2
    } else if end >= 3, all[end - 3] == 0xE2, all[end - 2] == 0x80, all[end - 1] == 0xA8 || all[end - 1] == 0xA9 {
      end -= 3
    }
    let s = UnsafeBufferPointer(rebasing: all[0..<end])
    if isBool(s) { return .bool }
    if isInt(s) { return .int }
    if isFloat(s) { return .float }
    if equals(s, "<<") { return .merge }
    if isNull(s) { return .null }
    if isTimestamp(s) { return .timestamp }
    if equals(s, "=") { return .value }
    return .str
  }

  // MARK: The rules of Yams' Resolver.default, one function each

  private static let boolWords: [StaticString] = [
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
    "off", "Off", "OFF",
  ]

  /// `^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`
  private static func isBool(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    (2...5).contains(s.count) && equalsSuffix(s, from: 0, anyOf: boolWords)
  }

  private static let nullWords: [StaticString] = ["~", "null", "Null", "NULL"]
  private static let infWords: [StaticString] = ["inf", "Inf", "INF"]
  private static let nanWords: [StaticString] = ["nan", "NaN", "NAN"]

  /// `^(?:~|null|Null|NULL|)$`
  private static func isNull(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    s.isEmpty || equalsSuffix(s, from: 0, anyOf: nullWords)
  }

  /// `^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`
  private static func isInt(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    if i < s.count, s[i] == plus || s[i] == minus { i += 1 }
    let start = i
    guard i < s.count else { return false }
    if s[i] == zero {
      let next = i + 1
      if next == s.count { return true }  // 0
      if s[next] == b, all(s, from: next + 1, atLeastOne: true, { $0 == zero || $0 == one || $0 == underscore }) {
        return true
      }
      if s[next] == x, all(s, from: next + 1, atLeastOne: true, { isHex($0) || $0 == underscore }) { return true }
      let octal = s[next] == o ? next + 1 : next
      return all(s, from: octal, atLeastOne: true) { (zero...seven).contains($0) || $0 == underscore }
    }
    guard (one...nine).contains(s[start]) else { return false }
    i = start + 1
    while i < s.count, isDigit(s[i]) || s[i] == underscore { i += 1 }
    if i == s.count { return true }  // [1-9][0-9_]*
    return sexagesimalGroups(s, from: i) == s.count
  }

  /// `^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?`
  /// `|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`
  private static func isFloat(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !s.isEmpty else { return false }
    // \.[0-9_]+(?:[eE][-+][0-9]+)?  and  \.(?:nan|NaN|NAN)  (no sign)
    if s[0] == dot {
      if equalsSuffix(s, from: 1, anyOf: nanWords) || equalsSuffix(s, from: 1, anyOf: infWords) { return true }
      var i = 1
      while i < s.count, isDigit(s[i]) || s[i] == underscore { i += 1 }
      guard i > 1 else { return false }
      if i == s.count { return true }
      guard s[i] == e || s[i] == capitalE, i + 1 < s.count, s[i + 1] == plus || s[i + 1] == minus else {
        return false
      }
      return all(s, from: i + 2, atLeastOne: true, isDigit)
    }
    var i = 0
    if s[i] == plus || s[i] == minus { i += 1 }
    guard i < s.count else { return false }
    // [-+]?\.(?:inf|Inf|INF)
    if s[i] == dot { return equalsSuffix(s, from: i + 1, anyOf: infWords) }
    guard isDigit(s[i]) else { return false }
    i += 1
    while i < s.count, isDigit(s[i]) || s[i] == underscore { i += 1 }
    if i == s.count { return true }
    if s[i] == colon {
      // [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
      let after = sexagesimalGroups(s, from: i)
      guard after > i, after < s.count, s[after] == dot else { return false }
      return all(s, from: after + 1, atLeastOne: false) { isDigit($0) || $0 == underscore }
    }
    // (?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?
    if s[i] == dot {
      i += 1
      while i < s.count, isDigit(s[i]) || s[i] == underscore { i += 1 }
      if i == s.count { return true }
    }
    guard s[i] == e || s[i] == capitalE else { return false }
    i += 1
    if i < s.count, s[i] == plus || s[i] == minus { i += 1 }
    return all(s, from: i, atLeastOne: true, isDigit)
  }

  /// `^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?`
  /// `:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?)$`
  private static func isTimestamp(_ s: UnsafeBufferPointer<UInt8>) -> Bool {
    guard s.count >= 8, digits(s, 0, 4), s[4] == minus else { return false }
    if s.count == 10, digits(s, 5, 2), s[7] == minus, digits(s, 8, 2) { return true }
    var i = 5
    guard let month = oneOrTwoDigits(s, i) else { return false }
    i = month
    guard i < s.count, s[i] == minus else { return false }
    guard let day = oneOrTwoDigits(s, i + 1) else { return false }
    i = day
    guard i < s.count else { return false }
    if s[i] == capitalT || s[i] == t {
      i += 1
    } else {
      let blanks = i
      while i < s.count, s[i] == space || s[i] == tab { i += 1 }
      guard i > blanks else { return false }
    }
    guard let hour = oneOrTwoDigits(s, i) else { return false }
    i = hour
    guard i + 6 <= s.count, s[i] == colon, digits(s, i + 1, 2), s[i + 3] == colon, digits(s, i + 4, 2) else {
      return false
    }
    i += 6
    if i < s.count, s[i] == dot {
      i += 1
      while i < s.count, isDigit(s[i]) { i += 1 }
    }
    if i == s.count { return true }
    while i < s.count, s[i] == space || s[i] == tab { i += 1 }
    guard i < s.count else { return false }
    if s[i] == capitalZ { return i + 1 == s.count }
    guard s[i] == plus || s[i] == minus, let zone = oneOrTwoDigits(s, i + 1) else { return false }
    i = zone
    if i == s.count { return true }
    return i + 3 == s.count && s[i] == colon && digits(s, i + 1, 2)
  }

  // MARK: Pieces

  /// `(?::[0-5]?[0-9])+` from `i`: the index after the groups (`i` when there is none). A group
  /// takes two digits when it can: what may follow the groups (`:`, `.` or the end) is no digit.
  private static func sexagesimalGroups(_ s: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    while i < s.count, s[i] == colon {
      let d = i + 1
      guard d < s.count, isDigit(s[d]) else { return i }
      if d + 1 < s.count, (zero...five).contains(s[d]), isDigit(s[d + 1]) {
        i = d + 2
      } else {
        i = d + 1
      }
    }
    return i
  }

  /// `[0-9][0-9]?` at `i`: the index after it, or nil.
  private static func oneOrTwoDigits(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
    guard i < s.count, isDigit(s[i]) else { return nil }
    return i + 1 < s.count && isDigit(s[i + 1]) ? i + 2 : i + 1
  }

  private static func digits(_ s: UnsafeBufferPointer<UInt8>, _ i: Int, _ count: Int) -> Bool {
    guard i + count <= s.count else { return false }
    return (i..<(i + count)).allSatisfy { isDigit(s[$0]) }
  }

  /// Whether every byte from `start` to the end passes `test` (and there is one, if asked).
  private static func all(
    _ s: UnsafeBufferPointer<UInt8>, from start: Int, atLeastOne: Bool, _ test: (UInt8) -> Bool
  ) -> Bool {
    guard start <= s.count else { return false }
    if atLeastOne && start == s.count { return false }
    return (start..<s.count).allSatisfy { test(s[$0]) }
  }

  private static func equals(_ s: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    equalsSuffix(s, from: 0, word)
  }

  /// Whether the bytes from `start` to the end are one of `words`.
  private static func equalsSuffix(
    _ s: UnsafeBufferPointer<UInt8>, from start: Int, anyOf words: [StaticString]
  ) -> Bool {
    words.contains { equalsSuffix(s, from: start, $0) }
  }

  /// Whether the bytes from `start` to the end are `word`.
  private static func equalsSuffix(_ s: UnsafeBufferPointer<UInt8>, from start: Int, _ word: StaticString) -> Bool {
    guard s.count - start == word.utf8CodeUnitCount else { return false }
    let w = word.utf8Start
    for k in 0..<word.utf8CodeUnitCount where s[start + k] != w[k] { return false }
    return true
  }

  private static func isDigit(_ c: UInt8) -> Bool { (zero...nine).contains(c) }
  private static func isHex(_ c: UInt8) -> Bool {
    isDigit(c) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(c)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c)
  }

  private static let zero = UInt8(ascii: "0")
  private static let one = UInt8(ascii: "1")
  private static let five = UInt8(ascii: "5")
  private static let seven = UInt8(ascii: "7")
  private static let nine = UInt8(ascii: "9")
  private static let plus = UInt8(ascii: "+")
  private static let minus = UInt8(ascii: "-")
  private static let dot = UInt8(ascii: ".")
  private static let colon = UInt8(ascii: ":")
  private static let underscore = UInt8(ascii: "_")
  private static let b = UInt8(ascii: "b")
  private static let o = UInt8(ascii: "o")
  private static let x = UInt8(ascii: "x")
  private static let e = UInt8(ascii: "e")
  private static let capitalE = UInt8(ascii: "E")
  private static let t = UInt8(ascii: "t")
  private static let capitalT = UInt8(ascii: "T")
  private static let capitalZ = UInt8(ascii: "Z")
  private static let space = UInt8(ascii: " ")
  private static let tab = UInt8(ascii: "\t")
}
