// The words VoiceOver adds to what a scene says: trait words, control values, positions and its
// own phrases, in each language a window's `speech.language` may name.

/// The words of one language: what VoiceOver says for each trait, for a control's value, a
/// position, a page and its own state. A window's `speech.language` picks one
/// (``SpokenLanguage/named(_:)``); the scene's own labels, values and hints are said as written.
public struct SpokenLanguage: Sendable, Hashable {
  /// The language's code, as SSIP's `SET self LANGUAGE` takes it (RFC 1766) and a scene names it.
  public var code: String
  /// The words for each UIAccessibilityTraits name; a trait VoiceOver says nothing for
  /// (staticText, summaryElement, playsSound, …) has none.
  public var traitWords: [String: String]
  /// A switch's value: VoiceOver says UISwitch's accessibilityValue ("1" or "0") as on or off.
  public var on: String
  public var off: String
  /// The second of three ("2 of 3"): a segment's value, UISegmentedControl's accessibilityValue.
  public var position: @Sendable (Int, Int) -> String
  /// "page 2 of 5": a page control's value (UIPageControl's accessibilityValue) and where a
  /// three-finger scroll landed (`accessibilityScroll`'s announcement).
  public var page: @Sendable (Int, Int) -> String
  /// What VoiceOver says as it turns on and off.
  public var voiceOverOn: String
  public var voiceOverOff: String
  /// Said when a flick finds no element beyond the focus: VoiceOver plays a boundary sound; touchd
  /// says a word, since speech-dispatcher's sound icons are not installed everywhere.
  public var lastElement: String
  public var firstElement: String
  /// Said by the three-finger tap (where the focus is) when nothing is focused.
  public var nothingFocused: String

  public static func == (a: SpokenLanguage, b: SpokenLanguage) -> Bool { a.code == b.code }
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }

  /// English: Apple VoiceOver's own words in English (it says `header` as "heading" and
  /// `notEnabled` as "dimmed").
  public static let english = SpokenLanguage(
    code: "en",
    traitWords: [
      "button": "button", "link": "link", "header": "heading", "searchField": "search field", "image": "image",
      "selected": "selected", "keyboardKey": "key", "notEnabled": "dimmed", "adjustable": "adjustable",
      "tabBar": "tab bar", "toggleButton": "toggle button",
    ],
    on: "on", off: "off", position: { "\($0) of \($1)" }, page: { "page \($0) of \($1)" },
    voiceOverOn: "VoiceOver on", voiceOverOff: "VoiceOver off", lastElement: "end", firstElement: "beginning",
    nothingFocused: "nothing selected")

  /// German: the words of iOS's German VoiceOver as touchd heard them described ("Taste" for a
  /// button, "Überschrift" for a heading, "abgeblendet" for dimmed; "2 von 3", "Seite 2 von 5").
  public static let german = SpokenLanguage(
    code: "de",
    traitWords: [
      "button": "Taste", "link": "Link", "header": "Überschrift", "searchField": "Suchfeld", "image": "Bild",
      "selected": "ausgewählt", "keyboardKey": "Taste", "notEnabled": "abgeblendet", "adjustable": "anpassbar",
      "tabBar": "Tableiste", "toggleButton": "Umschalttaste",
    ],
    on: "ein", off: "aus", position: { "\($0) von \($1)" }, page: { "Seite \($0) von \($1)" },
    voiceOverOn: "VoiceOver ein", voiceOverOff: "VoiceOver aus", lastElement: "Ende", firstElement: "Anfang",
    nothingFocused: "nichts ausgewählt")

  /// Every language a scene may name, by code (the scene's `speech.language` choices).
  public static let all: [SpokenLanguage] = [english, german]

  /// The language `code` names; English for one the scene format does not know (validation
  /// refuses those).
  public static func named(_ code: String) -> SpokenLanguage { all.first { $0.code == code } ?? english }
}
