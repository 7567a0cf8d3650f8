import Foundation

/// libinput's `LIBINPUT_CALIBRATION_MATRIX`: the top two rows of a 3x3 affine matrix applied to
/// normalized device coordinates, `x' = a*x + b*y + c`, `y' = d*x + e*y + f`.
public struct CalibrationMatrix: Hashable, Sendable, CustomStringConvertible {
  public var a, b, c, d, e, f: Double

  /// The identity `1 0 0 0 1 0`.
  public static let identity = CalibrationMatrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)

  public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
    (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
  }

  /// The matrix of six numbers `[a, b, c, d, e, f]` (a scene's `calibration`, udev's property as
  /// parsed), nil unless there are exactly six.
  public init?(values: [Double]) {
    guard values.count == 6 else { return nil }
    self.init(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
  }

  /// `[a, b, c, d, e, f]`.
  public var values: [Double] { [a, b, c, d, e, f] }

  /// Parses the udev property form, six numbers separated by white space: `"a b c d e f"`.
  public init(parsing text: String) throws(CalibrationMatrixError) {
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard fields.count == 6 else {
      throw CalibrationMatrixError(
        text: text, message: "expected 6 numbers \"a b c d e f\", found \(fields.count)")
    }
    var values: [Double] = []
    for field in fields {
      guard let value = Double(field), value.isFinite else {
        throw CalibrationMatrixError(text: text, message: "\"\(field)\" is not a number")
      }
      values.append(value)
    }
    self.init(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
  }

  /// Applies the matrix to a normalized point.
  public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
    (a * x + b * y + c, d * x + e * y + f)
  }

  /// The udev property form, `"a b c d e f"`.
  public var description: String { "\(a) \(b) \(c) \(d) \(e) \(f)" }
}

/// Why a calibration matrix string was rejected.
public struct CalibrationMatrixError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The text that was parsed.
  public var text: String
  public var message: String
  public var description: String { "invalid calibration matrix \"\(text)\": \(message)" }
}

/// How the panel is mounted relative to the window, clockwise.
///
/// `.clockwise90` means the panel is mounted rotated 90° clockwise: the device's top edge lies along
/// the window's right edge, so device (0,0) (its top-left) maps to the window's top-right corner, and
/// device x grows downwards in the window.
public enum ScreenRotation: Int, Hashable, Sendable, CaseIterable {
  case none = 0
  case clockwise90 = 90
  case clockwise180 = 180
  case clockwise270 = 270

  /// Rotates a normalized point in the unit square.
  public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
    switch self {
    case .none: (x, y)
    case .clockwise90: (1 - y, x)
    case .clockwise180: (1 - x, 1 - y)
    case .clockwise270: (y, 1 - x)
    }
  }
}

/// Maps a contact's device-normalized position to window points: calibration matrix first, then
/// rotation, then scaling to the window size.
public struct ScreenMapping: Hashable, Sendable {
  public var calibration: CalibrationMatrix
  public var rotation: ScreenRotation
  /// Window width in points.
  public var width: Double
  /// Window height in points.
  public var height: Double

  public init(
    width: Double, height: Double, rotation: ScreenRotation = .none,
    calibration: CalibrationMatrix = .identity
  ) {
    self.width = width
    self.height = height
    self.rotation = rotation
    self.calibration = calibration
  }

  /// The window point for a device-normalized position.
  public func map(x: Double, y: Double) -> (x: Double, y: Double) {
    let calibrated = calibration.apply(x: x, y: y)
    let rotated = rotation.apply(x: calibrated.x, y: calibrated.y)
    return (rotated.x * width, rotated.y * height)
  }

  /// The window point of a contact.
  public func map(_ contact: Contact) -> (x: Double, y: Double) { map(x: contact.x, y: contact.y) }

  /// A direction on the panel (radians from the device's +x towards its +y: a pen's azimuth) as a
  /// direction in the window, through the calibration's and the rotation's linear parts. The panel
  /// is taken to fill the window without stretching (the mapping's premise: window points are
  /// square), so a panel mounted 90° clockwise turns every direction by π/2. In 0..<2π.
  public func mapDirection(_ angle: Double) -> Double {
    let sideways = rotation == .clockwise90 || rotation == .clockwise270
    // The direction as a step in device-normalized units: across the panel's width and height in
    // window points.
    let dx = cos(angle) / (sideways ? height : width)
    let dy = sin(angle) / (sideways ? width : height)
    let cx = calibration.a * dx + calibration.b * dy
    let cy = calibration.d * dx + calibration.e * dy
    let (rx, ry): (Double, Double) =
      switch rotation {
      case .none: (cx, cy)
      case .clockwise90: (-cy, cx)
      case .clockwise180: (-cx, -cy)
      case .clockwise270: (cy, -cx)
      }
    let window = atan2(ry * height, rx * width)
    return window < 0 ? window + 2 * Double.pi : window
  }

  /// A pen's properties with its azimuth in the window (``mapDirection(_:)``).
  public func map(_ pen: PenProperties) -> PenProperties {
    var mapped = pen
    mapped.azimuthAngle = mapDirection(pen.azimuthAngle)
    return mapped
  }
}
