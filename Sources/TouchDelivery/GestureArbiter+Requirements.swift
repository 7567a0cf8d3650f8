// GestureArbiter: whether a recognition may apply: failure requirements (`require(toFail:)` and the
// dynamic ones), exclusion by active recognizers, and `gestureRecognizerShouldBegin`.

import TouchdCore

extension GestureArbiter {
  enum Gate {
    case go
    case wait(GestureRecognizer)
    /// Fails, with the cause (built only while tracing).
    case fail(String?)
  }

  func gate(_ r: GestureRecognizer) -> Gate {
    for other in requirements(of: r) where other !== r && participants.contains(where: { $0 === other }) {
      switch other._state {
      case .possible: return .wait(other)
      case .failed: continue
      default:
        return .fail(tracer == nil ? nil : "required '\(other.traceName)' \(other.outcomeText)")
      }
    }
    for other in participants
    where other !== r && (other._state == .began || other._state == .changed)
      && (shares(other, r) || related(other, r)) && prevents(other, r)
    {
      return .fail(tracer == nil ? nil : "excluded by '\(other.traceName)' (active)")
    }
    if let delegate = r.delegate, !delegate.gestureRecognizerShouldBegin(r) {
      return .fail("delegate gestureRecognizerShouldBegin false")
    }
    if let view = r.view, !view.gestureRecognizerShouldBegin(r) {
      return .fail("view '\(view.traceName)' gestureRecognizerShouldBegin false")
    }
    // The views the recognizer's touches landed on are asked too (Apple's documentation of
    // `UIView.gestureRecognizerShouldBegin(_:)`: "the UISlider class uses this method to prevent
    // swipes parallel to the slider's travel direction and that start in the thumb", which are
    // recognizers of a superview): how a control's default action wins (the iOS 6 rule).
    for touch in r.attemptTouches {
      guard let hit = touch.view, hit !== r.view, !hit.gestureRecognizerShouldBegin(r) else { continue }
      return .fail(
        tracer == nil
          ? nil
          : hit is Control
            ? "control '\(hit.traceName)' gestureRecognizerShouldBegin false (its default action wins)"
            : "view '\(hit.traceName)' of its touch: gestureRecognizerShouldBegin false")
    }
    return .go
  }

  /// `require(toFail:)` plus the dynamic requirements among the recognizers in play.
  private func requirements(of r: GestureRecognizer) -> [GestureRecognizer] {
    var result = r.failureRequirements
    for other in participants where other !== r && !result.contains(where: { $0 === other }) {
      if r.shouldRequireFailure(of: other) || other.shouldBeRequiredToFail(by: r)
        || r.delegate?.gestureRecognizer(r, shouldRequireFailureOf: other) == true
        || other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: r) == true
      {
        result.append(other)
      }
    }
    return result
  }

  /// Whether `winner`'s recognition forces `loser` to fail.
  func prevents(_ winner: GestureRecognizer, _ loser: GestureRecognizer) -> Bool {
    if winner.delegate?.gestureRecognizer(winner, shouldRecognizeSimultaneouslyWith: loser) == true { return false }
    if loser.delegate?.gestureRecognizer(loser, shouldRecognizeSimultaneouslyWith: winner) == true { return false }
    return winner.canPrevent(loser) && loser.canBePrevented(by: winner)
  }

  func shares(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
    a.attemptTouches.contains { t in b.attemptTouches.contains { $0 === t } }
      || a.attemptPresses.contains { p in b.attemptPresses.contains { $0 === p } }
  }

  /// Whether the recognizers' views are the same or one contains the other: an active recognizer
  /// excludes a related one even without a shared touch (UIKit: a pinch in progress on a photo
  /// keeps a tap on a button inside the photo from firing; measured on iOS, see docs/delivery.md).
  private func related(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
    guard let va = a.view, let vb = b.view else { return false }
    return va.isDescendant(of: vb) || vb.isDescendant(of: va)
  }
}
