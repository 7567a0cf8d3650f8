// GestureRecognizer's side of arbitration: its state requests, and the states the arbiter reads.

import TouchdCore

extension GestureRecognizer {
  /// How causes name the recognizer's decided state: "recognized" for a discrete gesture's `.ended`.
  var outcomeText: String { _state == .ended ? "recognized" : _state.rawValue }

  /// The state after every requested transition applies.
  var effectiveState: State { pendingStates.last?.state ?? _state }

  /// In `.ended`, `.cancelled` or `.failed`: waiting to be reset.
  var isDecided: Bool { _state == .ended || _state == .cancelled || _state == .failed }

  /// Whether new and current touches are delivered to the recognizer.
  var acceptsTouches: Bool {
    guard isEnabled, !isDecided else { return false }
    let s = effectiveState
    return s == .possible || s == .began || s == .changed
  }

  var arbiter: GestureArbiter? { view?.window?.application?.gestureArbiter }

  /// Validates a state assignment (see ``state``) and hands it to the arbitration.
  func requestState(_ newState: State, cause: String?) {
    let from = effectiveState
    var request = newState
    if _state == .possible && from != .possible && (newState == .failed || newState == .cancelled) {
      // A recognition still waiting is withdrawn: externally the recognizer never began.
      pendingStates = []
      request = .failed
    } else {
      switch (from, newState) {
      case (.possible, .began), (.possible, .ended), (.possible, .failed),
        (.began, .ended), (.changed, .ended), (.began, .cancelled), (.changed, .cancelled):
        break
      case (.began, .changed), (.changed, .changed):
        // One pending change is enough; a change while the began itself still waits (for a
        // failure requirement) folds into it: the gesture begins where it then is.
        if pendingStates.last?.state == .changed || _state == .possible { return }
      default:
        return
      }
    }
    guard let arbiter else {
      applyStandalone(request)
      return
    }
    pendingStates.append(StateRequest(state: request, cause: cause))
    arbiter.enqueue(self)
  }

  /// A recognizer in no application: transitions apply at once (shouldBegin still decides).
  private func applyStandalone(_ newState: State) {
    if _state == .possible && (newState == .began || newState == .ended),
      let delegate, !delegate.gestureRecognizerShouldBegin(self)
    {
      _state = .failed
      return
    }
    _state = newState
    if newState != .failed {
      for entry in actions { entry.action(self) }
    }
  }

  func disable() {
    if _state == .began || _state == .changed {
      requestState(.cancelled, cause: isTracing ? "disabled" : nil)
    } else if _state == .possible && (!attemptTouches.isEmpty || !pendingStates.isEmpty) {
      requestState(.failed, cause: isTracing ? "disabled" : nil)
    }
  }

  /// Called when a recognition (`.possible → .began` or `.ended`) takes effect, which may be
  /// later than it was requested (after a failure requirement). Subclasses that measure from the
  /// start of the gesture re-base here.
  func stopTracking(_ touch: Touch) {
    guard trackedTouches.contains(where: { $0 === touch }) else { return }
    lastLocationInWindow = touch.locationInWindow
    trackedTouches.removeAll { $0 === touch }
  }
}
