/// A control's value as messages carry it: the switch's `on`, the slider's or stepper's `value`,
/// the segmented control's `selectedSegmentIndex`, the page control's `currentPage`; a button has
/// none (docs/protocol.md, `control` and `action` with `gesture` `control`).
public enum ControlValue: Hashable, Sendable {
  case none
  case on(Bool)
  case value(Double)
  case selectedSegmentIndex(Int)
  case currentPage(Int)

  /// Appends the value: under its own name in a `control` message (`key`), as `value` in a control
  /// action (`"value":true`, `"value":0.42`, `"value":2`).
  @inlinable func write(_ w: inout JSONLineWriter, key: Bool) {
    switch self {
    case .none: break
    case .on(let on):
      if key {
        w.raw(on ? #","on":true"# : #","on":false"#)
      } else {
        w.raw(on ? #","value":true"# : #","value":false"#)
      }
    case .value(let v):
      w.number(key ? #","value":"# : #","value":"#, v)
    case .selectedSegmentIndex(let i):
      if key { w.integer(#","selectedSegmentIndex":"#, i) } else { w.integer(#","value":"#, i) }
    case .currentPage(let i):
      if key { w.integer(#","currentPage":"#, i) } else { w.integer(#","value":"#, i) }
    }
  }

  /// A `control` message's value: `on`, `value`, `selectedSegmentIndex` or `currentPage`, whichever
  /// is present.
  init(decodingState f: CommandFields) throws(ProtocolError) {
    if let on = try f.bool("on") {
      self = .on(on)
    } else if let index = try f.integer("selectedSegmentIndex") {
      self = .selectedSegmentIndex(index)
    } else if let page = try f.integer("currentPage") {
      self = .currentPage(page)
    } else if let value = try f.number("value") {
      self = .value(value)
    } else {
      self = .none
    }
  }

  /// A control action's `value`: the segmented control's index when `control` is `segmented`, the
  /// page control's page when it is `pageControl` (an index, a page and a slider's value are all
  /// written as a bare number), else a boolean is a switch's `on` and a number a value.
  init(decodingAction f: CommandFields, control: String) throws(ProtocolError) {
    guard let raw = f["value"] else {
      self = .none
      return
    }
    if control == "segmented" {
      self = .selectedSegmentIndex(try f.required(f.integer("value"), "value", "an integer"))
    } else if control == "pageControl" {
      self = .currentPage(try f.required(f.integer("value"), "value", "an integer"))
    } else if case .bool(let on) = raw {
      self = .on(on)
    } else {
      self = .value(try f.required(f.number("value"), "value", "true, false or a number"))
    }
  }
}
