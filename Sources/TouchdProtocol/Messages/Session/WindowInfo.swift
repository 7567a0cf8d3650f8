/// A window as `hello` and `reloaded` describe it: `{"id":ID,"width":W,"height":H}`, its size in
/// points.
public struct WindowInfo: Codable, Hashable, Sendable {
  public var id: String
  public var width: Double
  public var height: Double

  public init(id: String, width: Double, height: Double) {
    self.id = id
    self.width = width
    self.height = height
  }

  /// Writes `key` (its punctuation included) and the windows as an array.
  @inlinable public static func write(_ windows: [WindowInfo], key: StaticString, into w: inout JSONLineWriter) {
    w.raw(key)
    w.raw("[")
    for (i, window) in windows.enumerated() {
      w.raw(i == 0 ? #"{"id":"# : #",{"id":"#)
      w.string(window.id)
      w.number(#","width":"#, window.width)
      w.number(#","height":"#, window.height)
      w.raw("}")
    }
    w.raw("]")
  }
}
