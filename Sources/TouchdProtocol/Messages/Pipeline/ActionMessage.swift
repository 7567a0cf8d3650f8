/// `{"type":"action",…}`: a recognizer fired (began, changed, ended or cancelled), or a control
/// sent an event the scene maps to an action (`gesture` `control`). One message type with two key
/// orders (docs/protocol.md, `action`), so one declaration with a ``Detail`` per kind.
///
/// Vocabularies (`gesture`, `state`, `event`, `control`, `direction`) are strings: the daemon stores
/// its enums' raw values (TouchdScene's MessageBuilding.swift gives the typed initializers), and a
/// client reads a word a later daemon adds instead of dropping the message.
public struct ActionMessage: WireMessage {
  public static var typeName: String { "action" }

  /// What the kind of action adds to the common fields.
  public enum Detail: Hashable, Sendable {
    /// A recognizer's action: its type (`tap`, `pan`, …), its state (`began`, `changed`, `ended`
    /// (discrete gestures too) or `cancelled`), its scene id, its location in window points, the
    /// touches it tracks (0 for presses), the press type when presses made the gesture
    /// (`allowedPressTypes`), and the values of its type.
    case recognizer(
      gesture: String, state: String, recognizer: String, location: WirePoint, numberOfTouches: Int, press: String?,
      values: GestureValues)
    /// A control's event: its name (`touchUpInside`, `valueChanged`, …), the control's type
    /// (`button`, `switch`, `slider`, `stepper`, `segmented`) and its value after the event.
    case control(event: String, control: String, value: ControlValue)
  }

  /// Its place in the numbering of the pipeline's messages.
  public var seq: Int
  /// The scene's action name.
  public var action: String
  /// The recognizer's or control's view.
  public var view: String
  /// The window's id.
  public var window: String
  /// Seconds: the frame's kernel timestamp, or the clock time a timer fired at.
  public var time: Double
  public var detail: Detail
  /// A recognizer's location in its view's own points, for a view inside zoomed content (a
  /// scroll view's zoom view or a view within it, scaled: its points are not the window's); nil
  /// (absent) otherwise, and for a control.
  public var locationInView: WirePoint?

  @inlinable public init(
    seq: Int, action: String, view: String, window: String, time: Double, detail: Detail,
    locationInView: WirePoint? = nil
  ) {
    self.seq = seq
    self.action = action
    self.view = view
    self.window = window
    self.time = time
    self.detail = detail
    self.locationInView = locationInView
  }

  /// A control's action (`gesture` `control`).
  @inlinable public init(
    seq: Int, action: String, event: String, control: String, view: String, window: String, time: Double,
    value: ControlValue
  ) {
    self.init(
      seq: seq, action: action, view: view, window: window, time: time,
      detail: .control(event: event, control: control, value: value))
  }

  /// The `gesture` key: the recognizer's type, or `control`.
  public var gesture: String {
    switch detail {
    case .recognizer(let gesture, _, _, _, _, _, _): gesture
    case .control: "control"
    }
  }

  /// Recognizer: its state; nil for a control.
  public var state: String? {
    if case .recognizer(_, let state, _, _, _, _, _) = detail { state } else { nil }
  }

  /// Recognizer: its scene id; nil for a control.
  public var recognizer: String? {
    if case .recognizer(_, _, let recognizer, _, _, _, _) = detail { recognizer } else { nil }
  }

  /// Recognizer: its location in window points; nil for a control.
  public var location: WirePoint? {
    if case .recognizer(_, _, _, let location, _, _, _) = detail { location } else { nil }
  }

  /// Recognizer: the touches it tracks (0 for presses); nil for a control.
  public var numberOfTouches: Int? {
    if case .recognizer(_, _, _, _, let count, _, _) = detail { count } else { nil }
  }

  /// Recognizer: the press type, when presses made the gesture.
  public var press: String? {
    if case .recognizer(_, _, _, _, _, let press, _) = detail { press } else { nil }
  }

  /// Recognizer: the values of its type; ``GestureValues/none`` for a control.
  public var values: GestureValues {
    if case .recognizer(_, _, _, _, _, _, let values) = detail { values } else { .none }
  }

  /// Pan, screenEdgePan: the translation in points.
  public var translation: WirePoint? {
    if case .pan(let translation, _) = values { translation } else { nil }
  }

  /// Pinch: the scale.
  public var scale: Double? {
    if case .pinch(let scale, _) = values { scale } else { nil }
  }

  /// Rotation: radians, clockwise positive.
  public var rotation: Double? {
    if case .rotation(let rotation, _) = values { rotation } else { nil }
  }

  /// Swipe: `right`, `left`, `up` or `down`.
  public var direction: String? {
    if case .swipe(let direction) = values { direction } else { nil }
  }

  /// Control: the event's name; nil for a recognizer.
  public var event: String? {
    if case .control(let event, _, _) = detail { event } else { nil }
  }

  /// Control: its type; nil for a recognizer.
  public var control: String? {
    if case .control(_, let control, _) = detail { control } else { nil }
  }

  /// Control: its value after the event; nil for a recognizer.
  public var controlValue: ControlValue? {
    if case .control(_, _, let value) = detail { value } else { nil }
  }

  /// The two key orders: a recognizer's
  /// `type,seq,action,gesture,state,view,window,recognizer,time,location,locationInView?,numberOfTouches,press?,<values>`;
  /// a control's `type,seq,action,gesture,event,control,view,window,time,value?`.
  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"action","seq":"#)
    w.integer(seq)
    w.string(#","action":"#, action)
    switch detail {
    case .recognizer(let gesture, let state, let recognizer, let location, let numberOfTouches, let press, let values):
      w.string(#","gesture":"#, gesture)
      w.string(#","state":"#, state)
      w.string(#","view":"#, view)
      w.string(#","window":"#, window)
      w.string(#","recognizer":"#, recognizer)
      w.number(#","time":"#, time)
      w.point(#","location":"#, location)
      if let locationInView { w.point(#","locationInView":"#, locationInView) }
      w.integer(#","numberOfTouches":"#, numberOfTouches)
      if let press { w.string(#","press":"#, press) }
      values.write(&w)
    case .control(let event, let control, let value):
      w.raw(#","gesture":"control""#)
      w.string(#","event":"#, event)
      w.string(#","control":"#, control)
      w.string(#","view":"#, view)
      w.string(#","window":"#, window)
      w.number(#","time":"#, time)
      value.write(&w, key: false)
    }
    return w.finish()
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    action = try f.requiredString("action")
    view = try f.requiredString("view")
    window = try f.requiredString("window")
    time = try f.requiredNumber("time")
    let gesture = try f.requiredString("gesture")
    if gesture == "control" {
      let control = try f.requiredString("control")
      detail = .control(
        event: try f.requiredString("event"), control: control,
        value: try ControlValue(decodingAction: f, control: control))
    } else {
      detail = .recognizer(
        gesture: gesture, state: try f.requiredString("state"), recognizer: try f.requiredString("recognizer"),
        location: try f.requiredPoint("location"), numberOfTouches: try f.requiredInteger("numberOfTouches"),
        press: try f.string("press"), values: try GestureValues(decoding: f))
      locationInView = try f.point("locationInView")
    }
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}
