// The socket protocol's JSON writer and strict reader, its fields and its errors
// (Sources/TouchdProtocol) are re-exported: every user of the scene sees them as its own, as
// TouchdInput re-exports TouchdCore.
import TouchDelivery
@_exported import TouchdProtocol

extension JSONLineWriter {
  /// Appends a key literal and a point, `{"x":X,"y":Y}`.
  @inline(__always) mutating func point(_ key: StaticString, _ p: Point) { point(key, x: p.x, y: p.y) }
}
