import TouchdCore

extension Application {
  /// Delivers one key frame's changes to `window` at `time` (the caller advances the clock first).
  ///
  /// A key going down becomes a ``Press`` for the window's first responder
  /// (``Window/pressResponder``); its up ends it, a cancelled key cancels it. A key already down
  /// going down again, or a key not down going up, is ignored. While the application ignores
  /// interaction a key that goes down is never delivered, up to its key-up, as for touches.
  public func handle(_ changes: [PressChange], at time: Double, in window: Window) {
    var changed: [Press] = []
    for change in changes {
      let source = change.source
      switch change.phase {
      case .down:
        guard pressesBySource[source] == nil, !swallowedKeys.contains(source) else { continue }
        guard !isIgnoringInteractionEvents else {
          swallowedKeys.insert(source)
          continue
        }
        lastPressID += 1
        let press = Press(
          id: lastPressID, type: change.type, key: change.key, source: source, timestamp: time, window: window)
        pressesBySource[source] = press
        changed.append(press)
      case .up, .cancelled:
        if swallowedKeys.remove(source) != nil { continue }
        guard let press = pressesBySource[source] else { continue }
        press.phase = change.phase == .up ? .ended : .cancelled
        press.timestamp = time
        changed.append(press)
      }
    }
    deliverPresses(changed, at: time)
  }

  /// Cancels every press down (the application began ignoring interaction).
  func cancelPresses() {
    let time = clock.now
    var changed: [Press] = []
    for (source, press) in pressesBySource.sorted(by: { $0.value.id < $1.value.id }) {
      press.phase = .cancelled
      press.timestamp = time
      swallowedKeys.insert(source)
      changed.append(press)
    }
    deliverPresses(changed, at: time)
  }

  private func deliverPresses(_ changed: [Press], at time: Double) {
    guard !changed.isEmpty else { return }
    let event = currentPressesEvent ?? PressesEvent()
    currentPressesEvent = event
    for press in pressesBySource.values where !changed.contains(where: { $0 === press }) {
      press.phase = .stationary
    }
    event.allPresses = Set(pressesBySource.values)
    event.timestamp = time
    // Presses of different windows are delivered per window, in the order of their first press.
    var windows: [Window] = []
    for press in changed {
      if let w = press.window, !windows.contains(where: { $0 === w }) { windows.append(w) }
    }
    for window in windows {
      gestureArbiter.deliver(changed.filter { $0.window === window }, event: event, in: window)
    }
    for press in changed where press.phase.isTerminal { pressesBySource[press.source] = nil }
    if pressesBySource.isEmpty { currentPressesEvent = nil }
  }
}
