import TouchdScene

/// Reporting: the `hello` and `reloaded` lines clients get, the `status` reply's JSON, and the
/// status line systemd shows.
extension Daemon {
  private var touchesDown: Int {
    runtime.application.currentEvent?.allTouches.filter { !$0.phase.isTerminal }.count ?? 0
  }

  func windowsJSON() -> String {
    "["
      + runtime.scene.windows.map {
        #"{"id":\#(WireProtocol.quote($0.id)),"width":\#(JSONFormat.number($0.size.width)),"height":\#(JSONFormat.number($0.size.height))}"#
      }.joined(separator: ",") + "]"
  }

  func helloLine() -> String {
    #"{"type":"hello","version":\#(WireProtocol.version),"instance":"\#(instance)","windows":\#(windowsJSON()),"views":\#(scene.counts.views)}"#
  }

  func reloadedLine(source: SceneSource) -> String {
    #"{"type":"reloaded","source":"\#(source.rawValue)","windows":\#(windowsJSON()),"views":\#(scene.counts.views)}"#
  }

  func statusLine() -> String {
    if let replay { return "replaying \(replay.source); \(touchesDown) touches down" }
    let touchscreens = devices.values.filter { $0.touchWindow != nil }.count
    let keyDevices = devices.values.filter { $0.keyWindow != nil }.count
    return "\(touchscreens) touchscreen(s), \(keyDevices) key device(s); \(touchesDown) touches down"
  }

  /// `status`'s `webSocket`: null when the endpoint is off.
  private func webSocketJSON() -> String {
    guard let address = self.server.webSocketAddress, let webSocket = self.server.configuration.webSocket else {
      return "null"
    }
    let origins = webSocket.origins.allowed.map(WireProtocol.quote).joined(separator: ",")
    return
      #"{"address":\#(WireProtocol.quote(address)),"origins":[\#(origins)],"allowRemote":\#(webSocket.allowRemote)}"#
  }

  /// The status's `idle`: null without the scene's `idle:`; else its state, settings, the time of
  /// the last touch or press (the messages' clock; null before the first) and the seconds since.
  private func idleJSON() -> String {
    guard let state = runtime.idleState, let idle = scene.idle else { return "null" }
    let last = state.lastInput.map(JSONFormat.number) ?? "null"
    let since = state.lastInput.map { JSONFormat.number(max(0, clock.now - $0)) } ?? "null"
    return #"{"state":"\#(state.isIdle ? "idle" : "active")","after":\#(JSONFormat.number(idle.after)),"#
      + #""wake":"\#(idle.wake.rawValue)","lastInput":\#(last),"secondsSinceInput":\#(since)}"#
  }

  func statusJSON(_ server: ServerCounters) -> String {
    let deviceList = devices.keys.sorted().compactMap { path -> String? in
      guard let live = devices[path] else { return nil }
      func window(_ index: Int?) -> String { index.map { WireProtocol.quote(scene.windows[$0].id) } ?? "null" }
      return
        #"{"path":\#(WireProtocol.quote(path)),"name":\#(WireProtocol.quote(live.device.name)),"window":\#(window(live.touchWindow)),"keysWindow":\#(window(live.keyWindow)),"grabbed":\#(live.device.device.isGrabbed),"#
        + #""forward":\#(forwarding.statusJSON(source: live.source, runtime: runtime))}"#
    }
    let c = counters
    return [
      #""scene":\#(WireProtocol.quote(options.scenePath))"#,
      #""windows":\#(windowsJSON())"#,
      #""devices":[\#(deviceList.joined(separator: ","))]"#,
      #""replay":\#(replay.map { WireProtocol.quote($0.source) } ?? "null")"#,
      #""touchesDown":\#(touchesDown)"#,
      #""latency":\#(latency.json(handed: server.handedLatency))"#,
      #""idle":\#(idleJSON())"#,
      #""ignoring":\#(runtime.ignoreDepth)"#,
      #""tracing":\#(runtime.isTracing)"#,
      #""clients":\#(server.clients)"#,
      #""webSocket":\#(webSocketJSON())"#,
      #""limits":{"clients":\#(self.server.configuration.maximumClients),"#
        + #""lineBytes":\#(self.server.configuration.maximumLineLength),"#
        + #""clientBufferBytes":\#(self.server.configuration.sendBufferLimit),"#
        + #""sceneBytes":\#(Scene.maximumFileBytes),"openFiles":\#(OpenFileLimit.current)}"#,
      #""counters":{"frames":\#(c.frames),"touchesBegan":\#(c.touchesBegan),"keyFrames":\#(c.keyFrames),"actions":\#(c.actions),"messages":\#(c.messages),"#
        + #""traceMessages":\#(c.traces),"#
        + #""reloads":\#(c.reloads),"reloadFailures":\#(c.reloadFailures),"scenePushes":\#(c.scenePushes),"resyncs":\#(c.resyncs),"#
        + #""stuckTouches":\#(c.stuckTouches),"#
        + #""timerWakeups":\#(clock.wakeups),"#
        + #""clientsAccepted":\#(server.accepted),"clientsDenied":\#(server.denied),"#
        + #""clientsRefused":\#(server.refused),"#
        + #""clientsDisconnectedSlow":\#(server.disconnectedSlow),"messagesSent":\#(server.messagesSent),"#
        + #""messagesSkipped":\#(server.messagesSkipped)}"#,
    ].joined(separator: ",")
  }
}
