import NIOCore
import NIOWebSocket

/// Turns a WebSocket connection into the line protocol the ``ClientHandler`` behind it speaks:
/// each text message in is one command line, each line out is one text message (docs/protocol.md,
/// "WebSocket"). Lives on the server's event loop, between NIO's frame codec (and its fragment
/// aggregator) and the client's handler.
///
/// It answers the protocol's control frames itself (ping with pong, close with close) and refuses
/// what the line protocol has no place for, each time with an `error` message first, as the Unix
/// socket refuses a bad line, then a close frame with the status of RFC 6455 §7.4.1:
/// - a binary message: 1003 (unsupported data); commands are JSON text;
/// - a message longer than the line limit (`--max-line-length`): 1009 (message too big);
/// - a broken frame (a fragmented or over-long control frame, a stray continuation): 1002;
/// - a page whose `Origin` is not allowed (``refusal``): 1008 (policy violation), before any
///   command is read.
final class WebSocketLineAdapter: ChannelDuplexHandler {
  typealias InboundIn = WebSocketFrame
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = WebSocketFrame

  /// Why the connection is refused before it starts: the error message sent, then the close.
  struct Refusal {
    var message: String
    var code: WebSocketErrorCode
  }

  private let maximumMessageLength: Int
  private let refusal: Refusal?
  /// Text messages received so far (an over-long one's error names its number, as a line's does).
  private var messages = 0
  /// The status the close frame carries when the connection closes.
  private var closeCode = WebSocketErrorCode.normalClosure
  private var closeSent = false
  /// The last frame written, which an empty write (``ClientHandler/closeAfterFlush()``) waits for.
  private var lastWrite: EventLoopFuture<Void>?

  init(maximumMessageLength: Int, refusal: Refusal? = nil) {
    self.maximumMessageLength = maximumMessageLength
    self.refusal = refusal
  }

  func handlerAdded(context: ChannelHandlerContext) {
    guard let refusal else { return }
    refuse(context: context, message: refusal.message, code: refusal.code)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    guard !closeSent else { return }
    switch frame.opcode {
    case .text:
      messages += 1
      var payload = frame.unmaskedData
      // A message is one command even when it spans lines (pretty-printed JSON): its line breaks
      // become spaces, which JSON reads as the same whitespace.
      var line = context.channel.allocator.buffer(capacity: payload.readableBytes + 1)
      payload.withUnsafeReadableBytes { bytes in
        for byte in bytes {
          line.writeInteger(byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") ? UInt8(ascii: " ") : byte)
        }
      }
      payload.clear()
      line.writeInteger(UInt8(ascii: "\n"))
      context.fireChannelRead(wrapInboundOut(line))
    case .binary:
      messages += 1
      refuse(
        context: context,
        message: "message \(messages) is binary: commands are JSON text messages; closing the connection",
        code: .unacceptableData)
    case .ping:
      var pong = frame.unmaskedData
      let data = pong.readSlice(length: pong.readableBytes) ?? ByteBuffer()
      send(context: context, WebSocketFrame(fin: true, opcode: .pong, data: data), flush: true)
    case .connectionClose:
      // The peer's close is answered with its own status (RFC 6455 §5.5.1), and the connection ends.
      var data = frame.unmaskedData
      closeCode = data.readWebSocketErrorCode() ?? .normalClosure
      close(context: context, mode: .all, promise: nil)
    default:
      break  // pong, and what the aggregator already turned into whole messages
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: Error) {
    switch error {
    case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
      refuse(
        context: context,
        message: "message \(messages + 1) is longer than the limit of \(maximumMessageLength) bytes "
          + "(--max-line-length); closing the connection",
        code: .messageTooLarge)
    case let error as NIOWebSocketError:
      refuse(
        context: context, message: "broken WebSocket frame (\(error)); closing the connection", code: .protocolError)
    case let error as NIOWebSocketFrameAggregator.Error:
      refuse(
        context: context, message: "broken WebSocket message (\(error)); closing the connection", code: .protocolError)
    default:
      context.fireErrorCaught(error)
    }
  }

  /// Sends one error message and closes with `code`; later frames are not read.
  private func refuse(context: ChannelHandlerContext, message: String, code: WebSocketErrorCode) {
    guard !closeSent else { return }
    send(context: context, text: WireProtocol.reply(idJSON: "null", .error(message)), flush: true)
    closeCode = code
    close(context: context, mode: .all, promise: nil)
  }

  /// Lines from the client's handler: each becomes a text message. An empty write (the handler's
  /// "everything queued is out" marker) completes when the last message does.
  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let buffer = unwrapOutboundIn(data)
    var lines = buffer.readableBytesView.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    guard !lines.isEmpty, !closeSent else {
      if let promise {
        if let lastWrite { lastWrite.cascade(to: promise) } else { promise.succeed() }
      }
      return
    }
    let last = lines.removeLast()
    for line in lines { send(context: context, text: line, flush: false, promise: nil) }
    send(context: context, text: last, flush: false, promise: promise)
  }

  func flush(context: ChannelHandlerContext) {
    context.flush()
  }

  /// Closes with a close frame first (once), after the frames before it are written.
  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    guard mode == .all, !closeSent else { return context.close(mode: mode, promise: promise) }
    closeSent = true
    var data = context.channel.allocator.buffer(capacity: 2)
    data.write(webSocketErrorCode: closeCode)
    let written = context.eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(
      wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: written)
    written.futureResult.assumeIsolated().whenComplete { _ in context.close(mode: mode, promise: promise) }
  }

  private func send<Bytes: Collection<UInt8>>(
    context: ChannelHandlerContext, text: Bytes, flush: Bool, promise: EventLoopPromise<Void>? = nil
  ) {
    var data = context.channel.allocator.buffer(capacity: text.count)
    data.writeBytes(text)
    send(context: context, WebSocketFrame(fin: true, opcode: .text, data: data), flush: flush, promise: promise)
  }

  private func send(
    context: ChannelHandlerContext, text: String, flush: Bool, promise: EventLoopPromise<Void>? = nil
  ) {
    send(context: context, text: Array(text.utf8), flush: flush, promise: promise)
  }

  private func send(
    context: ChannelHandlerContext, _ frame: WebSocketFrame, flush: Bool, promise: EventLoopPromise<Void>? = nil
  ) {
    let written = promise ?? context.eventLoop.makePromise(of: Void.self)
    lastWrite = written.futureResult
    if flush {
      context.writeAndFlush(wrapOutboundOut(frame), promise: written)
    } else {
      context.write(wrapOutboundOut(frame), promise: written)
    }
  }
}
