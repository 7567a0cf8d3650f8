// `trace` messages as this client read them before they were the protocol's type: one flat struct
// whose fields were all optional. The protocol's TraceMessage holds an `Event` with the keys of
// each kind; these get-only accessors give each key by its old name, nil where the event has none
// (docs/protocol.md, "trace": the keys after `event`). An event a later daemon adds
// (``TraceMessage/Event/other(name:members:)``) answers from its members.
import TouchdProtocol

extension TraceMessage {
  /// `recognizer`, `waiting`: the recognizer's id.
  public var recognizer: String? {
    switch detail {
    case .recognizer(let r, _, _, _), .waiting(let r, _, _): r.id
    default: otherString("recognizer")
    }
  }

  /// The recognizer's scene type (nil for a scroll view's own recognizers); `voiceOverGesture`:
  /// VoiceOver's gesture (`doubleTap`, `flick`, …).
  public var gesture: String? {
    switch detail {
    case .recognizer(let r, _, _, _), .waiting(let r, _, _): r.gesture
    case .voiceOverGesture(let gesture, _, _, _): gesture
    default: otherString("gesture")
    }
  }

  /// `voiceOverGesture`: how many fingers made it.
  public var fingers: Int? {
    switch detail {
    case .voiceOverGesture(_, let fingers, _, _): fingers
    case .other(_, let members): try? CommandFields(members, owner: event).integer("fingers")
    default: nil
    }
  }

  /// `voiceOverGesture`: a flick's direction (`left`, `right`, `up`, `down`).
  public var direction: String? {
    switch detail {
    case .voiceOverGesture(_, _, let direction, _): direction
    default: otherString("direction")
    }
  }

  /// The window's id (nil for a touch that hit no window).
  public var window: String? {
    switch detail {
    case .recognizer(let r, _, _, _), .waiting(let r, _, _): r.window
    case .touchBegan(let t, _, _, _, _), .held(let t, _, _), .released(let t, _, _), .cancelledInView(let t, _),
      .controlTracking(let t, _, _, _, _):
      t.window
    case .touchSwallowed(_, let window, _, _): window
    case .pressBegan(_, _, _, _, let window, _), .voiceOverGesture(_, _, _, let window): window
    case .other: otherString("window")
    }
  }

  /// The recognizer's state before (`possible`, `began`, …).
  public var from: String? {
    switch detail {
    case .recognizer(_, let from, _, _): from
    default: otherString("from")
    }
  }

  /// The state it goes to.
  public var to: String? {
    switch detail {
    case .recognizer(_, _, let to, _), .waiting(_, let to, _): to
    default: otherString("to")
    }
  }

  /// Why, for people: match it loosely.
  public var cause: String? {
    switch detail {
    case .recognizer(_, _, _, let cause): cause
    default: otherString("cause")
    }
  }

  /// `waiting`: the recognizer that must fail first.
  public var requirement: String? {
    switch detail {
    case .waiting(_, _, let requirement): requirement
    default: otherString("requirement")
    }
  }

  /// The touch id (as in touches messages).
  public var touch: Int? {
    switch detail {
    case .touchBegan(let t, _, _, _, _), .held(let t, _, _), .released(let t, _, _), .cancelledInView(let t, _),
      .controlTracking(let t, _, _, _, _):
      t.id
    case .touchSwallowed(let id, _, _, _): id
    case .recognizer, .waiting, .pressBegan, .voiceOverGesture: nil
    case .other: other("touch").flatMap { if case .number(let text) = $0 { Int(text) } else { nil } }
    }
  }

  /// Window points.
  public var location: WirePoint? {
    switch detail {
    case .touchBegan(_, let location, _, _, _), .touchSwallowed(_, _, let location, _), .released(_, _, let location):
      location
    case .other(_, let members): try? CommandFields(members, owner: event).point("location")
    default: nil
    }
  }

  /// Taps in a row at this place, this one included.
  public var tapCount: Int? {
    switch detail {
    case .touchBegan(_, _, let tapCount, _, _): tapCount
    case .other(_, let members): try? CommandFields(members, owner: event).integer("tapCount")
    default: nil
    }
  }

  /// `touchBegan`, `pressBegan`: the recognizers the touch or press goes to.
  public var recognizers: [String]? {
    switch detail {
    case .touchBegan(_, _, _, let recognizers, _), .pressBegan(_, _, _, _, _, let recognizers): recognizers
    case .other(_, let members): try? CommandFields(members, owner: event).stringArray("recognizers")
    default: nil
    }
  }

  /// `touchBegan`: why other recognizers do not get it.
  public var notes: [String]? {
    switch detail {
    case .touchBegan(_, _, _, _, let notes): notes
    case .other(_, let members): try? CommandFields(members, owner: event).stringArray("notes")
    default: nil
    }
  }

  /// `touchSwallowed`: why nobody gets the touch.
  public var reason: String? {
    switch detail {
    case .touchSwallowed(_, _, _, let reason): reason
    default: otherString("reason")
    }
  }

  /// `held`, `released`: the delivery's phase.
  public var phase: String? {
    switch detail {
    case .held(_, let phase, _), .released(_, let phase, _): phase
    default: otherString("phase")
    }
  }

  /// The recognizers holding a delivery (`held`), or the one that took the touch
  /// (`cancelledInView`, one element).
  public var by: [String]? {
    switch detail {
    case .held(_, _, let by): by
    case .cancelledInView(_, let by): [by]
    case .other(_, let members): try? CommandFields(members, owner: event).strings("by")
    default: nil
    }
  }

  /// A member of an event this version does not know; nil for the others.
  private func other(_ key: String) -> StrictJSON? {
    guard case .other(_, let members) = detail else { return nil }
    return members.first { $0.key == key }?.value
  }

  private func otherString(_ key: String) -> String? {
    if case .string(let s) = other(key) { s } else { nil }
  }
}
