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

  private enum Phase {
    /// No connection (not started, between attempts, or reading no more).
    case disconnected
    /// Connected; the hello comes next.
    case awaitingHello
    /// The hello came; the last subscription was sent again and its reply is awaited.
    case resubscribing
    /// Commands may be sent.
    case ready
  }

  private struct Pending {
    var cmd: String
    var fields: [String: TouchdJSON]
    /// Nil for the client's own commands (the subscription sent again) and for abandoned ones.
    var continuation: CheckedContinuation<Reply, any Error>?
    var isInternal: Bool
    var timer: Task<Void, Never>?
  }

  private var phase = Phase.disconnected
  private var runTask: Task<Void, Never>?
  private var isClosed = false
  /// Why the client reads no more: set once, by ``close()`` or a failure without reconnection.
  private var endError: TouchdError?
  private var endDelivered = false

  /// The current connection's channel.
  private var channel: (any Channel)?
  private var connectionNumber = 0
  /// The current connection is being closed by the client (``dropConnection()``, hello timeout).
  private var closing = false
  /// Failed attempts since the last hello (lost connections count one).
  private var failures = 0
  private var attemptsSinceHello = 0

  private var nextID = 1
  private var pending: [Int: Pending] = [:]
  private let decoder = JSONDecoder()

  /// The daemon's hello on the current (or last) connection.
  public private(set) var hello: Hello?
  /// The fields of the last successful `subscribe`, sent again after a reconnection.
  public private(set) var subscription: [String: TouchdJSON]?
  /// The last `seq` seen.
  public private(set) var lastSeq: Int?
  /// Whether the subscription passes every message that carries `seq` (the missed count is exact).
  private var subscriptionIsEverything = false
  private var resubscribeID: Int?
  private var pendingReconnected: Reconnected?
  /// The instance `lastSeq` belongs to.
  private var seqInstance: String?
  /// After a reconnection to the same instance: the last `seq` before it, until the next one comes.
  private var missedFrom: Int?

  private var events = CircularBuffer<TouchdEvent>()
  private var eventWaiters: [(id: Int, continuation: CheckedContinuation<TouchdEvent?, any Error>)] = []
  private var readyWaiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>, timer: Task<Void, Never>?)] =
    []
  private var nextWaiterID = 0
  /// The reader, paused while the events fill the buffer.
  private var roomWaiter: CheckedContinuation<Void, Never>?

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

  private func start() {
    guard runTask == nil, !isClosed else { return }
    runTask = Task { await self.run() }
  }

  private func waitUntilConnected(deadline: ContinuousClock.Instant?) async throws {
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
  private func finish(_ error: TouchdError) {
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

  // MARK: The connection loop

  private func run() async {
    while !isClosed {
      let delay = reconnectPolicy.delay(afterFailures: failures)
      if delay > .zero {
        do { try await Task.sleep(for: delay) } catch { break }
      }
      if isClosed { break }
      let connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>
      do {
        connection = try await open()
      } catch {
        failures += 1
        attemptsSinceHello += 1
        if !reconnectPolicy.isEnabled {
          finish(.cannotConnect(path: socketPath, reason: "\(error)"))
          return
        }
        continue
      }
      if isClosed {
        connection.channel.close(promise: nil)
        break
      }
      let refusal = await serve(connection)
      if let refusal, !refusal.retry || !reconnectPolicy.isEnabled {
        finish(.daemon(message: refusal.message))
        return
      }
      if !reconnectPolicy.isEnabled {
        finish(.connectionLost)
        return
      }
    }
    finish(.closed)
  }

  private func open() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connectTimeout(.seconds(5))
      .connect(unixDomainSocketPath: socketPath) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
          return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
  }

  private struct Refusal {
    var message: String
    var retry: Bool
  }

  /// Reads one connection until it closes; the daemon's refusal, if it refused.
  private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async -> Refusal? {
    connectionNumber += 1
    let number = connectionNumber
    channel = connection.channel
    closing = false
    phase = .awaitingHello
    attemptsSinceHello += 1
    let helloTimer = Task { [helloTimeout] in
      try? await Task.sleep(for: helloTimeout)
      if !Task.isCancelled { helloTimedOut(number) }
    }
    var refusal: Refusal?
    do {
      try await connection.executeThenClose { inbound, _ in
        for try await line in inbound {
          refusal = receive(line)
          if refusal != nil || closing { break }
          await waitForRoom()
          if closing || isClosed { break }
        }
      }
    } catch {
      // The connection failed (reset, or a line too long): as closed.
    }
    helloTimer.cancel()
    channel = nil
    connectionLost()
    return refusal
  }

  private func helloTimedOut(_ number: Int) {
    guard number == connectionNumber, phase == .awaitingHello else { return }
    closing = true
    channel?.close(promise: nil)
  }

  /// The connection closed: the commands in flight throw ``TouchdError/connectionLost`` (or
  /// ``TouchdError/closed``, when ``close()`` closed it).
  private func connectionLost() {
    let hadHello = isConnected
    failPending(with: isClosed ? .closed : .connectionLost)
    resubscribeID = nil
    pendingReconnected = nil
    phase = .disconnected
    failures = hadHello ? 1 : failures + 1
  }

  private func failPending(with error: TouchdError) {
    let failed = pending
    pending.removeAll()
    for (_, command) in failed.sorted(by: { $0.key < $1.key }) {
      command.timer?.cancel()
      command.continuation?.resume(throwing: error)
    }
  }

  /// Pauses the reader while the buffer is full and no command waits for its answer.
  private func waitForRoom() async {
    while events.count >= bufferLimit, !hasWaitingCommand, !closing, !isClosed {
      await withCheckedContinuation { roomWaiter = $0 }
    }
  }

  private var hasWaitingCommand: Bool { pending.values.contains { $0.continuation != nil } }

  private func wakeReader() {
    roomWaiter?.resume()
    roomWaiter = nil
  }

  // MARK: Lines

  private func receive(_ line: ByteBuffer) -> Refusal? {
    guard let message = Self.parse(Data(line.readableBytesView), decoder: decoder) else { return nil }
    if phase == .awaitingHello { return beforeHello(message) }
    switch message {
    case .reply(let reply): answer(id: reply.id, with: .success(reply), message: message)
    case .error(let error): answer(id: error.id, with: .failure(error.message), message: message)
    default: publish(message)
    }
    return nil
  }

  /// The message of one line; nil for an empty line or one that is not a JSON object. A known type
  /// this version cannot read (a field missing or of another kind) is unknown, with its fields.
  static func parse(_ line: Data, decoder: JSONDecoder) -> TouchdMessage? {
    if let message = try? decoder.decode(TouchdMessage.self, from: line) { return message }
    guard var fields = try? decoder.decode([String: TouchdJSON].self, from: line) else { return nil }
    let type = fields.removeValue(forKey: "type")?.stringValue ?? ""
    return .unknown(type: type, fields: fields)
  }

  private func publish(_ message: TouchdMessage) {
    let seq = message.seq
    if phase == .resubscribing, seq != nil || message.type == "trace" {
      // Published under the default filter before the subscription is back: dropped, and
      // counted by the Missed event that follows.
      return
    }
    if let seq {
      if let last = missedFrom {
        missedFrom = nil
        deliver(
          .missed(Missed(count: max(0, seq - last - 1), lastSeq: last, seq: seq, exact: subscriptionIsEverything)))
      }
      lastSeq = seq
      seqInstance = hello?.instance
    }
    deliver(.message(message))
  }

  private func beforeHello(_ message: TouchdMessage) -> Refusal? {
    guard case .hello(let greeting) = message else {
      if case .error(let error) = message {
        // Access denied or too many clients: the daemon closes the connection.
        return Refusal(message: error.message, retry: error.message.contains("too many clients"))
      }
      // Not touchd, or not this protocol: as a failed attempt.
      closing = true
      channel?.close(promise: nil)
      return nil
    }
    let previous = hello
    hello = greeting
    failures = 0
    let attempts = attemptsSinceHello
    attemptsSinceHello = 0
    guard let previous else {
      seqInstance = greeting.instance
      becomeReady()
      return nil
    }
    let restarted = greeting.instance == nil || greeting.instance != previous.instance
    if restarted {
      lastSeq = nil
      missedFrom = nil
    } else if let lastSeq, seqInstance == greeting.instance {
      missedFrom = lastSeq
    }
    seqInstance = greeting.instance
    pendingReconnected = Reconnected(
      restarted: restarted, hello: greeting, previousInstance: previous.instance,
      lastSeq: restarted ? nil : lastSeq, attempts: attempts, resubscribeError: nil)
    if let subscription {
      let id = nextID
      nextID += 1
      pending[id] = Pending(cmd: "subscribe", fields: subscription, continuation: nil, isInternal: true)
      resubscribeID = id
      // The fields were sent once already: they encode.
      write(Self.line("subscribe", id: id, encodedFields: (try? Self.encode(subscription)) ?? ""))
      phase = .resubscribing
      releaseReadyWaiters()
    } else {
      becomeReady()
      deliverReconnected(error: nil)
    }
    return nil
  }

  private func becomeReady() {
    phase = .ready
    releaseReadyWaiters()
  }

  private func releaseReadyWaiters() {
    let waiters = readyWaiters
    readyWaiters.removeAll()
    for waiter in waiters {
      waiter.timer?.cancel()
      waiter.continuation.resume()
    }
  }

  private func deliverReconnected(error: String?) {
    guard var event = pendingReconnected else { return }
    pendingReconnected = nil
    event.resubscribeError = error
    deliver(.reconnected(event))
  }

  private enum Outcome {
    case success(Reply)
    case failure(String)
  }

  private func answer(id: TouchdJSON, with outcome: Outcome, message: TouchdMessage) {
    var key = id.intValue
    if case .failure = outcome, id == .null, !pending.isEmpty {
      // An error the daemon could not tie to a line's id answers the oldest command waiting.
      key = pending.keys.min()
    }
    guard let key, let command = pending.removeValue(forKey: key) else {
      deliver(.message(message))
      return
    }
    command.timer?.cancel()
    if command.cmd == "subscribe", case .success(let reply) = outcome {
      subscription = command.fields
      subscriptionIsEverything = Self.passesEverything(reply)
    }
    if command.isInternal {
      if key == resubscribeID {
        resubscribeID = nil
        phase = .ready
        if case .failure(let text) = outcome {
          subscriptionIsEverything = false
          deliverReconnected(error: text)
        } else {
          deliverReconnected(error: nil)
        }
      }
      return
    }
    switch outcome {
    case .success(let reply): command.continuation?.resume(returning: reply)
    case .failure(let text): command.continuation?.resume(throwing: TouchdError.daemon(message: text))
    }
  }

  /// Whether a subscribe reply's effective filter passes every message that carries `seq`.
  private static func passesEverything(_ reply: Reply) -> Bool {
    let types = Set(reply["types"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    func unfiltered(_ key: String) -> Bool {
      guard let value = reply[key], !value.isNull else { return true }
      return value.arrayValue?.isEmpty == true
    }
    return MessageType.pipeline.allSatisfy { types.contains($0.rawValue) } && unfiltered("actions")
      && unfiltered("views")
  }

  // MARK: Events

  private func deliver(_ event: TouchdEvent) {
    if !eventWaiters.isEmpty {
      eventWaiters.removeFirst().continuation.resume(returning: event)
    } else {
      events.append(event)
    }
  }

  /// The next event; nil once the client is closed (after the events already received), or the
  /// error that ended it once (without reconnection).
  func nextEvent() async throws -> TouchdEvent? {
    if !events.isEmpty {
      let event = events.removeFirst()
      if events.count < bufferLimit { wakeReader() }
      return event
    }
    if let endError {
      if endDelivered || endError == .closed { return nil }
      endDelivered = true
      throw endError
    }
    start()
    let id = nextWaiterID
    nextWaiterID += 1
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TouchdEvent?, any Error>) in
        if Task.isCancelled { return continuation.resume(returning: nil) }
        eventWaiters.append((id, continuation))
      }
    } onCancel: {
      Task { await self.cancelEventWaiter(id) }
    }
  }

  private func cancelEventWaiter(_ id: Int) {
    guard let i = eventWaiters.firstIndex(where: { $0.id == id }) else { return }
    eventWaiters.remove(at: i).continuation.resume(returning: nil)
  }

  // MARK: Commands

  /// Sends `cmd` with `fields` and returns the reply, waiting at most `timeout` (nil: for ever)
  /// for a connection and the answer.
  func request(_ cmd: String, _ fields: [String: TouchdJSON], timeout: Duration?) async throws -> Reply {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    let encodedFields = try Self.encode(fields)  // fails before anything is sent
    try await waitUntilConnected(deadline: deadline)
    let id = nextID
    nextID += 1
    let text = Self.line(cmd, id: id, encodedFields: encodedFields)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Reply, any Error>) in
        if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
        guard isConnected else { return continuation.resume(throwing: TouchdError.connectionLost) }
        var command = Pending(cmd: cmd, fields: fields, continuation: continuation, isInternal: false)
        if let deadline {
          command.timer = Task {
            try? await Task.sleep(until: deadline)
            if !Task.isCancelled { abandon(id, TouchdError.timeout) }
          }
        }
        pending[id] = command
        write(text)
        wakeReader()
      }
    } onCancel: {
      Task { await self.abandon(id, CancellationError()) }
    }
  }

  /// The caller of command `id` stopped waiting: it throws `error`, its answer will be dropped.
  private func abandon(_ id: Int, _ error: any Error) {
    guard var command = pending[id], let continuation = command.continuation else { return }
    command.continuation = nil
    command.timer?.cancel()
    command.timer = nil
    pending[id] = command
    continuation.resume(throwing: error)
  }

  private func write(_ line: String) {
    channel?.writeAndFlush(ByteBuffer(string: line), promise: nil)
  }

  /// The fields of a command as JSON members, each after a comma: `,"view":"door","hidden":true`.
  static func encode(_ fields: [String: TouchdJSON]) throws -> String {
    var out = ""
    for key in fields.keys.sorted() where key != "cmd" && key != "id" {
      out += ","
      TouchdJSON.quote(key, to: &out)
      out += ":"
      try fields[key]!.write(to: &out)
    }
    return out
  }

  /// One command line: `{"cmd":…,"id":…,…}` and a newline.
  static func line(_ cmd: String, id: Int, encodedFields: String) -> String {
    var out = "{\"cmd\":"
    TouchdJSON.quote(cmd, to: &out)
    return out + ",\"id\":\(id)" + encodedFields + "}\n"
  }
}

extension TouchdClient {
  /// The daemon's messages and the client's events, in order, for as long as the client lives:
  /// through reconnections, until ``TouchdClient/close()`` (then it ends after the events already
  /// received) or, without reconnection, the end of the connection (then it throws
  /// ``TouchdError/connectionLost``). Each event goes to one iterator: iterate from one task.
  public struct Messages: AsyncSequence, Sendable {
    public typealias Element = TouchdEvent
    public typealias Failure = any Error
    let client: TouchdClient

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(client: client) }

    /// Takes the client's events one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
      let client: TouchdClient
      public mutating func next() async throws -> TouchdEvent? { try await client.nextEvent() }
    }
  }

  /// The daemon's messages and the client's own events (``TouchdEvent``); iterating starts the
  /// connection.
  public nonisolated var messages: Messages { Messages(client: self) }
}
