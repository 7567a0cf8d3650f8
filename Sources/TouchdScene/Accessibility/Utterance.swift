// What a screen reader says of an element: label, value, trait words, then hint.

extension AccessibilityElement {
  /// The words VoiceOver speaks for each trait, in English ("Buy ticket, button."): Apple's
  /// VoiceOver speaks `header` as "heading" and `notEnabled` as "dimmed"; a trait it says nothing
  /// for (staticText, summaryElement, playsSound, …) has none.
  static let traitWords: [String: String] = [
    "button": "button", "link": "link", "header": "heading", "searchField": "search field", "image": "image",
    "selected": "selected", "keyboardKey": "key", "notEnabled": "dimmed", "adjustable": "adjustable",
    "tabBar": "tab bar", "toggleButton": "toggle button",
  ]

  /// The utterance (issue #40's order): the label, the value and the traits' words, a comma apart
  /// and ended by a full stop, then the hint after a space ("Buy ticket, button. Double tap to
  /// buy."); nil for an element with nothing to say.
  public var spoken: String? {
    var parts: [String] = []
    if let label, !label.isEmpty { parts.append(label) }
    if let value, !value.isEmpty { parts.append(value) }
    parts += traits.compactMap { Self.traitWords[$0] }
    var text = parts.isEmpty ? "" : parts.joined(separator: ", ") + "."
    if let hint, !hint.isEmpty { text += (text.isEmpty ? "" : " ") + hint }
    return text.isEmpty ? nil : text
  }
}
