/// The two-finger bookkeeping that pinch and rotation share: the first two touches that land are
/// the pair, a third concurrent one is ignored. After a lift, the next finger to land takes the
/// free place (before the gesture began and while it is active). An active gesture ends when its
/// last finger lifts and is cancelled when a touch is cancelled; a recognizer whose fingers all
/// lifted before it began fails.
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

  /// Takes new touches into the pair while `recognizer` is possible or active and a place is free,
  /// ignoring the rest (`ignore(_:for:)`). Returns true when the pair became complete in this call:
  /// the caller takes its reference (before `.began`) or re-anchors it so the value continues.
  mutating func add(_ touches: Set<Touch>, with event: TouchEvent, to recognizer: GestureRecognizer) -> Bool {
    var formed = false
    let accepting = recognizer.effectiveState == .possible || recognizer.isActive
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      if down.count < 2 && accepting {
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

  /// Removes lifted (or cancelled) touches and sets the recognizer's state: when it was active,
  /// `.cancelled` for a cancelled touch and `.ended` once no finger is left (one finger left keeps
  /// it active); when it was possible, `.failed` once no finger is left.
  mutating func remove(_ touches: Set<Touch>, from recognizer: GestureRecognizer, cancelled: Bool) {
    lastLocation = down.centroid ?? lastLocation
    for touch in touches { down.remove(touch) }
    if recognizer.isActive {
      if cancelled {
        recognizer.setState(.cancelled, because: "a touch was cancelled")
      } else if down.isEmpty {
        recognizer.setState(.ended, because: "all fingers lifted")
      }
    } else if recognizer.effectiveState == .possible && down.isEmpty {
      recognizer.setState(
        .failed, because: cancelled ? "a touch was cancelled before it began" : "all fingers lifted before it began")
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
