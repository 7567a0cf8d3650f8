import TouchdProtocol

/// One line of the daemon, typed (docs/protocol.md, version 1). The pipeline's messages (action,
/// touches, scroll, control, presses, idle, accessibility, stroke, signature, trace) are the protocol's own types
/// (PipelineMessages.swift), and so are the session's `hello`, `gap`, `reloaded`, `updated`,
/// `windowChanged` and `calibration`; the replies' envelopes are declared below.
///
/// Keys a type does not declare are ignored (later daemons may add some); optional fields are the
/// ones only some messages of a type have. A line of a type this version does not know, or of a
/// known type that it cannot read (a field missing or of another kind), is ``unknown(type:fields:)``.
///
/// ``TouchdClient`` does not yield `hello` (``TouchdClient/connect(timeout:)`` returns it, and
/// ``TouchdClient/Reconnected`` carries the new one), nor the `reply` and `error` that answer its
/// commands: their methods return or throw them. A `reply` or `error` that answers no command
/// (an `error` with `id` null while none is waiting) is yielded.
public enum TouchdMessage: Sendable, Hashable, Decodable {
  /// The first line of every connection.
  case hello(TouchdClient.Hello)
  /// A recognizer fired, or a control sent an event (`gesture` `control`).
  case action(TouchdClient.Action)
  /// A touches call of a view with `touches: true` (subscribed type `touches`).
  case touches(TouchdClient.Touches)
  /// A scroll view's delegate callback (subscribed type `scroll`).
  case scroll(TouchdClient.Scroll)
  /// A control's visible state after it changed (subscribed type `control`).
  case control(TouchdClient.Control)
  /// A presses call of a view with `presses: true` (subscribed type `presses`).
  case presses(TouchdClient.Presses)
  /// The scene went idle or became active again (subscribed type `idle`).
  case idle(TouchdClient.Idle)
  /// What VoiceOver did in a window (subscribed type `accessibility`).
  case accessibility(TouchdClient.Accessibility)
  /// A stroke on a signature view ended (subscribed type `stroke`).
  case stroke(StrokeMessage)
  /// A signature view's signature, as a client asked for it (subscribed type `signature`).
  case signature(SignatureMessage)
  /// One step of delivery and arbitration (subscribed type `trace`); takes no `seq`.
  case trace(TouchdClient.Trace)
  /// A command's success that answers no command of this client.
  case reply(TouchdClient.Reply)
  /// A command's failure that answers no command of this client.
  case error(TouchdClient.ErrorReply)
  /// The daemon dropped messages for this client (subscribed with overflow `skip`, fell behind).
  case gap(TouchdClient.Gap)
  /// The scene was replaced (a reload, or a client's `scene` command).
  case reloaded(TouchdClient.Reloaded)
  /// A client's `update` changed the scene.
  case updated(TouchdClient.Updated)
  /// A client's `set` changed a window's rotation, calibration or size.
  case windowChanged(TouchdClient.WindowChanged)
  /// A running `calibrate` collected one target.
  case calibration(TouchdClient.Calibration)
  /// The daemon is stopping; the connection closes after it.
  case shutdown
  /// A message of another type, with its keys besides `type`.
  case unknown(type: String, fields: [String: TouchdJSON])

  private enum TypeKey: String, CodingKey { case type }

  public init(from decoder: any Decoder) throws {
    let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
    switch type {
    case "hello": self = .hello(try .init(from: decoder))
    case "action": self = .action(try .init(from: decoder))
    case "touches": self = .touches(try .init(from: decoder))
    case "scroll": self = .scroll(try .init(from: decoder))
    case "control": self = .control(try .init(from: decoder))
    case "presses": self = .presses(try .init(from: decoder))
    case "idle": self = .idle(try .init(from: decoder))
    case "accessibility": self = .accessibility(try .init(from: decoder))
    case "stroke": self = .stroke(try .init(from: decoder))
    case "signature": self = .signature(try .init(from: decoder))
    case "trace": self = .trace(try .init(from: decoder))
    case "reply": self = .reply(try .init(from: decoder))
    case "error": self = .error(try .init(from: decoder))
    case "gap": self = .gap(try .init(from: decoder))
    case "reloaded": self = .reloaded(try .init(from: decoder))
    case "updated": self = .updated(try .init(from: decoder))
    case "windowChanged": self = .windowChanged(try .init(from: decoder))
    case "calibration": self = .calibration(try .init(from: decoder))
    case "shutdown": self = .shutdown
    default:
      var fields = try [String: TouchdJSON](from: decoder)
      fields["type"] = nil
      self = .unknown(type: type, fields: fields)
    }
  }

  /// The protocol's `type` of the message.
  public var type: String {
    switch self {
    case .hello: "hello"
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
    case .reply: "reply"
    case .error: "error"
    case .gap: "gap"
    case .reloaded: "reloaded"
    case .updated: "updated"
    case .windowChanged: "windowChanged"
    case .calibration: "calibration"
    case .shutdown: "shutdown"
    case .unknown(let type, _): type
    }
  }

  /// The message's `seq`: its place in the pipeline's numbering (nil for the types without one;
  /// an unknown message's integer `seq` field, which a later daemon's pipeline type would have).
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
    case .unknown(_, let fields): fields["seq"]?.intValue
    default: nil
    }
  }
}

extension TouchdClient {
  /// A size in points (the protocol's type).
  public typealias Size = WireSize
  /// A rectangle in its superview's points, a view's `frame` (the protocol's type).
  public typealias Rect = WireRect
  /// A window as `hello` and `reloaded` list it: its id and size in points.
  public typealias Window = WindowInfo
  /// `hello`: the daemon's greeting on every connection (``HelloMessage``: `version`; `instance`,
  /// this run of the daemon, another value after a reconnection meaning `seq` counts from 1 again;
  /// `windows`; `views`).
  public typealias Hello = HelloMessage

  /// `reply`: a command's success, its fields besides `type`, `id` and `ok`.
  public struct Reply: Sendable, Hashable, Decodable {
    /// The command's `id`, echoed.
    public var id: TouchdJSON
    /// The reply's fields (`types`, `counters`, `views`, … per command).
    public var fields: [String: TouchdJSON]

    /// The field `key`, or nil.
    public subscript(key: String) -> TouchdJSON? { fields[key] }

    /// The fields read as one of the protocol's reply types (``StatusReply``, ``SceneReply``,
    /// ``CalibrateReply``, ``WindowChangedMessage`` for `set` on a window, ``UpdatedMessage`` for
    /// `update`), with the protocol's strict rules: a field missing or of another kind throws.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try StrictJSONDecoder.decode(type, from: StrictJSON(TouchdJSON.object(fields)))
    }

    public init(from decoder: any Decoder) throws {
      var all = try [String: TouchdJSON](from: decoder)
      id = all["id"] ?? .null
      for key in ["type", "id", "ok"] { all[key] = nil }
      fields = all
    }
  }

  /// `error`: a command's failure (commands throw it as ``TouchdError/daemon(message:)``).
  public struct ErrorReply: Sendable, Hashable, Decodable {
    /// The command's `id`, or null when the daemon could not read one.
    public var id: TouchdJSON
    /// The daemon's message, word for word.
    public var message: String

    private enum CodingKeys: String, CodingKey { case id, message }

    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      id = try c.decodeIfPresent(TouchdJSON.self, forKey: .id) ?? .null
      message = try c.decode(String.self, forKey: .message)
    }
  }

  /// `gap`: the daemon dropped `skipped` messages for this client, which subscribed with overflow
  /// `skip` and fell behind; the next message's `seq` is that much further on.
  public typealias Gap = GapMessage

  /// `reloaded`: the scene was replaced; `source` `file` (SIGHUP, `reload`) or `client` (a
  /// client's `scene` command), its `windows` and `views`.
  public typealias Reloaded = ReloadedMessage

  /// `updated`: a client's `update` changed one view subtree (`view`) or one recognizer
  /// (`recognizer`); the fields are its reply's (the protocol's type).
  public typealias Updated = UpdatedMessage

  /// `windowChanged`: a client's `set` changed a window's rotation, calibration or size (the
  /// protocol's type).
  public typealias WindowChanged = WindowChangedMessage

  /// `calibration`: a running `calibrate` collected target `target` of `targets` (`at`, window
  /// points; `touched`, device-normalized, before the window's calibration).
  public typealias Calibration = CalibrationMessage
}
