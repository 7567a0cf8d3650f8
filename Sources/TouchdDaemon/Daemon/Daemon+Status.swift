import NIOCore
import TouchdScene

/// Reporting: the `hello` and `reloaded` messages clients get, the `status` reply, and the status
/// line systemd shows.
extension Daemon {
  private var touchesDown: Int {
    runtime.application.currentEvent?.allTouches.filter { !$0.phase.isTerminal }.count ?? 0
  }

  /// The windows as `hello`, `reloaded` and `status` describe them.
  func windowInfos() -> [WindowInfo] {
    runtime.scene.windows.map { WindowInfo(id: $0.id, width: $0.size.width, height: $0.size.height) }
  }

  func hello() -> HelloMessage {
    HelloMessage(instance: instance, windows: windowInfos(), views: scene.counts.views)
  }

  func reloaded(source: SceneSource) -> ReloadedMessage {
    ReloadedMessage(source: source.rawValue, windows: windowInfos(), views: scene.counts.views)
  }

  func statusLine() -> String {
    if let replay { return "replaying \(replay.source); \(touchesDown) touches down" }
    let touchscreens = devices.values.filter { $0.touchWindow != nil }.count
    let keyDevices = devices.values.filter { $0.keyWindow != nil }.count
    return "\(touchscreens) touchscreen(s), \(keyDevices) key device(s); \(touchesDown) touches down"
  }

  /// `status`'s `webSocket`: nil when the endpoint is off.
  private func webSocketStatus() -> StatusReply.WebSocketStatus? {
    guard let address = self.server.webSocketAddress, let webSocket = self.server.configuration.webSocket else {
      return nil
    }
    return StatusReply.WebSocketStatus(
      address: address, origins: webSocket.origins.allowed, allowRemote: webSocket.allowRemote)
  }

  /// The status's `idle`: nil without the scene's `idle:`; else its state, settings, the time of
  /// the last touch or press (the messages' clock; nil before the first) and the seconds since.
  private func idleStatus() -> StatusReply.IdleStatus? {
    guard let state = runtime.idleState, let idle = scene.idle else { return nil }
    return StatusReply.IdleStatus(
      state: state.isIdle ? "idle" : "active", after: idle.after, wake: idle.wake.rawValue,
      lastInput: state.lastInput, secondsSinceInput: state.lastInput.map { max(0, clock.now - $0) })
  }

  func status(_ server: ServerCounters) -> StatusReply {
    let deviceList = devices.keys.sorted().compactMap { path -> StatusReply.DeviceStatus? in
      guard let live = devices[path] else { return nil }
      func window(_ index: Int?) -> String? { index.map { scene.windows[$0].id } }
      return StatusReply.DeviceStatus(
        path: path, name: live.device.name, window: window(live.touchWindow), keysWindow: window(live.keyWindow),
        grabbed: live.device.device.isGrabbed, forward: forwarding.status(source: live.source, runtime: runtime))
    }
    let c = counters
    var counts = StatusReply.Counters()
    counts.frames = c.frames
    counts.touchesBegan = c.touchesBegan
    counts.keyFrames = c.keyFrames
    counts.actions = c.actions
    counts.messages = c.messages
    counts.traceMessages = c.traces
    counts.reloads = c.reloads
    counts.reloadFailures = c.reloadFailures
    counts.scenePushes = c.scenePushes
    counts.resyncs = c.resyncs
    counts.stuckTouches = c.stuckTouches
    counts.timerWakeups = clock.wakeups
    counts.clientsAccepted = server.accepted
    counts.clientsDenied = server.denied
    counts.clientsRefused = server.refused
    counts.clientsRefusedPerUser = server.refusedPerUser
    counts.clientsTimedOut = server.timedOut
    counts.clientsDisconnectedSlow = server.disconnectedSlow
    counts.messagesSent = server.messagesSent
    counts.messagesSkipped = server.messagesSkipped
    let configuration = self.server.configuration
    return StatusReply(
      scene: options.scenePath, windows: windowInfos(), devices: deviceList, replay: replay?.source,
      touchesDown: touchesDown, latency: latency.status(handed: server.handedLatency), idle: idleStatus(),
      ignoring: runtime.ignoreDepth, tracing: runtime.isTracing, clients: server.clients,
      webSocket: webSocketStatus(),
      limits: StatusReply.Limits(
        clients: configuration.maximumClients, clientsPerUser: configuration.maximumClientsPerUser,
        lineBytes: configuration.maximumLineLength,
        clientBufferBytes: configuration.sendBufferLimit, sceneBytes: Scene.maximumFileBytes,
        openFiles: OpenFileLimit.current,
        firstLineSeconds: configuration.firstLineTimeout.seconds,
        partialLineSeconds: configuration.partialLineTimeout.seconds),
      counters: counts)
  }
}
