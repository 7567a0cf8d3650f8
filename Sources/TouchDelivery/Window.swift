/// The root of one screen's view tree (UIKit's `UIWindow`); its next responder is the application.
open class Window: View {
  /// The application the window belongs to, set by ``Application/addWindow(_:)``.
  public internal(set) weak var application: Application?

  open override var next: Responder? { application }
  open override var window: Window? { self }

  /// Delivers the event's touches that belong to this window to recognizers and views.
  open func sendEvent(_ event: TouchEvent) {
    application?.gestureArbiter.deliver(event, in: self)
  }
}
