import TouchdScene

/// A message on its way to clients: one JSON object, without the newline, and what subscriptions
/// filter on.
public struct OutboundMessage: Sendable {
  /// The JSON object, one line, no trailing newline.
  public var line: String
  /// The message's `type` ("action", "touches", …).
  public var type: String
  /// The action name, for action messages.
  public var action: String?
  /// The view the message is about (the recognizer's view, or the touches' responder view).
  public var view: String?

  public init(line: String, type: String, action: String? = nil, view: String? = nil) {
    self.line = line
    self.type = type
    self.action = action
    self.view = view
  }
}

/// A command a client sent, `{"cmd":NAME,"id":ANY,...}`, decoded with strict types.
public struct ClientCommand: Sendable {
  /// The command name.
  public var name: String
  /// The client's `id`, echoed in the reply as JSON text (`null` when absent).
  public var idJSON: String
  /// What the command asks for.
  public var request: ClientRequest

  public init(name: String, idJSON: String, request: ClientRequest) {
    self.name = name
    self.idJSON = idJSON
    self.request = request
  }
}

/// What a client's command asks for, its fields decoded (docs/protocol.md, "Client → server").
public enum ClientRequest: Sendable, Equatable {
  case ping
  /// Replaces the client's filter.
  case subscribe(Subscription)
  case status
  case reload
  /// `scene`: a whole scene from the client, parsed and validated (on the server's event loop, off
  /// the pipeline), to replace the running one.
  case pushScene(SceneDocument)
  /// `set` or `ignoreInteraction`: a change of the running scene.
  case scene(SceneCommand)
  /// `calibrate`: the next touch on each target of a window, answered when the last one lifts.
  case calibrate(CalibrateRequest)

  /// Whether the daemon's pipeline answers it (the server answers `ping` and `subscribe` itself).
  public var isPipeline: Bool {
    switch self {
    case .ping, .subscribe: false
    case .status, .reload, .pushScene, .scene, .calibrate: true
    }
  }
}

/// `{"cmd":"calibrate","window":W,"targets":[[x,y],...],"timeout":S}` decoded: the window, its
/// targets in window points (3 to 9), and the seconds to wait for their touches (default 120).
public struct CalibrateRequest: Sendable, Equatable {
  public var window: String
  public var targets: [Scene.Point]
  public var timeout: Double

  /// The seconds a calibration waits for its touches when the command gives no `timeout`.
  public static let defaultTimeout = 120.0

  /// The fields `calibrate` takes.
  public static let fields = ["window", "targets", "timeout"]

  public init(window: String, targets: [Scene.Point], timeout: Double = defaultTimeout) {
    self.window = window
    self.targets = targets
    self.timeout = timeout
  }

  /// Decodes the command's fields with strict types; errors name the field (`targets[2]`).
  public static func decode(_ fields: CommandFields) throws(ProtocolError) -> CalibrateRequest {
    try fields.rejectUnknown(Self.fields)
    let window = try fields.required(fields.string("window"), "window", "a string: the window id")
    let expected = "an array of 3 to 9 targets, each [x, y] in window points"
    guard let value = fields["targets"] else { throw ProtocolError("missing field 'targets' (\(expected))") }
    guard case .array(let items) = value else { throw fields.mismatch("targets", expected, value) }
    guard SceneRuntime.calibrationTargets.contains(items.count) else {
      throw ProtocolError("'targets' must be \(expected), found \(items.count) targets")
    }
    var targets: [Scene.Point] = []
    for (i, item) in items.enumerated() {
      guard case .array(let pair) = item, pair.count == 2 else {
        let found = if case .array(let a) = item { "an array of \(a.count) items" } else { item.shortDescription }
        throw ProtocolError("'targets[\(i)]' must be [x, y], two finite numbers, found \(found)")
      }
      let xy = try CommandFields.finiteNumbers(pair, path: "targets[\(i)]")
      targets.append(Scene.Point(x: xy[0], y: xy[1]))
    }
    let timeout = try fields.number("timeout") ?? defaultTimeout
    guard timeout > 0 else { throw ProtocolError("'timeout' must be above 0 seconds, found \(timeout)") }
    return CalibrateRequest(window: window, targets: targets, timeout: timeout)
  }
}

/// The reply to a command, before encoding.
public enum CommandResult: Sendable {
  /// `{"type":"reply","id":..,"ok":true, <fields>}`; `fields` is a JSON object's members already
  /// encoded (`"key":value,...`) or empty.
  case ok(fieldsJSON: String)
  /// `{"type":"error","id":..,"message":".."}`.
  case error(String)
}

/// Encoding and decoding of the line protocol described in docs/protocol.md.
public enum WireProtocol {
  /// The protocol version announced in `hello`.
  public static let version = 1
  /// Every command, in the order errors list them.
  public static let commands = [
    "ping", "subscribe", "set", "ignoreInteraction", "reload", "scene", "update", "status", "calibrate",
  ]
  /// Commands answered by the daemon's ``CommandHandler`` (the others, `ping` and `subscribe`,
  /// by the server itself).
  public static let pipelineCommands: Set<String> = [
    "set", "ignoreInteraction", "reload", "scene", "update", "status", "calibrate",
  ]

  /// Parses and decodes one line from a client (without its newline): strict JSON
  /// (``StrictJSON``), then the command's fields with strict types (``CommandFields``). The error
  /// is the message of the error reply, with the `id` to echo (`null` when the line has none or is
  /// not a JSON object).
  public static func parseCommand(_ line: some Collection<UInt8>) -> Result<ClientCommand, CommandParseError> {
    let object: CommandObject
    do {
      object = try CommandObject.parse(line)
    } catch {
      return .failure(CommandParseError(idJSON: error.idJSON, message: error.error.message))
    }
    do throws(ProtocolError) {
      return .success(ClientCommand(name: object.name, idJSON: object.idJSON, request: try request(of: object)))
    } catch {
      return .failure(CommandParseError(idJSON: object.idJSON, message: error.message))
    }
  }

  /// Parses a line given as a string.
  public static func parseCommand(_ line: String) -> Result<ClientCommand, CommandParseError> {
    parseCommand(Array(line.utf8))
  }

  private static func request(of object: CommandObject) throws(ProtocolError) -> ClientRequest {
    switch object.name {
    case "ping":
      try object.fields.rejectUnknown([])
      return .ping
    case "status":
      try object.fields.rejectUnknown([])
      return .status
    case "reload":
      try object.fields.rejectUnknown([])
      return .reload
    case "scene":
      try object.fields.rejectUnknown(["scene"])
      let value = try object.fields.required(object.fields["scene"], "scene", "a JSON object: the scene")
      do {
        return .pushScene(try Scene.parseDocument(json: value, name: "scene"))
      } catch {
        throw ProtocolError(error.message(prefix: "scene rejected, the old scene stays: "))
      }
    case "subscribe":
      return .subscribe(try Subscription.decode(object.fields))
    case "set", "ignoreInteraction", "update":
      return .scene(try SceneCommand.parse(object))
    case "calibrate":
      return .calibrate(try CalibrateRequest.decode(object.fields))
    default:
      let name = StrictJSON.shortened(object.name)
      let hint = closestMatch(to: name, in: commands).map { "did you mean '\($0)'? " } ?? ""
      throw ProtocolError(
        "unknown command '\(name)' (\(hint)known: \(commands.joined(separator: ", ")))")
    }
  }

  /// Carries out a pipeline command against the running scene: what the daemon does on its
  /// pipeline queue, and the protocol fuzz target against its own runtime. `status` gives the
  /// status reply's fields; `replaceScene` reloads the scene file (nil, `reload`) or puts a
  /// client's scene in its place (`scene`).
  public static func execute(
    _ request: ClientRequest, runtime: SceneRuntime, status: () -> String,
    replaceScene: (SceneDocument?) -> CommandResult
  ) -> CommandResult {
    switch request {
    case .scene(let command):
      do {
        return .ok(fieldsJSON: try runtime.apply(command))
      } catch {
        return .error(error.description)
      }
    case .status: return .ok(fieldsJSON: status())
    case .reload: return replaceScene(nil)
    case .pushScene(let scene): return replaceScene(scene)
    case .ping: return .ok(fieldsJSON: "")
    case .subscribe: return .error("subscribe is answered by the server, not the pipeline")
    case .calibrate: return .error("calibrate is answered when its touches are in, by the daemon")
    }
  }

  /// `{"type":"reply",...}` or `{"type":"error",...}` for a command.
  public static func reply(idJSON: String, _ result: CommandResult) -> String {
    switch result {
    case .ok(let fields):
      return #"{"type":"reply","id":\#(idJSON),"ok":true\#(fields.isEmpty ? "" : "," + fields)}"#
    case .error(let message):
      return #"{"type":"error","id":\#(idJSON),"message":\#(quote(message))}"#
    }
  }

  /// A JSON string literal for `s` (the scene layer's escaping, so both speak one dialect).
  public static func quote(_ s: String) -> String { JSONFormat.string(s) }

}

/// Why a client's line is not a command; answered with an error reply.
public struct CommandParseError: Error, Sendable {
  public var idJSON: String
  public var message: String
}
