import TouchDelivery
import TouchdInput

/// Reports the touches and presses methods a scene view handles (the scene's `touches: true` and
/// `presses: true`). It is the view's ``ViewController``: next after the view in the responder
/// chain, so it hears every touches call the view does not handle itself (a plain view or scroll
/// view forwards them; a control handles its touches and forwards its presses), including those
/// of subviews that pass theirs up. What it does not report it forwards to the superview, as
/// `UIView` does.
final class SceneResponder: ViewController {
  /// Whether the view handles the touches methods (the scene's `touches` key).
  let handlesTouches: Bool
  /// Whether the view handles the presses methods (the scene's `presses` key).
  let handlesPresses: Bool
  /// Called for each touches method handled: the view, the phase of the call and its touches.
  var onTouches: ((TouchDelivery.View, TouchPhase, Set<Touch>) -> Void)?
  /// Called for each presses method handled: the view, the phase of the call and its presses.
  var onPresses: ((TouchDelivery.View, PressPhase, Set<Press>) -> Void)?

  init(view: TouchDelivery.View, touches: Bool, presses: Bool) {
    handlesTouches = touches
    handlesPresses = presses
    super.init(view: view)
  }

  private func touches(_ phase: TouchPhase, _ touches: Set<Touch>) -> Bool {
    guard handlesTouches, let view else { return false }
    onTouches?(view, phase, touches)
    return true
  }

  private func presses(_ phase: PressPhase, _ presses: Set<Press>) -> Bool {
    guard handlesPresses, let view else { return false }
    onPresses?(view, phase, presses)
    return true
  }

  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    if !self.touches(.began, touches) { super.touchesBegan(touches, with: event) }
  }
  override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    if !self.touches(.moved, touches) { super.touchesMoved(touches, with: event) }
  }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if !self.touches(.ended, touches) { super.touchesEnded(touches, with: event) }
  }
  override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    if !self.touches(.cancelled, touches) { super.touchesCancelled(touches, with: event) }
  }
  override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent) {
    if !self.presses(.began, presses) { super.pressesBegan(presses, with: event) }
  }
  override func pressesChanged(_ presses: Set<Press>, with event: PressesEvent) {
    if !self.presses(.changed, presses) { super.pressesChanged(presses, with: event) }
  }
  override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent) {
    if !self.presses(.ended, presses) { super.pressesEnded(presses, with: event) }
  }
  override func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent) {
    if !self.presses(.cancelled, presses) { super.pressesCancelled(presses, with: event) }
  }
}

/// Answers "recognize simultaneously" for the scene's `simultaneousWith` pairs (either side listing
/// the other suffices).
final class SimultaneityDelegate: GestureRecognizerDelegate {
  private var pairs: Set<[ObjectIdentifier]> = []

  func allow(_ a: GestureRecognizer, _ b: GestureRecognizer) {
    pairs.insert([ObjectIdentifier(a), ObjectIdentifier(b)])
    pairs.insert([ObjectIdentifier(b), ObjectIdentifier(a)])
  }

  /// Drops every pair with `recognizer`, which left the scene (its identifier may be reused).
  func forget(_ recognizer: GestureRecognizer) {
    let id = ObjectIdentifier(recognizer)
    pairs = pairs.filter { !$0.contains(id) }
  }

  func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
  ) -> Bool {
    pairs.contains([ObjectIdentifier(recognizer), ObjectIdentifier(other)])
  }
}

/// Whether `text` matches the shell glob `pattern` (`*`, `?`, `[abc]`, `[a-z]`, `[!a]`).
func globMatch(_ pattern: String, _ text: String) -> Bool {
  let p = Array(pattern)
  let t = Array(text)
  func match(_ pi: Int, _ ti: Int) -> Bool {
    if pi == p.count { return ti == t.count }
    switch p[pi] {
    case "*":
      var k = ti
      while k <= t.count {
        if match(pi + 1, k) { return true }
        k += 1
      }
      return false
    case "?":
      return ti < t.count && match(pi + 1, ti + 1)
    case "[":
      guard ti < t.count, let close = p[(pi + 1)...].firstIndex(of: "]"), close > pi + 1 else {
        return ti < t.count && t[ti] == "[" && match(pi + 1, ti + 1)
      }
      var set = Array(p[(pi + 1)..<close])
      let negate = set.first == "!" || set.first == "^"
      if negate { set.removeFirst() }
      var found = false
      var i = 0
      while i < set.count {
        if i + 2 < set.count, set[i + 1] == "-" {
          if set[i] <= t[ti] && t[ti] <= set[i + 2] { found = true }
          i += 3
        } else {
          if set[i] == t[ti] { found = true }
          i += 1
        }
      }
      return found != negate && match(close + 1, ti + 1)
    default:
      return ti < t.count && p[pi] == t[ti] && match(pi + 1, ti + 1)
    }
  }
  return match(0, 0)
}
