import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import TouchdProtocol

/// The metrics over HTTP for Prometheus to scrape (`touchd --metrics-address HOST:PORT`, off by
/// default): `GET /metrics` answers with the `metrics` command's exposition (the daemon's pipeline
/// builds it, as for a client), on SwiftNIO's HTTP/1 codec and the server's event loop. Loopback
/// only, as the WebSocket endpoint without `--websocket-allow-remote` (docs/operations.md,
/// "Metrics").
public enum MetricsEndpoint {
  /// Where the endpoint listens: an address it binds (`--metrics-address`), or the socket systemd
  /// passes (touchd-metrics.socket, `FileDescriptorName=metrics`).
  public enum Listen: Hashable, Sendable {
    case bind(host: String, port: Int)
    case inherited(CInt)

    /// How errors name it.
    var description: String {
      switch self {
      case .bind(let host, let port): "--metrics-address \(host):\(port)"
      case .inherited: "the metrics socket passed by systemd (touchd-metrics.socket)"
      }
    }
  }

  /// The port the documentation and the examples use (`127.0.0.1:9765`): beside the WebSocket
  /// endpoint's 8765, in Prometheus' exporter range (9100 and up).
  static let defaultPort = 9765
  /// Prometheus' text exposition format (its `Content-Type`).
  static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  /// Binds (or adopts the passed socket) and starts answering; refuses an address other than
  /// loopback.
  static func start(
    _ listen: Listen, group: EventLoopGroup, core: NIOLoopBound<ServerCore>, logger: Logger
  ) throws -> Channel {
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
          try channel.pipeline.syncOperations.addHandler(MetricsResponder(core: core))
        }
      }
    let channel: Channel
    do {
      switch listen {
      case .bind(let host, let port): channel = try bootstrap.bind(host: host, port: port).wait()
      case .inherited(let fd): channel = try bootstrap.withBoundSocket(fd).wait()
      }
    } catch {
      throw EndpointError(description: "\(listen.description): cannot listen: \(error)")
    }
    guard let address = channel.localAddress, WebSocketConfiguration.isLoopback(address) else {
      try? channel.close().wait()
      throw EndpointError(
        description: "\(listen.description) is not a loopback address: touchd serves its metrics "
          + "on loopback only (a Prometheus elsewhere scrapes node_exporter's textfile instead)")
    }
    logger.info("metrics endpoint listening", metadata: ["address": "\(WebSocketEndpoint.describe(address))"])
    return channel
  }
}

/// Answers `GET /metrics` (and `HEAD`) with the exposition; any other path is 404, any other
/// method 405. Lives on the server's event loop.
private final class MetricsResponder: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let core: NIOLoopBound<ServerCore>
  private var request: HTTPRequestHead?

  init(core: NIOLoopBound<ServerCore>) { self.core = core }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): request = head
    case .body: break
    case .end:
      guard let head = request else { return }
      request = nil
      answer(head, context: context)
    }
  }

  private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
    guard head.method == .GET || head.method == .HEAD else {
      return respond(head, .methodNotAllowed, "touchd: GET /metrics\n", context: context)
    }
    guard path == "/metrics" else {
      return respond(head, .notFound, "touchd: the metrics are at /metrics\n", context: context)
    }
    let server = core.value
    let loop = context.eventLoop
    let bound = NIOLoopBound((self, context), eventLoop: loop)
    let command = ClientCommand(name: Command.metrics.name, idJSON: "null", request: .metrics)
    let client = ClientInfo(number: 0, peer: nil, transport: "metrics endpoint")
    server.handler.handle(command, from: client, server: server.snapshot) { result in
      loop.execute {
        let (responder, context) = bound.value
        switch result {
        case .metrics(let text): responder.respond(head, .ok, text, context: context, type: MetricsEndpoint.contentType)
        case .error(let message): responder.respond(head, .internalServerError, message + "\n", context: context)
        case .ok, .changed: responder.respond(head, .internalServerError, "touchd: no metrics\n", context: context)
        }
      }
    }
  }

  private func respond(
    _ request: HTTPRequestHead, _ status: HTTPResponseStatus, _ body: String, context: ChannelHandlerContext,
    type: String = "text/plain; charset=utf-8"
  ) {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: type)
    headers.add(name: "Content-Length", value: "\(body.utf8.count)")
    let keepAlive = request.isKeepAlive
    headers.add(name: "Connection", value: keepAlive ? "keep-alive" : "close")
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil
    )
    if request.method != .HEAD {
      var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
      buffer.writeString(body)
      context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      if !keepAlive { channel.close(promise: nil) }
    }
  }
}
