import TouchdInput

/// Applies recognizer state changes, fires actions and runs UIKit's delivery procedure.
final class GestureArbiter {
  func deliver(_ event: TouchEvent, in window: Window) {}
  func recognizerTimerFired() {}
}

extension GestureRecognizer {
  func requestState(_ newState: State) {
    _state = newState
    if newState != .failed && newState != .possible {
      for entry in actions { entry.action(self) }
    }
  }

  func stopTracking(_ touch: Touch) {
    trackedTouches.removeAll { $0 === touch }
  }
}
