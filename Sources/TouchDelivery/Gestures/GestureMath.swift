/// Math the recognizers need that the standard library lacks (TouchDelivery imports no libm).
enum GestureMath {
  /// The arctangent of `z`, accurate to a few ulps: two half-angle reductions bring |z| below
  /// tan(π/16) ≈ 0.2, where the Taylor series converges to double precision in a dozen terms.
  static func atan(_ z: Double) -> Double {
    if z.isNaN { return z }
    if z < 0 { return -atan(-z) }
    if z > 1 { return Double.pi / 2 - atan(1 / z) }
    // tan(a/2) = tan(a) / (1 + sqrt(1 + tan²(a)))
    var x = z
    for _ in 0..<2 { x /= 1 + (1 + x * x).squareRoot() }
    let x2 = x * x
    var term = x
    var sum = 0.0
    // |x| < 0.2: the 20th term is below 0.2^41 / 41, far under an ulp of the sum.
    for k in 0..<20 {
      sum += term / Double(2 * k + 1)
      term *= -x2
    }
    return 4 * sum
  }

  /// The angle of the vector (x, y) from the positive x axis, in (-π, π], as C's `atan2`.
  /// With y down (screen coordinates) a growing angle turns clockwise.
  static func atan2(_ y: Double, _ x: Double) -> Double {
    if x == 0 {
      if y > 0 { return Double.pi / 2 }
      if y < 0 { return -Double.pi / 2 }
      return 0
    }
    if abs(y) > abs(x) {
      // atan(y/x) = ±π/2 - atan(x/y); avoids dividing by a tiny x.
      let a = atan(x / y)
      return (y > 0 ? Double.pi / 2 : -Double.pi / 2) - a
    }
    let a = atan(y / x)
    if x > 0 { return a }
    return y >= 0 ? a + Double.pi : a - Double.pi
  }

  /// `angle` wrapped into (-π, π].
  static func wrap(_ angle: Double) -> Double {
    var a = angle.truncatingRemainder(dividingBy: 2 * Double.pi)
    if a > Double.pi { a -= 2 * Double.pi }
    if a <= -Double.pi { a += 2 * Double.pi }
    return a
  }
}

/// The touches a recognizer is following, with where each began; kept by the recognizer itself so
/// its decisions do not depend on when the framework updates ``GestureRecognizer/trackedTouches``.
struct GestureTouches {
  private(set) var touches: [Touch] = []
  private var starts: [ObjectIdentifier: Point] = [:]

  var count: Int { touches.count }
  var isEmpty: Bool { touches.isEmpty }

  mutating func add(_ touch: Touch) {
    guard !contains(touch) else { return }
    touches.append(touch)
    starts[ObjectIdentifier(touch)] = touch.locationInWindow
  }

  mutating func remove(_ touch: Touch) {
    touches.removeAll { $0 === touch }
    starts[ObjectIdentifier(touch)] = nil
  }

  mutating func removeAll() {
    touches.removeAll()
    starts.removeAll()
  }

  func contains(_ touch: Touch) -> Bool { touches.contains { $0 === touch } }

  /// Where `touch` touched down, in window coordinates.
  func start(of touch: Touch) -> Point { starts[ObjectIdentifier(touch)] ?? touch.locationInWindow }

  /// How far `touch` is from where it touched down (pt).
  func distanceMoved(_ touch: Touch) -> Double { start(of: touch).distance(to: touch.locationInWindow) }

  /// The centroid of the touches' current locations in window coordinates (nil when empty).
  var centroid: Point? {
    guard !touches.isEmpty else { return nil }
    var x = 0.0
    var y = 0.0
    for t in touches {
      x += t.locationInWindow.x
      y += t.locationInWindow.y
    }
    return Point(x: x / Double(touches.count), y: y / Double(touches.count))
  }

  /// The latest timestamp among the touches (0 when empty).
  var latestTimestamp: Double { touches.map(\.timestamp).max() ?? 0 }
}

extension Point {
  static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
  var length: Double { (x * x + y * y).squareRoot() }
}

extension GestureMath {
  /// sin and cos of `a` (radians), accurate to about 1e-15 for |a| ≤ 2π: reduced to [-π, π], the
  /// Taylor series at a/8 then three double-angle steps.
  static func sinCos(_ a: Double) -> (sin: Double, cos: Double) {
    let x = wrap(a) / 8
    let x2 = x * x
    var s = 0.0
    var c = 0.0
    var ts = x
    var tc = 1.0
    for k in 0..<12 {
      s += ts
      c += tc
      ts *= -x2 / Double((2 * k + 2) * (2 * k + 3))
      tc *= -x2 / Double((2 * k + 1) * (2 * k + 2))
    }
    for _ in 0..<3 { (s, c) = (2 * s * c, c * c - s * s) }
    return (s, c)
  }

  /// tan(a) for |a| < π/2.
  static func tan(_ a: Double) -> Double {
    let sc = sinCos(a)
    return sc.sin / sc.cos
  }
}
