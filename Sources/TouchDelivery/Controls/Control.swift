import TouchdCore

/// A view that turns touches into control events (UIKit's `UIControl`): a button, switch, slider,
/// stepper or segmented control.
///
/// # Tracking (UIControl.h, Apple's "UIControl" documentation)
/// A control tracks the first touch that lands on it. At touch-down ``beginTracking(_:with:)``
/// decides whether to track; if so the control is ``isHighlighted`` and sends ``ControlEvents/touchDown``
/// (and ``ControlEvents/touchDownRepeat`` when the touch's `tapCount` is above one). Each move asks
/// ``continueTracking(_:with:)`` and sends touchDragInside or touchDragOutside, with touchDragEnter
/// or touchDragExit when the finger crossed the edge of the tracking area; `highlighted` follows
/// the finger in and out. The lift calls ``endTracking(_:with:)`` and sends touchUpInside or
/// touchUpOutside; a cancelled touch calls ``cancelTracking(with:)`` and sends touchCancel. The
/// tracking area is the bounds grown by ``ControlConstants/touchInsideTolerance`` (70 pt).
///
/// A control handles its touches itself: it never passes them up the responder chain, and a
/// disabled control (``isEnabled`` false) is still hit but sends no events and passes nothing on.
///
/// # Controls and gesture recognizers
/// Since iOS 6 a control's default action wins over an overlapping recognizer of a superview
/// (Apple's documentation, "Event Handling Guide for iOS": "In iOS 6.0 and later, default control
/// actions prevent overlapping gesture recognizer behavior"). The arbitration asks the view of each
/// touch of a recognizer about to begin (``View/gestureRecognizerShouldBegin(_:)``; Apple: "the
/// UISlider class uses this method to prevent swipes parallel to the slider's travel direction and
/// that start in the thumb"), and an enabled control answers false for the recognizers
/// ``defaultActionPrevents(_:)`` names.
open class Control: View {
  /// UIControl.isEnabled (default true). Disabling a tracking control stops the tracking without
  /// further events.
  open var isEnabled = true {
    didSet {
      guard isEnabled != oldValue else { return }
      if !isEnabled && trackingTouch != nil { stopTracking() }
      stateChanged()
    }
  }
  /// UIControl.isSelected (default false).
  open var isSelected = false {
    didSet { if isSelected != oldValue { stateChanged() } }
  }
  /// UIControl.isHighlighted: true while a tracked touch is inside the tracking area.
  open internal(set) var isHighlighted = false {
    didSet { if isHighlighted != oldValue { stateChanged() } }
  }
  /// Whether the control is tracking a touch (``beginTracking(_:with:)`` said yes).
  public private(set) var isTracking = false
  /// Whether the tracked touch is inside the tracking area.
  public private(set) var isTouchInside = false
  /// The touch being tracked.
  public private(set) weak var trackingTouch: Touch?

  /// Called after each group of visible state changes (``isEnabled``, ``isSelected``,
  /// ``isHighlighted`` and a subclass's value), before the control events they lead to are sent.
  public var onStateChange: ((Control) -> Void)?

  private var targets: [(events: ControlEvents, action: (Control, ControlEvents) -> Void)] = []
  private var stateDirty = false
  private var batchDepth = 0

  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
  }

  /// Calls `action` with the control and the single event for each of `events` the control sends
  /// (UIKit's `addTarget(_:action:for:)`).
  public func addAction(for events: ControlEvents, _ action: @escaping (Control, ControlEvents) -> Void) {
    targets.append((events, action))
  }

  /// Sends `events`, one at a time in UIKit's bit order, to the actions registered for each
  /// (UIKit's `sendActions(for:)`). State changes not yet reported are reported first.
  open func sendActions(for events: ControlEvents) {
    flushState()
    for (event, _) in ControlEvents.named where events.contains(event) {
      for target in targets where target.events.contains(event) { target.action(self, event) }
    }
  }

  /// Sends valueChanged and primaryActionTriggered: value controls trigger their primary action
  /// with each user change of value (UIControl.h, iOS 14's `init(frame:primaryAction:)`: "the
  /// primary action … is triggered on .primaryActionTriggered", which UISwitch, UISlider, UIStepper
  /// and UISegmentedControl send with .valueChanged).
  public func sendValueChanged() {
    sendActions(for: [.valueChanged, .primaryActionTriggered])
  }

  // MARK: Tracking (subclass contract)

  /// Whether to track `touch`, which just landed on the control (default true).
  open func beginTracking(_ touch: Touch, with event: TouchEvent) -> Bool { true }
  /// Whether to go on tracking `touch`, which moved (default true).
  open func continueTracking(_ touch: Touch, with event: TouchEvent) -> Bool { true }
  /// The tracked touch lifted; ``isTouchInside`` tells where.
  open func endTracking(_ touch: Touch, with event: TouchEvent) {}
  /// The tracked touch was cancelled.
  open func cancelTracking(with event: TouchEvent?) {}
  /// The events sent when the tracked touch lifts: touchUpInside or touchUpOutside.
  open func touchUpEvents(inside: Bool) -> ControlEvents { inside ? .touchUpInside : .touchUpOutside }

  /// Whether the control's default action prevents `recognizer`, of a superview, from beginning
  /// (the iOS 6 rule; default false).
  open func defaultActionPrevents(_ recognizer: GestureRecognizer) -> Bool { false }

  /// Whether `recognizer` is a single one-finger tap: the default action of a button, switch,
  /// stepper and segmented control (Apple's Event Handling Guide lists "a single finger single tap"
  /// on these).
  public static func isSingleOneFingerTap(_ recognizer: GestureRecognizer) -> Bool {
    guard let tap = recognizer as? TapGestureRecognizer else { return false }
    return tap.numberOfTapsRequired == 1 && tap.numberOfTouchesRequired == 1
  }

  open override func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
    guard recognizer.view !== self, isEnabled else { return true }
    return !defaultActionPrevents(recognizer)
  }

  /// Whether `touch` is inside the tracking area: the bounds grown by
  /// ``ControlConstants/touchInsideTolerance``.
  open func isInsideTrackingArea(_ touch: Touch) -> Bool {
    bounds.insetBy(-ControlConstants.touchInsideTolerance).contains(touch.location(in: self))
  }

  // MARK: Touches

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    guard isEnabled, trackingTouch == nil, let touch = touches.min(by: { $0.id < $1.id }) else { return }
    batch {
      trackingTouch = touch
      isTouchInside = true
      isTracking = beginTracking(touch, with: event)
      let events: ControlEvents = !isTracking ? [] : touch.tapCount > 1 ? [.touchDown, .touchDownRepeat] : .touchDown
      trace(touch, .began, events)
      guard isTracking else { return }
      isHighlighted = true
      sendActions(for: events)
    }
  }

  /// Tells the application's tracer how tracking went (`touchctl replay --explain`).
  private func trace(_ touch: Touch, _ phase: TouchPhase, _ events: ControlEvents) {
    window?.application?.tracer?(
      .controlTracking(self, touch: touch, phase: phase, tracking: isTracking, events: events))
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    guard isEnabled, let touch = trackingTouch, touches.contains(touch), isTracking else { return }
    batch {
      let wasInside = isTouchInside
      isTouchInside = isInsideTrackingArea(touch)
      isHighlighted = isTouchInside
      isTracking = continueTracking(touch, with: event)
      var events: ControlEvents = isTouchInside ? .touchDragInside : .touchDragOutside
      if isTouchInside && !wasInside { events.insert(.touchDragEnter) }
      if !isTouchInside && wasInside { events.insert(.touchDragExit) }
      if !isTracking { events = [] }
      trace(touch, .moved, events)
      guard isTracking else { return }
      sendActions(for: events)
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    guard isEnabled, let touch = trackingTouch, touches.contains(touch) else { return }
    batch {
      isTouchInside = isInsideTrackingArea(touch)
      isHighlighted = false
      if isTracking {
        endTracking(touch, with: event)
        let events = touchUpEvents(inside: isTouchInside)
        trace(touch, .ended, events)
        sendActions(for: events)
      }
      stopTracking()
    }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    guard isEnabled, let touch = trackingTouch, touches.contains(touch) else { return }
    batch {
      isHighlighted = false
      if isTracking {
        cancelTracking(with: event)
        trace(touch, .cancelled, .touchCancel)
        sendActions(for: .touchCancel)
      }
      stopTracking()
    }
  }

  private func stopTracking() {
    let wasTracking = isTracking
    isTracking = false
    isTouchInside = false
    trackingTouch = nil
    isHighlighted = false
    if wasTracking { trackingDidStop() }
  }

  /// Called whenever tracking stops (lift, cancel, disabled): subclasses stop their timers.
  open func trackingDidStop() {}

  // MARK: State changes

  /// Subclasses call this when a visible property changes.
  public func stateChanged() {
    stateDirty = true
    if batchDepth == 0 { flushState() }
  }

  /// Runs `body` with state changes reported once, at its end (or before the first event sent).
  public func batch(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    if batchDepth == 0 { flushState() }
  }

  private func flushState() {
    guard stateDirty else { return }
    stateDirty = false
    onStateChange?(self)
  }

  /// Schedules `action` on the application's clock; nil when the control is in no application.
  func schedule(after delay: Double, _ action: @escaping () -> Void) -> ScheduledTimer? {
    guard let clock = window?.application?.clock else { return nil }
    return clock.schedule(at: clock.now + delay, action)
  }
}
