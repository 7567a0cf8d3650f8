/// `{"type":"trace",…}`: one step of delivery and arbitration with its cause, named by the scene's
/// ids: what `touchctl replay --explain` prints and a daemon client subscribed to type `trace`
/// receives (docs/protocol.md, `trace`; docs/explain.md). TouchdScene builds it from a delivery
/// `TraceEvent` (MessageBuilding.swift).
///
/// Trace messages take no `seq`: action and touches messages are numbered the same whether or not
/// someone traces.
public struct TraceMessage: WireMessage {
  public static var typeName: String { "trace" }

  /// A recognizer as trace messages name it.
  public struct RecognizerInfo: Hashable, Sendable {
    /// The scene's recognizer id.
    public var id: String
    /// Its type in the scene (nil, written `null`, for a recognizer that is not the scene's).
    public var gesture: String?
    /// The view it is attached to, and that view's window.
    public var view: String
    public var window: String

    @_disfavoredOverload
    @inlinable public init(id: String, gesture: String?, view: String, window: String) {
      self.id = id
      self.gesture = gesture
      self.view = view
      self.window = window
    }
  }

  /// A touch as trace messages name it.
  public struct TouchInfo: Hashable, Sendable {
    /// The touch id, as in touches messages.
    public var id: Int
    /// The touch's hit-test view, and its window.
    public var view: String
    public var window: String

    @inlinable public init(id: Int, view: String, window: String) {
      self.id = id
      self.view = view
      self.window = window
    }
  }

  /// What happened; the JSON `event` key is the case's name (``name``), and the keys after it are
  /// the case's, in the order of its values.
  public enum Event: Hashable, Sendable {
    /// A recognizer's state changed (`from`, `to`), and why (a reset is `→ possible`).
    case recognizer(RecognizerInfo, from: String, to: String, cause: String)
    /// A recognition (`to`) waits until the recognizer `requirement` fails.
    case waiting(RecognizerInfo, to: String, requirement: String)
    /// A touch landed on its hit-test view at `location` (window points): the recognizers it goes
    /// to, and notes on who does not get it and why.
    case touchBegan(TouchInfo, location: WirePoint, tapCount: Int, recognizers: [String], notes: [String])
    /// A contact delivered to nobody for its whole life (`window` nil when no window took it).
    case touchSwallowed(touch: Int, window: String?, location: WirePoint, reason: String)
    /// A view delivery of `phase` waits, held by the recognizers `by` (empty: behind an earlier
    /// held delivery).
    case held(TouchInfo, phase: String, by: [String])
    /// A held view delivery of `phase` was made, with the touch at `location` (window points).
    case released(TouchInfo, phase: String, location: WirePoint)
    /// A recognition took the touch from its view (`cancelsTouchesInView`); `by` is one string.
    case cancelledInView(TouchInfo, by: String)
    /// A key went down: the press id, key name and press type (as presses messages give them),
    /// its responder (a view, or the window by its id; nil, written `null`, for none) and window, and
    /// the recognizers whose `allowedPressTypes` take it.
    case pressBegan(press: Int, key: String, pressType: String, view: String?, window: String, recognizers: [String])
    /// A control followed its tracking touch (`TouchInfo`'s view is the control): the touch's
    /// `phase` (began: `beginTracking`, moved: `continueTracking`, ended: `endTracking`,
    /// cancelled: `cancelTracking`), whether the touch is inside the tracking area, whether the
    /// control tracks on, and the control events it sends (UIKit's names).
    case controlTracking(TouchInfo, phase: String, inside: Bool, tracking: Bool, events: [String])
    /// VoiceOver told a gesture from the window's contacts (docs/accessibility.md): its name
    /// (`explore`, `tap`, `doubleTap`, `splitTap`, `flick`, `scrub`, `doubleTapAndHold`), how many
    /// fingers made it, the direction of a flick (nil, written `null`, for the others) and the
    /// window. An exploring finger is traced once, when it starts exploring.
    case voiceOverGesture(gesture: String, fingers: Int, direction: String?, window: String)
    /// An event this version does not know (a later daemon's), with its keys after `event`: read,
    /// never dropped, and written back as it came.
    case other(name: String, members: [StrictJSON.Member])

    /// The JSON `event` value.
    public var name: String {
      switch self {
      case .recognizer: "recognizer"
      case .waiting: "waiting"
      case .touchBegan: "touchBegan"
      case .touchSwallowed: "touchSwallowed"
      case .held: "held"
      case .released: "released"
      case .cancelledInView: "cancelledInView"
      case .pressBegan: "pressBegan"
      case .controlTracking: "controlTracking"
      case .voiceOverGesture: "voiceOverGesture"
      case .other(let name, _): name
      }
    }
  }

  /// Seconds: the frame's kernel timestamp, or the clock time of a timer or command.
  public var time: Double
  /// What happened. (Not called `event`: that is the JSON key's value, ``event``.)
  public var detail: Event

  @inlinable public init(time: Double, event: Event) {
    self.time = time
    self.detail = event
  }

  /// The `event` key: ``Event/name``.
  public var event: String { detail.name }

  /// The view the message is about, for the daemon's `views` filter: the recognizer's view, the
  /// touch's hit-test view, the control, the press's responder; nil for a swallowed touch, a
  /// press without a responder and a VoiceOver gesture (about the window).
  public var view: String? {
    switch detail {
    case .recognizer(let r, _, _, _), .waiting(let r, _, _): r.view
    case .touchBegan(let t, _, _, _, _), .held(let t, _, _), .released(let t, _, _), .cancelledInView(let t, _),
      .controlTracking(let t, _, _, _, _):
      t.view
    case .pressBegan(_, _, _, let view, _, _): view
    case .touchSwallowed, .voiceOverGesture: nil
    case .other(_, let members):
      members.first { $0.key == "view" }.flatMap { if case .string(let s) = $0.value { s } else { nil } }
    }
  }

  /// The message as one line of JSON, keys in the documented order (docs/protocol.md).
  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"trace","time":"#)
    w.number(time)
    w.string(#","event":"#, detail.name)
    func recognizer(_ w: inout JSONLineWriter, _ r: RecognizerInfo) {
      w.string(#","recognizer":"#, r.id)
      w.optionalString(#","gesture":"#, r.gesture)
      w.string(#","view":"#, r.view)
      w.string(#","window":"#, r.window)
    }
    func touch(_ w: inout JSONLineWriter, _ t: TouchInfo) {
      w.integer(#","touch":"#, t.id)
      w.string(#","view":"#, t.view)
      w.string(#","window":"#, t.window)
    }
    switch detail {
    case .recognizer(let r, let from, let to, let cause):
      recognizer(&w, r)
      w.string(#","from":"#, from)
      w.string(#","to":"#, to)
      w.string(#","cause":"#, cause)
    case .waiting(let r, let to, let requirement):
      recognizer(&w, r)
      w.string(#","to":"#, to)
      w.string(#","requirement":"#, requirement)
    case .touchBegan(let t, let location, let tapCount, let recognizers, let notes):
      touch(&w, t)
      w.point(#","location":"#, location)
      w.integer(#","tapCount":"#, tapCount)
      w.strings(#","recognizers":"#, recognizers)
      w.strings(#","notes":"#, notes)
    case .touchSwallowed(let id, let window, let location, let reason):
      w.integer(#","touch":"#, id)
      w.optionalString(#","window":"#, window)
      w.point(#","location":"#, location)
      w.string(#","reason":"#, reason)
    case .held(let t, let phase, let by):
      touch(&w, t)
      w.string(#","phase":"#, phase)
      w.strings(#","by":"#, by)
    case .released(let t, let phase, let location):
      touch(&w, t)
      w.string(#","phase":"#, phase)
      w.point(#","location":"#, location)
    case .cancelledInView(let t, let by):
      touch(&w, t)
      w.string(#","by":"#, by)
    case .pressBegan(let press, let key, let pressType, let view, let window, let recognizers):
      w.integer(#","press":"#, press)
      w.string(#","key":"#, key)
      w.string(#","pressType":"#, pressType)
      w.optionalString(#","view":"#, view)
      w.string(#","window":"#, window)
      w.strings(#","recognizers":"#, recognizers)
    case .controlTracking(let t, let phase, let inside, let tracking, let events):
      touch(&w, t)
      w.string(#","phase":"#, phase)
      w.bool(#","inside":"#, inside)
      w.bool(#","tracking":"#, tracking)
      w.strings(#","events":"#, events)
    case .voiceOverGesture(let gesture, let fingers, let direction, let window):
      w.string(#","gesture":"#, gesture)
      w.integer(#","fingers":"#, fingers)
      w.optionalString(#","direction":"#, direction)
      w.string(#","window":"#, window)
    case .other(_, let members):
      for member in members { w.json("," + JSONFormat.string(member.key) + ":" + member.value.compact) }
    }
    return w.finish()
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    time = try f.requiredNumber("time")
    let name = try f.requiredString("event")
    func recognizer() throws(ProtocolError) -> RecognizerInfo {
      RecognizerInfo(
        id: try f.requiredString("recognizer"), gesture: try f.nullableString("gesture"),
        view: try f.requiredString("view"), window: try f.requiredString("window"))
    }
    func touch() throws(ProtocolError) -> TouchInfo {
      TouchInfo(
        id: try f.requiredInteger("touch"), view: try f.requiredString("view"), window: try f.requiredString("window"))
    }
    switch name {
    case "recognizer":
      detail = .recognizer(
        try recognizer(), from: try f.requiredString("from"), to: try f.requiredString("to"),
        cause: try f.requiredString("cause"))
    case "waiting":
      detail = .waiting(
        try recognizer(), to: try f.requiredString("to"), requirement: try f.requiredString("requirement"))
    case "touchBegan":
      detail = .touchBegan(
        try touch(), location: try f.requiredPoint("location"), tapCount: try f.requiredInteger("tapCount"),
        recognizers: try f.required(f.stringArray("recognizers"), "recognizers", "an array of strings"),
        notes: try f.required(f.stringArray("notes"), "notes", "an array of strings"))
    case "touchSwallowed":
      detail = .touchSwallowed(
        touch: try f.requiredInteger("touch"), window: try f.nullableString("window"),
        location: try f.requiredPoint("location"), reason: try f.requiredString("reason"))
    case "held":
      detail = .held(
        try touch(), phase: try f.requiredString("phase"),
        by: try f.required(f.stringArray("by"), "by", "an array of strings"))
    case "released":
      detail = .released(try touch(), phase: try f.requiredString("phase"), location: try f.requiredPoint("location"))
    case "cancelledInView":
      detail = .cancelledInView(try touch(), by: try f.requiredString("by"))
    case "pressBegan":
      detail = .pressBegan(
        press: try f.requiredInteger("press"), key: try f.requiredString("key"),
        pressType: try f.requiredString("pressType"), view: try f.nullableString("view"),
        window: try f.requiredString("window"),
        recognizers: try f.required(f.stringArray("recognizers"), "recognizers", "an array of strings"))
    case "controlTracking":
      detail = .controlTracking(
        try touch(), phase: try f.requiredString("phase"), inside: try f.requiredBool("inside"),
        tracking: try f.requiredBool("tracking"),
        events: try f.required(f.stringArray("events"), "events", "an array of strings"))
    case "voiceOverGesture":
      detail = .voiceOverGesture(
        gesture: try f.requiredString("gesture"), fingers: try f.requiredInteger("fingers"),
        direction: try f.nullableString("direction"), window: try f.requiredString("window"))
    default:
      detail = .other(name: name, members: f.members.filter { !["type", "time", "event"].contains($0.key) })
    }
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}
