/// Places in YAML text as libyaml counts them, for messages that name a line and column an editor
/// can go to: lines end at `\n`, `\r\n`, `\r`, U+0085, U+2028 or U+2029, and columns count Unicode
/// scalars, both from 1.
package enum YAMLPosition {
  /// The place libyaml reported (`line`, `column`), or the end of the last line when that place is
  /// past the end of the text: at the end of a text without a final line break, libyaml reports
  /// the line after the last, which no editor shows.
  package static func clamped(line: Int, column: Int, in text: String) -> (line: Int, column: Int) {
    clamped(line: line, column: column, toEnd: end(of: text))
  }

  /// The place just after the last character of `text`: what ``clamped(line:column:in:)`` clamps
  /// to, for clamping many places in one text with one pass over it.
  package static func end(of text: String) -> (line: Int, column: Int) {
    position(after: text.unicodeScalars)
  }

  /// `(line, column)`, or `end` when that place is past it.
  package static func clamped(line: Int, column: Int, toEnd end: (line: Int, column: Int)) -> (line: Int, column: Int) {
    if line > end.line || (line == end.line && column > end.column) { return end }
    return (line, column)
  }

  /// The place of the character `offset` characters into `text` (a `Character` count, as Yams gives
  /// a reader error's offset); the end of the text when it is past it.
  package static func position(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
    let index = text.index(text.startIndex, offsetBy: max(0, offset), limitedBy: text.endIndex) ?? text.endIndex
    return position(after: text[..<index].unicodeScalars)
  }

  /// The place just after `scalars`.
  private static func position(after scalars: some Sequence<Unicode.Scalar>) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var afterCR = false
    for scalar in scalars {
      switch scalar {
      case "\n" where afterCR:
        break
      case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
        line += 1
        column = 1
      default:
        column += 1
      }
      afterCR = scalar == "\r"
    }
    return (line, column)
  }
}
