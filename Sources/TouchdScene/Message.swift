// The pipeline's messages as the scene publishes them: each case holds one message type of the
// protocol (Sources/TouchdProtocol/Messages/Pipeline), built with the typed initializers of
// MessageBuilding.swift.

/// A message touchd publishes: one JSON line on the daemon's socket and in `touchctl replay --scene`.
public enum Message: Hashable, Sendable {
  /// A recognizer fired (began, changed, ended or cancelled), or a control event the scene maps to
  /// an action (``ActionMessage/Detail/control(event:control:value:)``, `gesture` `control`).
  case action(ActionMessage)
  /// A view with `touches: true` handled a touches call.
  case touches(TouchesMessage)
  /// A scroll view's delegate callback (its offset moved, a drag began or ended, …).
  case scroll(ScrollMessage)
  /// A control's visible state changed.
  case control(ControlMessage)
  /// A view with `presses: true` handled a presses call.
  case presses(PressesMessage)
  /// One step of delivery and arbitration, with its cause; only while the runtime traces
  /// (``SceneRuntime/isTracing``).
  case trace(TraceMessage)
  /// The scene's idle state changed (`idle:`, ``IdleMessage``).
  case idle(IdleMessage)
  /// VoiceOver focused, activated or adjusted an element, or turned on or off (Accessibility/).
  case accessibility(AccessibilityMessage)
  /// A stroke on a signature view ended (Pens/SignatureCapture.swift).
  case stroke(StrokeMessage)
  /// A signature view's whole signature, as a client asked for it.
  case signature(SignatureMessage)

  /// The message's sequence number: one more than the previous action or touches message's; nil
  /// for trace messages, which take none, so that the other messages are numbered the same
  /// whether or not someone traces.
  public var seq: Int? {
    switch self {
    case .action(let m): m.seq
    case .touches(let m): m.seq
    case .scroll(let m): m.seq
    case .control(let m): m.seq
    case .presses(let m): m.seq
    case .idle(let m): m.seq
    case .accessibility(let m): m.seq
    case .stroke(let m): m.seq
    case .signature(let m): m.seq
    case .trace: nil
    }
  }

  /// Every message `type` (``type``), in the order errors and docs list them: what clients
  /// subscribe to.
  public static let typeNames = SubscribeCommand.messageTypes

  /// The message's `type` key: one of ``typeNames``.
  public var type: String {
    switch self {
    case .action: "action"
    case .touches: "touches"
    case .scroll: "scroll"
    case .control: "control"
    case .presses: "presses"
    case .idle: "idle"
    case .accessibility: "accessibility"
    case .stroke: "stroke"
    case .signature: "signature"
    case .trace: "trace"
    }
  }

  /// The message's time in seconds (the clock of the recording or of the live devices).
  public var time: Double {
    switch self {
    case .action(let m): m.time
    case .touches(let m): m.time
    case .scroll(let m): m.time
    case .control(let m): m.time
    case .presses(let m): m.time
    case .idle(let m): m.time
    case .accessibility(let m): m.time
    case .stroke(let m): m.time
    case .signature(let m): m.time
    case .trace(let m): m.time
    }
  }

  /// The message as one line of JSON, keys in the documented order, without the newline.
  public var jsonLine: String {
    switch self {
    case .action(let m): m.jsonLine
    case .touches(let m): m.jsonLine
    case .scroll(let m): m.jsonLine
    case .control(let m): m.jsonLine
    case .presses(let m): m.jsonLine
    case .idle(let m): m.jsonLine
    case .accessibility(let m): m.jsonLine
    case .stroke(let m): m.jsonLine
    case .signature(let m): m.jsonLine
    case .trace(let m): m.jsonLine
    }
  }
}
