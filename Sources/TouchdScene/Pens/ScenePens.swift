// The scene's pen settings: a window's `penRejectsTouches:` and `penPairs:`, a recognizer's
// `allowedTouchTypes:` and `requiresExclusiveTouchType:`, a view's `touchTypes:`
// (docs/pens.md). Their keys are in SceneFormat+Pens.swift.

extension Scene {
  /// A pen and the touchscreen of the same panel, named as `devices:` names devices (globs over
  /// the name, `vendor:product` or the path, or `KEY=GLOB` over a udev property): pairs that
  /// neither libinput's device group nor equal ids tell (a Dell Canvas's pen is Wacom's, its touch
  /// another vendor's).
  public struct PenPair: Hashable, Sendable {
    public var pen: String
    public var touchscreen: String

    enum CodingKeys: String, CodingKey, CaseIterable { case pen, touchscreen }

    public init(pen: String, touchscreen: String) {
      self.pen = pen
      self.touchscreen = touchscreen
    }
  }
}

extension Scene {
  /// A view's `signature:`: the view is a signature pad (docs/pens.md, "Signature capture").
  public struct Signature: Hashable, Sendable {
    /// What draws: `pen` (pencil touches only) or `any` (fingers too).
    public var ink = "any"
    /// A stroke shorter than this, in the view's points along its path, is dropped (a dot the
    /// hand left); 0: every stroke counts.
    public var minimumLength = 0.0

    enum CodingKeys: String, CodingKey, CaseIterable { case ink, minimumLength }

    public init(ink: String = "any", minimumLength: Double = 0) {
      self.ink = ink
      self.minimumLength = minimumLength
    }
  }
}

extension Scene.Signature: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init()
    ink = try m.string(CodingKeys.ink) ?? ink
    minimumLength = try m.number(CodingKeys.minimumLength) ?? minimumLength
  }
}

extension Scene.PenPair: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      pen: try m.required(try m.string(CodingKeys.pen), CodingKeys.pen),
      touchscreen: try m.required(try m.string(CodingKeys.touchscreen), CodingKeys.touchscreen))
  }
}
