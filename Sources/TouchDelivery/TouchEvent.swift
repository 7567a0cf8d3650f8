/// One multitouch sequence (UIKit's `UIEvent` of type touches).
///
/// The same instance is delivered for the whole sequence, from the first finger down to the last
/// finger up, each time the finger configuration changes; the next sequence gets a new instance.
/// An event in which every touch is stationary is not delivered.
public final class TouchEvent {
  /// Every touch of the sequence that is still down (stationary ones included), plus those that
  /// ended or were cancelled in the current delivery. Touches that began while the application
  /// was ignoring interaction, or hit no view, are not part of any event.
  @exclusivity(unchecked) public internal(set) var allTouches: Set<Touch> = []
  /// The time of the latest change, in seconds on the pipeline clock.
  @exclusivity(unchecked) public internal(set) var timestamp: Double = 0
  /// While a new touch is hit-tested, its type: views whose ``View/touchTypes`` lack it are not
  /// hit. nil otherwise.
  @exclusivity(unchecked) public internal(set) var hitTestingType: TouchType?

  public init() {}

  /// The touches whose hit-test view is `view`.
  public func touches(for view: View) -> Set<Touch> {
    allTouches.filter { $0.view === view }
  }

  /// The touches that landed in `window`.
  public func touches(for window: Window) -> Set<Touch> {
    allTouches.filter { $0.window === window }
  }

  /// The touches being delivered to `recognizer`.
  public func touches(for recognizer: GestureRecognizer) -> Set<Touch> {
    allTouches.filter { touch in touch.gestureRecognizers.contains { $0 === recognizer } }
  }
}
