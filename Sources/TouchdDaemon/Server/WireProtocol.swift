import TouchdProtocol
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
  /// Where a touches line's `coalesced` and `predicted` entries are in ``line`` (UTF-8 offsets;
  /// ``TouchesMessage/jsonLineWithEntries``), nil when it has none: a client that did not ask for
  /// one gets the line without it.
  public var coalesced: Range<Int>?
  public var predicted: Range<Int>?

  public init(
    line: String, type: String, action: String? = nil, view: String? = nil, coalesced: Range<Int>? = nil,
    predicted: Range<Int>? = nil
  ) {
    self.line = line
    self.type = type
    self.action = action
    self.view = view
    self.coalesced = coalesced
    self.predicted = predicted
  }

  /// The bytes of the line to leave out for `subscription`: the entries it did not ask for (at
  /// most two ranges, in order).
  @inline(__always) private func omitted(for subscription: Subscription) -> (Range<Int>?, Range<Int>?) {
    let wanted = subscription.touchesEntries
    return (wanted.contains(.coalesced) ? nil : coalesced, wanted.contains(.predicted) ? nil : predicted)
  }

  /// Appends the line as `subscription` gets it, and a newline, to `buffer` (no allocation beyond
  /// the buffer's own growth).
  func append(for subscription: Subscription, to buffer: inout [UInt8]) {
    let omit = coalesced == nil && predicted == nil ? (nil, nil) : omitted(for: subscription)
    var text = line
    text.withUTF8 { bytes in
      // The entries are the line's last members: the bytes around each omitted range, in order.
      var start = 0
      if let range = omit.0 {
        buffer.append(contentsOf: bytes[start..<range.lowerBound])
        start = range.upperBound
      }
      if let range = omit.1 {
        buffer.append(contentsOf: bytes[start..<range.lowerBound])
        start = range.upperBound
      }
      buffer.append(contentsOf: bytes[start...])
    }
    buffer.append(UInt8(ascii: "\n"))
  }

  /// The line as `subscription` gets it (the event loop's path: a slow reader's, WebSocket clients).
  func line(for subscription: Subscription) -> String {
    let omit = coalesced == nil && predicted == nil ? (nil, nil) : omitted(for: subscription)
    guard omit.0 != nil || omit.1 != nil else { return line }
    var bytes: [UInt8] = []
    append(for: subscription, to: &bytes)
    bytes.removeLast()
    return String(decoding: bytes, as: UTF8.self)
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
  /// `metrics`: the daemon's metrics, Prometheus' text format.
  case metrics
  /// `health`: each window's touchscreen health (``HealthReply``).
  case health
  case reload
  /// `scene`: a whole scene from the client, parsed and validated (on the server's event loop, off
  /// the pipeline), to replace the running one.
  case pushScene(SceneDocument)
  /// `set` or `ignoreInteraction`: a change of the running scene.
  case scene(SceneCommand)
  /// `calibrate`: the next touch on each target of a window, answered when the last one lifts.
  case calibrate(CalibrateCommand)

  /// Whether the daemon's pipeline answers it (the server answers `ping` and `subscribe` itself).
  public var isPipeline: Bool {
    switch self {
    case .ping, .subscribe: false
    case .status, .metrics, .health, .reload, .pushScene, .scene, .calibrate: true
    }
  }
}

/// The reply to a command, before encoding.
public enum CommandResult: Sendable {
  /// `{"type":"reply","id":..,"ok":true, <fields>}`; `fields` is a JSON object's members already
  /// encoded (`"key":value,...`) or empty.
  case ok(fieldsJSON: String)
  /// A change of the running scene in place: its reply, and the notice every client gets if any.
  case changed(SceneChangeReply)
  /// The `metrics` exposition: a client gets it as ``MetricsReply``, the HTTP endpoint as it is.
  case metrics(text: String)
  /// `{"type":"error","id":..,"message":".."}`.
  case error(String)
}

/// Encoding and decoding of the line protocol described in docs/protocol.md.
public enum WireProtocol {
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

  /// What the daemon makes of a decoded command: the scene's commands go to ``SceneCommand``, a
  /// pushed scene is parsed and validated here (on the server's event loop, off the pipeline).
  private static func request(of object: CommandObject) throws(ProtocolError) -> ClientRequest {
    let command = try Command.decode(object)
    if let change = SceneCommand(command) { return .scene(change) }
    switch command {
    case .ping: return .ping
    case .status: return .status
    case .metrics: return .metrics
    case .health: return .health
    case .reload: return .reload
    case .subscribe(let subscribe): return .subscribe(Subscription(subscribe))
    case .calibrate(let calibrate): return .calibrate(calibrate)
    case .scene(let push):
      do {
        return .pushScene(try Scene.parseDocument(json: push.scene, name: "scene"))
      } catch {
        throw ProtocolError(error.message(prefix: "scene rejected, the old scene stays: "))
      }
    case .setView, .setWindow, .ignoreInteraction, .update, .announce, .signature:
      preconditionFailure("\(command.name) is the scene's, taken above")
    }
  }

  /// Carries out a pipeline command against the running scene: what the daemon does on its
  /// pipeline queue, and the protocol fuzz target against its own runtime. `status` gives the
  /// status reply's fields, `metrics` the metrics' exposition text; `pushScene` puts a client's
  /// scene in the running one's place (`scene`). `reload` is not carried out here: it reads its
  /// file off the pipeline's queue (`Daemon.reload(reason:done:)`; ``ClientSession`` answers it
  /// in place for the tests and the fuzz target).
  public static func execute(
    _ request: ClientRequest, runtime: SceneRuntime, status: () -> String, metrics: () -> String,
    pushScene: (SceneDocument) -> CommandResult
  ) -> CommandResult {
    switch request {
    case .scene(let command):
      do {
        return .changed(try runtime.apply(command))
      } catch {
        return .error(error.description)
      }
    case .status: return .ok(fieldsJSON: status())
    case .metrics: return .metrics(text: metrics())
    case .health:
      let report = runtime.health?.report(at: runtime.application.clock.now) ?? HealthReply(windows: [])
      return .ok(fieldsJSON: report.fieldsJSON)
    case .reload: return .error("reload is carried out off the pipeline, not by the pipeline's commands")
    case .pushScene(let scene): return pushScene(scene)
    case .ping: return .ok(fieldsJSON: "")
    case .subscribe: return .error("subscribe is answered by the server, not the pipeline")
    case .calibrate: return .error("calibrate is answered when its touches are in, by the daemon")
    }
  }

  /// `{"type":"reply",...}` or `{"type":"error",...}` for a command (``ReplyMessage``).
  public static func reply(idJSON: String, _ result: CommandResult) -> String {
    switch result {
    case .ok(let fields): ReplyMessage.ok(idJSON: idJSON, fieldsJSON: fields).jsonLine
    case .changed(let change): ReplyMessage.ok(idJSON: idJSON, fieldsJSON: change.fieldsJSON).jsonLine
    case .metrics(let text): ReplyMessage.ok(idJSON: idJSON, fieldsJSON: MetricsReply(text: text).fieldsJSON).jsonLine
    case .error(let message): ReplyMessage.error(idJSON: idJSON, message: message).jsonLine
    }
  }
}

/// Why a client's line is not a command; answered with an error reply.
public struct CommandParseError: Error, Sendable {
  public var idJSON: String
  public var message: String
}
