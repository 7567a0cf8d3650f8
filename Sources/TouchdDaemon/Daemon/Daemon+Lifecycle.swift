import Dispatch
import Foundation
import NIOCore
import TouchdInput
import TouchdScene
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Start and stop: the socket server, the scene runtime (for the scene at start and each one
/// installed later), the signal sources, systemd's watchdog, and the shutdown that cancels every
/// touch before touchd exits.
extension Daemon {
  /// Opens the socket, the devices (or the recordings) and the signal sources. Call once, before
  /// `dispatchMain()`; errors name what failed (the socket path, the recording's file:line).
  public func start() throws {
    var replayRecordings: [Recording] = []
    if let description = options.replayDescriptionPath, let path = options.replayPath {
      replayRecordings = try RecordingReader.loadAll(path: path, descriptionPath: description)
    } else {
      replayRecordings = try RecordingReader.loadAll(paths: options.replayPaths)
    }
    let replaying = !options.replayPaths.isEmpty
    try queue.sync {
      clock = DispatchClock(
        queue: queue,
        origin: replaying
          ? ScenePlayer.origin(of: replayRecordings) - options.replayDelay * options.replaySpeed : nil,
        speed: replaying ? options.replaySpeed : 1, held: replaying && options.replayWaitsForSubscriber)
      // Input already in the kernel's buffers goes first: a lift stamped before a recognizer's
      // deadline must end the touch before the timeout fires, as in replay (input and the timer can
      // become ready together, and the timer may get the queue first).
      clock.willRunTimers = { [unowned self] in
        settleInput()
        for path in devices.keys.sorted() { if let live = devices[path] { readDevice(live) } }
      }
      // A timer may claim or cancel a forwarded touch: the next frames go through the pipeline.
      clock.didFireTimer = { [unowned self] in forwarding.disarmShortcuts() }
      runtime = makeRuntime(loaded)
      try startServer()
      if replaying {
        try startReplay(replayRecordings)
      } else {
        startDevices()
      }
      installSignals()
      startWatchdog()
      let status = statusLine()
      logger.info("touchd ready", metadata: ["scene": "\(options.scenePath)", "status": "\(status)"])
      notifier.ready(status: status)
    }
  }

  func makeRuntime(_ document: SceneDocument) -> SceneRuntime {
    let runtime = SceneRuntime(document: document, clock: clock) { [unowned self] message in publish(message) }
    runtime.isTracing = tracing
    runtime.touchesEntries = touchesEntries
    runtime.health = health
    runtime.speaker = { [speech] request in speech.handle(request) }
    runtime.recognizerOutcomeObserver = { [unowned self] recognizer, recognized in
      metrics.countOutcome(recognizer.traceName, recognized: recognized)
    }
    runtime.stuckTouchObserver = { [unowned self] touch in
      counters.stuckTouches += 1
      logger.warning(
        "touch cancelled: it did not move for stuckTouchTimeout",
        metadata: [
          "touch": "\(touch.id)", "view": "\(touch.view?.identifier ?? "")",
          "x": "\(touch.locationInWindow.x)", "y": "\(touch.locationInWindow.y)",
        ])
    }
    return runtime
  }

  private func startServer() throws {
    var config = SocketServer.Configuration(path: options.socketPath)
    // systemd passes the Unix socket (touchd.socket) and, with touchd-websocket.socket, a TCP one;
    // they are told apart by their address family, not their order. touchd-metrics.socket's TCP
    // socket is told by its name (FileDescriptorName=metrics).
    let sockets = SystemdNotifier.listenDescriptors()
    let metricsSocket = sockets.first { $0.name == SystemdNotifier.metricsSocketName }?.fd
    let inherited = sockets.filter { $0.fd != metricsSocket }.map {
      (fd: $0.fd, isTCP: SystemdNotifier.isInternetSocket($0.fd))
    }
    let tcp = inherited.first { $0.isTCP }?.fd
    if let host = options.webSocketAddress.flatMap(WebSocketConfiguration.parse) {
      config.webSocket = WebSocketConfiguration(host: host.host, port: host.port)
    }
    if let tcp {
      config.webSocket = WebSocketConfiguration(inheritedDescriptor: tcp)
      logger.info("using the WebSocket socket passed by systemd", metadata: ["fd": "\(tcp)"])
    }
    if let metricsSocket {
      config.metrics = .inherited(metricsSocket)
      logger.info("using the metrics socket passed by systemd", metadata: ["fd": "\(metricsSocket)"])
    } else if let address = options.metricsAddress.flatMap(WebSocketConfiguration.parse) {
      config.metrics = .bind(host: address.host, port: address.port)
    }
    if config.webSocket != nil {
      config.webSocket?.allowRemote = options.webSocketAllowRemote
      do throws(OriginError) {
        config.webSocket?.origins = try OriginPolicy(options.webSocketOrigins)
      } catch {
        throw DaemonOptions.UsageError(description: error.description)
      }
    }
    if let fd = inherited.first(where: { !$0.isTCP })?.fd {
      config.inheritedDescriptor = fd
      logger.info("using the socket passed by systemd", metadata: ["fd": "\(fd)"])
    } else {
      let directory = (options.socketPath as NSString).deletingLastPathComponent
      try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    if let group = options.socketGroup {
      guard let gr = getgrnam(group) else { throw AccessPolicyError(message: "unknown socket group '\(group)'") }
      config.group = gr.pointee.gr_gid
    }
    config.access = try AccessPolicy.resolve(users: options.allowUsers, groups: options.allowGroups)
    config.sendBufferLimit = options.clientBufferBytes
    config.maximumLineLength = options.maximumLineLength
    config.maximumClientsPerUser = options.maximumClientsPerUser
    config.firstLineTimeout = TimeAmount(seconds: options.firstLineTimeout)
    config.partialLineTimeout = TimeAmount(seconds: options.partialLineTimeout)
    // Room for the clients: the soft open-file limit up to the hard one, and no more clients than fit.
    let files = OpenFileLimit.raiseToHard()
    config.maximumClients = OpenFileLimit.clientsThatFit(options.maximumClients)
    if files.after != files.before {
      logger.info("open-file limit raised", metadata: ["from": "\(files.before)", "to": "\(files.after)"])
    }
    if config.maximumClients < options.maximumClients {
      logger.warning(
        "fewer clients fit than --max-clients asks; the limit is lowered",
        metadata: [
          "max-clients": "\(options.maximumClients)", "limit": "\(config.maximumClients)",
          "openFiles": "\(files.after)", "remedy": "raise LimitNOFILE= (systemd) or ulimit -Hn",
        ])
    }
    server = try SocketServer(configuration: config, handler: self, logger: logger)
    server.setHello(hello().jsonLine)
  }

  private func installSignals() {
    for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { SystemCalls.live.ignoreSignal(sig) }
    for sig in [SIGTERM, SIGINT] {
      let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
      source.setEventHandler { [unowned self] in
        settleInput()
        logger.info("stopping", metadata: ["signal": "\(sig == SIGTERM ? "SIGTERM" : "SIGINT")"])
        shutdown(exitCode: 0)
      }
      source.activate()
      sources.append(source)
    }
    let hup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
    hup.setEventHandler { [unowned self] in
      settleInput()
      reload(reason: "SIGHUP")
    }
    hup.activate()
    sources.append(hup)
  }

  /// Keeps systemd's watchdog fed from the pipeline queue, so a stuck pipeline gets restarted.
  private func startWatchdog() {
    guard let interval = notifier.watchdogInterval else { return }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now(), repeating: .microseconds(Int(interval * 1e6 / 2)))
    timer.setEventHandler { [notifier] in notifier.watchdog() }
    timer.activate()
    sources.append(timer)
    logger.info("watchdog armed", metadata: ["interval.s": "\(interval)"])
  }

  /// Cancels every touch (clients see them cancelled), tells clients, removes the socket, exits.
  func shutdown(exitCode: Int32) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard !shuttingDown else { return }
    shuttingDown = true
    notifier.stopping()
    runtime.application.cancelTouches()
    // The cancels reach the virtual touchscreens before they go.
    runtime.flushForwarding()
    for path in devices.keys.sorted() { closeDevice(path, cancelTouches: false, cancelKeys: true) }
    server.shutdown(notice: ShutdownMessage().jsonLine)
    logger.info("stopped")
    // The devices are closed (and ungrabbed) already; the clients' goodbyes leave on the server's
    // event loop meanwhile.
    queue.async { exit(exitCode) }
  }
}
