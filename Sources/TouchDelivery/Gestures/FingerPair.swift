/// The two-finger bookkeeping that pinch and rotation share: the first two touches that land are
/// the pair, later ones are ignored; a lift or cancel of either ends (or cancels) an active
/// gesture, and a recognizer whose fingers all lifted before it began fails.
struct FingerPair {
  private(set) var down = GestureTouches()
  /// The pair's midpoint before the last lift, reported once a finger is gone.
  private var lastLocation: Point?

  /// Whether both fingers are down.
  var isComplete: Bool { down.count == 2 }
  var first: Point { down.touches[0].locationInWindow }
  var second: Point { down.touches[1].locationInWindow }
  /// The newest timestamp of the pair, for velocity samples.
  var latestTimestamp: Double { down.latestTimestamp }

  /// Takes new touches into the pair while `recognizer` is still possible, ignoring the rest.
  /// Returns true when the second finger landed in this call (take the reference measurement).
  mutating func add(_ touches: Set<Touch>, with event: TouchEvent, to recognizer: GestureRecognizer) -> Bool {
    var formed = false
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      if down.count < 2 && recognizer.effectiveState == .possible {
        down.add(touch)
        formed = formed || down.count == 2
      } else {
        recognizer.ignore(touch, for: event)
      }
    }
    return formed
  }

  /// Whether a move should be measured: both fingers down and the recognizer possible or active.
  mutating func shouldFollowMove(of recognizer: GestureRecognizer) -> Bool {
    guard isComplete, recognizer.effectiveState == .possible || recognizer.isActive else { return false }
    lastLocation = down.centroid
    return true
  }

  /// Removes lifted (or cancelled) touches and sets the recognizer's state: `.ended` (or
  /// `.cancelled`) when it was active, `.failed` when it was possible and no finger is left.
  mutating func remove(_ touches: Set<Touch>, from recognizer: GestureRecognizer, cancelled: Bool) {
    lastLocation = down.centroid ?? lastLocation
    for touch in touches { down.remove(touch) }
    if recognizer.isActive {
      recognizer.state = cancelled ? .cancelled : .ended
    } else if recognizer.effectiveState == .possible && down.isEmpty {
      recognizer.state = .failed
    }
  }

  /// The midpoint of the fingers in `view`'s coordinates (where it was after a lift), or nil.
  func location(in view: View?) -> Point? {
    guard let p = down.centroid ?? lastLocation else { return nil }
    return view?.convert(p, from: nil) ?? p
  }

  mutating func reset() {
    down.removeAll()
    lastLocation = nil
  }
}

extension GestureRecognizer {
  /// Began or changed, counting a transition the arbiter still holds back.
  var isActive: Bool { effectiveState == .began || effectiveState == .changed }
}
