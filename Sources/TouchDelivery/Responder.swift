/// An object that can handle touches (UIKit's `UIResponder`).
///
/// The default touches methods forward to ``next``, so a touch delivered to a view that does not
/// handle it walks up the responder chain: view → superview (or its view controller) → window →
/// application.
open class Responder {
  public init() {}

  /// The next responder in the chain, or nil at its end.
  open var next: Responder? { nil }

  open func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    next?.touchesBegan(touches, with: event)
  }
  open func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    next?.touchesMoved(touches, with: event)
  }
  open func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    next?.touchesEnded(touches, with: event)
  }
  open func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    next?.touchesCancelled(touches, with: event)
  }
}
