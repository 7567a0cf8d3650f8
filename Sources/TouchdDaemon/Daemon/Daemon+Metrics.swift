import Dispatch
import TouchdScene

/// The `metrics` command: `status`'s numbers brought into the metrics, with the process's own,
/// then every metric as Prometheus' text format (``DaemonMetrics``). On the pipeline's queue, as
/// `status` is, so the two agree.
extension Daemon {
  func metricsText(_ server: ServerCounters) -> String {
    dispatchPrecondition(condition: .onQueue(queue))
    let status = self.status(server)
    let c = status.counters
    metrics.total(.frames, c.frames)
    metrics.total(.keyFrames, c.keyFrames)
    metrics.total(.touchesBegan, c.touchesBegan)
    metrics.total(.messages, c.messages)
    metrics.total(.traceMessages, c.traceMessages)
    metrics.total(.sceneReloads, c.reloads, "ok")
    metrics.total(.sceneReloads, c.reloadFailures, "rejected")
    metrics.total(.scenePushes, c.scenePushes)
    metrics.total(.resyncs, c.resyncs)
    metrics.total(.stuckTouches, c.stuckTouches)
    metrics.total(.timerWakeups, c.timerWakeups)
    metrics.total(.clientsAccepted, c.clientsAccepted)
    metrics.total(.clientsDenied, c.clientsDenied)
    metrics.total(.clientsRefused, c.clientsRefused, "total")
    metrics.total(.clientsRefused, c.clientsRefusedPerUser, "user")
    metrics.total(.clientsTimedOut, c.clientsTimedOut)
    metrics.total(.clientsDropped, c.clientsDisconnectedSlow)
    metrics.total(.messagesSent, c.messagesSent)
    metrics.total(.messagesSkipped, c.messagesSkipped)
    metrics.gauge(.clients, Double(status.clients))
    metrics.gauge(.touchesDown, Double(status.touchesDown))
    metrics.gauge(.ignoring, Double(status.ignoring))
    metrics.gauge(.devices, Double(status.devices.count))
    if let idle = status.idle { metrics.gauge(.idle, idle.state == "idle" ? 1 : 0) }
    for device in status.devices {
      guard let forward = device.forward else { continue }
      metrics.total(.forwardEvents, forward.forwarded, device.name, "forwarded")
      metrics.total(.forwardEvents, forward.held, device.name, "held")
      metrics.total(.forwardEvents, forward.released, device.name, "released")
      metrics.total(.forwardEvents, forward.cancelled, device.name, "cancelled")
      metrics.total(.forwardEvents, forward.noSlot, device.name, "no_slot")
      metrics.total(.forwardWriteErrors, forward.writeErrors, device.name)
    }
    for window in health.report(at: clock.now).windows {
      metrics.total(.healthTouchDowns, window.touchDowns, window.id)
      metrics.gauge(.healthDeadCells, Double(window.deadCells.count), window.id)
      metrics.total(.healthGhosts, window.ghosts.burst, window.id, GhostKind.burst.rawValue)
      metrics.total(.healthGhosts, window.ghosts.pinned, window.id, GhostKind.pinned.rawValue)
      metrics.total(.healthGhosts, window.ghosts.idle, window.id, GhostKind.idle.rawValue)
      if let p95 = window.jitter.p95 { metrics.gauge(.healthJitter, p95, window.id) }
      if let x = window.drift.x, let y = window.drift.y {
        metrics.gauge(.healthDrift, x, window.id, "x")
        metrics.gauge(.healthDrift, y, window.id, "y")
      }
      metrics.gauge(.healthDrifted, window.drift.drifted ? 1 : 0, window.id)
      for miss in window.nearMisses { metrics.total(.healthNearMisses, miss.count, window.id, miss.view) }
    }
    for (window, counts) in speech.snapshot() {
      metrics.total(.speechUtterances, counts.said, window, "said")
      metrics.total(.speechUtterances, counts.dropped, window, "dropped")
      metrics.gauge(.speechConnected, counts.connected ? 1 : 0, window)
    }
    let process = ProcessStats.read()
    if let bytes = process.residentBytes { metrics.gauge(.residentMemory, bytes) }
    if let files = process.openFiles { metrics.gauge(.openFiles, files) }
    metrics.gauge(.maxFiles, Double(status.limits.openFiles))
    if let seconds = process.cpuSeconds { metrics.totalSeconds(.cpuSeconds, seconds) }
    if let start = process.startTimeSeconds { metrics.gauge(.startTime, start) }
    return metrics.exposition()
  }
}
