import Foundation
import NIOCore
import NIOPosix

/// A client of touchd's socket (docs/protocol.md): the daemon's messages as typed values, each
/// command an `async` method that returns its reply or throws the daemon's error, and a connection
/// that comes back by itself, saying what was missed.
///
/// ```swift
/// let client = TouchdClient()
/// try await client.connect()
/// try await client.subscribe(types: [.action])
/// for try await event in client.messages {
///   if case .message(.action(let action)) = event { print(action.action, action.view) }
/// }
/// ```
///
/// The client connects on the first ``connect(timeout:)``, command or iteration of
/// ``messages``, and keeps a task that reads the socket until ``close()``. Commands may be sent
/// from any task while another iterates the messages.
///
/// **Reconnection** (``ReconnectPolicy``): when the connection closes or cannot be made, the client
/// tries again with backoff. Once connected again it sends its last successful `subscribe` again
/// and yields ``TouchdEvent/reconnected(_:)``; pipeline messages that arrive before that
/// subscription's reply came under the daemon's default filter and are dropped. When the daemon is
/// the same run, ``TouchdEvent/missed(_:)`` then comes just before the first message that carries
/// a `seq`. Commands waiting for their answer when the connection drops throw
/// ``TouchdError/connectionLost`` (they are never sent again); commands issued while disconnected
/// wait for the next connection, up to their timeout.
///
/// **Flow control**: the client keeps up to `bufferLimit` events that nobody has taken from
/// ``messages``; beyond that it stops reading the socket (unless a command waits for its answer),
/// so a client that does not keep up is handled by the daemon as any slow client: disconnected, or,
/// subscribed with overflow `skip`, told by a ``TouchdMessage/gap(_:)`` how many it lost.
public actor TouchdClient {
  /// The socket's path.
  public nonisolated let socketPath: String
  /// When and how to connect again.
  public nonisolated let reconnectPolicy: ReconnectPolicy
  /// How long a command waits for its answer (and for a connection to send it on); nil: for ever.
  public nonisolated let commandTimeout: Duration?
  /// The most events kept for ``messages`` before the client stops reading the socket.
  public nonisolated let bufferLimit: Int
  /// How long a new connection may take to send its hello before it counts as a failed attempt.
  nonisolated let helloTimeout: Duration = .seconds(5)

  /// The path of the daemon's socket by default: `$TOUCHD_SOCKET`, else `/run/touchd/touchd.sock`.
  public static var defaultSocketPath: String {
    if let path = ProcessInfo.processInfo.environment["TOUCHD_SOCKET"], !path.isEmpty { return path }
    return "/run/touchd/touchd.sock"
  }

  /// A client of the daemon at `socketPath` (default ``defaultSocketPath``). Nothing happens until
  /// ``connect(timeout:)``, a command or iterating ``messages``.
  public init(
    socketPath: String? = nil, reconnect: ReconnectPolicy = .default, commandTimeout: Duration? = .seconds(30),
    bufferLimit: Int = 4096
  ) {
    self.socketPath = socketPath ?? Self.defaultSocketPath
    self.reconnectPolicy = reconnect
    self.commandTimeout = commandTimeout
    self.bufferLimit = max(1, bufferLimit)
  }

  // MARK: State

  enum Phase {
    /// No connection (not started, between attempts, or reading no more).
    case disconnected
    /// Connected; the hello comes next.
    case awaitingHello
    /// The hello came; the last subscription was sent again and its reply is awaited.
    case resubscribing
    /// Commands may be sent.
    case ready
  }

  struct Pending {
    var cmd: String
    var fields: [String: TouchdJSON]
    /// Nil for the client's own commands (the subscription sent again) and for abandoned ones.
    var continuation: CheckedContinuation<Reply, any Error>?
    var isInternal: Bool
    var timer: Task<Void, Never>?
  }

  var phase = Phase.disconnected
  private var runTask: Task<Void, Never>?
  var isClosed = false
  /// Why the client reads no more: set once, by ``close()`` or a failure without reconnection.
  var endError: TouchdError?
  var endDelivered = false

  /// The current connection's channel.
  var channel: (any Channel)?
  var connectionNumber = 0
  /// The current connection is being closed by the client (``dropConnection()``, hello timeout).
  var closing = false
  /// Failed attempts since the last hello (lost connections count one).
  var failures = 0
  var attemptsSinceHello = 0

  var nextID = 1
  var pending: [Int: Pending] = [:]
  let decoder = JSONDecoder()

  /// The daemon's hello on the current (or last) connection.
  public internal(set) var hello: Hello?
  /// The fields of the last successful `subscribe`, sent again after a reconnection.
  public internal(set) var subscription: [String: TouchdJSON]?
  /// The last `seq` seen.
  public internal(set) var lastSeq: Int?
  /// Whether the subscription passes every message that carries `seq` (the missed count is exact).
  var subscriptionIsEverything = false
  var resubscribeID: Int?
  var pendingReconnected: Reconnected?
  /// The instance `lastSeq` belongs to.
  var seqInstance: String?
  /// After a reconnection to the same instance: the last `seq` before it, until the next one comes.
  var missedFrom: Int?

  var events = CircularBuffer<TouchdEvent>()
  var eventWaiters: [(id: Int, continuation: CheckedContinuation<TouchdEvent?, any Error>)] = []
  var readyWaiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>, timer: Task<Void, Never>?)] =
    []
  var nextWaiterID = 0
  /// The reader, paused while the events fill the buffer.
  var roomWaiter: CheckedContinuation<Void, Never>?

  /// Whether commands can be sent now.
  public var isConnected: Bool { phase == .ready || phase == .resubscribing }

  // MARK: Life

  /// Connects (trying again with backoff under the reconnect policy) and returns the daemon's
  /// hello; at once if already connected. Throws ``TouchdError/timeout`` after `timeout` (nil: no
  /// limit), and without reconnection the connection's error.
  @discardableResult
  public func connect(timeout: Duration? = nil) async throws -> Hello {
    try await waitUntilConnected(deadline: timeout.map { .now + $0 })
    return hello!
  }

  /// Closes the connection and stops reconnecting: waiting commands throw ``TouchdError/closed``,
  /// the messages end after those already received.
  public func close() async {
    guard !isClosed else { return }
    isClosed = true
    channel?.close(promise: nil)
    roomWaiter?.resume()
    roomWaiter = nil
    let task = runTask
    task?.cancel()
    await task?.value
    finish(.closed)
  }

  /// Closes the current connection as if the daemon had: reconnection, the subscription sent
  /// again and the missed count follow. For tests.
  package func dropConnection() {
    guard let channel else { return }
    closing = true
    channel.close(promise: nil)
    roomWaiter?.resume()
    roomWaiter = nil
  }

  func start() {
    guard runTask == nil, !isClosed else { return }
    runTask = Task { await self.run() }
  }

  func waitUntilConnected(deadline: ContinuousClock.Instant?) async throws {
    if isClosed { throw TouchdError.closed }
    start()
    while !isConnected {
      if let endError { throw endError }
      let id = nextWaiterID
      nextWaiterID += 1
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
          if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
          let timer = deadline.map { deadline in
            Task {
              try? await Task.sleep(until: deadline)
              if !Task.isCancelled { failReadyWaiter(id, TouchdError.timeout) }
            }
          }
          readyWaiters.append((id, continuation, timer))
        }
      } onCancel: {
        Task { await self.failReadyWaiter(id, CancellationError()) }
      }
    }
  }

  private func failReadyWaiter(_ id: Int, _ error: any Error) {
    guard let i = readyWaiters.firstIndex(where: { $0.id == id }) else { return }
    let waiter = readyWaiters.remove(at: i)
    waiter.timer?.cancel()
    waiter.continuation.resume(throwing: error)
  }

  /// Ends the client: no more connections; waiters fail, the messages end after the buffered ones.
  func finish(_ error: TouchdError) {
    if endError == nil { endError = error }
    phase = .disconnected
    failPending(with: endError!)
    for waiter in readyWaiters {
      waiter.timer?.cancel()
      waiter.continuation.resume(throwing: endError!)
    }
    readyWaiters.removeAll()
    for waiter in eventWaiters {
      if endDelivered || endError == .closed {
        waiter.continuation.resume(returning: nil)
      } else {
        endDelivered = true
        waiter.continuation.resume(throwing: endError!)
      }
    }
    eventWaiters.removeAll()
  }
}
