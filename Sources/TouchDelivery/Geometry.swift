/// A point in some view's coordinate system, in points (UIKit's `CGPoint`).
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  public static let zero = Point(x: 0, y: 0)
  public var description: String { "(\(x), \(y))" }

  /// The straight-line distance to another point.
  public func distance(to other: Point) -> Double {
    let dx = other.x - x
    let dy = other.y - y
    return (dx * dx + dy * dy).squareRoot()
  }
}

/// A size in points (UIKit's `CGSize`).
public struct Size: Hashable, Sendable {
  public var width: Double
  public var height: Double
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
  public static let zero = Size(width: 0, height: 0)
}

/// A rectangle: origin at the top-left, y growing down (UIKit's `CGRect`).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var origin: Point
  public var size: Size
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }
  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var width: Double { size.width }
  public var height: Double { size.height }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }

  /// Whether the point lies inside: the minimum edges are inside, the maximum edges outside, as `CGRect.contains`.
  public func contains(_ p: Point) -> Bool {
    p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
  }

  /// The rectangle grown by `d` points on every side (shrunk when `d` is negative).
  public func insetBy(_ d: Double) -> Rect {
    Rect(x: minX + d, y: minY + d, width: width - 2 * d, height: height - 2 * d)
  }

  public var description: String { "(\(minX), \(minY), \(width), \(height))" }
}
