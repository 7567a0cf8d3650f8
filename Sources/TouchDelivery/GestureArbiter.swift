import TouchdCore

/// UIKit's delivery procedure and gesture arbitration, shared by the application's windows.
///
/// Invariants (each turn is one window's ``deliver(_:in:)`` or one recognizer timer):
/// 1. A touch is admitted once, at touch-down: blocked by exclusiveTouch it reaches nobody; else it
///    is associated with the enabled, undecided recognizers of its hit-test view and the view's
///    ancestors (hit-test view first) that their delegates let receive it, and reaches the view
///    unless the view's `isMultipleTouchEnabled` refuses it.
/// 2. Recognizers get each turn's touches before views. After every touches call (and timer) the
///    requested transitions are applied in request order; a recognition (`.possible → .began` or
///    `.ended`) waits while a failure requirement is undecided, fails when one recognized, fails
///    when an active recognizer that shares a touch prevents it or `shouldBegin` says no, and
///    when an active recognizer that shares a touch or is related to it (same view, or one view
///    contains the other) prevents it, or `shouldBegin` says no, and otherwise applies: competitors
///    sharing a touch that it can prevent fail, its touches are cancelled in their views
///    (`cancelsTouchesInView`), then its actions run.
/// 3. A failed recognizer leaves its touches' ``Touch/gestureRecognizers`` and gets no more touches.
/// 4. View deliveries go through one ordered queue. An item waits while an undecided recognizer of
///    its touch delays it (`delaysTouchesBegan`: every phase; `delaysTouchesEnded`: the end), or an
///    earlier item waits that is of the same touch, of a touch of the same view, or held by a
///    recognizer this item's touch also goes to; a touch cancelled in its view drops its items, and
///    the view gets `touchesCancelled` only if it heard `touchesBegan` and not yet the end. An item
///    carries the touch as it was when queued; held `moved` items of a touch merge into one.
/// 5. At the end of a turn, lifted touches leave `trackedTouches`, and a decided recognizer whose
///    touches are all gone is reset.
final class GestureArbiter {
  /// Recognizers that received touches since their last reset, in the order they first did.
  @exclusivity(unchecked) var participants: [GestureRecognizer] = []
  /// Recognizers with requested transitions, in request order.
  @exclusivity(unchecked) private var requesters: [GestureRecognizer] = []
  /// View deliveries not made yet, in order.
  @exclusivity(unchecked) private var queue: [ViewDelivery] = []
  @exclusivity(unchecked) var depth = 0
  @exclusivity(unchecked) private var updating = false
  /// The set of each touches call, reused: emptied in place for the next call unless the callee
  /// kept it (then emptying copies, as a value type does).
  @exclusivity(unchecked) private var callSet: Set<Touch> = []
  /// The turns' working arrays (``ArrayPool``).
  @exclusivity(unchecked) private var touchArrays = ArrayPool<Touch>()
  @exclusivity(unchecked) private var recognizerArrays = ArrayPool<GestureRecognizer>()
  @exclusivity(unchecked) private var deliveryArrays = ArrayPool<ViewDelivery>()
  /// The phases a turn delivers to recognizers, in order.
  private static let recognizerPhases: [TouchPhase] = [.began, .moved, .ended, .cancelled]
  /// Press deliveries to responders not made yet, in order (see PressDelivery.swift).
  @exclusivity(unchecked) var pressQueue: [PressDelivery] = []
  /// The application's tracer (``Application/tracer``).
  @exclusivity(unchecked) var tracer: ((TraceEvent) -> Void)?
  /// The application's view delivery observer (``Application/viewDeliveryObserver``).
  @exclusivity(unchecked) var deliveryObserver: ((ViewDeliveryRecord) -> Void)?
  /// Why touches are being cancelled, while the application cancels them (trace only).
  @exclusivity(unchecked) var cancellationReason: String?

  /// A view delivery: the touch as it was when the delivery was queued, so a delivery held back
  /// and released later shows the view the touch's state at that moment (a held `touchesBegan` is
  /// at the touch-down point).
  struct ViewDelivery {
    let touch: Touch
    let phase: TouchPhase
    let event: TouchEvent
    var location: Point
    var previousLocation: Point
    var timestamp: Double
    /// Reported as held (trace).
    var wasHeld = false

    init(touch: Touch, phase: TouchPhase, event: TouchEvent) {
      self.touch = touch
      self.phase = phase
      self.event = event
      location = touch.locationInWindow
      previousLocation = touch.previousLocationInWindow
      timestamp = touch.timestamp
    }
  }

  // MARK: Turns

  /// The window's part of UIKit's `sendEvent`: admit new touches, deliver to recognizers,
  /// arbitrate, deliver to views, reset.
  func deliver(_ event: TouchEvent, in window: Window) {
    depth += 1
    defer { depth -= 1 }
    // The changing touches in this window, by phase then id. (An array filtered and sorted in
    // place: no intermediate set; every working array of the turn is borrowed from a pool.)
    var touches = touchArrays.borrow()
    var admitted = touchArrays.borrow()
    var recognizers = recognizerArrays.borrow()
    defer {
      touchArrays.giveBack(&touches)
      touchArrays.giveBack(&admitted)
      recognizerArrays.giveBack(&recognizers)
    }
    for touch in event.allTouches where touch.window === window && touch.phase != .stationary {
      touches.append(touch)
    }
    touches.sort { ($0.phase.deliveryRank, $0.id) < ($1.phase.deliveryRank, $1.id) }
    for touch in touches where touch.phase == .began && !touch.isAdmitted && !touch.isBlocked {
      admit(touch, among: event.allTouches)
    }
    for touch in touches where touch.isAdmitted { admitted.append(touch) }
    // The phases present among the admitted touches: a recognizer gets no call for the others.
    var phasesPresent = 0
    for touch in admitted { phasesPresent |= 1 << touch.phase.deliveryRank }

    for touch in admitted {
      for r in touch.gestureRecognizers where !recognizers.contains(where: { $0 === r }) { recognizers.append(r) }
    }
    for r in recognizers {
      for phase in Self.recognizerPhases {
        guard r.acceptsTouches else { break }
        guard phasesPresent & (1 << phase.deliveryRank) != 0 else { continue }
        let tracked = r.trackedTouches
        var set = takeCallSet()
        for t in admitted where t.phase == phase && tracked.contains(where: { $0 === t }) { set.insert(t) }
        if !set.isEmpty {
          switch phase {
          case .began: r.touchesBegan(set, with: event)
          case .moved: r.touchesMoved(set, with: event)
          case .ended: r.touchesEnded(set, with: event)
          default: r.touchesCancelled(set, with: event)
          }
        }
        callSet = set
        guard !set.isEmpty else { continue }
        update()
      }
    }

    var toView = touchArrays.borrow()
    var ordered = touchArrays.borrow()
    var scratch = touchArrays.borrow()
    for touch in admitted where touch.deliversToView && !touch.viewCancelled { toView.append(touch) }
    Self.group(toView, into: &ordered, scratch: &scratch)
    // Only deliveries still waiting from earlier turns can be merged with (a turn has one per touch).
    let waiting = queue.count
    for touch in ordered {
      enqueueView(ViewDelivery(touch: touch, phase: touch.phase, event: event), mergingWithin: waiting)
    }
    touchArrays.giveBack(&toView)
    touchArrays.giveBack(&ordered)
    touchArrays.giveBack(&scratch)
    flushViews()

    for touch in admitted where touch.phase.isTerminal {
      for r in touch.gestureRecognizers { r.stopTracking(touch) }
    }
    resetFinished()
  }

  /// A turn after a recognizer's timer action (or any state change made outside a turn).
  func recognizerTimerFired() {
    guard depth == 0 else { return }
    depth += 1
    defer { depth -= 1 }
    update()
    flushViews()
    flushPresses()
    resetFinished()
  }

  /// The reusable touches set, empty; a nested turn finds none and makes its own.
  private func takeCallSet() -> Set<Touch> {
    var set = callSet
    callSet = []
    set.removeAll(keepingCapacity: true)
    return set
  }

  // MARK: Admission

  private func admit(_ touch: Touch, among all: Set<Touch>) {
    guard let view = touch.view else {
      touch.isBlocked = true
      return
    }
    let others = all.filter { $0 !== touch && $0.isAdmitted && !$0.phase.isTerminal && $0.window === touch.window }
    let blockedByExclusive =
      (view.isExclusiveTouch && others.contains { $0.view !== view })
      || others.contains { $0.view !== view && $0.view?.isExclusiveTouch == true }
    if blockedByExclusive {
      touch.isBlocked = true
      if let tracer {
        let owner =
          view.isExclusiveTouch
          ? others.first { $0.view !== view }?.view : others.first { $0.view?.isExclusiveTouch == true }?.view
        let note =
          view.isExclusiveTouch
          ? "blocked: view '\(view.traceName)' is exclusiveTouch and view '\(owner?.traceName ?? "?")' has a touch"
          : "blocked: exclusiveTouch view '\(owner?.traceName ?? "?")' has a touch"
        tracer(.touchBegan(touch, recognizers: [], notes: [note]))
      }
      return
    }
    touch.isAdmitted = true
    touch.deliversToView =
      view.isMultipleTouchEnabled
      || !others.contains { $0.view === view && $0.deliversToView && !$0.viewCancelled }
    var notes: [String] = []
    if tracer != nil && !touch.deliversToView {
      notes.append(
        "view '\(view.traceName)' already has a touch and multipleTouchEnabled is false: only recognizers get this one")
    }

    var current: View? = view
    while let v = current {
      for r in v.gestureRecognizers {
        guard r.isEnabled && r.acceptsTouches else {
          if tracer != nil {
            notes.append(
              r.isEnabled
                ? "'\(r.traceName)' is \(r.effectiveState.rawValue)\(r._state == .possible ? " (waiting for a requirement)" : "") and gets no new touches until its touches end"
                : "'\(r.traceName)' is disabled")
          }
          continue
        }
        if let delegate = r.delegate, !delegate.gestureRecognizer(r, shouldReceive: touch) {
          if tracer != nil { notes.append("'\(r.traceName)' declined it (delegate shouldReceive false)") }
          continue
        }
        touch.gestureRecognizers.append(r)
        r.trackedTouches.append(touch)
        r.attemptTouches.append(touch)
        if !participants.contains(where: { $0 === r }) { participants.append(r) }
        if r._state == .began || r._state == .changed, r.cancelsTouchesInView { touch.viewCancelled = true }
      }
      current = v.superview
    }
    if let tracer {
      if let window = touch.window { notes += Self.outsideNotes(for: touch, in: window) }
      tracer(.touchBegan(touch, recognizers: touch.gestureRecognizers, notes: notes))
    }
  }

  /// For the trace: recognizers whose view contains the touch-down point but is not on the
  /// hit-test view's chain (another view was hit).
  private static func outsideNotes(for touch: Touch, in window: Window) -> [String] {
    var notes: [String] = []
    func visit(_ v: View) {
      if !v.gestureRecognizers.isEmpty, let hit = touch.view, !hit.isDescendant(of: v),
        v.bounds.contains(v.convert(touch.locationInWindow, from: nil))
      {
        for r in v.gestureRecognizers {
          notes.append(
            "'\(r.traceName)' does not get it: touch began in view '\(hit.traceName)', outside the recognizer's view '\(v.traceName)'"
          )
        }
      }
      for s in v.subviews { visit(s) }
    }
    visit(window)
    return notes
  }

  // MARK: Arbitration

  /// Notes a requested transition; outside a turn it is applied at once. A recognizer that
  /// decides without touches (a stray timer) joins the participants so that it is reset.
  func enqueue(_ r: GestureRecognizer) {
    if !requesters.contains(where: { $0 === r }) { requesters.append(r) }
    if !participants.contains(where: { $0 === r }) { participants.append(r) }
    if depth == 0 && !updating { recognizerTimerFired() }
  }

  /// Applies requested transitions until nothing changes.
  func update() {
    guard !updating else { return }
    updating = true
    defer { updating = false }
    var progress = true
    while progress {
      progress = false
      for r in requesters where !r.pendingStates.isEmpty {
        if apply(r) { progress = true }
      }
      requesters.removeAll { $0.pendingStates.isEmpty }
    }
  }

  private enum Gate {
    case go
    case wait(GestureRecognizer)
    /// Fails, with the cause (built only while tracing).
    case fail(String?)
  }

  /// Applies `r`'s oldest requested transition; false when it must keep waiting.
  private func apply(_ r: GestureRecognizer) -> Bool {
    let request = r.pendingStates[0]
    let next = request.state
    switch (r._state, next) {
    case (_, .failed):
      fail(r, request.cause ?? defaultCause(.failed))
    case (.possible, .began), (.possible, .ended):
      switch gate(r) {
      case .wait(let requirement):
        if let tracer, r.waitingFor !== requirement {
          r.waitingFor = requirement
          tracer(.waiting(r, to: next, requirement: requirement))
        }
        return false
      case .fail(let cause): fail(r, cause ?? "")
      case .go:
        r.pendingStates.removeFirst()
        r._state = next
        if let tracer {
          var cause = request.cause ?? defaultCause(next)
          if let waited = r.waitingFor { cause += "; required '\(waited.traceName)' failed" }
          tracer(.recognizer(r, from: .possible, to: next, cause: cause))
        }
        r.waitingFor = nil
        r.recognitionApplied()
        for other in participants
        where other !== r && other._state == .possible && shares(r, other) && prevents(r, other) {
          fail(other, "prevented by '\(r.traceName)' (\(r.outcomeText)), which shares a touch")
        }
        if r.cancelsTouchesInView {
          cancelInViews(r.attemptTouches, by: r)
          cancelInResponders(r.attemptPresses, by: r)
        }
        fireActions(r)
      }
    case (.began, _), (.changed, _):
      r.pendingStates.removeFirst()
      let from = r._state
      r._state = next
      if let tracer, from != next {
        tracer(.recognizer(r, from: from, to: next, cause: request.cause ?? defaultCause(next)))
      }
      fireActions(r)
    default:
      r.pendingStates.removeFirst()
    }
    return true
  }

  /// The cause of a transition its recognizer gave no reason for.
  private func defaultCause(_ state: GestureRecognizer.State) -> String {
    if let reason = cancellationReason { return "its touches were cancelled: \(reason)" }
    return "the recognizer set .\(state.rawValue)"
  }

  private func gate(_ r: GestureRecognizer) -> Gate {
    for other in requirements(of: r) where other !== r && participants.contains(where: { $0 === other }) {
      switch other._state {
      case .possible: return .wait(other)
      case .failed: continue
      default:
        return .fail(tracer == nil ? nil : "required '\(other.traceName)' \(other.outcomeText)")
      }
    }
    for other in participants
    where other !== r && (other._state == .began || other._state == .changed)
      && (shares(other, r) || related(other, r)) && prevents(other, r)
    {
      return .fail(tracer == nil ? nil : "excluded by '\(other.traceName)' (active)")
    }
    if let delegate = r.delegate, !delegate.gestureRecognizerShouldBegin(r) {
      return .fail("delegate gestureRecognizerShouldBegin false")
    }
    if let view = r.view, !view.gestureRecognizerShouldBegin(r) {
      return .fail("view '\(view.traceName)' gestureRecognizerShouldBegin false")
    }
    // The views the recognizer's touches landed on are asked too (Apple's documentation of
    // `UIView.gestureRecognizerShouldBegin(_:)`: "the UISlider class uses this method to prevent
    // swipes parallel to the slider's travel direction and that start in the thumb", which are
    // recognizers of a superview): how a control's default action wins (the iOS 6 rule).
    for touch in r.attemptTouches {
      guard let hit = touch.view, hit !== r.view, !hit.gestureRecognizerShouldBegin(r) else { continue }
      return .fail(
        tracer == nil
          ? nil
          : hit is Control
            ? "control '\(hit.traceName)' gestureRecognizerShouldBegin false (its default action wins)"
            : "view '\(hit.traceName)' of its touch: gestureRecognizerShouldBegin false")
    }
    return .go
  }

  /// `require(toFail:)` plus the dynamic requirements among the recognizers in play.
  private func requirements(of r: GestureRecognizer) -> [GestureRecognizer] {
    var result = r.failureRequirements
    for other in participants where other !== r && !result.contains(where: { $0 === other }) {
      if r.shouldRequireFailure(of: other) || other.shouldBeRequiredToFail(by: r)
        || r.delegate?.gestureRecognizer(r, shouldRequireFailureOf: other) == true
        || other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: r) == true
      {
        result.append(other)
      }
    }
    return result
  }

  /// Whether `winner`'s recognition forces `loser` to fail.
  private func prevents(_ winner: GestureRecognizer, _ loser: GestureRecognizer) -> Bool {
    if winner.delegate?.gestureRecognizer(winner, shouldRecognizeSimultaneouslyWith: loser) == true { return false }
    if loser.delegate?.gestureRecognizer(loser, shouldRecognizeSimultaneouslyWith: winner) == true { return false }
    return winner.canPrevent(loser) && loser.canBePrevented(by: winner)
  }

  private func shares(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
    a.attemptTouches.contains { t in b.attemptTouches.contains { $0 === t } }
      || a.attemptPresses.contains { p in b.attemptPresses.contains { $0 === p } }
  }

  /// Whether the recognizers' views are the same or one contains the other: an active recognizer
  /// excludes a related one even without a shared touch (UIKit: a pinch in progress on a photo
  /// keeps a tap on a button inside the photo from firing; measured on iOS, see docs/delivery.md).
  private func related(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
    guard let va = a.view, let vb = b.view else { return false }
    return va.isDescendant(of: vb) || vb.isDescendant(of: va)
  }

  private func fail(_ r: GestureRecognizer, _ cause: @autoclosure () -> String) {
    let from = r._state
    r.pendingStates = []
    r.waitingFor = nil
    r._state = .failed
    if let tracer, from != .failed { tracer(.recognizer(r, from: from, to: .failed, cause: cause())) }
    for touch in r.attemptTouches { touch.gestureRecognizers.removeAll { $0 === r } }
    for touch in r.trackedTouches { r.stopTracking(touch) }
    for press in r.attemptPresses { press.gestureRecognizers.removeAll { $0 === r } }
    r.trackedPresses = []
  }

  private func fireActions(_ r: GestureRecognizer) {
    for entry in r.actions { entry.action(r) }
  }

  /// Drops `r` from arbitration (it was removed from its view) and resets it.
  func detach(_ r: GestureRecognizer) {
    let wasInPlay = participants.contains { $0 === r } || !r.pendingStates.isEmpty
    participants.removeAll { $0 === r }
    requesters.removeAll { $0 === r }
    for touch in r.attemptTouches { touch.gestureRecognizers.removeAll { $0 === r } }
    for press in r.attemptPresses { press.gestureRecognizers.removeAll { $0 === r } }
    let from = r._state
    r.trackedTouches = []
    r.attemptTouches = []
    r.trackedPresses = []
    r.attemptPresses = []
    r.pendingStates = []
    r.waitingFor = nil
    r._state = .possible
    if wasInPlay {
      if let tracer { tracer(.recognizer(r, from: from, to: .possible, cause: "removed from its view")) }
      r.reset()
      if depth == 0 {
        flushViews()
        flushPresses()
      }
    }
  }

  // MARK: Views

  /// Queues a view delivery. A `moved` for a touch whose last queued item is a `moved` still
  /// waiting replaces that item's position and time: a held touch gets one catch-up `moved`.
  /// `waiting` is how many items at the queue's head are left from earlier turns: the only ones
  /// the item can merge with, so a turn with nothing held scans nothing.
  private func enqueueView(_ item: ViewDelivery, mergingWithin waiting: Int) {
    if item.phase == .moved, waiting > 0,
      let last = queue[..<waiting].lastIndex(where: { $0.touch === item.touch }), queue[last].phase == .moved
    {
      queue[last].location = item.location
      queue[last].timestamp = item.timestamp
      return
    }
    queue.append(item)
  }

  /// Takes the touches from their views: queued deliveries are dropped, and a view that heard
  /// `touchesBegan` but not the end gets `touchesCancelled`.
  private func cancelInViews(_ touches: [Touch], by r: GestureRecognizer) {
    var cancellations: [ViewDelivery] = []
    for touch in touches where !touch.viewCancelled {
      touch.viewCancelled = true
      let queuedEvent = queue.first { $0.touch === touch }?.event
      if let tracer, touch.deliversToView, queuedEvent != nil || (touch.viewBeganDelivered && !touch.viewFinished) {
        tracer(.cancelledInView(touch, by: r))
      }
      queue.removeAll { $0.touch === touch }
      if queuedEvent != nil && !touch.viewBeganDelivered, let deliveryObserver {
        deliveryObserver(
          ViewDeliveryRecord(
            id: touch.id, phase: .cancelled, location: touch.locationInWindow, wasHeld: false, isDrop: true))
      }
      if touch.viewBeganDelivered && !touch.viewFinished, let event = queuedEvent ?? touch.event {
        cancellations.append(ViewDelivery(touch: touch, phase: .cancelled, event: event))
      }
    }
    dispatch(cancellations)
  }

  /// Delivers, in order, the queued items nothing holds back.
  func flushViews() {
    guard !queue.isEmpty else { return }
    var waiting = deliveryArrays.borrow()
    var ready = deliveryArrays.borrow()
    /// The recognizers holding the waiting items, and those of the item at hand.
    var holders = recognizerArrays.borrow()
    var own = recognizerArrays.borrow()
    for var item in queue where !item.touch.viewCancelled {
      heldBy(item, into: &own)
      let behind =
        !waiting.isEmpty
        && (waiting.contains { $0.touch === item.touch || $0.touch.view === item.touch.view }
          || item.touch.gestureRecognizers.contains { r in holders.contains { $0 === r } })
      if own.isEmpty && !behind {
        ready.append(item)
        continue
      }
      for r in own where !holders.contains(where: { $0 === r }) { holders.append(r) }
      if !item.wasHeld {
        item.wasHeld = true
        tracer?(.held(item.touch, phase: item.phase, by: own))
        deliveryObserver?(
          ViewDeliveryRecord(
            id: item.touch.id, phase: item.phase, location: item.location, wasHeld: false, isHold: true))
      }
      waiting.append(item)
    }
    recognizerArrays.giveBack(&holders)
    recognizerArrays.giveBack(&own)
    // The waiting items become the queue; the old queue's storage goes back to the pool.
    swap(&queue, &waiting)
    deliveryArrays.giveBack(&waiting)
    dispatch(ready)
    deliveryArrays.giveBack(&ready)
  }

  /// The undecided recognizers of the item's touch that delay it, in `result` (emptied first).
  private func heldBy(_ item: ViewDelivery, into result: inout [GestureRecognizer]) {
    result.removeAll(keepingCapacity: true)
    for r in item.touch.gestureRecognizers
    where r._state == .possible && (r.delaysTouchesBegan || (item.phase == .ended && r.delaysTouchesEnded)) {
      result.append(r)
    }
  }

  /// Calls the views' touches methods, one call per run of items with the same view, phase and event
  /// (a touch at most once per call). During a call each touch shows the state its item recorded.
  private func dispatch(_ items: [ViewDelivery]) {
    var start = 0
    while start < items.count {
      let first = items[start]
      var end = start + 1
      while end < items.count, items[end].touch.view === first.touch.view, items[end].phase == first.phase,
        items[end].event === first.event, !items[start..<end].contains(where: { $0.touch === items[end].touch })
      {
        end += 1
      }
      let run = items[start..<end]
      var saved: [(Touch, TouchPhase, Point, Point, Double)] = []
      for item in run {
        if item.phase == .began { item.touch.viewBeganDelivered = true }
        if item.phase.isTerminal { item.touch.viewFinished = true }
        let t = item.touch
        if t.phase != item.phase || t.locationInWindow != item.location || t.timestamp != item.timestamp {
          saved.append((t, t.phase, t.locationInWindow, t.previousLocationInWindow, t.timestamp))
          t.phase = item.phase
          t.locationInWindow = item.location
          t.previousLocationInWindow = item.previousLocation
          t.timestamp = item.timestamp
        }
        if item.wasHeld { tracer?(.released(t, phase: item.phase, location: item.location)) }
        deliveryObserver?(
          ViewDeliveryRecord(id: t.id, phase: item.phase, location: item.location, wasHeld: item.wasHeld))
      }
      if let view = first.touch.view {
        var touches = takeCallSet()
        for item in run { touches.insert(item.touch) }
        switch first.phase {
        case .began: view.touchesBegan(touches, with: first.event)
        case .moved: view.touchesMoved(touches, with: first.event)
        case .ended: view.touchesEnded(touches, with: first.event)
        case .cancelled: view.touchesCancelled(touches, with: first.event)
        case .stationary: break
        }
        callSet = touches
      }
      for (t, phase, location, previous, timestamp) in saved {
        t.phase = phase
        t.locationInWindow = location
        t.previousLocationInWindow = previous
        t.timestamp = timestamp
      }
      start = end
    }
  }

  /// Orders touches by phase, then by view (in order of each view's first touch), then by id, so
  /// that each view gets one call per phase.
  /// Appends them to `result`; `samePhase` is working space.
  private static func group(_ touches: [Touch], into result: inout [Touch], scratch samePhase: inout [Touch]) {
    var index = 0
    while index < touches.count {
      let phase = touches[index].phase
      samePhase.removeAll(keepingCapacity: true)
      while index < touches.count, touches[index].phase == phase {
        samePhase.append(touches[index])
        index += 1
      }
      while let head = samePhase.first {
        for touch in samePhase where touch.view === head.view { result.append(touch) }
        samePhase.removeAll { $0.view === head.view }
      }
    }
  }

  // MARK: Reset

  func resetFinished() {
    for r in participants {
      // The touches are looked at last: most participants are undecided or still have touches.
      if r.isDecided && r.pendingStates.isEmpty && r.attemptTouches.allSatisfy({ $0.phase.isTerminal })
        && r.attemptPresses.allSatisfy({ $0.phase.isTerminal })
      {
        for touch in r.attemptTouches { touch.gestureRecognizers.removeAll { $0 === r } }
        for press in r.attemptPresses { press.gestureRecognizers.removeAll { $0 === r } }
        r.trackedTouches = []
        r.attemptTouches = []
        r.trackedPresses = []
        r.attemptPresses = []
        if let tracer {
          tracer(.recognizer(r, from: r._state, to: .possible, cause: "reset: every touch it received has ended"))
        }
        r._state = .possible
        participants.removeAll { $0 === r }
        r.reset()
      } else if r._state == .possible && r.pendingStates.isEmpty && r.attemptTouches.isEmpty
        && r.attemptPresses.isEmpty
      {
        participants.removeAll { $0 === r }
      }
    }
  }
}

extension TouchPhase {
  /// The order in which a turn delivers phases.
  var deliveryRank: Int {
    switch self {
    case .began: 0
    case .moved: 1
    case .stationary: 2
    case .ended: 3
    case .cancelled: 4
    }
  }
}

extension GestureRecognizer {
  /// How causes name the recognizer's decided state: "recognized" for a discrete gesture's `.ended`.
  var outcomeText: String { _state == .ended ? "recognized" : _state.rawValue }

  /// The state after every requested transition applies.
  var effectiveState: State { pendingStates.last?.state ?? _state }

  /// In `.ended`, `.cancelled` or `.failed`: waiting to be reset.
  var isDecided: Bool { _state == .ended || _state == .cancelled || _state == .failed }

  /// Whether new and current touches are delivered to the recognizer.
  var acceptsTouches: Bool {
    guard isEnabled, !isDecided else { return false }
    let s = effectiveState
    return s == .possible || s == .began || s == .changed
  }

  var arbiter: GestureArbiter? { view?.window?.application?.gestureArbiter }

  /// Validates a state assignment (see ``state``) and hands it to the arbitration.
  func requestState(_ newState: State, cause: String?) {
    let from = effectiveState
    var request = newState
    if _state == .possible && from != .possible && (newState == .failed || newState == .cancelled) {
      // A recognition still waiting is withdrawn: externally the recognizer never began.
      pendingStates = []
      request = .failed
    } else {
      switch (from, newState) {
      case (.possible, .began), (.possible, .ended), (.possible, .failed),
        (.began, .ended), (.changed, .ended), (.began, .cancelled), (.changed, .cancelled):
        break
      case (.began, .changed), (.changed, .changed):
        // One pending change is enough; a change while the began itself still waits (for a
        // failure requirement) folds into it: the gesture begins where it then is.
        if pendingStates.last?.state == .changed || _state == .possible { return }
      default:
        return
      }
    }
    guard let arbiter else {
      applyStandalone(request)
      return
    }
    pendingStates.append(StateRequest(state: request, cause: cause))
    arbiter.enqueue(self)
  }

  /// A recognizer in no application: transitions apply at once (shouldBegin still decides).
  private func applyStandalone(_ newState: State) {
    if _state == .possible && (newState == .began || newState == .ended),
      let delegate, !delegate.gestureRecognizerShouldBegin(self)
    {
      _state = .failed
      return
    }
    _state = newState
    if newState != .failed {
      for entry in actions { entry.action(self) }
    }
  }

  func disable() {
    if _state == .began || _state == .changed {
      requestState(.cancelled, cause: isTracing ? "disabled" : nil)
    } else if _state == .possible && (!attemptTouches.isEmpty || !pendingStates.isEmpty) {
      requestState(.failed, cause: isTracing ? "disabled" : nil)
    }
  }

  /// Called when a recognition (`.possible → .began` or `.ended`) takes effect, which may be
  /// later than it was requested (after a failure requirement). Subclasses that measure from the
  /// start of the gesture re-base here.
  func stopTracking(_ touch: Touch) {
    guard trackedTouches.contains(where: { $0 === touch }) else { return }
    lastLocationInWindow = touch.locationInWindow
    trackedTouches.removeAll { $0 === touch }
  }
}
