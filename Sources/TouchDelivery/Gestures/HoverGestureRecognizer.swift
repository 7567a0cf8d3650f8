// UIKit's UIHoverGestureRecognizer, for a pen hovering over a pen display.
import TouchdCore

/// Where a hovering pen is, in window points (``Application/hover(_:in:)``).
public struct PenHover: Hashable, Sendable {
  public var location: Point
  /// 0 touching to 1 at the farthest distance the pen reports (UIKit's `zOffset`; 0 for a pen
  /// that reports no distance, as UIKit's for devices that do not measure it).
  public var zOffset: Double
  public var altitudeAngle: Double
  public var azimuthAngle: Double

  public init(location: Point, zOffset: Double, altitudeAngle: Double, azimuthAngle: Double) {
    self.location = location
    self.zOffset = zOffset
    self.altitudeAngle = altitudeAngle
    self.azimuthAngle = azimuthAngle
  }
}

/// Follows a pen hovering over its view (UIKit's `UIHoverGestureRecognizer`, iPadOS 16.1's Apple
/// Pencil hover): `began` when the hovering pen comes over the view (into proximity there, or
/// moving in from outside), `changed` as it moves, `ended` when it leaves the view or the screen's
/// range; the pen's tip touching down cancels it (the hover is over and the touch is the view's,
/// whose touches UIKit's hover recognizer never takes). It receives no touches: a hovering pen
/// makes none. Continuous, with ``zOffset`` and the pen's angles at each step.
open class HoverGestureRecognizer: GestureRecognizer {
  /// The pen's height above the glass, 0...1 (UIKit's `zOffset`).
  public internal(set) var zOffset = 0.0
  /// The hovering pen's angles (UIKit's `altitudeAngle` and `azimuthAngle(in: nil)`).
  public internal(set) var altitudeAngle = Double.pi / 2
  public internal(set) var azimuthAngle = 0.0

  override var takesTouches: Bool { false }

  /// The pen over the view, or not (nil: gone or touching; `touching` says which).
  func hover(_ hover: PenHover?, over: Bool, touching: Bool) {
    let active = state == .began || state == .changed
    if let hover, over {
      lastLocationInWindow = hover.location
      zOffset = hover.zOffset
      altitudeAngle = hover.altitudeAngle
      azimuthAngle = hover.azimuthAngle
      setState(active ? .changed : .began, because: active ? "the pen hovers on" : "the pen hovers over the view")
    } else if active {
      setState(
        touching ? .cancelled : .ended,
        because: touching ? "the pen touched down" : hover == nil ? "the pen left proximity" : "the pen left the view")
    }
  }
}
