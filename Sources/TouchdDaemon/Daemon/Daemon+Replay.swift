import Dispatch
import TouchdInput
import TouchdScene

/// Replay (`touchd --replay`): recordings fed to the pipeline on the daemon's clock in place of
/// live devices (``ReplayFeeder``), and the exit once the last frame and timer are done.
extension Daemon {
  func startReplay(_ recordings: [Recording]) throws {
    var routes: [ScenePlayer.Route] = []
    for recording in recordings { routes.append(try ScenePlayer.route(recording, in: runtime)) }
    registerReplayedDevices(recordings)
    let feeder = ReplayFeeder(recordings: recordings, routes: routes, ids: ids, loop: options.replayLoop)
    replay = feeder
    // A replayed device counts as the live one would (live equals replay).
    replayedDevices = recordings.map { DeviceMetrics(device: $0.description.name, in: metrics) }
    logger.info(
      "replaying recordings",
      metadata: [
        "recordings": "\(feeder.source)", "events": "\(recordings.reduce(0) { $0 + $1.events.count })",
        "speed": "\(options.replaySpeed)", "loop": "\(options.replayLoop)",
      ])
    scheduleReplay()
  }

  /// Tells the runtime of each replayed recording as a device (its index its source), as
  /// ScenePlayer does: a pen recording and its panel's pair.
  func registerReplayedDevices(_ recordings: [Recording]) {
    for (index, recording) in recordings.enumerated() {
      runtime.addInputDevice(source: index, description: recording.description)
    }
  }

  private func scheduleReplay() {
    guard let feeder = replay else { return }
    guard let next = feeder.nextTime else {
      if options.exitAfterReplay { exitWhenIdle() }
      return
    }
    _ = clock.schedule(at: next) { [unowned self] in
      feeder.feed(until: clock.now) { index, frame in deliver(frame, replayed: index, by: feeder) }
      scheduleReplay()
    }
  }

  /// Delivers a replayed recording's frame to the window its route names.
  func deliver(_ frame: DeviceFrame, replayed index: Int, by feeder: ReplayFeeder) {
    let route = feeder.routes[index]
    switch frame {
    case .touches(let touches):
      replayedDevices[index].count(touches)
      // The recording's index is its source, as in ScenePlayer (a pen and its panel pair).
      if let window = route.touchWindow { deliver(touches, window: window, calibration: nil, source: index) }
    case .keys(let keys):
      // The recording's index is the key source, as in ScenePlayer.
      if let window = route.keyWindow { deliver(keys, window: window, source: index) }
    }
  }

  /// Exits once the recognizers' pending timers (a tap waiting out the multi-tap interval) ran.
  private func exitWhenIdle() {
    if clock.hasPendingTimers {
      queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [unowned self] in exitWhenIdle() }
    } else {
      logger.info("replay finished")
      shutdown(exitCode: 0)
    }
  }
}
