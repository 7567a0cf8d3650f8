// A view's `accessibility:` in the scene: UIKit's UIAccessibility properties, as a screen reader
// reads them (the elements, their order and their words: AccessibilityElements.swift).

extension Scene {
  /// A view's `accessibility:`: the properties of UIKit's informal UIAccessibility protocol
  /// (UIAccessibility.h, Apple's "UIAccessibility" documentation), by their UIKit names. Every one
  /// is optional; an absent one takes UIKit's default for the view (``AccessibilityElements``).
  public struct Accessibility: Hashable, Sendable {
    /// `accessibilityLabel`: what the element is, in a word or a few ("Buy ticket"). A view with
    /// a label is an element (UIKit's labelled views: UILabel, UIButton with a title).
    public var label: String?
    /// `accessibilityHint`: what activating it does ("Buys a single ticket"), spoken after a pause.
    public var hint: String?
    /// `accessibilityValue`: its value when it has one that changes ("3 tickets"); a control's
    /// own value otherwise (a slider's percentage, a switch's on or off).
    public var value: String?
    /// `accessibilityTraits`: UIAccessibilityTraits names (``SceneFormat/accessibilityTraits``),
    /// added to a control's own (a button's `button`, a slider's `adjustable`).
    public var traits: [String] = []
    /// `isAccessibilityElement`; nil: UIKit's default (true for a control or a view with a label).
    public var element: Bool?
    /// `accessibilityElementsHidden`: the view and its subviews are no elements.
    public var hidden = false
    /// `accessibilityViewIsModal`: the elements of the view's siblings are ignored (Apple: "VoiceOver
    /// ignores the accessibility elements within views that are siblings of the receiver").
    public var modal = false
    /// `accessibilityActivationPoint`, in the view's own points; nil: the centre of its frame.
    public var activationPoint: Point?
    /// `accessibilityFrame`, in the view's own points; nil: the view's bounds. Either is clipped
    /// on screen as hit-testing clips.
    public var frame: Frame?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case label, hint, value, traits, element, hidden, modal, activationPoint, frame
    }

    public init(label: String? = nil) { self.label = label }
  }

  /// A window's `speech:`: how VoiceOver's words reach speech-dispatcher (docs/accessibility.md,
  /// "Speech"). SSIP's own parameters (`SET self LANGUAGE`, `RATE`, `SYNTHESIS_VOICE`; the
  /// `ssip.info` manual, "Parameter Setting").
  public struct Speech: Hashable, Sendable {
    /// Whether touchd speaks the window's VoiceOver at all (its messages are published either way).
    public var enabled = true
    /// The language of VoiceOver's own words (``SpokenLanguage``) and speech-dispatcher's voice.
    public var language = SpokenLanguage.english.code
    /// SSIP's rate, -100 (slowest) to 100; 0 is speech-dispatcher's default.
    public var rate = 0
    /// A synthesis voice by the name speech-dispatcher's module lists (`LIST SYNTHESIS_VOICES`);
    /// nil: the language's default voice.
    public var voice: String?
    /// speech-dispatcher's SSIP socket; nil: the system instance's (docs/accessibility.md).
    public var socket: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case enabled, language, rate, voice, socket }

    public init() {}
  }

  /// A window's `voiceOverActions:`: the scene's action names for VoiceOver's escape (a two-finger
  /// scrub, the keypad's menu key) and magic tap (a two-finger double tap, the app's main action:
  /// UIAccessibilityAction's `accessibilityPerformEscape` and `accessibilityPerformMagicTap`),
  /// published as `action` messages beside their accessibility events.
  public struct VoiceOverActions: Hashable, Sendable {
    public var escape: String?
    public var magicTap: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case escape, magicTap }

    public init(escape: String? = nil, magicTap: String? = nil) {
      self.escape = escape
      self.magicTap = magicTap
    }
  }
}

extension Scene.Accessibility: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(label: try m.string(CodingKeys.label))
    hint = try m.string(CodingKeys.hint)
    value = try m.string(CodingKeys.value)
    traits = try m.options(CodingKeys.traits) ?? traits
    element = try m.bool(CodingKeys.element)
    hidden = try m.bool(CodingKeys.hidden) ?? hidden
    modal = try m.bool(CodingKeys.modal) ?? modal
    activationPoint = try m.object(CodingKeys.activationPoint)
    frame = try m.object(CodingKeys.frame)
  }
}

extension Scene.Speech: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init()
    enabled = try m.bool(CodingKeys.enabled) ?? enabled
    language = try m.string(CodingKeys.language) ?? language
    rate = try m.integer(CodingKeys.rate) ?? rate
    voice = try m.string(CodingKeys.voice)
    socket = try m.string(CodingKeys.socket)
  }
}

extension Scene.VoiceOverActions: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(escape: try m.string(CodingKeys.escape), magicTap: try m.string(CodingKeys.magicTap))
  }
}
