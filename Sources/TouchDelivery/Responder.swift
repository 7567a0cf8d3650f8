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

  // Presses (UIResponder's presses methods; seed 000 lists them beside the touches methods). The
  // defaults forward to ``next``, so a press the first responder does not handle walks up the chain.

  open func pressesBegan(_ presses: Set<Press>, with event: PressesEvent) {
    next?.pressesBegan(presses, with: event)
  }
  open func pressesChanged(_ presses: Set<Press>, with event: PressesEvent) {
    next?.pressesChanged(presses, with: event)
  }
  open func pressesEnded(_ presses: Set<Press>, with event: PressesEvent) {
    next?.pressesEnded(presses, with: event)
  }
  open func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent) {
    next?.pressesCancelled(presses, with: event)
  }
}

/// A responder that manages a view (UIKit's `UIViewController`) and sits in the responder chain
/// between its view and the view's superview: view → view controller → superview.
open class ViewController: Responder {
  /// The managed view; it holds the controller (``View/viewController``), the controller holds it weakly.
  public private(set) weak var view: View?

  /// Makes this controller the view's ``View/viewController``.
  public init(view: View) {
    self.view = view
    super.init()
    view.viewController = self
  }

  /// The view's superview (its window when the view is a window's root view).
  open override var next: Responder? { view?.superview }
}
