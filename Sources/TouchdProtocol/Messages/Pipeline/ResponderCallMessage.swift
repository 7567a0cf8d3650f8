/// What ``TouchesMessage`` and ``PressesMessage`` share: each is one call of a responder's touches
/// or presses method on a view (`seq`, `phase`, `view`, `window`, `time`) with the call's touches or
/// presses, sorted by id, and each is written as the same JSON line around them,
/// `{"type":…,"seq":…,"phase":…,"view":…,"window":…,"time":…,"<list>":[{"id":…,…},…]}`, into one
/// ``JSONLineWriter`` (no intermediate strings: it is written for every frame).
@usableFromInline protocol ResponderCallMessage {
  associatedtype Element: ResponderCallElement
  /// The line's start, up to the `seq` value: `{"type":"touches","seq":`.
  static var jsonPrefix: StaticString { get }
  /// The list's key and opening bracket: `,"touches":[`.
  static var jsonListKey: StaticString { get }
  var seq: Int { get }
  var phase: String { get }
  var view: String { get }
  var window: String { get }
  var time: Double { get }
  /// The touches or presses of the call, sorted by id.
  var elements: [Element] { get }
}

/// One touch or press of a ``ResponderCallMessage``.
@usableFromInline protocol ResponderCallElement {
  var id: Int { get }
  /// Writes the element's fields after its `id` (`,"view":…`).
  func writeFields(_ w: inout JSONLineWriter)
}

extension ResponderCallMessage {
  /// The message's JSON line.
  @inlinable var callJSONLine: String {
    var w = JSONLineWriter(Self.jsonPrefix)
    writeCall(&w)
    return w.finish()
  }

  /// Writes the line up to its closing brace: the call's fields and its list.
  @inlinable func writeCall(_ w: inout JSONLineWriter) {
    w.integer(seq)
    w.string(#","phase":"#, phase)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    w.raw(Self.jsonListKey)
    for (i, e) in elements.enumerated() {
      w.integer(i == 0 ? #"{"id":"# : #",{"id":"#, e.id)
      e.writeFields(&w)
      w.raw("}")
    }
    w.raw("]")
  }
}
