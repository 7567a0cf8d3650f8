import TouchdInput

/// The least-squares calibration matrix from touches on known targets: what `calibrate` answers.
///
/// The matrix is the scene's `calibration` (libinput's `LIBINPUT_CALIBRATION_MATRIX` meaning): it
/// maps the device's normalized position `(x, y)` to `(a·x + b·y + c, d·x + e·y + f)` in the
/// normalized space before the window's rotation and scaling. Each target, given in window points,
/// is taken back through the window's size and rotation to that space, and the six numbers are the
/// least-squares solution of the two 3-unknown systems `u = a·x + b·y + c`, `v = d·x + e·y + f`
/// over the touched points (exact for 3 targets, overdetermined for 4 to 9). This is the affine fit
/// of tslib's `ts_calibrate` and of xinput_calibrator, in libinput's convention.
public struct CalibrationFit: Hashable, Sendable {
  /// One target and the touch collected for it.
  public struct Sample: Hashable, Sendable {
    /// The target, in window points.
    public var target: Scene.Point
    /// The touch, device-normalized (0...1 across the axes) as the window received it.
    public var touched: Scene.Point

    public init(target: Scene.Point, touched: Scene.Point) {
      self.target = target
      self.touched = touched
    }
  }

  /// The matrix, `[a, b, c, d, e, f]`.
  public var matrix: [Double]
  /// Where each touch lands with the matrix, in window points, in the samples' order.
  public var landed: [Scene.Point]
  /// The distance of each landed touch from its target, in points.
  public var errors: [Double]

  /// The root mean square of ``errors``.
  public var rmsError: Double {
    errors.isEmpty ? 0 : (errors.reduce(0) { $0 + $1 * $1 } / Double(errors.count)).squareRoot()
  }

  /// The largest of ``errors``.
  public var maxError: Double { errors.max() ?? 0 }

  /// Above this distance from its target (points) a touch makes the fit poor: a quarter of the
  /// 44 × 44 pt minimum touch target of Apple's Human Interface Guidelines ("Layout": "a minimum
  /// tappable area of 44x44 pt"), so a calibrated touch still lands well inside any target.
  public static let poorFitPoints = 11.0

  /// Why the fit is poor, nil when every touch lands within ``poorFitPoints`` of its target. With
  /// 3 targets the fit is exact and cannot show a bad touch: then the warning says so.
  public var warning: String? {
    if maxError > Self.poorFitPoints {
      let worst = errors.firstIndex(of: maxError).map { $0 + 1 } ?? 0
      return "poor fit: target \(worst) is off by \(Self.points(maxError)) pt "
        + "(more than \(JSONFormat.number(Self.poorFitPoints)) pt, a quarter of a 44 pt touch target); "
        + "a touch missed its target or the panel is not affine: calibrate again"
    }
    if errors.count == 3 {
      return "3 targets fit exactly, so a missed target cannot show: use 4 or more to check the fit"
    }
    return nil
  }

  /// A distance in points as replies and `touchctl calibrate` give it: to a hundredth.
  public static func points(_ value: Double) -> String { JSONFormat.number((value * 100).rounded() / 100) }

  /// A matrix's six numbers as replies, the scene file and udev rules give them: to a millionth
  /// (the device's own resolution, a few thousand units, is coarser).
  public static func numbers(_ matrix: [Double]) -> [String] {
    matrix.map { JSONFormat.number(($0 * 1e6).rounded() / 1e6) }
  }

  /// Why a fit cannot be made.
  public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Fits the matrix for `samples` on a window of `mapping`'s size and rotation.
  public static func fit(_ samples: [Sample], mapping: ScreenMapping) throws(Failure) -> CalibrationFit {
    guard samples.count >= 3 else {
      throw Failure(description: "a calibration needs 3 or more touched targets, got \(samples.count)")
    }
    // The targets in the normalized space the matrix maps into: before rotation and scaling.
    let wanted = samples.map { sample -> (u: Double, v: Double) in
      let p = mapping.rotation.inverse(x: sample.target.x / mapping.width, y: sample.target.y / mapping.height)
      return (p.x, p.y)
    }
    // The normal equations (AᵀA) p = Aᵀb with the rows of A = [x y 1], once for u and once for v.
    var ata = [[Double]](repeating: [0, 0, 0], count: 3)
    var atu = [0.0, 0.0, 0.0]
    var atv = [0.0, 0.0, 0.0]
    for (sample, target) in zip(samples, wanted) {
      let row = [sample.touched.x, sample.touched.y, 1]
      for i in 0..<3 {
        for j in 0..<3 { ata[i][j] += row[i] * row[j] }
        atu[i] += row[i] * target.u
        atv[i] += row[i] * target.v
      }
    }
    guard let abc = solve3(ata, atu), let def = solve3(ata, atv) else {
      throw Failure(
        description: "the touched points lie on one line (or on one point): no matrix maps them onto the targets; "
          + "touch each target where it is drawn")
    }
    let matrix = abc + def
    var fitted = mapping
    fitted.calibration = CalibrationMatrix(values: matrix) ?? .identity
    var landed: [Scene.Point] = []
    var errors: [Double] = []
    for sample in samples {
      let contact = Contact(id: TouchID(rawValue: 0), phase: .began, x: sample.touched.x, y: sample.touched.y)
      let (x, y) = fitted.map(contact)
      landed.append(Scene.Point(x: x, y: y))
      let dx = x - sample.target.x
      let dy = y - sample.target.y
      errors.append((dx * dx + dy * dy).squareRoot())
    }
    return CalibrationFit(matrix: matrix, landed: landed, errors: errors)
  }

  /// Solves the 3 × 3 system `m · p = r` by Gaussian elimination with partial pivoting; nil when
  /// `m` is singular (relative to its size).
  static func solve3(_ m: [[Double]], _ r: [Double]) -> [Double]? {
    var a = m
    var b = r
    let scale = m.flatMap { $0 }.map(abs).max() ?? 0
    guard scale > 0, scale.isFinite else { return nil }
    for column in 0..<3 {
      guard let pivot = (column..<3).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
        abs(a[pivot][column]) > 1e-12 * scale
      else { return nil }
      a.swapAt(column, pivot)
      b.swapAt(column, pivot)
      for row in (column + 1)..<3 {
        let factor = a[row][column] / a[column][column]
        for k in column..<3 { a[row][k] -= factor * a[column][k] }
        b[row] -= factor * b[column]
      }
    }
    var p = [0.0, 0.0, 0.0]
    for row in stride(from: 2, through: 0, by: -1) {
      var sum = b[row]
      for k in (row + 1)..<3 { sum -= a[row][k] * p[k] }
      p[row] = sum / a[row][row]
    }
    return p.allSatisfy(\.isFinite) ? p : nil
  }

  /// `matrix` composed after `first`: the one matrix that does `first`, then `matrix` (a udev
  /// `LIBINPUT_CALIBRATION_MATRIX` already on the device, then the fitted one), as libinput
  /// multiplies them: `[matrix] · [first]` with the implied third row `0 0 1`.
  public static func compose(_ matrix: [Double], after first: [Double]) -> [Double] {
    let (a, b, c, d, e, f) = (matrix[0], matrix[1], matrix[2], matrix[3], matrix[4], matrix[5])
    let (a1, b1, c1, d1, e1, f1) = (first[0], first[1], first[2], first[3], first[4], first[5])
    return [
      a * a1 + b * d1, a * b1 + b * e1, a * c1 + b * f1 + c,
      d * a1 + e * d1, d * b1 + e * e1, d * c1 + e * f1 + f,
    ]
  }
}

extension ScreenRotation {
  /// Undoes ``apply(x:y:)``: the device-side normalized point a window-side one came from.
  public func inverse(x: Double, y: Double) -> (x: Double, y: Double) {
    switch self {
    case .none: (x, y)
    case .clockwise90: (y, 1 - x)
    case .clockwise180: (1 - x, 1 - y)
    case .clockwise270: (1 - y, x)
    }
  }
}
