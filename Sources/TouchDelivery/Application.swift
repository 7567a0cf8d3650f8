import TouchdCore

/// The application (UIKit's `UIApplication`): owns the windows, the clock and the current event,
/// turns frames into ``Touch`` and ``TouchEvent`` objects, and is the last responder in every chain.
open class Application: Responder {
  /// The pipeline clock every recognizer timeout is scheduled on.
  public let clock: TouchClock
  /// Windows, front to back.
  @exclusivity(unchecked) public private(set) var windows: [Window] = []
  let gestureArbiter = GestureArbiter()

  /// Receives every ``TraceEvent`` (recognizer state changes with their causes, held and released
  /// view deliveries) while set; nil (the default) builds none of them.
  public var tracer: ((TraceEvent) -> Void)? {
    didSet { gestureArbiter.tracer = tracer }
  }

  /// Told each time a recognizer leaves `.possible`: recognized (`true`: `.began` or `.ended`) or
  /// failed (`false`), for the daemon's metrics; nil (the default) costs one check per transition.
  /// UIKit has no such hook: this is touchd's own instrumentation, not a UIKit rule.
  public var recognizerOutcomeObserver: ((GestureRecognizer, _ recognized: Bool) -> Void)? {
    didSet { gestureArbiter.outcomeObserver = recognizerOutcomeObserver }
  }

  /// Receives every touch of every view delivery as it is made (``ViewDeliveryRecord``), held ones
  /// when released; nil (the default) costs one check per delivery.
  public var viewDeliveryObserver: ((ViewDeliveryRecord) -> Void)? {
    didSet { gestureArbiter.deliveryObserver = viewDeliveryObserver }
  }

  /// The longest time, in seconds, from a lift to the next touch-down for ``Touch/tapCount`` to
  /// grow. Default 0.35 s, UIKit's observed value; for reference Android's
  /// `ViewConfiguration.DOUBLE_TAP_TIMEOUT` and Flutter's `kDoubleTapTimeout` are 300 ms.
  public var multipleTapInterval: Double = 0.35
  /// The farthest, in points, a touch-down may land from the previous tap's touch-down (and a tap
  /// may travel) for ``Touch/tapCount`` to grow. Default 45 pt; for reference Android's
  /// `DOUBLE_TAP_SLOP` is 100 dp and Flutter's `kDoubleTapSlop` 100 logical pixels.
  public var multipleTapDistance: Double = 45

  /// The event of the multitouch sequence in progress: one instance from the first finger down to
  /// the last finger up, nil between sequences.
  @exclusivity(unchecked) public private(set) var currentEvent: TouchEvent?

  /// Touches of the sequence, by contact id.
  @exclusivity(unchecked) private var touchesByID: [TouchID: Touch] = [:]
  /// The same touches as a set: the event's ``TouchEvent/allTouches``, changed only when a touch
  /// begins or ends (so a frame that only moves fingers builds no set).
  @exclusivity(unchecked) private var liveTouches: Set<Touch> = []
  /// Contacts never delivered (began while ignoring, hit nothing, or cancelled by
  /// ``cancelTouches(in:)``) until their contact ends.
  @exclusivity(unchecked) private var swallowed: [TouchID: WindowRef] = [:]
  /// Of the swallowed contacts, those that hit no view (while ``viewDeliveryObserver`` is set): the
  /// observer hears them as if a view underneath every view got them.
  @exclusivity(unchecked) private var unhit: Set<TouchID> = []
  @exclusivity(unchecked) private var ignoringCount = 0
  /// Cancels touches that stop moving (``stuckTouchTimeout``, StuckTouches.swift).
  let stuckTouchWatch = StuckTouchWatch()

  // Presses (Presses/Application+Presses.swift).
  /// The event of the press sequence in progress, nil when no key is down.
  public internal(set) var currentPressesEvent: PressesEvent?
  /// Presses down, by device and key.
  var pressesBySource: [PressSource: Press] = [:]
  /// Keys that went down while ignoring interaction: never delivered, until they go up.
  var swallowedKeys: Set<PressSource> = []
  var lastPressID: UInt64 = 0
  /// Recent taps, for ``Touch/tapCount`` (TapCounter.swift).
  @exclusivity(unchecked) private var tapCounter = TapCounter()

  private struct WindowRef {
    weak var window: Window?
  }

  public init(clock: TouchClock) {
    self.clock = clock
    super.init()
  }

  /// Adds a window behind those already added (windows are front to back).
  public func addWindow(_ window: Window) {
    windows.append(window)
    window.application = self
  }

  // MARK: Ignoring interaction

  /// Whether touches that begin now are ignored (UIKit's `isIgnoringInteractionEvents`).
  public var isIgnoringInteractionEvents: Bool { ignoringCount > 0 }

  /// How many ``beginIgnoringInteractionEvents()`` calls are not ended yet.
  public var ignoringInteractionDepth: Int { ignoringCount }

  /// Starts ignoring touches; calls nest, each needs a matching ``endIgnoringInteractionEvents()``.
  ///
  /// Touch handling is suspended entirely: touches down when ignoring begins are cancelled (views
  /// and recognizers get `touchesCancelled`, as for ``cancelTouches(in:)``), a touch that begins
  /// while ignoring is never delivered, and neither is any later change of those contacts, even
  /// after ignoring ends: each stays swallowed until it lifts. Sources: seed 000 §3 ("Touch events
  /// can be turned off entirely at the application level with UIApplication's
  /// beginIgnoringInteractionEvents") and Apple's documentation of
  /// `beginIgnoringInteractionEvents()` ("Tells the receiver to suspend the handling of
  /// touch-related events"); cancelling is how UIKit ends a touch a responder will hear no more of,
  /// so every `touchesBegan` still gets its end.
  public func beginIgnoringInteractionEvents() {
    ignoringCount += 1
    if ignoringCount == 1 && !touchesByID.isEmpty {
      cancelTouches(reason: "the application began ignoring interaction events")
    }
    if ignoringCount == 1 && !pressesBySource.isEmpty { cancelPresses() }
  }

  /// Ends one ``beginIgnoringInteractionEvents()``; extra calls do nothing.
  public func endIgnoringInteractionEvents() { ignoringCount = max(0, ignoringCount - 1) }

  // MARK: Input

  /// Delivers one frame whose contacts are already in `window`'s coordinates (points), with
  /// `majorRadius` in points and `force` in 0...1. The window must have been added with
  /// ``addWindow(_:)``.
  ///
  /// The caller advances the clock to the frame's time first; this advances nothing. Each
  /// contact id keeps one ``Touch`` until it ends or is cancelled; a new one is hit-tested in
  /// `window` and gets its ``Touch/tapCount``. Touches down but absent from the frame are
  /// `.stationary`. The sequence's ``TouchEvent`` then goes to ``sendEvent(_:)`` unless every touch
  /// in it is stationary.
  public func handle(_ frame: TouchFrame, in window: Window) {
    process(frame.contacts, at: frame.time.seconds) { contact, _ in
      (window, Point(x: contact.x, y: contact.y))
    }
  }

  /// Delivers one frame whose contacts are in screen points, the space of the windows' frames. A
  /// new contact goes to the frontmost window whose hit-test finds a view there; later changes of
  /// the touch go to that window.
  public func handle(_ frame: TouchFrame) {
    process(frame.contacts, at: frame.time.seconds) { [windows] contact, touch in
      let screenPoint = Point(x: contact.x, y: contact.y)
      if let window = touch?.window { return (window, window.convertFromScreen(screenPoint)) }
      for window in windows {
        let local = window.convertFromScreen(screenPoint)
        if window.hitTest(local, with: nil) != nil { return (window, local) }
      }
      return nil
    }
  }

  /// Cancels every touch down in `window` (every window when nil) at the clock's time, as when
  /// its device vanishes: views and recognizers get `touchesCancelled`. Later frames that still
  /// carry those contacts are ignored until the contacts end. `reason` is what traces give as the
  /// cause.
  public func cancelTouches(in window: Window? = nil, reason: String = "its device went away") {
    if !unhit.isEmpty, let viewDeliveryObserver {
      for id in unhit.sorted() where window == nil || swallowed[id]?.window === window {
        unhit.remove(id)
        viewDeliveryObserver(
          ViewDeliveryRecord(id: id, phase: .cancelled, location: Point(x: 0, y: 0), wasHeld: false, hitNothing: true))
      }
    }
    cancelTouches(where: { window == nil || $0.window === window }, reason: reason)
  }

  /// Cancels every touch down whose hit-test view is `view` or one of its subviews, as UIKit does
  /// when the view handling the touches is removed from its window ("An interruption is anything
  /// that … causes the view handling the touch events to be removed from its window", Apple's
  /// `UIResponder.touchesCancelled(_:with:)` documentation). Their recognizers get
  /// `touchesCancelled` too; touches elsewhere go on. `reason` is the traces' cause.
  public func cancelTouches(inViewTree view: View, reason: String) {
    guard touchesByID.values.contains(where: { $0.view?.isDescendant(of: view) == true }) else { return }
    cancelTouches(where: { $0.view?.isDescendant(of: view) == true }, reason: reason)
  }

  /// Cancels the touches down that `isCancelled` picks, at the clock's time, for `reason` (traces
  /// name it); the others stay down, stationary. Later frames that still carry the cancelled
  /// contacts are ignored until the contacts end.
  func cancelTouches(where isCancelled: (Touch) -> Bool, reason: String) {
    gestureArbiter.cancellationReason = reason
    defer { gestureArbiter.cancellationReason = nil }
    let time = clock.now
    for touch in touchesByID.values {
      if isCancelled(touch) {
        touch.phase = .cancelled
        touch.timestamp = time
        swallowed[touch.id] = WindowRef(window: touch.window)
      } else {
        touch.phase = .stationary
      }
    }
    send(currentEvent ?? TouchEvent(), at: time)
  }

  /// A pen hovering over `window` (nil: out of proximity; `touching`: its tip is down, so it no
  /// longer hovers). The hover recognizers (``HoverGestureRecognizer``) of the view hit-testing
  /// finds under the pen (for a pencil touch) and of its superviews follow it; those it left, or
  /// all when it leaves or touches down, end (cancelled by a touch-down). Nothing hovers while the
  /// application ignores interaction.
  public func hover(_ hover: PenHover?, touching: Bool, in window: Window) {
    var over: [HoverGestureRecognizer] = []
    if let hover, !touching, !isIgnoringInteractionEvents {
      var view = window.hitTest(hover.location, with: hoverHitTestEvent)
      while let v = view {
        for case let r as HoverGestureRecognizer in v.gestureRecognizers where r.isEnabled { over.append(r) }
        view = v.superview
      }
    }
    for r in window.hovering where !over.contains(where: { $0 === r }) {
      r.hover(hover, over: false, touching: touching)
    }
    for r in over { r.hover(hover, over: true, touching: false) }
    window.hovering = over
  }

  /// The event a hovering pen is hit-tested with: a pencil's, kept for the pen's every frame.
  private lazy var hoverHitTestEvent: TouchEvent = {
    let event = TouchEvent()
    event.hitTestingType = .pencil
    return event
  }()

  /// Whether a delivered touch or press is down (touches swallowed or cancelled do not count).
  public var isTouchOrPressDown: Bool { !touchesByID.isEmpty || !pressesBySource.isEmpty }

  /// The touch down for contact `id`, nil when none is.
  public func touch(withID id: TouchID) -> Touch? { touchesByID[id] }

  /// Passes the event to each window that has touches changing in it (UIKit's `sendEvent`).
  open func sendEvent(_ event: TouchEvent) {
    for window in windows
    where event.allTouches.contains(where: { $0.window === window && $0.phase != .stationary }) {
      window.sendEvent(event)
    }
  }

  private func process(
    _ contacts: [Contact], at time: Double, locate: (Contact, Touch?) -> (Window, Point)?
  ) {
    let event = currentEvent ?? TouchEvent()
    for touch in touchesByID.values { touch.phase = .stationary }
    for contact in contacts {
      if swallowed[contact.id] != nil {
        if unhit.contains(contact.id) { reportUnhit(contact, isNew: false, locate: locate) }
        if contact.phase.isTerminal { swallowed[contact.id] = nil }
        continue
      }
      if let touch = touchesByID[contact.id] {
        update(touch, with: contact, at: time, locate: locate)
      } else if !contact.phase.isTerminal {
        begin(contact, at: time, in: event, locate: locate)
      }
    }
    send(event, at: time)
  }

  private func update(
    _ touch: Touch, with contact: Contact, at time: Double, locate: (Contact, Touch?) -> (Window, Point)?
  ) {
    touch.phase = contact.phase == .began ? .moved : contact.phase
    guard touch.phase != .stationary else { return }
    if let (_, point) = locate(contact, touch) {
      touch.previousLocationInWindow = touch.locationInWindow
      touch.locationInWindow = point
    }
    touch.timestamp = time
    if let r = contact.majorRadius { touch.majorRadius = r }
    if let f = contact.force { touch.force = f * touch.maximumPossibleForce }
    if let pen = contact.pen {
      touch.altitudeAngle = pen.altitudeAngle
      touch.azimuthAngle = pen.azimuthAngle
    }
  }

  private func begin(
    _ contact: Contact, at time: Double, in event: TouchEvent, locate: (Contact, Touch?) -> (Window, Point)?
  ) {
    let located = locate(contact, nil)
    event.hitTestingType = contact.pen == nil ? .direct : .pencil
    defer { event.hitTestingType = nil }
    guard !isIgnoringInteractionEvents, let (window, point) = located,
      let view = window.hitTest(point, with: event)
    else {
      swallowed[contact.id] = WindowRef(window: located?.0)
      if !isIgnoringInteractionEvents, viewDeliveryObserver != nil, located != nil {
        unhit.insert(contact.id)
        reportUnhit(contact, isNew: true, locate: locate)
      }
      if let tracer {
        let reason =
          isIgnoringInteractionEvents
          ? "the application is ignoring interaction events"
          : located == nil ? "no window has a view there" : "no view was hit"
        tracer(
          .touchSwallowed(
            id: contact.id, window: located?.0, location: located?.1 ?? Point(x: contact.x, y: contact.y),
            reason: reason))
      }
      return
    }
    let touch = Touch(
      id: contact.id, phase: .began, timestamp: time, location: point, window: window,
      tapCount: tapCount(at: point, time: time, in: window), majorRadius: contact.majorRadius ?? 0,
      force: contact.force ?? 0, pen: contact.pen)
    touch.view = view
    touch.event = event
    touchesByID[contact.id] = touch
    liveTouches.insert(touch)
  }

  /// Tells the observer of a change of a contact that hit no view: a view underneath every view (the
  /// compositor, when forwarding) would get it, as nothing holds or claims it.
  private func reportUnhit(_ contact: Contact, isNew: Bool, locate: (Contact, Touch?) -> (Window, Point)?) {
    guard contact.phase != .stationary, let viewDeliveryObserver else { return }
    if contact.phase.isTerminal { unhit.remove(contact.id) }
    let location = locate(contact, nil)?.1 ?? Point(x: contact.x, y: contact.y)
    let phase: TouchPhase = isNew ? .began : contact.phase == .began ? .moved : contact.phase
    viewDeliveryObserver(
      ViewDeliveryRecord(id: contact.id, phase: phase, location: location, wasHeld: false, hitNothing: true))
  }

  /// 1 unless a tap ended nearby in the same window at most ``multipleTapInterval`` ago
  /// (TapCounter.swift): then one more than its count.
  private func tapCount(at point: Point, time: Double, in window: Window) -> Int {
    tapCounter.touchDown(
      at: point, time: time, in: window, interval: multipleTapInterval, distance: multipleTapDistance)
  }

  /// A lift that stayed within ``multipleTapDistance`` of its touch-down is a tap, which a later
  /// touch-down near it may continue.
  private func recordEnd(of touch: Touch) {
    tapCounter.touchEnded(touch, distance: multipleTapDistance)
  }

  private func send(_ event: TouchEvent, at time: Double) {
    let touches = liveTouches
    guard !touches.isEmpty else { return }
    currentEvent = event
    event.allTouches = touches
    if touches.contains(where: { $0.phase != .stationary }) {
      event.timestamp = time
      sendEvent(event)
    }
    // In the order the touches began (ids grow), not the Set's: its order follows the process's
    // hash seed, and when several fingers lift in one frame the last one recorded is the tap the
    // next touch-down counts from, which must be the same in every process (live == replay).
    var ended: [Touch] = []
    for touch in touches where touch.phase.isTerminal { ended.append(touch) }
    if ended.count > 1 { ended.sort { $0.id < $1.id } }
    for touch in ended {
      recordEnd(of: touch)
      touchesByID[touch.id] = nil
      liveTouches.remove(touch)
    }
    if touchesByID.isEmpty { currentEvent = nil }
    if stuckTouchWatch.timeout != nil { stuckTouchWatch.update(touchesByID, at: time, in: self) }
  }
}
