import TouchdCore

/// Answers the questions UIKit's `UIGestureRecognizerDelegate` answers. Every method is optional:
/// the defaults are UIKit's (begin: yes, receive: yes, simultaneously: no, failure requirements: no).
public protocol GestureRecognizerDelegate: AnyObject {
  /// Asked before the recognizer leaves `.possible`; false makes it fail.
  func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
  /// Asked before a new touch is delivered to the recognizer; false hides the touch from it.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool
  /// True lets both recognize at once (either side's true suffices).
  func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
  ) -> Bool
  /// True makes `recognizer` wait for `other` to fail, as `require(toFail:)`, for this attempt.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
  /// True makes `other` wait for `recognizer` to fail, for this attempt.
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureRecognizerDelegate {
  public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
  public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
  public func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
  ) -> Bool { false }
  public func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer
  ) -> Bool { false }
  public func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer
  ) -> Bool { false }
}

/// The base of every gesture recognizer (UIKit's `UIGestureRecognizer`, including the
/// `UIGestureRecognizerSubclass` contract).
///
/// # Subclassing
/// Override the touches methods (they receive only the touches delivered to this recognizer) and
/// set ``state``: a discrete gesture goes `.possible → .ended` (or `.failed`); a continuous one
/// `.possible → .began → .changed… → .ended` (or `.cancelled`), or `.possible → .failed`. Override
/// ``reset()`` to clear per-attempt state (call super). Schedule timeouts only with
/// ``schedule(after:_:)`` so replays are deterministic.
///
/// # Delivery
/// The window delivers each new touch to the recognizers of its hit-test view and the view's
/// ancestors before the view itself. The application's gesture arbitration decides when a state
/// change takes effect (a recognizer that requires another to fail waits), fires the actions,
/// cancels touches in views, forces competitors to fail and resets recognizers when their touches
/// are gone: a recognizer in `.ended`, `.cancelled` or `.failed` gets no touches and is reset to
/// `.possible` (``reset()`` is called) at the end of the first delivery or timer turn in which
/// every touch it received has ended or been cancelled. See docs/delivery.md.
open class GestureRecognizer {
  /// UIKit's `UIGestureRecognizer.State`.
  public enum State: String, Sendable, Hashable, CaseIterable {
    case possible, began, changed, ended, cancelled, failed
    /// A discrete gesture's success: the same as `.ended`.
    public static let recognized = State.ended
  }

  /// A handle that removes an action added with ``addAction(_:)``.
  public struct ActionID: Hashable, Sendable {
    let rawValue: Int
  }

  public init() {}

  /// The view the recognizer is attached to.
  @exclusivity(unchecked) public internal(set) weak var view: View?

  /// The state as its owner sees it. Subclasses set it to report progress; the arbitration may
  /// hold a transition back (the recognizer then stays `.possible` until the transition applies)
  /// or refuse it (delegate's shouldBegin false → `.failed`).
  ///
  /// Valid transitions: `.possible → .began | .ended | .failed`, `.began | .changed → .changed |
  /// .ended | .cancelled`; any other assignment is ignored. In an application a request takes
  /// effect when the touches method (or timer action) that made it returns: the arbitration then
  /// applies it, fires the actions, cancels touches in views and fails competitors. A recognizer
  /// whose view is in no application applies valid requests at once and fires its actions.
  open var state: State {
    get { _state }
    set { requestState(newValue, cause: nil) }
  }

  /// Sets ``state`` and says why, for the trace (`touchctl replay --explain`, the daemon's `trace`
  /// messages): "moved 46.2 pt > allowableMovement 45". The cause is only built while the
  /// application has a ``Application/tracer``.
  public func setState(_ newState: State, because cause: @autoclosure () -> String) {
    requestState(newState, cause: isTracing ? cause() : nil)
  }

  /// Whether the application this recognizer is in records a trace.
  public var isTracing: Bool { view?.window?.application?.tracer != nil }
  @exclusivity(unchecked) var _state: State = .possible
  /// A requested transition and, while a tracer listens, why it was requested.
  struct StateRequest {
    var state: State
    var cause: String?
  }
  /// Requested transitions not applied yet, oldest first (a recognition waiting for a failure
  /// requirement, or changes made during a touches method).
  @exclusivity(unchecked) var pendingStates: [StateRequest] = []
  /// The recognizer a waiting recognition last reported waiting for (trace only).
  @exclusivity(unchecked) var waitingFor: GestureRecognizer?
  /// Every touch delivered to the recognizer since its last reset, including ended ones and those
  /// it no longer receives because it failed: the touches its recognition takes from views.
  @exclusivity(unchecked) var attemptTouches: [Touch] = []

  /// A disabled recognizer receives no touches; disabling one mid-gesture cancels it (after
  /// `.began`) or fails it (while `.possible` with touches).
  public var isEnabled = true {
    didSet { if oldValue && !isEnabled { disable() } }
  }
  /// When the gesture is recognized, the views get `touchesCancelled` for its touches (UIKit default true).
  public var cancelsTouchesInView = true
  /// Holds `touchesBegan` (and later phases) back from the view until this recognizer fails (default false).
  public var delaysTouchesBegan = false
  /// Holds `touchesEnded` back from the view until this recognizer fails or is recognized (default true).
  public var delaysTouchesEnded = true
  public weak var delegate: GestureRecognizerDelegate?
  /// The scene's recognizer id; used in messages and diagnostics.
  public var name: String?

  /// Recognizers that must fail before this one may leave `.possible` (`require(toFail:)`).
  public internal(set) var failureRequirements: [GestureRecognizer] = []

  /// Whether the recognizer takes touches at all (a hover recognizer follows a pen that makes none).
  var takesTouches: Bool { true }

  /// The touch types delivered to the recognizer (UIKit's `allowedTouchTypes`; default every
  /// type): a touch of another type is not, as if its delegate's `shouldReceive` said no.
  public var allowedTouchTypes: Set<TouchType> = TouchType.all
  /// Once the recognizer has a touch of one type, touches of other types are not delivered to it
  /// until it resets (UIKit's `requiresExclusiveTouchType`; default true: "the gesture recognizer
  /// ignores touches of a different type than the ones it is currently processing").
  public var requiresExclusiveTouchType = true

  /// The press types the recognizer also recognizes (UIKit's `allowedPressTypes`; default none):
  /// a press of one of them, to a responder on this recognizer's view or below, is delivered to
  /// it as touches are. Its recognition takes the press from the responder when
  /// ``cancelsTouchesInView`` (Apple's documentation of `cancelsTouchesInView`: "…touches or
  /// presses…").
  public var allowedPressTypes: [PressType] = []
  /// The presses currently delivered to this recognizer, in the order they began.
  @exclusivity(unchecked) public internal(set) var trackedPresses: [Press] = []
  /// Every press delivered since the last reset (as ``attemptTouches``).
  @exclusivity(unchecked) var attemptPresses: [Press] = []

  /// The touches currently delivered to this recognizer, in the order they began.
  @exclusivity(unchecked) public internal(set) var trackedTouches: [Touch] = []
  /// The location reported when no touch is tracked any more (UIKit keeps the last one).
  @exclusivity(unchecked) var lastLocationInWindow: Point?

  @exclusivity(unchecked) var actions: [(id: Int, action: (GestureRecognizer) -> Void)] = []
  private var nextActionID = 0

  /// Adds an action, called on `.began`, every `.changed`, `.ended` and `.cancelled`; never on `.failed`.
  @discardableResult
  public func addAction(_ action: @escaping (GestureRecognizer) -> Void) -> ActionID {
    nextActionID += 1
    actions.append((nextActionID, action))
    return ActionID(rawValue: nextActionID)
  }

  public func removeAction(_ id: ActionID) {
    actions.removeAll { $0.id == id.rawValue }
  }

  /// Makes this recognizer wait until `other` fails before it can recognize (UIKit's `require(toFail:)`).
  public func require(toFail other: GestureRecognizer) {
    guard other !== self, !failureRequirements.contains(where: { $0 === other }) else { return }
    failureRequirements.append(other)
  }

  /// Undoes `require(toFail: other)`: for a scene whose recognizer `other` was replaced or
  /// removed (UIKit has no such call; an app there makes a new recognizer instead).
  public func removeFailureRequirement(_ other: GestureRecognizer) {
    failureRequirements.removeAll { $0 === other }
  }

  /// The number of touches the recognizer is tracking. A discrete recognizer reports the touches of
  /// the gesture it recognized (a two-finger tap: 2) also after they lifted.
  open var numberOfTouches: Int { trackedTouches.count }

  /// The centroid of the tracked touches in `view`'s coordinates (the window's when nil); with no
  /// tracked touch, the last location it had.
  open func location(in view: View?) -> Point {
    let windowPoint: Point
    if trackedTouches.isEmpty {
      windowPoint = lastLocationInWindow ?? .zero
    } else {
      var sx = 0.0
      var sy = 0.0
      for t in trackedTouches {
        sx += t.locationInWindow.x
        sy += t.locationInWindow.y
      }
      let n = Double(trackedTouches.count)
      windowPoint = Point(x: sx / n, y: sy / n)
    }
    guard let view else { return windowPoint }
    return view.convert(windowPoint, from: nil)
  }

  /// The location of the tracked touch at `index` (in the order touches began).
  public func location(ofTouch index: Int, in view: View?) -> Point {
    trackedTouches[index].location(in: view)
  }

  // MARK: Subclass contract

  open func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {}
  open func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {}
  open func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {}
  open func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {}

  // Presses: delivered only to recognizers whose ``allowedPressTypes`` has the press's type.
  open func pressesBegan(_ presses: Set<Press>, with event: PressesEvent) {}
  open func pressesChanged(_ presses: Set<Press>, with event: PressesEvent) {}
  open func pressesEnded(_ presses: Set<Press>, with event: PressesEvent) {}
  open func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent) {}

  /// Called when a recognition (`.possible → .began` or `.ended`) takes effect, which may be later
  /// than it was requested when it waited for a failure requirement. Subclasses that measure from
  /// the start of the gesture re-base here (a pan's translation starts from zero).
  open func recognitionApplied() {}

  /// Clears per-attempt state; called when the recognizer returns to `.possible` after its touches
  /// are gone (or it finished). Subclasses call super.
  open func reset() {}

  /// Stops delivering `touch` to this recognizer (UIKit's `ignore(_:for:)`); the touch is no
  /// longer part of its gesture, so its recognition will not cancel the touch in the view.
  public func ignore(_ touch: Touch, for event: TouchEvent) {
    stopTracking(touch)
    attemptTouches.removeAll { $0 === touch }
    touch.gestureRecognizers.removeAll { $0 === self }
  }

  /// Whether this recognizer, when it recognizes, may force `other` to fail (default true).
  open func canPrevent(_ other: GestureRecognizer) -> Bool { true }
  /// Whether `other`, when it recognizes, may force this recognizer to fail (default true).
  open func canBePrevented(by other: GestureRecognizer) -> Bool { true }
  /// Subclass hook: true makes this recognizer wait for `other` to fail (default false).
  open func shouldRequireFailure(of other: GestureRecognizer) -> Bool { false }
  /// Subclass hook: true makes `other` wait for this recognizer to fail (default false).
  open func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { false }

  // MARK: Time

  /// The pipeline clock (the application's), once the recognizer's view is in a window of an application.
  public var clock: TouchClock? { view?.window?.application?.clock }

  /// Schedules `action` `delay` seconds from now on the pipeline clock. After it runs, the
  /// arbitration applies any state the action set, exactly as after a touch delivery.
  /// Returns nil when the recognizer is not in an application (nothing is scheduled).
  @discardableResult
  public func schedule(after delay: Double, _ action: @escaping () -> Void) -> ScheduledTimer? {
    guard let app = view?.window?.application else { return nil }
    return app.clock.schedule(at: app.clock.now + delay) { [weak app] in
      action()
      app?.gestureArbiter.recognizerTimerFired()
    }
  }
}
