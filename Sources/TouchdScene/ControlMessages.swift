import TouchDelivery
import TouchdInput

/// A control's value as messages carry it: the switch's `on`, the slider's or stepper's `value`,
/// the segmented control's `selectedSegmentIndex`; a button has none.
public enum ControlValue: Hashable, Sendable {
  case none
  case on(Bool)
  case value(Double)
  case selectedSegmentIndex(Int)

  /// The control's current value.
  public init(of control: Control) {
    switch control {
    case let s as Switch: self = .on(s.isOn)
    case let s as Slider: self = .value(s.value)
    case let s as Stepper: self = .value(s.value)
    case let s as SegmentedControl: self = .selectedSegmentIndex(s.selectedSegmentIndex)
    default: self = .none
    }
  }

  fileprivate func write(_ w: inout JSONLineWriter, key: Bool) {
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
    }
  }
}

/// The scene's name of a control's type (`button`, `switch`, …).
func controlTypeName(_ control: Control) -> String {
  switch control {
  case is Switch: "switch"
  case is Slider: "slider"
  case is Stepper: "stepper"
  case is SegmentedControl: "segmented"
  default: "button"
  }
}

/// `{"type":"action","gesture":"control",…}`: a control event the scene maps to an action.
public struct ControlActionMessage: Hashable, Sendable {
  public var seq: Int
  public var action: String
  /// The control event's name (`touchUpInside`, `valueChanged`, …).
  public var event: String
  /// The control's type (`button`, `switch`, `slider`, `stepper`, `segmented`).
  public var control: String
  public var view: String
  public var window: String
  public var time: Double
  /// The control's value after the event (`value`: a boolean for a switch, a number for a slider
  /// or stepper, the selected index for a segmented control; absent for a button).
  public var value: ControlValue

  public init(
    seq: Int, action: String, event: String, control: String, view: String, window: String, time: Double,
    value: ControlValue
  ) {
    self.seq = seq
    self.action = action
    self.event = event
    self.control = control
    self.view = view
    self.window = window
    self.time = time
    self.value = value
  }

  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"action","seq":"#)
    w.integer(seq)
    w.string(#","action":"#, action)
    w.raw(#","gesture":"control""#)
    w.string(#","event":"#, event)
    w.string(#","control":"#, control)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    value.write(&w, key: false)
    return w.finish()
  }
}

/// `{"type":"control",…}`: a control's visible state after it changed (highlighted, selected,
/// enabled, and its value under its own name), so an app draws the pressed state in the frame of
/// the finger.
public struct ControlMessage: Hashable, Sendable {
  public var seq: Int
  public var control: String
  public var view: String
  public var window: String
  public var time: Double
  public var enabled: Bool
  public var highlighted: Bool
  public var selected: Bool
  /// `on`, `value` or `selectedSegmentIndex`; none for a button.
  public var value: ControlValue

  public init(
    seq: Int, control: String, view: String, window: String, time: Double, enabled: Bool, highlighted: Bool,
    selected: Bool, value: ControlValue
  ) {
    self.seq = seq
    self.control = control
    self.view = view
    self.window = window
    self.time = time
    self.enabled = enabled
    self.highlighted = highlighted
    self.selected = selected
    self.value = value
  }

  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"control","seq":"#)
    w.integer(seq)
    w.string(#","control":"#, control)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    w.raw(enabled ? #","enabled":true"# : #","enabled":false"#)
    w.raw(highlighted ? #","highlighted":true"# : #","highlighted":false"#)
    w.raw(selected ? #","selected":true"# : #","selected":false"#)
    value.write(&w, key: true)
    return w.finish()
  }
}

/// `{"type":"presses",…}`: one presses call on a view with `presses: true`.
public struct PressesMessage: Hashable, Sendable {
  /// One press of the call.
  public struct PressInfo: Hashable, Sendable {
    public var id: UInt64
    /// The press type (`select`, `help`, …).
    public var type: String
    /// The evdev key name (`KEY_ENTER`).
    public var key: String
    public var phase: PressPhase

    public init(id: UInt64, type: String, key: String, phase: PressPhase) {
      self.id = id
      self.type = type
      self.key = key
      self.phase = phase
    }
  }

  public var seq: Int
  /// The presses method called: began, changed, ended or cancelled.
  public var phase: PressPhase
  /// The view that handled the call.
  public var view: String
  public var window: String
  public var time: Double
  /// The presses of the call, sorted by id.
  public var presses: [PressInfo]

  public init(seq: Int, phase: PressPhase, view: String, window: String, time: Double, presses: [PressInfo]) {
    self.seq = seq
    self.phase = phase
    self.view = view
    self.window = window
    self.time = time
    self.presses = presses.sorted { $0.id < $1.id }
  }

  public var jsonLine: String { callJSONLine }
}

extension PressesMessage: ResponderCallMessage {
  static var jsonPrefix: StaticString { #"{"type":"presses","seq":"# }
  static var jsonListKey: StaticString { #","presses":["# }
  var elements: [PressInfo] { presses }
}

extension PressesMessage.PressInfo: ResponderCallElement {
  func writeFields(_ w: inout JSONLineWriter) {
    w.string(#","type":"#, type)
    w.string(#","key":"#, key)
    w.string(#","phase":"#, phase.rawValue)
  }
}
