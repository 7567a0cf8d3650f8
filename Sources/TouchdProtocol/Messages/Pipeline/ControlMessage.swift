/// `{"type":"control",…}`: a control's visible state after it changed (highlighted, selected,
/// enabled, and its value under its own name), so an app draws the pressed state in the frame of
/// the finger (docs/protocol.md, `control`).
public struct ControlMessage: WireMessage {
  public static var typeName: String { "control" }

  /// Its place in the numbering of the pipeline's messages.
  public var seq: Int
  /// The control's type (`button`, `switch`, `slider`, `stepper`, `segmented`, `pageControl`).
  public var control: String
  /// The view's id.
  public var view: String
  public var window: String
  /// Seconds: the frame's kernel timestamp (CLOCK_MONOTONIC), the recording's in a replay.
  public var time: Double
  /// Whether the control takes touches.
  public var enabled: Bool
  /// Whether a finger is on the control (within 70 pt).
  public var highlighted: Bool
  /// The control's selected state.
  public var selected: Bool
  /// Written as `on`, `value`, `selectedSegmentIndex` or `currentPage`; none for a button. (Not called `value`:
  /// the Swift client's `Control.value` is the slider's number, as before this type.)
  public var controlValue: ControlValue

  @inlinable public init(
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
    self.controlValue = value
  }

  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"control","seq":"#)
    w.integer(seq)
    w.string(#","control":"#, control)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    w.raw(enabled ? #","enabled":true"# : #","enabled":false"#)
    w.raw(highlighted ? #","highlighted":true"# : #","highlighted":false"#)
    w.raw(selected ? #","selected":true"# : #","selected":false"#)
    controlValue.write(&w, key: true)
    return w.finish()
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    control = try f.requiredString("control")
    view = try f.requiredString("view")
    window = try f.requiredString("window")
    time = try f.requiredNumber("time")
    enabled = try f.requiredBool("enabled")
    highlighted = try f.requiredBool("highlighted")
    selected = try f.requiredBool("selected")
    controlValue = try ControlValue(decodingState: f)
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}
