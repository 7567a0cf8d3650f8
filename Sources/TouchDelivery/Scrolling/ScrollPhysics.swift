/// UIScrollView's numbers and motion laws, each with its source. Distances are in points, times
/// in seconds, velocities in points per second unless a name says otherwise.
public enum ScrollConstants {
  /// `UIScrollView.DecelerationRate.normal`: the velocity keeps this fraction per millisecond
  /// (UIKit headers; the value 0.998 is printed by `decelerationRate`, as reported since iPhone OS
  /// 3.0, and used by WWDC18 session 803 "Designing Fluid Interfaces").
  public static let decelerationRateNormal = 0.998
  /// `UIScrollView.DecelerationRate.fast`: 0.99 per millisecond (same sources).
  public static let decelerationRateFast = 0.99

  /// The rubber-band constant c of UIKit's formula b = (1 − 1/(x·c/d + 1))·d (x: how far the
  /// finger went past the edge, d: the viewport's size on that axis): 0.55, as published by Grant
  /// Paul (@chpwn) from UIKit's disassembly and analysed in "Analysis of Apple's rubber band
  /// scrolling" (squareb, 2013).
  public static let rubberBandCoefficient = 0.55

  /// How long content touches are held back while the scroll view decides whether a touch
  /// scrolls (`delaysContentTouches`). Apple's UIScrollView overview says only that the scroll
  /// view "starts a timer" when the user touches; developers measure 150 ms (UIKit's
  /// UIScrollViewDelayedTouchesBeganGestureRecognizer; e.g. the UIScrollView notes on
  /// runxinzhi.com/blogfantasy-p-4933538, "150ms内如果你的手指没有任何动作,消息就会传给subView").
  /// Seed 002 reports 300 ms: the commonly measured 150 ms is taken instead (docs/delivery.md).
  public static let contentTouchDelay = 0.15

  /// How far (pt) a drag must move before the scroll view's pan begins: UIScrollView's pan is a
  /// UIPanGestureRecognizer subclass (UIScrollViewPanGestureRecognizer, UIKitCore runtime
  /// headers) with the pan's 10 pt hysteresis (``GestureConstants/panStartDistance``).
  public static let dragStartDistance = GestureConstants.panStartDistance

  /// Directional lock: a drag whose start is this many times longer along one axis than along
  /// the other locks to that axis (about 26.6° either side of the axis). Apple documents only
  /// "one general direction (horizontally or vertically)" versus diagonal; touchd's choice.
  public static let directionalLockRatio = 2.0

  /// The spring that brings content back inside its bounds (bounce), onto a page (paging) and to
  /// an animated offset: critically damped (damping ratio 1, UIKit's non-bouncy settle), angular
  /// frequency ω = 10 /s (stiffness 100 at mass 1). UIKit publishes no constants for its bounce;
  /// this is the spring of Ilya Lobanov's reproduction of UIScrollView's mechanics (ScrollMechanics,
  /// 2019), which settles within half a point in about 0.6 s, as UIKit's bounce does to the eye.
  public static let springFrequency = 10.0

  /// Motion ends when the content is within this distance (pt) of where it comes to rest: half a
  /// point, below what a 1x kiosk panel can show (Lobanov's threshold, the same article).
  public static let restThreshold = 0.5

  /// The display rate at which a moving scroll view publishes its offset (Hz), per window; 60 Hz
  /// is the common kiosk panel's refresh rate.
  public static let defaultFrameRate = 60.0
}

/// Pure functions of UIScrollView's motion: rubber-banding, deceleration and the settling spring.
public enum ScrollPhysics {
  /// How far content is drawn past an edge when the finger has gone `overshoot` points past it, in
  /// a viewport `dimension` points long (UIKit's formula, ``ScrollConstants/rubberBandCoefficient``).
  public static func rubberBand(_ overshoot: Double, dimension: Double) -> Double {
    guard overshoot > 0, dimension > 0 else { return max(overshoot, 0) }
    let c = ScrollConstants.rubberBandCoefficient
    return (1 - 1 / (overshoot * c / dimension + 1)) * dimension
  }

  /// The inverse of ``rubberBand(_:dimension:)``: how far the finger must be past the edge for the
  /// content to show `banded` points past it (for a drag that starts while content is out of range).
  public static func unRubberBand(_ banded: Double, dimension: Double) -> Double {
    guard banded > 0, dimension > 0 else { return max(banded, 0) }
    let c = ScrollConstants.rubberBandCoefficient
    let b = min(banded, dimension * 0.999)
    return dimension / c * (1 / (1 - b / dimension) - 1)
  }

  /// `value` clamped into `lower...upper`, rubber-banded past either end over `dimension`.
  public static func banded(_ value: Double, lower: Double, upper: Double, dimension: Double) -> Double {
    if value < lower { return lower - rubberBand(lower - value, dimension: dimension) }
    if value > upper { return upper + rubberBand(value - upper, dimension: dimension) }
    return value
  }

  /// A pinch's scale `raw` rubber-banded past `minimum...maximum` (with `bouncesZoom`). UIKit
  /// publishes no law for it; touchd applies the offset's rubber band to the scale, with the limit
  /// passed as the dimension: a pinch to twice the maximum shows 1.355 × the maximum, to half the
  /// minimum 0.784 × the minimum; the scale never reaches twice the maximum (as the offset never
  /// passes a viewport's length), nor goes below 0.645 × the minimum (where the raw scale is 0).
  public static func bandedZoomScale(_ raw: Double, minimum: Double, maximum: Double) -> Double {
    if raw > maximum { return maximum + rubberBand(raw - maximum, dimension: maximum) }
    if raw < minimum { return minimum - rubberBand(minimum - raw, dimension: minimum) }
    return raw
  }

  /// The inverse of ``bandedZoomScale(_:minimum:maximum:)``: the raw scale a pinch that begins
  /// while the scale is banded (bouncing back) carries on from.
  public static func unbandedZoomScale(_ banded: Double, minimum: Double, maximum: Double) -> Double {
    if banded > maximum { return maximum + unRubberBand(banded - maximum, dimension: maximum) }
    if banded < minimum { return minimum - unRubberBand(minimum - banded, dimension: minimum) }
    return banded
  }

  /// The displacement after `time` seconds of content released at `velocity` (pt/s) whose velocity
  /// keeps `rate` of itself per millisecond: v(t) = v₀·rate^(1000 t), so
  /// x(t) = v₀·(rate^(1000 t) − 1) / (1000·ln rate) (Lobanov, "Deceleration mechanics of
  /// UIScrollView", 2019; its limit is WWDC18 session 803's projection).
  public static func decayDisplacement(velocity: Double, rate: Double, time: Double) -> Double {
    let k = 1000 * ScrollMath.log(rate)
    return velocity * (ScrollMath.exp(k * time) - 1) / k
  }

  /// The velocity (pt/s) after `time` seconds of decay.
  public static func decayVelocity(velocity: Double, rate: Double, time: Double) -> Double {
    velocity * ScrollMath.exp(1000 * ScrollMath.log(rate) * time)
  }

  /// Where released content comes to rest: the displacement as time goes to infinity,
  /// −v₀ / (1000·ln rate). (WWDC18 session 803's `project` gives v₀/1000·rate/(1 − rate), within
  /// 0.1% of this for UIKit's rates.)
  public static func projection(velocity: Double, rate: Double) -> Double {
    -velocity / (1000 * ScrollMath.log(rate))
  }

  /// A critically damped spring at angular frequency `omega` released `displacement` from its rest
  /// point at `velocity`: its displacement and velocity after `time` seconds.
  public static func spring(displacement x0: Double, velocity v0: Double, omega: Double, time t: Double) -> (
    displacement: Double, velocity: Double
  ) {
    let e = ScrollMath.exp(-omega * t)
    let b = v0 + omega * x0
    return ((x0 + b * t) * e, (b - omega * (x0 + b * t)) * e)
  }
}

/// exp and log without libm (TouchDelivery imports no platform module), accurate to a few ulps.
enum ScrollMath {
  static let ln2 = 0.693_147_180_559_945_3

  /// e^x: x = k·ln2 + r with |r| ≤ ln2/2, a Taylor series for e^r, then scaled by 2^k.
  static func exp(_ x: Double) -> Double {
    if x.isNaN { return x }
    if x > 709 { return .infinity }
    if x < -745 { return 0 }
    let k = (x / ln2).rounded()
    let r = x - k * ln2
    var term = 1.0
    var sum = 1.0
    for n in 1..<20 {
      term *= r / Double(n)
      sum += term
    }
    return sum * pow2(Int(k))
  }

  /// 2^k for integer k.
  private static func pow2(_ k: Int) -> Double {
    if k > 1023 { return .infinity }
    if k < -1074 { return 0 }
    if k < -1022 { return Double(sign: .plus, exponent: -1022, significand: 1) * pow2(k + 1022) }
    return Double(sign: .plus, exponent: k, significand: 1)
  }

  /// ln x for x > 0: x = m·2^e with m in [1, 2), ln m = 2·atanh((m − 1)/(m + 1)) by its series.
  static func log(_ x: Double) -> Double {
    guard x > 0 else { return x == 0 ? -.infinity : .nan }
    if x.isInfinite { return x }
    let e = Double(x.exponent)
    let m = x.significand
    let z = (m - 1) / (m + 1)
    let z2 = z * z
    var term = z
    var sum = 0.0
    for n in 0..<40 {
      sum += term / Double(2 * n + 1)
      term *= z2
    }
    return 2 * sum + e * ln2
  }
}
