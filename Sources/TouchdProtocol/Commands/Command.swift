/// A command of the socket protocol, `{"cmd":NAME,"id":ANY,…}` (docs/protocol.md, "Client →
/// server"), its fields decoded with strict types. Each command's fields, decoding and members are
/// declared once, in its own file here: the daemon decodes with them, `touchctl replay --at` and
/// the Swift client build them.
public enum Command: Hashable, Sendable {
  case ping
  case subscribe(SubscribeCommand)
  /// `set` with `view`.
  case setView(SetViewCommand)
  /// `set` with `window`.
  case setWindow(SetWindowCommand)
  case ignoreInteraction(IgnoreInteractionCommand)
  case reload
  case scene(PushSceneCommand)
  case update(UpdateCommand)
  case status
  case calibrate(CalibrateCommand)
  /// The daemon's metrics in Prometheus' text exposition format (``MetricsReply``).
  case metrics
  /// Each window's touchscreen health (``HealthReply``).
  case health
  /// VoiceOver says a text (``AnnounceCommand``).
  case announce(AnnounceCommand)
  /// A signature view's signature, got or cleared (``SignatureCommand``).
  case signature(SignatureCommand)

  /// Every command name, in the order errors list them.
  public static let names = [
    "ping", "subscribe", "set", "ignoreInteraction", "reload", "scene", "update", "status", "calibrate", "metrics",
    "health", "announce", "signature",
  ]

  /// The command's name (`cmd`).
  public var name: String {
    switch self {
    case .ping: "ping"
    case .subscribe: "subscribe"
    case .setView, .setWindow: "set"
    case .ignoreInteraction: "ignoreInteraction"
    case .reload: "reload"
    case .scene: "scene"
    case .update: "update"
    case .status: "status"
    case .calibrate: "calibrate"
    case .metrics: "metrics"
    case .health: "health"
    case .announce: "announce"
    case .signature: "signature"
    }
  }

  /// Decodes a command object's fields; an unknown name is an error that suggests the closest
  /// known one (`unknown command 'statu' (did you mean 'status'? known: ping, …)`).
  public static func decode(_ object: CommandObject) throws(ProtocolError) -> Command {
    let fields = object.fields
    switch object.name {
    case "ping":
      try fields.rejectUnknown([])
      return .ping
    case "status":
      try fields.rejectUnknown([])
      return .status
    case "reload":
      try fields.rejectUnknown([])
      return .reload
    case "metrics":
      try fields.rejectUnknown([])
      return .metrics
    case "health":
      try fields.rejectUnknown([])
      return .health
    case "subscribe": return .subscribe(try SubscribeCommand(decoding: fields))
    case "set":
      guard fields["window"] != nil else { return .setView(try SetViewCommand(decoding: fields)) }
      guard fields["view"] == nil else {
        throw ProtocolError("'set' takes 'view' or 'window', not both (one command changes one of them)")
      }
      return .setWindow(try SetWindowCommand(decoding: fields))
    case "ignoreInteraction": return .ignoreInteraction(try IgnoreInteractionCommand(decoding: fields))
    case "scene": return .scene(try PushSceneCommand(decoding: fields))
    case "update": return .update(try UpdateCommand(decoding: fields))
    case "calibrate": return .calibrate(try CalibrateCommand(decoding: fields))
    case "announce": return .announce(try AnnounceCommand(decoding: fields))
    case "signature": return .signature(try SignatureCommand(decoding: fields))
    default: throw unknown(object.name, known: names, suggest: true)
    }
  }

  /// `unknown command 'NAME' (known: …)`, with the closest of `known` suggested when `suggest`.
  public static func unknown(_ name: String, known: [String], suggest: Bool) -> ProtocolError {
    let name = StrictJSON.shortened(name)
    let hint = suggest ? closestMatch(to: name, in: known).map { "did you mean '\($0)'? " } ?? "" : ""
    return ProtocolError("unknown command '\(name)' (\(hint)known: \(known.joined(separator: ", ")))")
  }

  /// The command's fields but `cmd` and `id`, in its declared order.
  public var members: [JSONValue.Member] {
    switch self {
    case .ping, .reload, .status, .metrics, .health: []
    case .subscribe(let c): c.members
    case .setView(let c): c.members
    case .setWindow(let c): c.members
    case .ignoreInteraction(let c): c.members
    case .scene(let c): c.members
    case .update(let c): c.members
    case .calibrate(let c): c.members
    case .announce(let c): c.members
    case .signature(let c): c.members
    }
  }
}
