/// Writes one JSON object as UTF-8 into one growing buffer: each field is its key as a literal
/// (with the comma and colon around it) and its value, so no intermediate strings are made. Every
/// message of the socket protocol is written with it; it runs for every frame, so its methods are
/// `@inlinable` and each field costs what it cost before it left the scene's module.
public struct JSONLineWriter: ~Copyable {
  @usableFromInline var out = JSONBuffer(capacity: 384)

  /// Starts the object with `prefix`: its opening brace and first key.
  @inlinable public init(_ prefix: StaticString) { out.append(prefix) }

  /// The bytes written so far (UTF-8), the opening brace included.
  @inlinable public var byteCount: Int { out.count }

  /// Appends JSON text as it is.
  @inlinable public mutating func raw(_ json: StaticString) { out.append(json) }

  /// Appends a key literal (`,"seq":`) and a value.
  @inlinable public mutating func integer(_ key: StaticString, _ value: Int) {
    out.append(key)
    out.appendInteger(value)
  }
  @inlinable public mutating func integer(_ value: Int) { out.appendInteger(value) }
  @inlinable public mutating func number(_ value: Double) { out.appendNumber(value) }
  @inlinable public mutating func string(_ key: StaticString, _ value: String) {
    out.append(key)
    out.appendString(value)
  }
  @inlinable public mutating func number(_ key: StaticString, _ value: Double) {
    out.append(key)
    out.appendNumber(value)
  }
  /// Appends a key literal and a string, or `null`.
  @inlinable public mutating func optionalString(_ key: StaticString, _ value: String?) {
    out.append(key)
    if let value { out.appendString(value) } else { out.append("null") }
  }
  /// Appends a key literal and an array of strings.
  @inlinable public mutating func strings(_ key: StaticString, _ values: [String]) {
    array(key, values) { $0.appendString($1) }
  }
  /// Appends a key literal and an array of numbers (a calibration matrix).
  @inlinable public mutating func numbers(_ key: StaticString, _ values: [Double]) {
    array(key, values) { $0.appendNumber($1) }
  }
  /// Appends a key literal and an array, each element written by `element`.
  @inlinable mutating func array<Element>(
    _ key: StaticString, _ values: [Element], _ element: (inout JSONBuffer, Element) -> Void
  ) {
    out.append(key)
    out.append(UInt8(ascii: "["))
    for (i, value) in values.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      element(&out, value)
    }
    out.append(UInt8(ascii: "]"))
  }
  /// Appends a key literal and a point, `{"x":X,"y":Y}`.
  @inlinable public mutating func point(_ key: StaticString, x: Double, y: Double) {
    out.append(key)
    out.append(#"{"x":"#)
    out.appendNumber(x)
    out.append(#","y":"#)
    out.appendNumber(y)
    out.append(UInt8(ascii: "}"))
  }
  /// Appends a key literal and a point (``WirePoint``), `{"x":X,"y":Y}`.
  @inlinable public mutating func point(_ key: StaticString, _ p: WirePoint) { point(key, x: p.x, y: p.y) }
  /// Appends a key literal and `true` or `false`.
  @inlinable public mutating func bool(_ key: StaticString, _ value: Bool) {
    out.append(key)
    out.append(value ? "true" : "false")
  }
  /// Appends a string value (after a key or separator written with ``raw(_:)``).
  @inlinable public mutating func string(_ value: String) { out.appendString(value) }
  /// Appends a key literal and a number, or `null`.
  @inlinable public mutating func optionalNumber(_ key: StaticString, _ value: Double?) {
    out.append(key)
    if let value { out.appendNumber(value) } else { out.append("null") }
  }
  /// Appends JSON text already encoded (an `id` echoed as the client wrote it, a document's
  /// members).
  @inlinable public mutating func json(_ text: String) {
    var text = text
    text.withUTF8 { out.append($0) }
  }
  /// The object's members without its braces (a reply's fields, for ``ReplyMessage``): what
  /// ``finish()`` would close, less the opening brace the writer began with.
  public consuming func finishMembers() -> String {
    let object = finish()
    return String(object.utf8.dropFirst().dropLast())!
  }
  /// The object's text, closed.
  @inlinable public consuming func finish() -> String {
    out.append(UInt8(ascii: "}"))
    return out.string()
  }
}
