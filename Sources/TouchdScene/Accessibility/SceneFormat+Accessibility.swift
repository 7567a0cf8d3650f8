// The scene format's accessibility tables: a view's `accessibility:` (UIKit's UIAccessibility
// properties), a window's `speech:` and `voiceOverActions:`, and UIKit's trait names. The rest
// of the format is in SceneFormat.swift.

extension SceneFormat {
  /// Accessibility traits (`traits:`): UIKit's `UIAccessibilityTraits` (UIAccessibilityConstants.h),
  /// by their Swift names, `none` included; `tabBar` since iOS 10, `toggleButton` and
  /// `supportsZoom` since iOS 17.
  public static let accessibilityTraits = [
    "none", "button", "link", "header", "searchField", "image", "selected", "playsSound", "keyboardKey",
    "staticText", "summaryElement", "notEnabled", "updatesFrequently", "startsMediaSession", "adjustable",
    "allowsDirectInteraction", "causesPageTurn", "tabBar", "toggleButton", "supportsZoom",
  ]

  /// The keys of the accessibility objects, in documentation order (``keys(of:)`` asks here).
  static func accessibilityKeys(of object: SceneObject) -> [SceneKey] {
    switch object {
    case .accessibility:
      [
        SceneKey("label", .string, "What the element is, in a word or a few (accessibilityLabel)."),
        SceneKey("hint", .string, "What activating it does, spoken after a pause (accessibilityHint)."),
        SceneKey(
          "value", .string,
          "Its value, when it has one that changes (accessibilityValue); absent: a control's own value."),
        SceneKey(
          "traits", .options(accessibilityTraits), default: .array([]),
          "UIAccessibilityTraits names, one or a list, added to a control's own (accessibilityTraits)."),
        SceneKey(
          "element", .bool,
          "Whether the view is an element (isAccessibilityElement); absent: true for a control or a view with a label."),
        SceneKey(
          "hidden", .bool, default: .bool(false),
          "The view and its subviews are no elements (accessibilityElementsHidden)."),
        SceneKey(
          "modal", .bool, default: .bool(false),
          "The elements of the view's siblings are ignored (accessibilityViewIsModal)."),
        SceneKey(
          "activationPoint", .object(.point),
          "Where activating the element taps, in the view's points (accessibilityActivationPoint); absent: its centre."),
        SceneKey(
          "frame", .object(.frame),
          "The element's area in the view's points (accessibilityFrame); absent: the view's bounds. Clipped as hit-testing clips."
        ),
      ]
    case .speech:
      [
        SceneKey(
          "enabled", .bool, default: .bool(true),
          "Whether VoiceOver speaks; its accessibility messages are published either way."),
        SceneKey(
          "language", .choice(SpokenLanguage.all.map(\.code)), default: .string(SpokenLanguage.english.code),
          "The language of VoiceOver's own words (trait words, on and off, positions) and of speech-dispatcher's voice."
        ),
        SceneKey(
          "rate", .integer(minimum: -100, maximum: 100), default: .number(0),
          "speech-dispatcher's rate (SSIP's SET RATE): -100 slowest, 100 fastest, 0 its default."),
        SceneKey(
          "voice", .string,
          "A synthesis voice by the name speech-dispatcher lists for its module (spd-say -L); absent: the language's own."
        ),
        SceneKey(
          "socket", .string,
          "speech-dispatcher's SSIP socket; absent: $SPEECHD_ADDRESS's, else the system instance's (docs/accessibility.md)."
        ),
      ]
    case .voiceOverActions:
      [
        SceneKey(
          "escape", .string,
          "The action a two-finger scrub or the keypad's menu key publishes while VoiceOver is on (accessibilityPerformEscape)."
        ),
        SceneKey(
          "magicTap", .string,
          "The action a two-finger double tap publishes while VoiceOver is on: the app's main action (accessibilityPerformMagicTap)."
        ),
      ]
    default: []
    }
  }
}
