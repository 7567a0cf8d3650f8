import Logging
import NIOCore

#if canImport(Glibc)
  import Glibc
#endif

/// Mirrors `struct ucred` for `SO_PEERCRED` (pid_t, uid_t, gid_t: 12 bytes on Linux).
private struct UCred: Sendable {
  var pid: Int32 = 0
  var uid: UInt32 = 0
  var gid: UInt32 = 0
}

/// One client connection: splits its input into lines, answers commands, and keeps its send
/// buffer bounded. Lives on the server's event loop.
final class ClientHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let core: ServerCore
  private let maximumLineLength: Int
  private var context: ChannelHandlerContext?
  private var input = ByteBuffer()
  private(set) var number = 0
  private(set) var peer: PeerCredentials?
  var subscription = Subscription()
  /// Bytes handed to the channel and not yet written to the socket.
  private var pendingBytes = 0
  /// Messages skipped since the last `gap` message (skip-on-overflow clients).
  private var skipped = 0
  private var closing = false

  init(core: ServerCore, maximumLineLength: Int) {
    self.core = core
    self.maximumLineLength = maximumLineLength
  }

  private var info: ClientInfo { ClientInfo(number: number, peer: peer) }

  func channelActive(context: ChannelHandlerContext) {
    self.context = context
    number = core.register(self)
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
    context.fireChannelActive()
  }

  private func admit(_ peer: PeerCredentials?) {
    self.peer = peer
    if let peer {
      let groups = AccessPolicy.supplementaryGroups(of: peer.uid, primary: peer.gid)
      guard core.configuration.access.allows(peer, supplementaryGroups: groups, daemonUID: core.daemonUID) else {
        core.logger.warning(
          "client denied by the access policy", metadata: ["client": "\(info)"])
        core.counters.denied += 1
        send(#"{"type":"error","id":null,"message":"access denied"}"#)
        _ = closeAfterFlush()
        return
      }
    }
    core.logger.info("client connected", metadata: ["client": "\(info)"])
    send(core.hello)
  }

  func channelInactive(context: ChannelHandlerContext) {
    core.unregister(number)
    core.logger.info("client disconnected", metadata: ["client": "\(info)"])
    self.context = nil
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    var chunk = unwrapInboundIn(data)
    input.writeBuffer(&chunk)
    while let newline = input.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
      let length = newline - input.readerIndex
      let line = input.readString(length: length) ?? ""
      input.moveReaderIndex(forwardBy: 1)
      handleLine(line)
    }
    if input.readableBytes > maximumLineLength {
      send(
        WireProtocol.reply(
          idJSON: "null", .error("line longer than \(maximumLineLength) bytes; closing the connection")))
      core.logger.warning("client sent an over-long line; closing", metadata: ["client": "\(info)"])
      _ = closeAfterFlush()
    }
    input.discardReadBytes()
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    core.logger.debug("client connection error", metadata: ["client": "\(info)", "error": "\(error)"])
    context.close(promise: nil)
  }

  private func handleLine(_ raw: String) {
    let line = raw.hasSuffix("\r") ? Substring(raw.dropLast()) : Substring(raw)
    if line.allSatisfy(\.isWhitespace) { return }
    switch WireProtocol.parseCommand(line) {
    case .failure(let error):
      send(WireProtocol.reply(idJSON: error.idJSON, .error(error.message)))
    case .success(let command):
      handle(command)
    }
  }

  private func handle(_ command: ClientCommand) {
    switch command.name {
    case "ping":
      send(WireProtocol.reply(idJSON: command.idJSON, .ok(fieldsJSON: "")))
    case "subscribe":
      switch Subscription.from(command.fields) {
      case .success(let s):
        subscription = s
        core.subscriptionsChanged()
        send(WireProtocol.reply(idJSON: command.idJSON, .ok(fieldsJSON: s.replyJSON)))
      case .failure(let e):
        send(WireProtocol.reply(idJSON: command.idJSON, .error(e.message)))
      }
    case _ where WireProtocol.pipelineCommands.contains(command.name):
      let loop = context?.eventLoop
      let bound = loop.map { NIOLoopBound(self, eventLoop: $0) }
      core.handler.handle(command, from: info, server: core.counters) { result in
        guard let loop, let bound else { return }
        loop.execute { bound.value.send(WireProtocol.reply(idJSON: command.idJSON, result)) }
      }
    default:
      let known = (["ping", "subscribe"] + WireProtocol.pipelineCommands.sorted()).joined(separator: ", ")
      send(WireProtocol.reply(idJSON: command.idJSON, .error("unknown command '\(command.name)' (known: \(known))")))
    }
  }

  /// Sends a line that must not be dropped (hello, replies, notices).
  func send(_ line: String) {
    write(line)
  }

  /// Sends a published message, subject to the send-buffer bound.
  func sendDroppable(_ line: String) {
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
      context?.close(promise: nil)
      return
    }
    core.counters.messagesSent += 1
    write(line)
  }

  private func write(_ line: String) {
    guard let context, !closing || line.hasPrefix(#"{"type":"shutdown""#) || line.contains(#""access denied""#)
    else { return }
    let size = line.utf8.count + 1
    var buffer = context.channel.allocator.buffer(capacity: size)
    buffer.writeString(line)
    buffer.writeInteger(UInt8(ascii: "\n"))
    pendingBytes += size
    let promise = context.eventLoop.makePromise(of: Void.self)
    promise.futureResult.assumeIsolated().whenComplete { [self] _ in
      pendingBytes -= size
      if skipped > 0, pendingBytes <= core.configuration.sendBufferLimit / 2 {
        let gap = #"{"type":"gap","skipped":\#(skipped)}"#
        skipped = 0
        write(gap)
      }
    }
    context.writeAndFlush(wrapOutboundOut(buffer), promise: promise)
  }

  /// Closes once everything queued is written; the future completes when closed.
  func closeAfterFlush() -> EventLoopFuture<Void> {
    guard let context else { return core.eventLoop.makeSucceededVoidFuture() }
    let channel = context.channel
    closing = true
    let promise = context.eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(capacity: 0))).assumeIsolated().whenComplete { _ in
      channel.close(promise: nil)
    }
    channel.closeFuture.whenComplete { _ in promise.succeed() }
    return promise.futureResult
  }
}
