import Dispatch
import Logging
import NIOCore
import TouchdProtocol
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Mirrors `struct ucred` for `SO_PEERCRED` (pid_t, uid_t, gid_t: 12 bytes on Linux).
private struct UCred: Sendable {
  var pid: Int32 = 0
  var uid: UInt32 = 0
  var gid: UInt32 = 0
}

/// One client connection: splits its input into lines, answers them (``ClientSession``), and
/// keeps what it holds for the client bounded. Lives on the server's event loop.
///
/// # Bounds
/// A line may be ``SocketServer/Configuration/maximumLineLength`` bytes long (without its `\n`);
/// a longer one, complete or still arriving, is refused and the connection closed. Lines are
/// answered one at a time, in order: while a pipeline command is being answered, or while the
/// client leaves more than its send buffer's worth of replies unread, later lines wait and the
/// socket is not read (the client's writes block in its own kernel buffer). So one client has at
/// most one command queued on the pipeline, and its input and replies held here stay bounded.
final class ClientHandler: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let core: ServerCore
  private let maximumLineLength: Int
  private var context: ChannelHandlerContext?
  private var input = ByteBuffer()
  /// The client's number; 0 for a client refused for the client limit (never registered).
  private(set) var number = 0
  private(set) var peer: PeerCredentials?
  private var session = ClientSession()
  /// What the client subscribed to.
  var subscription: Subscription { session.subscription }
  /// Bytes handed to the channel and not yet written to the socket.
  private var pendingBytes = 0
  /// Messages skipped since the last `gap` message (skip-on-overflow clients).
  private var skipped = 0
  private var closing = false
  /// Lines taken from the input so far (the over-long line's error names its number).
  private var lineCount = 0
  /// Complete lines in the input, not taken yet.
  private var waitingLines = 0
  /// Bytes in the input after its last newline: the line still arriving.
  private var partialLength = 0
  /// Whether the peer passed the access policy; lines wait until it did.
  private var admitted = false
  /// A long line is being parsed off the loop, or a pipeline command answered; later lines wait.
  private var awaitingReply = false
  /// The client leaves too many replies unread; later lines wait until half of them are written.
  private var repliesBlocked = false
  /// A read was held back while lines wait; it is passed on once they can go on.
  private var readHeld = false
  /// ``processLines()`` is running (a write's completion may call it again).
  private var processing = false
  /// The first line's and a begun line's deadlines.
  private var deadlines: LineDeadlines

  /// How the client is connected.
  enum Transport {
    /// The Unix socket, with a duplicate of the connection's descriptor for the outlet (closed at
    /// once if refused).
    case unix(outletFD: CInt)
    /// A WebSocket (``WebSocketLineAdapter`` before this handler), described for the log: its
    /// published messages come through the event loop (``publish(_:)``).
    case webSocket(String)
  }

  private let transport: Transport
  /// Where the publisher writes to this client directly, once admitted (Unix socket clients).
  private var outlet: ClientOutlet?
  /// Whether the handler has started (``channelActive(context:)``, or ``handlerAdded(context:)``
  /// on a connection already active: a WebSocket's, added once its handshake is done).
  private var started = false

  init(core: ServerCore, maximumLineLength: Int, transport: Transport) {
    self.core = core
    self.maximumLineLength = maximumLineLength
    self.transport = transport
    deadlines = LineDeadlines(
      first: core.configuration.firstLineTimeout, partial: core.configuration.partialLineTimeout)
  }

  /// Whether the connection is closing (its slot is free already).
  var isClosing: Bool { closing }

  /// Whether the client closed its end though the loop has not read that yet (Unix socket
  /// clients; a WebSocket client's close is read as a frame).
  var peerClosed: Bool { outlet?.peerClosed ?? false }

  /// Closes the connection now, nothing more written (its peer is gone).
  func closeNow() {
    guard !closing else { return }
    closing = true
    stopDirectWrites()
    deadlines.cancel()
    context?.close(promise: nil)
  }

  /// Whose the client is, for the per-user limit: `uid N` for a Unix socket client, `websocket`
  /// for every WebSocket client (whose peer the daemon cannot know); nil until admitted.
  private(set) var user: String?

  /// Whether published messages reach this client through the event loop (``publish(_:)``)
  /// rather than an outlet.
  var publishesThroughLoop: Bool {
    if case .webSocket = transport { return true }
    return false
  }

  private var info: ClientInfo {
    var info = ClientInfo(number: number, peer: peer)
    if case .webSocket(let description) = transport { info.transport = description }
    return info
  }

  /// Whether the next line may be answered now.
  private var canTakeLines: Bool { admitted && !awaitingReply && !repliesBlocked && !closing }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { start(context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    start(context: context)
    context.fireChannelActive()
  }

  private func start(context: ChannelHandlerContext) {
    guard !started else { return }
    started = true
    self.context = context
    // Slots held by clients already gone, whose close the loop has not read yet, are freed first.
    if core.openClientCount >= core.configuration.maximumClients { core.reapClosedClients() }
    guard core.openClientCount < core.configuration.maximumClients else {
      if case .unix(let fd) = transport { SystemCalls.live.close(fd) }
      core.refused()
      send(
        WireProtocol.reply(
          idJSON: "null",
          .error("too many clients: the limit is \(core.configuration.maximumClients) (--max-clients)")))
      _ = closeAfterFlush()
      return
    }
    number = core.register(self)
    deadlines.connected(on: context.eventLoop) { [self] in timedOut($0) }
    guard case .unix(let outletFD) = transport else { return admit(nil) }
    outlet = ClientOutlet(number: number, fd: outletFD, subscription: session.subscription)
    if let provider = context.channel as? SocketOptionProvider {
      let future: EventLoopFuture<UCred> = provider.unsafeGetSocketOption(
        level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
      future.assumeIsolated().whenComplete { [self] result in
        switch result {
        case .success(let cred):
          admit(PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid))
        case .failure(let error):
          core.logger.warning(
            "client refused: peer credentials unavailable", metadata: ["client": "\(number)", "error": "\(error)"])
          core.counters.denied += 1
          context.close(promise: nil)
        }
      }
    } else {
      admit(nil)
    }
  }

  private func admit(_ peer: PeerCredentials?) {
    self.peer = peer
    let access = core.configuration.access
    if let peer {
      // The user database is asked only when a policy needs the groups (a flood of connections
      // under the default open policy costs no lookups on the event loop).
      let groups =
        access.users.isEmpty && access.groups.isEmpty
        ? [] : AccessPolicy.supplementaryGroups(of: peer.uid, primary: peer.gid)
      guard access.allows(peer, supplementaryGroups: groups, daemonUID: core.daemonUID) else {
        core.logger.warning(
          "client denied by the access policy", metadata: ["client": "\(info)"])
        core.counters.denied += 1
        send(ReplyMessage.accessDenied.jsonLine)
        _ = closeAfterFlush()
        return
      }
    }
    let user = peer.map { "uid \($0.uid)" } ?? "websocket"
    let limit = core.configuration.maximumClientsPerUser
    if core.clientCount(ofUser: user, except: number) >= limit { core.reapClosedClients() }
    guard core.clientCount(ofUser: user, except: number) < limit else {
      core.refused(user: user)
      send(
        WireProtocol.reply(
          idJSON: "null",
          .error(
            "too many clients of \(user): the limit is \(limit) per user "
              + "(--max-clients-per-user)")))
      _ = closeAfterFlush()
      return
    }
    self.user = user
    core.logger.info("client connected", metadata: ["client": "\(info)"])
    // Published from now on, the client gets: the outlet is held (``ClientOutlet`` starts with a
    // hop pending), so what is published before `hello` is queued goes through the loop after it.
    if let outlet { core.outlets.add(outlet) }
    send(core.hello)
    outlet?.tookHop()
    admitted = true
    processLines()
  }

  func channelInactive(context: ChannelHandlerContext) {
    // Lines still buffered are not answered: nobody would read the answers.
    closing = true
    stopDirectWrites()
    deadlines.cancel()
    if number != 0 {
      core.unregister(number)
      core.logger.info("client disconnected", metadata: ["client": "\(info)"])
      core.handler.clientDisconnected(info)
    }
    self.context = nil
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var chunk = unwrapInboundIn(data)
    guard !closing else { return }
    // One pass over the new bytes only: how many lines they end, and how long the line still
    // arriving is (so no byte is scanned again while lines wait).
    let (newlines, afterLast) = chunk.withUnsafeReadableBytes { bytes -> (Int, Int?) in
      var count = 0
      var last: Int?
      for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        count += 1
        last = i
      }
      return (count, last.map { bytes.count - $0 - 1 })
    }
    waitingLines += newlines
    partialLength = afterLast ?? partialLength + chunk.readableBytes
    input.writeBuffer(&chunk)
    deadlines.received(
      newlines: newlines, partialLength: partialLength, line: lineCount + waitingLines + 1, on: context.eventLoop
    ) { [self] in timedOut($0) }
    // The line still arriving may not outgrow the limit either.
    guard partialLength <= maximumLineLength else { return refuseLongLine(lineCount + waitingLines + 1) }
    processLines()
  }

  /// Reads from the socket only while lines can be answered.
  func read(context: ChannelHandlerContext) {
    if canTakeLines {
      context.read()
    } else {
      readHeld = true
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    core.logger.debug("client connection error", metadata: ["client": "\(info)", "error": "\(error)"])
    context.close(promise: nil)
  }

  /// Answers the complete lines of the input while it may, then passes on a held read.
  private func processLines() {
    guard !processing else { return }
    processing = true
    defer { processing = false }
    while canTakeLines, waitingLines > 0,
      let newline = input.withUnsafeReadableBytes({ $0.firstIndex(of: UInt8(ascii: "\n")) })
        .map({ input.readerIndex + $0 })
    {
      waitingLines -= 1
      lineCount += 1
      guard newline - input.readerIndex <= maximumLineLength else { return refuseLongLine(lineCount) }
      let line = input.readableBytesView[input.readerIndex..<newline]
      input.moveReaderIndex(to: newline + 1)
      if line.count >= ClientSession.parsedOffLoopBytes, let loop = context?.eventLoop {
        // A long line (a pushed scene) is parsed on the parse queue; this client's later lines
        // wait for it as for a reply, other clients' lines do not.
        awaitingReply = true
        let bytes = Array(line)
        let bound = NIOLoopBound(self, eventLoop: loop)
        core.configuration.parseOffLoop {
          let parsed = ClientSession.parse(bytes)
          loop.execute {
            bound.value.awaitingReply = false
            bound.value.take(parsed)
            bound.value.processLines()
          }
        }
        break
      }
      take(ClientSession.parse(line))
    }
    guard !closing else { return }
    if input.readerIndex > 0 && input.readerIndex >= input.readableBytes { input.discardReadBytes() }
    if readHeld && canTakeLines, let context {
      readHeld = false
      context.read()
    }
  }

  /// Answers a parsed line.
  private func take(_ parsed: ClientSession.Parsed) {
    guard !closing else { return }
    let before = session.subscription
    let subscribedBefore = session.hasSubscribed
    let outcome = session.take(parsed)
    if session.subscription != before {
      outlet?.update(session.subscription)
      if session.subscription.types != before.types || session.subscription.touchesEntries != before.touchesEntries {
        core.subscriptionsChanged()
      }
    }
    handle(outcome)
    if !subscribedBefore && session.hasSubscribed { core.handler.clientSubscribed(info) }
  }

  private func handle(_ outcome: ClientSession.Outcome) {
    switch outcome {
    case .none: break
    case .reply(let line): send(line)
    case .pipeline(let command):
      guard let loop = context?.eventLoop else { return }
      awaitingReply = true
      let bound = NIOLoopBound(self, eventLoop: loop)
      core.handler.handle(command, from: info, server: core.snapshot) { result in
        loop.execute { bound.value.replied(idJSON: command.idJSON, result) }
      }
    }
  }

  /// A pipeline command's result arrived: the reply goes out and the next lines are taken.
  private func replied(idJSON: String, _ result: CommandResult) {
    awaitingReply = false
    send(WireProtocol.reply(idJSON: idJSON, result))
    processLines()
  }

  private func refuseLongLine(_ line: Int) {
    send(
      WireProtocol.reply(
        idJSON: "null",
        .error(
          "line \(line) is longer than the limit of \(maximumLineLength) bytes (--max-line-length); "
            + "closing the connection")))
    core.logger.warning(
      "client sent an over-long line; closing",
      metadata: ["client": "\(info)", "line": "\(line)", "limit.bytes": "\(maximumLineLength)"])
    _ = closeAfterFlush()
  }

  /// A deadline of ``LineDeadlines`` passed: the client is told why, and closed.
  private func timedOut(_ expired: LineDeadlines.Expired) {
    guard !closing else { return }
    let message: String
    switch expired {
    case .firstLine(let timeout):
      message =
        "no complete line in \(Self.seconds(timeout)) s after connecting (send a command, or subscribe to "
        + "listen; --first-line-timeout); closing the connection"
    case .partialLine(let line, let timeout):
      message =
        "line \(line) still incomplete after \(Self.seconds(timeout)) s (--partial-line-timeout); "
        + "closing the connection"
    }
    core.counters.timedOut += 1
    core.logger.warning("client timed out; closing", metadata: ["client": "\(info)", "reason": "\(message)"])
    send(WireProtocol.reply(idJSON: "null", .error(message)))
    _ = closeAfterFlush()
  }

  /// A timeout in seconds as the options give it (`30`, `0.5`).
  static func seconds(_ amount: TimeAmount) -> String {
    JSONFormat.number(amount.seconds)
  }

  /// Sends a line that must not be dropped (hello, replies, notices).
  func send(_ line: String) {
    write(line)
  }

  /// Sends the `gap` a skip-on-overflow client is owed now, instead of once its buffer drains: at
  /// shutdown, so that the messages it lost are counted before the `shutdown` notice.
  func sendOwedGap() {
    guard skipped > 0 else { return }
    let gap = GapMessage(skipped: skipped).jsonLine
    skipped = 0
    write(gap)
  }

  /// Queues the messages of a published batch this client subscribes to (a client without an
  /// outlet: ``publishesThroughLoop``), then flushes once.
  func publish(_ messages: [OutboundMessage]) {
    guard admitted, !closing else { return }
    for message in messages where subscription.accepts(message) { sendDroppable(message.line(for: subscription)) }
    context?.flush()
  }

  /// Queues a published message, subject to the send-buffer bound, without flushing (the caller
  /// flushes once for all of a batch's messages).
  private func sendDroppable(_ line: String) {
    guard !closing else { return }
    if pendingBytes + line.utf8.count + 1 > core.configuration.sendBufferLimit {
      if subscription.skipOnOverflow {
        skipped += 1
        core.counters.messagesSkipped += 1
        return
      }
      core.counters.disconnectedSlow += 1
      core.logger.warning(
        "client disconnected: send buffer full (not reading)",
        metadata: ["client": "\(info)", "buffered.bytes": "\(pendingBytes)"])
      closing = true
      stopDirectWrites()
      context?.close(promise: nil)
      return
    }
    core.counters.messagesSent += 1
    write(line, flush: false)
  }

  /// What the publisher could not write to this client at once: the end of a line it began
  /// (always written: the line must be whole) and the messages after it (bounded as published
  /// messages are), in order.
  func takeDeferred(partial: [UInt8], lines: [String]) {
    if !partial.isEmpty, !closing, let context {
      var buffer = context.channel.allocator.buffer(capacity: partial.count)
      buffer.writeBytes(partial)
      enqueue(buffer, flush: false)
    }
    for line in lines { sendDroppable(line) }
    context?.flush()
  }

  /// The connection is closing: the publisher writes no more to it.
  private func stopDirectWrites() {
    guard let outlet else { return }
    core.outlets.remove(outlet.number)
    outlet.close()
    self.outlet = nil
  }

  private func write(_ line: String, flush: Bool = true) {
    guard let context, !closing || line.hasPrefix(#"{"type":"shutdown""#) || line.contains(#""access denied""#)
    else { return }
    var buffer = context.channel.allocator.buffer(capacity: line.utf8.count + 1)
    buffer.writeString(line)
    buffer.writeInteger(UInt8(ascii: "\n"))
    enqueue(buffer, flush: flush)
  }

  /// Queues bytes on the channel; the outlet counts them until they are written, so that the
  /// publisher does not write between them.
  private func enqueue(_ buffer: ByteBuffer, flush: Bool) {
    guard let context else { return }
    let size = buffer.readableBytes
    pendingBytes += size
    let outlet = self.outlet
    outlet?.loopWillWrite(size)
    let promise = context.eventLoop.makePromise(of: Void.self)
    promise.futureResult.assumeIsolated().whenComplete { [self] _ in
      outlet?.loopWrote(size)
      pendingBytes -= size
      if skipped > 0, pendingBytes <= core.configuration.sendBufferLimit / 2 {
        let gap = GapMessage(skipped: skipped).jsonLine
        skipped = 0
        write(gap)
      }
      if repliesBlocked, pendingBytes <= core.configuration.sendBufferLimit / 2 {
        repliesBlocked = false
        processLines()
      }
    }
    if flush {
      context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
    } else {
      context.write(wrapOutboundOut(buffer), promise: promise)
    }
    if pendingBytes > core.configuration.sendBufferLimit { repliesBlocked = true }
  }

  /// Closes once everything queued is written; the future completes when closed.
  func closeAfterFlush() -> EventLoopFuture<Void> {
    guard let context else { return core.eventLoop.makeSucceededVoidFuture() }
    let channel = context.channel
    closing = true
    stopDirectWrites()
    let promise = context.eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).assumeIsolated().whenComplete { _ in
      channel.close(promise: nil)
    }
    channel.closeFuture.whenComplete { _ in promise.succeed() }
    return promise.futureResult
  }
}
