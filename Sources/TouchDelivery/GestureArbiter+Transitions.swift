// GestureArbiter: recognizers' state transitions: requested ones applied in request order, failure,
// actions, and a recognizer's removal.

import TouchdCore

extension GestureArbiter {
  /// Notes a requested transition; outside a turn it is applied at once. A recognizer that
  /// decides without touches (a stray timer) joins the participants so that it is reset.
  func enqueue(_ r: GestureRecognizer) {
    if !requesters.contains(where: { $0 === r }) { requesters.append(r) }
    if !participants.contains(where: { $0 === r }) { participants.append(r) }
    if depth == 0 && !updating { recognizerTimerFired() }
  }

  /// Applies requested transitions until nothing changes.
  func update() {
    guard !updating else { return }
    updating = true
    defer { updating = false }
    var progress = true
    while progress {
      progress = false
      for r in requesters where !r.pendingStates.isEmpty {
        if apply(r) { progress = true }
      }
      requesters.removeAll { $0.pendingStates.isEmpty }
    }
  }

  /// Applies `r`'s oldest requested transition; false when it must keep waiting.
  private func apply(_ r: GestureRecognizer) -> Bool {
    let request = r.pendingStates[0]
    let next = request.state
    switch (r._state, next) {
    case (_, .failed):
      fail(r, request.cause ?? defaultCause(.failed))
    case (.possible, .began), (.possible, .ended):
      switch gate(r) {
      case .wait(let requirement):
        if let tracer, r.waitingFor !== requirement {
          r.waitingFor = requirement
          tracer(.waiting(r, to: next, requirement: requirement))
        }
        return false
      case .fail(let cause): fail(r, cause ?? "")
      case .go:
        r.pendingStates.removeFirst()
        r._state = next
        if let tracer {
          var cause = request.cause ?? defaultCause(next)
          if let waited = r.waitingFor { cause += "; required '\(waited.traceName)' failed" }
          tracer(.recognizer(r, from: .possible, to: next, cause: cause))
        }
        r.waitingFor = nil
        outcomeObserver?(r, true)
        r.recognitionApplied()
        for other in participants
        where other !== r && other._state == .possible && shares(r, other) && prevents(r, other) {
          fail(other, "prevented by '\(r.traceName)' (\(r.outcomeText)), which shares a touch")
        }
        if r.cancelsTouchesInView {
          cancelInViews(r.attemptTouches, by: r)
          cancelInResponders(r.attemptPresses, by: r)
        }
        fireActions(r)
      }
    case (.began, _), (.changed, _):
      r.pendingStates.removeFirst()
      let from = r._state
      r._state = next
      if let tracer, from != next {
        tracer(.recognizer(r, from: from, to: next, cause: request.cause ?? defaultCause(next)))
      }
      fireActions(r)
    default:
      r.pendingStates.removeFirst()
    }
    return true
  }

  /// The cause of a transition its recognizer gave no reason for.
  private func defaultCause(_ state: GestureRecognizer.State) -> String {
    if let reason = cancellationReason { return "its touches were cancelled: \(reason)" }
    return "the recognizer set .\(state.rawValue)"
  }

  private func fail(_ r: GestureRecognizer, _ cause: @autoclosure () -> String) {
    let from = r._state
    r.pendingStates = []
    r.waitingFor = nil
    r._state = .failed
    if let tracer, from != .failed { tracer(.recognizer(r, from: from, to: .failed, cause: cause())) }
    if from == .possible { outcomeObserver?(r, false) }
    for touch in r.attemptTouches { touch.gestureRecognizers.removeAll { $0 === r } }
    for touch in r.trackedTouches { r.stopTracking(touch) }
    for press in r.attemptPresses { press.gestureRecognizers.removeAll { $0 === r } }
    r.trackedPresses = []
  }

  private func fireActions(_ r: GestureRecognizer) {
    for entry in r.actions { entry.action(r) }
  }

  /// Drops `r` from arbitration (it was removed from its view) and resets it.
  func detach(_ r: GestureRecognizer) {
    let wasInPlay = participants.contains { $0 === r } || !r.pendingStates.isEmpty
    participants.removeAll { $0 === r }
    requesters.removeAll { $0 === r }
    for touch in r.attemptTouches { touch.gestureRecognizers.removeAll { $0 === r } }
    for press in r.attemptPresses { press.gestureRecognizers.removeAll { $0 === r } }
    let from = r._state
    r.trackedTouches = []
    r.attemptTouches = []
    r.trackedPresses = []
    r.attemptPresses = []
    r.pendingStates = []
    r.waitingFor = nil
    r._state = .possible
    if wasInPlay {
      if let tracer { tracer(.recognizer(r, from: from, to: .possible, cause: "removed from its view")) }
      r.reset()
      if depth == 0 {
        flushViews()
        flushPresses()
      }
    }
  }
}
