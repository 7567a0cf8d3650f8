/// A point in window points, or a 2-D vector, `{"x":X,"y":Y}`: a `set`'s `contentOffset`, a scene
/// view's `contentOffset`, a calibration target, and in the pipeline's messages a location, a
/// translation, a velocity, a content offset. The scene's `Scene.Point` and the Swift client's
/// `TouchdClient.Point` are this type (TouchdScene converts TouchDelivery's `Point`,
/// MessageBuilding.swift).
public struct WirePoint: Codable, Hashable, Sendable {
  public var x: Double
  public var y: Double
  /// The keys, in the order they are written (the scene schema lists them).
  public enum CodingKeys: String, CodingKey, CaseIterable { case x, y }
  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A size in points, `{"width":W,"height":H}` (`Scene.Size`).
public struct WireSize: Codable, Hashable, Sendable {
  public var width: Double
  public var height: Double
  /// The keys, in the order they are written.
  public enum CodingKeys: String, CodingKey, CaseIterable { case width, height }
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// A rectangle in points, `{"x":X,"y":Y,"width":W,"height":H}` (`Scene.Frame`).
public struct WireRect: Codable, Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double
  /// The keys, in the order they are written.
  public enum CodingKeys: String, CodingKey, CaseIterable { case x, y, width, height }
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
}

extension JSONValue {
  /// `{"x":X,"y":Y}`.
  public static func point(_ p: WirePoint) -> JSONValue { .object([("x", .number(p.x)), ("y", .number(p.y))]) }
  /// `{"width":W,"height":H}`.
  public static func size(_ s: WireSize) -> JSONValue {
    .object([("width", .number(s.width)), ("height", .number(s.height))])
  }
  /// `{"x":X,"y":Y,"width":W,"height":H}`.
  public static func rect(_ r: WireRect) -> JSONValue {
    .object([("x", .number(r.x)), ("y", .number(r.y)), ("width", .number(r.width)), ("height", .number(r.height))])
  }
}
