import TouchDelivery
import TouchdInput

/// A scene view that reports the touches methods it handles (the scene's `touches: true`): the
/// view, the phase of the call and its touches. ``SceneView`` and ``SceneScrollView`` conform.
public protocol TouchesReporting: AnyObject {
  var onTouches: ((TouchDelivery.View, TouchPhase, Set<Touch>) -> Void)? { get set }
}

/// A scene's view. With `touches: true` it handles the touches methods itself and reports each
/// call through ``onTouches``; otherwise it forwards them up the responder chain, as `UIView` does.
public final class SceneView: TouchDelivery.View, TouchesReporting {
  /// Whether the view handles the touches methods (the scene's `touches` key).
  public let handlesTouches: Bool
  /// Called for each touches method the view handles: the phase of the call and its touches.
  public var onTouches: ((TouchDelivery.View, TouchPhase, Set<Touch>) -> Void)?

  public init(frame: Rect, handlesTouches: Bool) {
    self.handlesTouches = handlesTouches
    super.init(frame: frame)
  }

  public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesBegan(touches, with: event) }
    onTouches?(self, .began, touches)
  }

  public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesMoved(touches, with: event) }
    onTouches?(self, .moved, touches)
  }

  public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesEnded(touches, with: event) }
    onTouches?(self, .ended, touches)
  }

  public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesCancelled(touches, with: event) }
    onTouches?(self, .cancelled, touches)
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

/// A scene view with `scroll:`: a ``ScrollView`` whose subviews are its content. With
/// `touches: true` it handles the touches methods itself, as ``SceneView`` does.
public final class SceneScrollView: ScrollView, TouchesReporting {
  /// Whether the view handles the touches methods (the scene's `touches` key).
  public let handlesTouches: Bool
  /// Called for each touches method the view handles: the phase of the call and its touches.
  public var onTouches: ((TouchDelivery.View, TouchPhase, Set<Touch>) -> Void)?

  public init(frame: Rect, handlesTouches: Bool) {
    self.handlesTouches = handlesTouches
    super.init(frame: frame)
  }

  public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesBegan(touches, with: event) }
    onTouches?(self, .began, touches)
  }

  public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesMoved(touches, with: event) }
    onTouches?(self, .moved, touches)
  }

  public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesEnded(touches, with: event) }
    onTouches?(self, .ended, touches)
  }

  public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    guard handlesTouches else { return super.touchesCancelled(touches, with: event) }
    onTouches?(self, .cancelled, touches)
  }
}
