import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

#if canImport(Glibc)
  import Glibc
#endif

/// Where and for whom the WebSocket endpoint listens (`touchd --websocket`, or a listening socket
/// from systemd's `touchd-websocket.socket`). Off unless configured.
public struct WebSocketConfiguration: Sendable, Equatable {
  /// The host to bind, a name or an address (`127.0.0.1`, `::1`, `localhost`); unused with
  /// ``inheritedDescriptor``.
  public var host: String
  /// The TCP port; 0 picks a free one (the log and `status` name it).
  public var port: Int
  /// A listening TCP socket passed by systemd (socket activation).
  public var inheritedDescriptor: CInt?
  /// The pages allowed in (`--websocket-origin`).
  public var origins = OriginPolicy()
  /// Whether an address other than loopback may be listened on (`--websocket-allow-remote`).
  public var allowRemote = false

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// The listening socket systemd passed.
  public init(inheritedDescriptor: CInt) {
    self.init(host: "", port: 0)
    self.inheritedDescriptor = inheritedDescriptor
  }

  /// Reads `HOST:PORT`, with an IPv6 address in brackets (`[::1]:8765`).
  public static func parse(_ text: String) -> (host: String, port: Int)? {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (0...65535).contains(port)
    else { return nil }
    var host = text[..<colon]
    if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
    guard !host.isEmpty, !host.contains(where: { $0 == "[" || $0 == "]" || $0 == " " || $0 == "/" }) else {
      return nil
    }
    return (String(host), port)
  }

  /// Whether `address` is a loopback address (127.0.0.0/8, ::1, or IPv4-mapped 127.x).
  static func isLoopback(_ address: SocketAddress) -> Bool {
    guard let ip = address.ipAddress else { return false }
    return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
  }
}

/// A TCP endpoint (the WebSocket's, the metrics') that cannot start: its description names the
/// option or socket and why.
public struct EndpointError: Error, CustomStringConvertible {
  public var description: String
}

/// The WebSocket endpoint: HTTP/1.1 upgrade to WebSocket (RFC 6455) on SwiftNIO's own handlers,
/// then the same protocol as the Unix socket, one JSON message per text message
/// (``WebSocketLineAdapter``), with a ``ClientHandler`` per connection on the server's event loop:
/// the same commands, replies, filters, send-buffer bound and client limit.
enum WebSocketEndpoint {
  /// Seconds a connection may take to finish its handshake before it is closed.
  static let handshakeTimeout = TimeAmount.seconds(10)

  /// Binds (or adopts the inherited socket) and starts accepting, on the server's event loop.
  /// Refuses an address other than loopback unless ``WebSocketConfiguration/allowRemote``.
  ///
  /// A connection's kernel send buffer is fixed at `sendBufferBytes` (`--client-buffer`), as a
  /// Unix socket's is small: TCP's autotuning would otherwise let a page that stopped reading park
  /// up to `tcp_wmem`'s maximum (4 MiB) in the kernel before the client's own bound applies.
  static func start(
    _ configuration: WebSocketConfiguration, group: EventLoopGroup, core: NIOLoopBound<ServerCore>,
    maximumMessageLength: Int, sendBufferBytes: Int, logger: Logger
  ) throws -> Channel {
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(sendBufferBytes))
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try configurePipeline(
            channel, configuration: configuration, core: core, maximumMessageLength: maximumMessageLength)
        }
      }
    let channel: Channel
    if let fd = configuration.inheritedDescriptor {
      channel = try bootstrap.withBoundSocket(fd).wait()
    } else {
      do {
        channel = try bootstrap.bind(host: configuration.host, port: configuration.port).wait()
      } catch {
        throw EndpointError(
          description: "--websocket \(configuration.host):\(configuration.port): cannot listen: \(error)")
      }
    }
    guard let address = channel.localAddress else {
      channel.close(promise: nil)
      throw EndpointError(description: "the WebSocket socket has no local address")
    }
    if !configuration.allowRemote && !WebSocketConfiguration.isLoopback(address) {
      try? channel.close().wait()
      throw EndpointError(
        description: "the WebSocket endpoint \(describe(address)) is not a loopback address: pass "
          + "--websocket-allow-remote to listen there (and allow its network in the unit's IPAddressAllow=)")
    }
    logger.info(
      "WebSocket endpoint listening",
      metadata: [
        "address": "\(describe(address))",
        "origins":
          "\(configuration.origins.allowed.isEmpty ? "none (programs only)" : configuration.origins.allowed.joined(separator: " "))",
      ])
    return channel
  }

  /// `host:port`, an IPv6 host in brackets.
  static func describe(_ address: SocketAddress) -> String {
    let ip = address.ipAddress ?? "?"
    let port = address.port.map(String.init) ?? "?"
    return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
  }

  /// An accepted connection: HTTP until the upgrade, then frames, lines and the client's handler.
  private static func configurePipeline(
    _ channel: Channel, configuration: WebSocketConfiguration, core: NIOLoopBound<ServerCore>,
    maximumMessageLength: Int
  ) throws {
    let handshake = HandshakeState()
    let upgrader = NIOWebSocketServerUpgrader(
      maxFrameSize: maximumMessageLength,
      automaticErrorHandling: false,
      shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
      upgradePipelineHandler: { channel, head in
        channel.eventLoop.makeCompletedFuture {
          handshake.upgraded = true
          // From here on frames arrive: the HTTP answerer leaves with NIO's HTTP handlers.
          channel.pipeline.removeHandler(name: NotWebSocketResponder.name, promise: nil)
          let remote = channel.remoteAddress.map(describe) ?? "?"
          let origin = head.headers.first(name: "Origin")
          let operations = channel.pipeline.syncOperations
          // Fragments are joined into one message, up to the line limit (and at most 1024 of them).
          try operations.addHandler(
            NIOWebSocketFrameAggregator(
              minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 1024,
              maxAccumulatedFrameSize: maximumMessageLength))
          guard configuration.origins.allows(origin) else {
            let server = core.value
            server.counters.denied += 1
            server.logger.warning(
              "WebSocket client denied: origin not allowed",
              metadata: ["remote": "\(remote)", "origin": "\(origin ?? "")"])
            try operations.addHandler(
              WebSocketLineAdapter(
                maximumMessageLength: maximumMessageLength,
                refusal: .init(
                  message: "origin '\(origin ?? "")' is not allowed: touchd takes pages of the origins given "
                    + "with --websocket-origin; closing the connection",
                  code: .policyViolation)))
            return
          }
          try operations.addHandler(WebSocketLineAdapter(maximumMessageLength: maximumMessageLength))
          let transport = "websocket \(remote)" + (origin.map { ", origin \($0)" } ?? "")
          try operations.addHandler(
            ClientHandler(
              core: core.value, maximumLineLength: maximumMessageLength, transport: .webSocket(transport)))
        }
      })
    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
      withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }),
      withErrorHandling: true, withOutboundHeaderValidation: true,
      withEncoderConfiguration: HTTPResponseEncoder.Configuration())
    try channel.pipeline.syncOperations.addHandler(NotWebSocketResponder(), name: NotWebSocketResponder.name)
    // A connection that does not finish its handshake in time holds a descriptor for nothing.
    channel.eventLoop.scheduleTask(in: handshakeTimeout) {
      if !handshake.upgraded { channel.close(promise: nil) }
    }
  }
}

/// Whether a connection's handshake is done; touched on its event loop only.
private final class HandshakeState: @unchecked Sendable {
  var upgraded = false
}

/// Answers an HTTP request that is not a WebSocket handshake with 426 Upgrade Required (RFC 9110
/// §15.5.22) and a line saying what the endpoint is, then closes.
private final class NotWebSocketResponder: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  /// Its name in the pipeline, by which the upgrade removes it.
  static let name = "touchd.http"

  private var answered = false

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(let request) = unwrapInboundIn(data), !answered else { return }
    answered = true
    let body = "touchd: this is a WebSocket endpoint (docs/protocol.md, \"WebSocket\")\n"
    var headers = HTTPHeaders()
    headers.add(name: "Upgrade", value: "websocket")
    headers.add(name: "Connection", value: "Upgrade, close")
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    headers.add(name: "Content-Length", value: "\(body.utf8.count)")
    let head = HTTPResponseHead(version: request.version, status: .upgradeRequired, headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
    buffer.writeString(body)
    context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
  }
}
