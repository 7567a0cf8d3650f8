import TouchdCore

/// Cancels touches that stopped moving: a stuck or ghost touch (a slot the panel never lifts, a
/// contact that EMI or a smear holds on the glass) would otherwise hold its view and recognizers
/// for ever, and with them the whole multitouch sequence.
///
/// A touch whose location has not changed for ``timeout`` seconds is cancelled as a vanished device
/// cancels it (``Application/cancelTouches(in:)``): views get `touchesCancelled`, recognizers
/// `touchesCancelled(_:with:)` (a continuous gesture in progress ends cancelled, a discrete one
/// fails), and later changes of its contact are ignored until the contact ends. Other touches, and
/// touches that begin later, are not affected. Only the location counts as movement: a change of
/// force or radius alone does not.
///
/// The timer runs on the application's ``TouchClock`` (the virtual clock in replay, the daemon's
/// clock live), so a replay cancels exactly where the live daemon does. It is armed only while a
/// touch is down, for the earliest deadline; a touch that moves pushes its own deadline back
/// without re-arming: the timer, when it fires, arms itself again for the deadline then earliest.
/// So an idle daemon has no wake-ups, and a moving finger at most one per ``timeout``.
///
/// UIKit has no such timeout (iOS hardware does not report stuck contacts); it is touchd's, for
/// kiosk panels, and off unless a scene sets `stuckTouchTimeout` (docs/scene.md).
final class StuckTouchWatch {
  /// Seconds without movement after which a touch is cancelled; nil: never. Setting it starts
  /// over: touches down count from the next frame.
  var timeout: Double? {
    didSet {
      timer?.cancel()
      timer = nil
      lastMoves.removeAll()
    }
  }
  /// Called for each touch cancelled for not moving, before it is cancelled.
  var onCancel: ((Touch) -> Void)?
  /// How many touches were cancelled for not moving.
  private(set) var cancelledCount = 0

  private struct Move {
    var time: Double
    var location: Point
  }
  /// The touches down: when each last moved, and where.
  private var lastMoves: [TouchID: Move] = [:]
  private var timer: ScheduledTimer?

  /// After each delivery at `time`: notes which of `touches` (every touch down) moved, forgets those
  /// that are gone, and keeps the timer armed while any is down.
  func update(_ touches: [TouchID: Touch], at time: Double, in application: Application) {
    guard let timeout else { return }
    for (id, touch) in touches {
      let location = touch.locationInWindow
      if let move = lastMoves[id], move.location == location { continue }
      lastMoves[id] = Move(time: time, location: location)
    }
    if lastMoves.count > touches.count { lastMoves = lastMoves.filter { touches[$0.key] != nil } }
    if lastMoves.isEmpty {
      timer?.cancel()
      timer = nil
    } else if timer == nil {
      arm(timeout, application)
    }
  }

  private func arm(_ timeout: Double, _ application: Application) {
    guard let earliest = lastMoves.values.lazy.map(\.time).min() else { return }
    timer = application.clock.schedule(at: earliest + timeout) { [weak self, weak application] in
      guard let self, let application else { return }
      self.fire(application)
    }
  }

  private func fire(_ application: Application) {
    timer = nil
    guard let timeout else { return }
    let now = application.clock.now
    // The same sum as the deadline armed: a touch due exactly now is stuck.
    let stuck = Set(lastMoves.filter { $0.value.time + timeout <= now }.keys)
    guard !stuck.isEmpty else {
      arm(timeout, application)
      return
    }
    cancelledCount += stuck.count
    if let onCancel {
      for id in stuck.sorted() { if let touch = application.touch(withID: id) { onCancel(touch) } }
    }
    // Cancelling delivers, which updates the watch and arms it again for the touches left.
    application.cancelTouches(
      where: { stuck.contains($0.id) }, reason: "it did not move for \(timeout) s (stuckTouchTimeout)")
  }
}

extension Application {
  /// Seconds without movement after which a touch is cancelled as stuck; nil (the default): never.
  /// See ``StuckTouchWatch``.
  public var stuckTouchTimeout: Double? {
    get { stuckTouchWatch.timeout }
    set { stuckTouchWatch.timeout = newValue }
  }

  /// How many touches were cancelled for not moving (``stuckTouchTimeout``).
  public var stuckTouchesCancelled: Int { stuckTouchWatch.cancelledCount }

  /// Called with each touch about to be cancelled for not moving (the daemon counts and logs them).
  public var onStuckTouch: ((Touch) -> Void)? {
    get { stuckTouchWatch.onCancel }
    set { stuckTouchWatch.onCancel = newValue }
  }
}
