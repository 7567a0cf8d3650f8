// What a screen reader says of an element: label, value, trait words, then hint, in the window's
// language (SpokenLanguage.swift has the words).

extension AccessibilityElement {
  /// The utterance (issue #40's order): the label, the value and the traits' words, a comma apart
  /// and ended by a full stop, then the hint after a space ("Buy ticket, button. Double tap to
  /// buy."); nil for an element with nothing to say. The element's value is already in its
  /// window's language (``SpokenLanguage``).
  public func spoken(in language: SpokenLanguage = .english) -> String? {
    let (text, hint) = utterance(in: language)
    guard let text else { return hint }
    return hint.map { text + " " + $0 } ?? text
  }

  /// The two parts of ``spoken(in:)``: what the element is (label, value, trait words) and its hint,
  /// which speech says after a pause; each nil when empty.
  public func utterance(in language: SpokenLanguage) -> (text: String?, hint: String?) {
    var parts: [String] = []
    if let label, !label.isEmpty { parts.append(label) }
    if let value, !value.isEmpty { parts.append(value) }
    parts += traits.compactMap { language.traitWords[$0] }
    let hint = hint.flatMap { $0.isEmpty ? nil : $0 }
    return (parts.isEmpty ? nil : parts.joined(separator: ", ") + ".", hint)
  }
}
