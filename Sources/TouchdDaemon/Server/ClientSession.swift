import TouchdScene

/// One client's end of the line protocol, without I/O or threads: a line in, what to answer out.
///
/// The server's ``ClientHandler`` runs it on the event loop for each line of a connection (a line
/// of ``parsedOffLoopBytes`` or more is parsed off the loop first) and hands
/// pipeline commands to the daemon, which carries them out with ``WireProtocol/execute(_:runtime:status:metrics:pushScene:)``
/// on its queue. ``respond(to:runtime:status:metrics:reload:pushScene:)`` does both at once, synchronously: the
/// protocol fuzz target (Fuzz/Sources/FuzzProtocol) and the unit tests drive the same code that way.
public struct ClientSession: Sendable {
  /// What the client subscribed to (`subscribe` replaces it).
  public var subscription = Subscription()
  /// Whether the client has sent a `subscribe` that was accepted.
  public private(set) var hasSubscribed = false

  public init() {}

  /// What to do with a line.
  public enum Outcome: Sendable {
    /// A blank line: no answer.
    case none
    /// The server's answer, a reply or an error line: a bad line, `ping`, `subscribe`.
    case reply(String)
    /// A command for the daemon's pipeline (`set`, `ignoreInteraction`, `reload`, `scene`, `status`,
    /// `calibrate`).
    case pipeline(ClientCommand)
  }

  /// Lines at least this long are parsed off the server's event loop
  /// (``SocketServer/Configuration/parseOffLoop``), so that a pushed scene of thousands of views (1.3 MB for 10,000 rows, tens of milliseconds
  /// to parse) does not hold up other clients; shorter lines take microseconds and are parsed as
  /// they are taken. 64 KiB: a `scene` of about 400 views (a choice, not a measured crossover).
  public static let parsedOffLoopBytes = 64 * 1024

  /// A line parsed (``parse(_:)``), not yet taken (``take(_:)``).
  public enum Parsed: Sendable {
    /// A blank line.
    case blank
    case command(Result<ClientCommand, CommandParseError>)
  }

  /// Takes one line, without its `\n` (a `\r` before it is dropped; a line of spaces and tabs is
  /// ignored). `subscribe` changes ``subscription``. The same as ``take(_:)`` of ``parse(_:)``.
  public mutating func receive<Line: BidirectionalCollection<UInt8>>(_ line: Line) -> Outcome {
    take(Self.parse(line))
  }

  /// Parses one line, without its `\n` (a `\r` before it is dropped; a line of spaces and tabs is
  /// blank): the part of ``receive(_:)`` that needs no session, run on any thread.
  public static func parse<Line: BidirectionalCollection<UInt8>>(_ line: Line) -> Parsed {
    let text = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
    if text.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
      return .blank
    }
    return .command(WireProtocol.parseCommand(text))
  }

  /// Takes a parsed line: the answer, and `subscribe`'s change of ``subscription``.
  public mutating func take(_ parsed: Parsed) -> Outcome {
    guard case .command(let result) = parsed else { return .none }
    switch result {
    case .failure(let error):
      return .reply(WireProtocol.reply(idJSON: error.idJSON, .error(error.message)))
    case .success(let command):
      switch command.request {
      case .ping:
        return .reply(WireProtocol.reply(idJSON: command.idJSON, .ok(fieldsJSON: "")))
      case .subscribe(let subscription):
        self.subscription = subscription
        hasSubscribed = true
        return .reply(WireProtocol.reply(idJSON: command.idJSON, .ok(fieldsJSON: subscription.replyJSON)))
      case .status, .metrics, .health, .reload, .pushScene, .scene, .calibrate:
        return .pipeline(command)
      }
    }
  }

  /// Takes one line and answers it at once, pipeline commands included (against `runtime`, with
  /// `status`, `metrics`, `reload` and `pushScene` standing in for the daemon's): the reply line,
  /// nil for a blank line.
  public mutating func respond<Line: BidirectionalCollection<UInt8>>(
    to line: Line, runtime: SceneRuntime, status: () -> String, metrics: () -> String,
    reload: () -> CommandResult, pushScene: (SceneDocument) -> CommandResult
  ) -> String? {
    switch receive(line) {
    case .none: return nil
    case .reply(let reply): return reply
    case .pipeline(let command):
      if case .reload = command.request { return WireProtocol.reply(idJSON: command.idJSON, reload()) }
      let result = WireProtocol.execute(
        command.request, runtime: runtime, status: status, metrics: metrics, pushScene: pushScene)
      return WireProtocol.reply(idJSON: command.idJSON, result)
    }
  }
}
