/// The root of one screen's view tree (UIKit's `UIWindow`); its next responder is the application.
open class Window: View {
  /// The application the window belongs to, set by ``Application/addWindow(_:)``.
  @exclusivity(unchecked) public internal(set) weak var application: Application?

  open override var next: Responder? { application }
  open override var window: Window? { self }

  /// The view that gets the window's presses first (UIKit's first responder, made so by
  /// `becomeFirstResponder()`); nil, or a view no longer in this window, sends them to the window.
  public weak var firstResponder: View?

  /// The hover recognizers a hovering pen is over (``Application/hover(_:touching:in:)``).
  @exclusivity(unchecked) var hovering: [HoverGestureRecognizer] = []

  /// The responder a press that begins now goes to: ``firstResponder`` while it is in this
  /// window, else the window.
  public var pressResponder: Responder {
    if let view = firstResponder, view.window === self { return view }
    return self
  }

  /// Delivers the event's changed touches in this window (UIKit's `UIWindow.sendEvent`):
  ///
  /// 1. A new touch is admitted unless exclusiveTouch blocks it (it hit an exclusive view while
  ///    another view has touches, or any other view while an exclusive view has touches); a
  ///    blocked touch reaches neither views nor recognizers. An admitted touch goes to the
  ///    recognizers of its hit-test view and the view's ancestors (enabled, undecided, and allowed
  ///    by their delegates' `shouldReceive`), and to the view unless the view is not
  ///    `isMultipleTouchEnabled` and already has a touch.
  /// 2. Recognizers get the touches first, one touches call per phase; their state changes are
  ///    arbitrated after each call (see ``GestureRecognizer``).
  /// 3. Views then get the touches not taken by a recognizer and not held back by
  ///    `delaysTouchesBegan` / `delaysTouchesEnded`, one call per view and phase; a view that does
  ///    not override a touches method passes it up the responder chain.
  /// 4. Decided recognizers whose touches are all gone are reset.
  open func sendEvent(_ event: TouchEvent) {
    application?.gestureArbiter.deliver(event, in: self)
  }
}
