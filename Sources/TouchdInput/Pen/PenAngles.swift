// A pen's tilt, as the kernel reports it, and the altitude and azimuth UIKit gives a pencil touch.
import Foundation

/// A pen's two tilt angles (`ABS_TILT_X`, `ABS_TILT_Y`, degrees: the plane of the pen and the
/// y axis against the screen's normal, positive with the pen's top leaning towards +x; likewise
/// for y, +y down) and the altitude and azimuth they make.
///
/// The conversion is the W3C Pointer Events' (Level 3, "Converting between tiltX/tiltY and
/// altitudeAngle/azimuthAngle"), whose `tiltX`/`tiltY` are the kernel's and whose
/// `altitudeAngle` and `azimuthAngle` are UIKit's `altitudeAngle` (π/2 perpendicular to the
/// screen, 0 parallel) and `azimuthAngle(in:)` (0 along +x, growing towards +y: clockwise on a
/// screen whose y points down).
public struct PenAngles: Hashable, Sendable {
  public var altitude: Double
  public var azimuth: Double

  /// The angles of tilts `tiltX` and `tiltY` in degrees (each -90...90).
  public init(tiltX: Double, tiltY: Double) {
    let x = tiltX * Double.pi / 180
    let y = tiltY * Double.pi / 180
    // Pointer Events' `spherical2tilt`'s inverse, case by case as the specification writes it:
    // an axis at 0 leaves the other's tilt as the azimuth's quadrant and the altitude's complement.
    if tiltX == 0 && tiltY == 0 {
      (altitude, azimuth) = (Double.pi / 2, 0)
    } else if abs(tiltX) >= 90 || abs(tiltY) >= 90 {
      // Lying flat on the screen.
      altitude = 0
      azimuth = abs(tiltX) >= 90 ? (tiltX > 0 ? 0 : Double.pi) : (tiltY > 0 ? Double.pi / 2 : 3 * Double.pi / 2)
    } else if tiltX == 0 {
      altitude = Double.pi / 2 - abs(y)
      azimuth = tiltY > 0 ? Double.pi / 2 : 3 * Double.pi / 2
    } else if tiltY == 0 {
      altitude = Double.pi / 2 - abs(x)
      azimuth = tiltX > 0 ? 0 : Double.pi
    } else {
      let (tx, ty) = (tan(x), tan(y))
      altitude = atan(1 / (tx * tx + ty * ty).squareRoot())
      var a = atan2(ty, tx)
      if a < 0 { a += 2 * Double.pi }
      azimuth = a
    }
  }

  /// Wacom's physical tilt range, ±64 degrees: what libinput spreads an axis over when it has no
  /// resolution (src/evdev-tablet.c, `adjust_tilt`, `WACOM_MAX_DEGREES`).
  public static let unresolvedTiltRange = 64.0

  /// A tilt axis's `value` in degrees, as libinput's `adjust_tilt` reads it: with a resolution
  /// (units per radian, linux/input.h's documentation of `ABS_TILT_*`) on an axis centred on 0, the
  /// value over the resolution; else the axis's range spread over ±``unresolvedTiltRange``.
  public static func degrees(_ value: Int32, axis: AbsInfo) -> Double {
    if axis.resolution != 0 && axis.maximum > 0 && axis.minimum < 0 {
      return Double(value) / Double(axis.resolution) * 180 / Double.pi
    }
    let span = Double(axis.maximum) - Double(axis.minimum)
    guard span > 0 else { return 0 }
    let unit = (Double(value) - Double(axis.minimum)) / span * 2 - 1
    return Swift.min(1, Swift.max(-1, unit)) * unresolvedTiltRange
  }

  /// The inverse of ``degrees(_:axis:)``: the axis value of `degrees` tilt, clamped to the axis.
  public static func value(degrees: Double, axis: AbsInfo) -> Int32 {
    let raw: Double
    if axis.resolution != 0 && axis.maximum > 0 && axis.minimum < 0 {
      raw = degrees * Double.pi / 180 * Double(axis.resolution)
    } else {
      let unit = Swift.min(1, Swift.max(-1, degrees / unresolvedTiltRange))
      raw = Double(axis.minimum) + (unit + 1) / 2 * (Double(axis.maximum) - Double(axis.minimum))
    }
    return Int32(Swift.min(Double(axis.maximum), Swift.max(Double(axis.minimum), raw.rounded())))
  }

  /// The two tilts, in degrees, of a pen at `altitude` and `azimuth` (radians): the inverse
  /// conversion, Pointer Events' `spherical2tilt` (Level 3, "Converting between tiltX/tiltY and
  /// altitudeAngle/azimuthAngle"). A pen lying flat (altitude 0) tilts ±90 degrees towards the
  /// azimuth's axis or quadrant.
  public static func tilts(altitude: Double, azimuth: Double) -> (x: Double, y: Double) {
    let degrees = 180 / Double.pi
    guard altitude != 0 else {
      let (c, s) = (cos(azimuth), sin(azimuth))
      let x = abs(c) < 1e-9 ? 0 : (c > 0 ? 90.0 : -90)
      let y = abs(s) < 1e-9 ? 0 : (s > 0 ? 90.0 : -90)
      return (x, y)
    }
    let t = tan(altitude)
    return (atan(cos(azimuth) / t) * degrees, atan(sin(azimuth) / t) * degrees)
  }
}
