import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#endif

/// Answers the commands the server cannot answer itself (`set`, `ignoreInteraction`, `reload`,
/// `status`). Called on the server's event loop; implementations hop to the pipeline queue and call
/// `reply` from any thread, exactly once.
public protocol CommandHandler: AnyObject, Sendable {
  /// `server` is the server's counters at the time of the command (for `status`).
  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void)

  /// The message types at least one client subscribes to changed (a `subscribe`, a client
  /// connecting or going away). Called on the server's event loop, in order; implementations hop
  /// to the pipeline queue. The daemon traces while `types` contains `trace`.
  func subscribedTypesChanged(_ types: Set<String>)
}

extension CommandHandler {
  /// Does nothing: a handler that produces every type whoever subscribes.
  public func subscribedTypesChanged(_ types: Set<String>) {}
}

/// A connected client, as the rest of the daemon sees it.
public struct ClientInfo: Sendable, CustomStringConvertible {
  /// A number unique for the life of the daemon.
  public var number: Int
  public var peer: PeerCredentials?
  public var description: String {
    "client \(number)" + (peer.map { " (\($0))" } ?? "")
  }
}

/// Server counters reported by `status`.
public struct ServerCounters: Sendable, Equatable {
  public var clients = 0
  public var accepted = 0
  public var denied = 0
  /// Clients turned away because ``SocketServer/Configuration/maximumClients`` were connected.
  public var refused = 0
  public var disconnectedSlow = 0
  public var messagesSent = 0
  public var messagesSkipped = 0
  /// Live frames, kernel timestamp → their messages handed to every subscribed client's socket
  /// (written, or queued for a client that cannot take them now).
  public var handedLatency = LatencyWindow()
}

/// The Unix-socket server: one JSON object per line both ways (docs/protocol.md).
///
/// # Threads
/// The server runs on its own single-threaded NIO event loop. ``publish(_:)``, ``setHello(_:)`` and
/// ``shutdown(notice:)`` may be called from any thread and never block: the pipeline hands a
/// message over and goes on. Each client has a bounded send buffer (``Configuration/sendBufferLimit``);
/// a client that does not read fills it and is disconnected (or, if it subscribed with
/// `"overflow":"skip"`, loses messages and later gets a `gap` message saying how many).
public final class SocketServer: Sendable {
  /// Server settings.
  public struct Configuration: Sendable {
    /// Where to listen, unless `inheritedDescriptor` is set.
    public var path: String
    /// A listening socket passed by systemd (socket activation); the path is then only reported.
    public var inheritedDescriptor: CInt?
    /// File mode of the socket file the server creates.
    public var mode: mode_t = 0o660
    /// Group of the socket file the server creates (nil: the daemon's group).
    public var group: gid_t?
    public var access = AccessPolicy()
    /// Bytes a client may have queued and unread before it counts as stalled.
    public var sendBufferLimit = 256 * 1024
    /// The longest command line accepted, in bytes without its newline; a longer line is
    /// refused and its connection closed.
    public var maximumLineLength = 64 * 1024
    /// Clients connected at once; one more gets `too many clients` and is closed.
    public var maximumClients = 128

    public init(path: String) { self.path = path }
  }

  private let group: MultiThreadedEventLoopGroup
  /// The settings the server runs with.
  public let configuration: Configuration
  private let core: NIOLoopBound<ServerCore>
  private let channel: Channel
  /// The event loop everything of the server runs on.
  public var eventLoop: EventLoop { group.next() }

  /// Binds (or adopts the inherited socket) and starts accepting clients.
  public init(configuration: Configuration, handler: CommandHandler, logger: Logger) throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let core = try loop.submit {
      NIOLoopBound(
        ServerCore(configuration: configuration, handler: handler, logger: logger, eventLoop: loop), eventLoop: loop)
    }.wait()
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let handler = ClientHandler(core: core.value, maximumLineLength: configuration.maximumLineLength)
          try channel.pipeline.syncOperations.addHandler(handler)
        }
      }
    do {
      if let fd = configuration.inheritedDescriptor {
        channel = try bootstrap.withBoundSocket(fd).wait()
      } else {
        // Create the socket file with the final mode at once: no window in which it is wider.
        let old = umask(0o777 & ~configuration.mode)
        defer { umask(old) }
        channel = try bootstrap.bind(unixDomainSocketPath: configuration.path, cleanupExistingSocketFile: true).wait()
        if let gid = configuration.group, chown(configuration.path, uid_t.max, gid) != 0 {
          throw IOError(errnoCode: errno, reason: "chown \(configuration.path)")
        }
      }
    } catch {
      try? group.syncShutdownGracefully()
      throw error
    }
    self.group = group
    self.core = core
    self.configuration = configuration
  }

  /// Hands a message to every subscribed client. Returns at once.
  public func publish(_ message: OutboundMessage) {
    let core = self.core
    core.eventLoop.execute { core.value.publish([message], kernelTime: nil) }
  }

  /// Hands one frame's messages to every subscribed client, in order, with one flush per client.
  /// `kernelTime` (CLOCK_MONOTONIC µs), when given, is the frame's: the time they were handed to
  /// the sockets is recorded against it. Returns at once.
  public func publish(_ messages: [OutboundMessage], kernelTime: Int64?) {
    let core = self.core
    core.eventLoop.execute { core.value.publish(messages, kernelTime: kernelTime) }
  }

  /// Sets the `hello` line sent to each new client (after a scene reload, for example), and
  /// optionally sends `notice` to every connected client.
  public func setHello(_ line: String, notice: String? = nil) {
    let core = self.core
    core.eventLoop.execute {
      core.value.hello = line
      if let notice { core.value.broadcast(notice) }
    }
  }

  /// The current counters.
  public func counters() -> ServerCounters {
    let core = self.core
    return (try? core.eventLoop.submit { core.value.counters }.wait()) ?? ServerCounters()
  }

  /// Sends `notice` (e.g. a shutdown message) to every client, waits until their buffers are
  /// written or `timeout` passes, closes everything and removes the socket file (unless it was
  /// passed by systemd, which owns it).
  public func shutdown(notice: String?, timeout: TimeAmount = .seconds(1)) {
    let core = self.core
    let channel = self.channel
    let done = core.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
      core.value.closeAll(notice: notice, timeout: timeout)
    }
    _ = try? done.wait()
    _ = try? channel.close().wait()
    try? group.syncShutdownGracefully()
    if configuration.inheritedDescriptor == nil { unlink(configuration.path) }
  }
}

/// The server's state; lives on the event loop.
final class ServerCore {
  let configuration: SocketServer.Configuration
  let handler: CommandHandler
  let logger: Logger
  var hello = #"{"type":"hello","version":1,"windows":[],"views":0}"#
  var clients: [Int: ClientHandler] = [:]
  var nextNumber = 1
  var counters = ServerCounters()
  /// The union of the clients' subscribed types, as last reported to the handler.
  var subscribedTypes: Set<String> = []
  let daemonUID = getuid()
  let eventLoop: EventLoop
  /// When refusals were last logged, and how many came since.
  private var refusalLogged: NIODeadline?
  private var refusalsSinceLog = 0

  init(configuration: SocketServer.Configuration, handler: CommandHandler, logger: Logger, eventLoop: EventLoop) {
    self.eventLoop = eventLoop
    self.configuration = configuration
    self.handler = handler
    self.logger = logger
  }

  func register(_ client: ClientHandler) -> Int {
    let n = nextNumber
    nextNumber += 1
    clients[n] = client
    counters.accepted += 1
    counters.clients = clients.count
    subscriptionsChanged()
    return n
  }

  /// Counts a client refused for the client limit; logs at most one warning every 10 s, with the
  /// number refused since the last one (a client flood must not flood the journal).
  func refused() {
    counters.refused += 1
    refusalsSinceLog += 1
    let now = NIODeadline.now()
    if let last = refusalLogged, now - last < .seconds(10) { return }
    logger.warning(
      "client refused: too many clients",
      metadata: [
        "limit": "\(configuration.maximumClients)", "refused": "\(refusalsSinceLog)",
        "refused.total": "\(counters.refused)",
      ])
    refusalLogged = now
    refusalsSinceLog = 0
  }

  func unregister(_ number: Int) {
    clients[number] = nil
    counters.clients = clients.count
    subscriptionsChanged()
  }

  /// Tells the handler when the union of the clients' subscribed types changes.
  func subscriptionsChanged() {
    let types = clients.values.reduce(into: Set<String>()) { $0.formUnion($1.subscription.types) }
    guard types != subscribedTypes else { return }
    subscribedTypes = types
    handler.subscribedTypesChanged(types)
  }

  func publish(_ messages: [OutboundMessage], kernelTime: Int64?) {
    for client in clients.values {
      var wrote = false
      for message in messages where client.subscription.accepts(message) {
        wrote = client.sendDroppable(message.line, flush: false) || wrote
      }
      if wrote { client.flush() }
    }
    if let kernelTime { counters.handedLatency.record(MonotonicClock.microseconds() - kernelTime) }
  }

  func broadcast(_ line: String) {
    for client in clients.values { client.send(line) }
  }

  func closeAll(notice: String?, timeout: TimeAmount) -> EventLoopFuture<Void> {
    let loop = eventLoop
    let closes = clients.values.map { client -> EventLoopFuture<Void> in
      if let notice { client.send(notice) }
      return client.closeAfterFlush()
    }
    let all = EventLoopFuture.andAllComplete(closes, on: loop)
    let deadline = loop.scheduleTask(in: timeout) {}
    return all.or(deadline.futureResult)
  }
}

extension EventLoopFuture where Value == Void {
  /// Completes when either future completes.
  fileprivate func or(_ other: EventLoopFuture<Void>) -> EventLoopFuture<Void> {
    let promise = eventLoop.makePromise(of: Void.self)
    whenComplete { _ in promise.succeed() }
    other.whenComplete { _ in promise.succeed() }
    return promise.futureResult
  }
}
