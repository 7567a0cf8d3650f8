import Dispatch
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TouchdScene
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A connected client, as the rest of the daemon sees it.
public struct ClientInfo: Sendable, CustomStringConvertible {
  /// A number unique for the life of the daemon.
  public var number: Int
  public var peer: PeerCredentials?
  /// How a client other than the Unix socket's is connected (`websocket 127.0.0.1:41234, origin …`).
  public var transport: String?
  public var description: String {
    "client \(number)" + ((peer.map { "\($0)" } ?? transport).map { " (\($0))" } ?? "")
  }
}

/// Server counters reported by `status`.
public struct ServerCounters: Sendable, Equatable {
  public var clients = 0
  public var accepted = 0
  public var denied = 0
  /// Clients turned away because ``SocketServer/Configuration/maximumClients`` were connected.
  public var refused = 0
  /// Clients turned away because ``SocketServer/Configuration/maximumClientsPerUser`` of their
  /// user were connected.
  public var refusedPerUser = 0
  /// Clients closed for sending no complete line in time, or for stopping mid-line
  /// (``SocketServer/Configuration/firstLineTimeout``, ``SocketServer/Configuration/partialLineTimeout``).
  public var timedOut = 0
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
/// The server runs on its own single-threaded NIO event loop, and accepts on a queue of its own.
/// ``publish(_:kernelTime:)`` writes straight to each client's socket from the caller's thread
/// (``ClientOutlet``), falling back to the event loop for a client that would block;
/// ``setHello(_:notice:)`` and ``shutdown(notice:timeout:)`` hand work to the loop. None of them
/// blocks on a client. Each client has a bounded send buffer (``Configuration/sendBufferLimit``);
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
    public var maximumLineLength = Configuration.defaultMaximumLineLength
    /// 2 MiB + 64 KiB: a `scene` command with the largest scene (``Scene/maximumFileBytes``, 2 MiB)
    /// and 64 KiB for the rest of the line. The WebSocket endpoint's largest frame is the same.
    public static let defaultMaximumLineLength = Scene.maximumFileBytes + 64 * 1024
    /// Runs the parse of a line of ``ClientSession/parsedOffLoopBytes`` or more (a pushed scene)
    /// off the event loop that serves every client: by default on ``parseQueue``, one at a time.
    /// A test may hold the work to see what goes on meanwhile.
    public var parseOffLoop: @Sendable (@escaping @Sendable () -> Void) -> Void = {
      SocketServer.Configuration.parseQueue.async(execute: $0)
    }
    /// The server's queue for long lines: neither the event loop nor the pipeline's queue.
    public static let parseQueue = DispatchQueue(label: "touchd.parse")
    /// Clients connected at once; one more gets `too many clients` and is closed.
    public var maximumClients = 128
    /// Clients of one user (the peer's uid; WebSocket clients, whose peer is unknown, count as one
    /// user) connected at once; one more gets `too many clients of user U` and is closed, so one
    /// user's leaked or hostile connections cannot take every slot.
    public var maximumClientsPerUser = Configuration.defaultMaximumClientsPerUser
    /// 16: 128 clients shared out as dbus-daemon shares them, whose defaults
    /// (bus/config-parser.c: max_completed_connections 2048, max_connections_per_user 256) let no
    /// fewer than eight users together fill every slot.
    public static let defaultMaximumClientsPerUser = 16
    /// How long a client may stay connected without sending a complete line (a `subscribe`, any
    /// command); then it gets an error and is closed.
    public var firstLineTimeout = Configuration.defaultFirstLineTimeout
    /// 30 s: dbus-daemon's `auth_timeout` (bus/config-parser.c), the time a connection may take
    /// before it has said who it is.
    public static let defaultFirstLineTimeout = TimeAmount.seconds(30)
    /// How long a line may stay incomplete (bytes without their newline); then the client gets an
    /// error and is closed.
    public var partialLineTimeout = Configuration.defaultPartialLineTimeout
    /// 10 s: the longest line (``defaultMaximumLineLength``, 2 MiB + 64 KiB) takes under 2 s at
    /// 10 Mbit/s (a local socket takes milliseconds), so a line still incomplete after 10 s is a
    /// client that stopped mid-line; one on a link slower than 2 Mbit/s raises it.
    public static let defaultPartialLineTimeout = TimeAmount.seconds(10)
    /// The WebSocket endpoint, if any: its clients count in the same limit.
    public var webSocket: WebSocketConfiguration?
    /// Where the metrics' HTTP endpoint listens (``MetricsEndpoint``), if it does.
    public var metrics: MetricsEndpoint.Listen?

    public init(path: String) { self.path = path }
  }

  private let group: MultiThreadedEventLoopGroup
  /// The settings the server runs with.
  public let configuration: Configuration
  private let core: NIOLoopBound<ServerCore>
  private let acceptQueue = DispatchQueue(label: "touchd.accept")
  /// The read source that accepts on the listening socket (and closes it when cancelled).
  private let acceptSource: AcceptSource
  /// The admitted clients' outlets, which ``publish(_:kernelTime:)`` writes to directly.
  private let outlets: OutletRegistry
  /// Live frames, kernel time → handed to every subscriber's socket; recorded by whichever thread
  /// finished the handoff.
  private let handed: NIOLockedValueBox<LatencyWindow>
  /// Messages the publisher wrote directly (the event loop counts its own).
  private let directSent: NIOLockedValueBox<Int>
  /// The publisher's write buffer, reused from frame to frame.
  private let publishBuffer = NIOLockedValueBox<[UInt8]>([])
  /// Admitted clients without an outlet (WebSocket clients): published messages reach them
  /// through the event loop.
  private let loopClients: NIOLockedValueBox<Int>
  /// The WebSocket endpoint's listening channel.
  private let webSocketListener: Channel?
  /// Where the WebSocket endpoint listens (`host:port`), if it does.
  public let webSocketAddress: String?
  /// The metrics' HTTP endpoint's listening channel.
  private let metricsListener: Channel?
  /// Where the metrics' HTTP endpoint listens (`host:port`), if it does.
  public let metricsAddress: String?
  /// The event loop everything of the server runs on.
  public var eventLoop: EventLoop { group.next() }

  /// Binds (or adopts the inherited socket) and starts accepting clients.
  ///
  /// touchd accepts connections itself and hands each to NIO (`ClientBootstrap.withConnectedSocket`)
  /// keeping a duplicate of its descriptor: the publisher writes frames' messages through it
  /// without a hop to the event loop (``ClientOutlet``).
  public init(configuration: Configuration, handler: CommandHandler, logger: Logger) throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let outlets = OutletRegistry()
    let handed = NIOLockedValueBox(LatencyWindow())
    let directSent = NIOLockedValueBox(0)
    let loopClients = NIOLockedValueBox(0)
    let core = try loop.submit {
      NIOLoopBound(
        ServerCore(
          configuration: configuration, handler: handler, logger: logger, eventLoop: loop, outlets: outlets,
          handed: handed, directSent: directSent, loopClients: loopClients),
        eventLoop: loop)
    }.wait()
    let listener: CInt
    var webSocketListener: Channel?
    var metricsListener: Channel?
    do {
      if let webSocket = configuration.webSocket {
        webSocketListener = try WebSocketEndpoint.start(
          webSocket, group: group, core: core, maximumMessageLength: configuration.maximumLineLength,
          sendBufferBytes: configuration.sendBufferLimit, logger: logger)
      }
      if let metrics = configuration.metrics {
        metricsListener = try MetricsEndpoint.start(metrics, group: group, core: core, logger: logger)
      }
      listener = try configuration.inheritedDescriptor.map { try Self.adopt($0) } ?? Self.listen(configuration)
    } catch {
      try? webSocketListener?.close().wait()
      try? metricsListener?.close().wait()
      try? group.syncShutdownGracefully()
      throw error
    }
    let source = AcceptSource(DispatchSource.makeReadSource(fileDescriptor: listener, queue: acceptQueue))
    let acceptQueue = self.acceptQueue
    source.source.setEventHandler {
      Self.acceptAll(listener, group: group, core: core, source: source, queue: acceptQueue, logger: logger)
    }
    source.source.setCancelHandler { SystemCalls.live.close(listener) }
    source.source.activate()
    self.group = group
    self.core = core
    self.configuration = configuration
    self.acceptSource = source
    self.outlets = outlets
    self.handed = handed
    self.directSent = directSent
    self.loopClients = loopClients
    self.webSocketListener = webSocketListener
    self.webSocketAddress = webSocketListener?.localAddress.map(WebSocketEndpoint.describe)
    self.metricsListener = metricsListener
    self.metricsAddress = metricsListener?.localAddress.map(WebSocketEndpoint.describe)
  }

  /// A listening socket at the configured path, created with the final mode at once: no window in
  /// which it is wider. A socket file left at the path is replaced; any other file is an error.
  private static func listen(_ configuration: Configuration) throws -> CInt {
    let system = SystemCalls.live
    let path = configuration.path
    guard let address = UnixSocketAddress(path), !path.hasPrefix("@") else {
      throw IOError(errnoCode: ENAMETOOLONG, reason: "socket path \(path)")
    }
    if let existing = try? system.lstat(path) {
      guard existing.st_mode & S_IFMT == S_IFSOCK else {
        throw IOError(errnoCode: EEXIST, reason: "\(path) exists and is not a socket")
      }
      try? system.unlink(path)
    }
    let fd = try ioError("socket") { () throws(SystemCallError) in
      try system.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue))
    }
    do {
      try setFlags(fd)
      let old = system.umask(0o777 & ~configuration.mode)
      let bound = address.withSockaddr { address, length in
        Result { () throws(SystemCallError) in try system.bind(fd, address, length) }
      }
      _ = system.umask(old)
      try ioError("bind \(path)") { () throws(SystemCallError) in try bound.get() }
      try ioError("listen \(path)") { () throws(SystemCallError) in try system.listen(fd, backlog: 256) }
      if let gid = configuration.group {
        try ioError("chown \(path)") { () throws(SystemCallError) in
          try system.chown(path, user: uid_t.max, group: gid)
        }
      }
      return fd
    } catch {
      system.close(fd)
      throw error
    }
  }

  /// `body`'s value; its error as SwiftNIO's `IOError` with `reason`, as the server reports it.
  private static func ioError<T>(_ reason: @autoclosure () -> String, _ body: () throws(SystemCallError) -> T)
    throws(IOError) -> T
  {
    do {
      return try body()
    } catch {
      throw IOError(errnoCode: error.errno.code, reason: reason())
    }
  }

  /// A listening socket passed by systemd.
  private static func adopt(_ fd: CInt) throws -> CInt {
    try setFlags(fd, foreign: true)
    return fd
  }

  /// Non-blocking and close-on-exec. `foreign`: systemd passed `fd` (a closed one is its error).
  private static func setFlags(_ fd: CInt, foreign: Bool = false) throws {
    let system = SystemCalls.live
    try ioError("fcntl") { () throws(SystemCallError) in
      let flags = try system.fcntl(fd, F_GETFL, foreign: foreign)
      _ = try system.fcntl(fd, F_SETFL, flags | O_NONBLOCK, foreign: foreign)
      _ = try system.fcntl(fd, F_SETFD, FD_CLOEXEC, foreign: foreign)
    }
  }

  /// Accepts every waiting connection and hands each to NIO with a duplicate kept for its outlet.
  /// Out of descriptors, it stops accepting for 100 ms (the connections wait in the backlog)
  /// instead of waking again at once for the same readable socket.
  private static func acceptAll(
    _ listener: CInt, group: MultiThreadedEventLoopGroup, core: NIOLoopBound<ServerCore>, source: AcceptSource,
    queue: DispatchQueue, logger: Logger
  ) {
    let system = SystemCalls.live
    while true {
      let fd: CInt
      do {
        switch try system.accept(listener) {
        case .processed(let accepted): fd = accepted
        case .wouldBlock: return  // all accepted
        }
      } catch {
        switch error.errno.code {
        case ECONNABORTED: continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          logger.warning("cannot accept a client: out of descriptors or memory; pausing 100 ms")
          source.source.suspend()
          queue.asyncAfter(deadline: .now() + .milliseconds(100)) { source.source.resume() }
          return
        default: return
        }
      }
      let duplicate = (try? system.fcntl(fd, F_DUPFD_CLOEXEC, 0)) ?? -1
      guard duplicate >= 0, (try? setFlags(fd)) != nil else {
        system.close(fd)
        if duplicate >= 0 { system.close(duplicate) }
        continue
      }
      let bootstrap = ClientBootstrap(group: group).channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let handler = ClientHandler(
            core: core.value, maximumLineLength: core.value.configuration.maximumLineLength,
            transport: .unix(outletFD: duplicate))
          try channel.pipeline.syncOperations.addHandler(handler)
        }
      }
      // Waits until the event loop has taken the connection (its handler added, the client
      // counted), as NIO's own accept on the loop would: the loop's pace bounds the accept rate,
      // so connections that were closed at once cannot pile up faster than it sees them go.
      do {
        _ = try bootstrap.withConnectedSocket(fd).wait()
      } catch {
        system.close(fd)
        system.close(duplicate)
      }
    }
  }

  /// Hands a message to every subscribed client. Returns at once, never blocks.
  public func publish(_ message: OutboundMessage) {
    publish([message], kernelTime: nil)
  }

  /// Hands one frame's messages to every subscribed client, in order; returns at once, never
  /// blocks. Each client's share is written straight to its socket when nothing is queued for it
  /// on the event loop and the socket takes it; the rest (a slow reader's) goes through the event
  /// loop in one hop, where the send-buffer bound applies. `kernelTime` (CLOCK_MONOTONIC µs), when
  /// given, is the frame's: the time the messages were handed to the sockets is recorded against it.
  public func publish(_ messages: [OutboundMessage], kernelTime: Int64?) {
    var deferred: [(outlet: ClientOutlet, partial: [UInt8], lines: [String])] = []
    var sent = 0
    publishBuffer.withLockedValue { buffer in
      for outlet in outlets.current {
        switch outlet.write(messages, into: &buffer) {
        case .done(let lines): sent += lines
        case .deferred(let lines, let partial, let rest):
          sent += lines
          deferred.append((outlet, partial, rest))
        case .closed: break
        }
      }
    }
    if sent > 0 { directSent.withLockedValue { $0 += sent } }
    let throughLoop = loopClients.withLockedValue { $0 } > 0
    if deferred.isEmpty && !throughLoop {
      if let kernelTime { handed.withLockedValue { $0.record(MonotonicClock.microseconds() - kernelTime) } }
      return
    }
    let core = self.core
    let taken = deferred
    core.eventLoop.execute {
      core.value.takeDeferred(taken)
      if throughLoop { core.value.publishThroughLoop(messages) }
      if let kernelTime { core.value.handed.withLockedValue { $0.record(MonotonicClock.microseconds() - kernelTime) } }
    }
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
    return (try? core.eventLoop.submit { core.value.snapshot }.wait()) ?? ServerCounters()
  }

  /// Sends `notice` (e.g. a shutdown message) to every client, waits until their buffers are
  /// written or `timeout` passes, closes everything and removes the socket file (unless it was
  /// passed by systemd, which owns it).
  public func shutdown(notice: String?, timeout: TimeAmount = .seconds(1)) {
    let core = self.core
    // No new clients: the source is cancelled (its cancel handler closes the socket) on its queue,
    // and the WebSocket endpoint stops listening.
    acceptQueue.sync { acceptSource.source.cancel() }
    try? webSocketListener?.close().wait()
    try? metricsListener?.close().wait()
    let done = core.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
      core.value.closeAll(notice: notice, timeout: timeout)
    }
    _ = try? done.wait()
    try? group.syncShutdownGracefully()
    if configuration.inheritedDescriptor == nil { try? SystemCalls.live.unlink(configuration.path) }
  }
}

/// The server's state; lives on the event loop.
final class ServerCore {
  let configuration: SocketServer.Configuration
  let handler: CommandHandler
  let logger: Logger
  var hello = HelloMessage.placeholder.jsonLine
  var clients: [Int: ClientHandler] = [:]
  var nextNumber = 1
  var counters = ServerCounters()
  /// The union of the clients' subscribed types, as last reported to the handler.
  var subscribedTypes: Set<String> = []
  /// The union of the touches entries asked for by clients subscribed to touches, as last reported.
  var touchesEntries: TouchesMessage.Entries = []
  let daemonUID = getuid()
  let eventLoop: EventLoop
  /// The admitted clients' outlets (shared with the publisher).
  let outlets: OutletRegistry
  /// The handoff latency of live frames (shared with the publisher).
  let handed: NIOLockedValueBox<LatencyWindow>
  /// Messages the publisher wrote directly (shared with it).
  let directSent: NIOLockedValueBox<Int>
  /// Registered clients the publisher reaches through the loop (shared with it).
  let loopClients: NIOLockedValueBox<Int>
  /// When refusals were last logged, and how many came since.
  private var refusalLogged: NIODeadline?
  private var refusalsSinceLog = 0

  init(
    configuration: SocketServer.Configuration, handler: CommandHandler, logger: Logger, eventLoop: EventLoop,
    outlets: OutletRegistry, handed: NIOLockedValueBox<LatencyWindow>, directSent: NIOLockedValueBox<Int>,
    loopClients: NIOLockedValueBox<Int>
  ) {
    self.loopClients = loopClients
    self.eventLoop = eventLoop
    self.outlets = outlets
    self.handed = handed
    self.directSent = directSent
    self.configuration = configuration
    self.handler = handler
    self.logger = logger
  }

  /// The counters as `status` reports them: the loop's, with what the publisher wrote directly
  /// and the handoff latency.
  var snapshot: ServerCounters {
    var snapshot = counters
    snapshot.messagesSent += directSent.withLockedValue { $0 }
    snapshot.handedLatency = handed.withLockedValue { $0 }
    return snapshot
  }

  func register(_ client: ClientHandler) -> Int {
    let n = nextNumber
    nextNumber += 1
    clients[n] = client
    if client.publishesThroughLoop { loopClients.withLockedValue { $0 += 1 } }
    counters.accepted += 1
    counters.clients = clients.count
    subscriptionsChanged()
    return n
  }

  /// Counts a client refused for the client limit (`user` nil) or its user's limit; logs at most
  /// one warning every 10 s, with the number refused since the last one (a client flood must not
  /// flood the journal).
  func refused(user: String? = nil) {
    if user != nil { counters.refusedPerUser += 1 } else { counters.refused += 1 }
    refusalsSinceLog += 1
    let now = NIODeadline.now()
    if let last = refusalLogged, now - last < .seconds(10) { return }
    if let user {
      logger.warning(
        "client refused: too many clients of one user",
        metadata: [
          "user": "\(user)", "limit": "\(configuration.maximumClientsPerUser)", "refused": "\(refusalsSinceLog)",
          "refused.total": "\(counters.refused + counters.refusedPerUser)",
        ])
    } else {
      logger.warning(
        "client refused: too many clients",
        metadata: [
          "limit": "\(configuration.maximumClients)", "refused": "\(refusalsSinceLog)",
          "refused.total": "\(counters.refused + counters.refusedPerUser)",
        ])
    }
    refusalLogged = now
    refusalsSinceLog = 0
  }

  /// The clients registered and not closing.
  var openClientCount: Int { clients.values.reduce(0) { $0 + ($1.isClosing ? 0 : 1) } }

  /// Closes the clients that closed their end while the loop has not read it yet: their slots are
  /// free at once for the client being admitted.
  func reapClosedClients() {
    for client in clients.values where !client.isClosing && client.peerClosed { client.closeNow() }
  }

  /// The clients registered for `user` (``ClientHandler/user``) and not closing, `except` one.
  func clientCount(ofUser user: String, except number: Int) -> Int {
    clients.reduce(0) { $0 + ($1.key != number && !$1.value.isClosing && $1.value.user == user ? 1 : 0) }
  }

  func unregister(_ number: Int) {
    if let client = clients.removeValue(forKey: number), client.publishesThroughLoop {
      loopClients.withLockedValue { $0 -= 1 }
    }
    counters.clients = clients.count
    subscriptionsChanged()
  }

  /// Tells the handler when the union of the clients' subscribed types changes.
  func subscriptionsChanged() {
    let types = clients.values.reduce(into: Set<String>()) { $0.formUnion($1.subscription.types) }
    let entries = clients.values.reduce(into: TouchesMessage.Entries()) { entries, client in
      if client.subscription.types.contains("touches") { entries.formUnion(client.subscription.touchesEntries) }
    }
    if entries != touchesEntries {
      touchesEntries = entries
      handler.touchesEntriesChanged(entries)
    }
    guard types != subscribedTypes else { return }
    subscribedTypes = types
    handler.subscribedTypesChanged(types)
  }

  /// What the publisher could not write at once, in order, per client (see ``ClientOutlet``).
  func takeDeferred(_ deferred: [(outlet: ClientOutlet, partial: [UInt8], lines: [String])]) {
    for (outlet, partial, lines) in deferred {
      clients[outlet.number]?.takeDeferred(partial: partial, lines: lines)
      outlet.tookHop()
    }
  }

  /// A published batch, for the clients without an outlet (``ClientHandler/publishesThroughLoop``).
  func publishThroughLoop(_ messages: [OutboundMessage]) {
    for client in clients.values where client.publishesThroughLoop { client.publish(messages) }
  }

  func broadcast(_ line: String) {
    for client in clients.values { client.send(line) }
  }

  func closeAll(notice: String?, timeout: TimeAmount) -> EventLoopFuture<Void> {
    let loop = eventLoop
    let closes = clients.values.map { client -> EventLoopFuture<Void> in
      client.sendOwedGap()
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

/// The accept source: touched only on the server's accept queue (its handlers, and `shutdown`
/// through `acceptQueue.sync`), which is what makes sharing it sound.
final class AcceptSource: @unchecked Sendable {
  let source: DispatchSourceRead
  init(_ source: DispatchSourceRead) { self.source = source }
}
