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
