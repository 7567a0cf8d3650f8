import TouchdInput

/// The application (UIKit's `UIApplication`): owns the windows, the clock and the current event,
/// and is the last responder in every chain.
open class Application: Responder {
  /// The pipeline clock every recognizer timeout is scheduled on.
  public let clock: TouchClock
  /// Windows, front to back.
  public private(set) var windows: [Window] = []
  let gestureArbiter = GestureArbiter()

  public init(clock: TouchClock) {
    self.clock = clock
    super.init()
  }

  /// Adds a window behind those already added (windows are front to back).
  public func addWindow(_ window: Window) {
    windows.append(window)
    window.application = self
  }

  /// Passes the event to each window that has touches in it (UIKit's `sendEvent`).
  open func sendEvent(_ event: TouchEvent) {
    for window in windows where event.allTouches.contains(where: { $0.window === window }) {
      window.sendEvent(event)
    }
  }
}
