// The scene format's pen keys: a window's `penPairs:` entries, and the touch type names of
// `allowedTouchTypes:` and `touchTypes:`. The rest of the format is in SceneFormat.swift.

extension SceneFormat {
  /// Touch types (`allowedTouchTypes:`, `touchTypes:`): UIKit's `UITouch.TouchType` names that a
  /// Linux panel makes, `direct` (a finger) and `pencil` (a pen's tip).
  public static let touchTypes = ["direct", "pencil"]

  /// The keys of a view's `signature:` (``keys(of:)`` asks here).
  static let signatureKeys = [
    SceneKey(
      "ink", .choice(["any", "pen"]), default: .string("any"),
      "What draws on the pad: any (fingers and pens) or pen (pencil touches only)."),
    SceneKey(
      "minimumLength", .number(minimum: 0, maximum: nil), default: .number(0),
      "Strokes shorter than this, in the view's points along their path, are dropped (a dot the hand left)."),
  ]

  /// The keys of a `penPairs:` entry (``keys(of:)`` asks here).
  static let penPairKeys = [
    SceneKey(
      "pen", .string, required: true,
      "The pen device: a glob over its name, vendor:product (hex) or path, or KEY=GLOB over a udev property."),
    SceneKey(
      "touchscreen", .string, required: true,
      "The touchscreen of the same panel, named the same way: its touches are rejected while the pen is near."),
  ]
}
