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
  @exclusivity(unchecked) var requesters: [GestureRecognizer] = []
  /// View deliveries not made yet, in order.
  @exclusivity(unchecked) var queue: [ViewDelivery] = []
  @exclusivity(unchecked) var depth = 0
  @exclusivity(unchecked) var updating = false
  /// The set of each touches call, reused: emptied in place for the next call unless the callee
  /// kept it (then emptying copies, as a value type does).
  @exclusivity(unchecked) var callSet: Set<Touch> = []
  /// The turns' working arrays (``ArrayPool``).
  @exclusivity(unchecked) private var touchArrays = ArrayPool<Touch>()
  @exclusivity(unchecked) var recognizerArrays = ArrayPool<GestureRecognizer>()
  @exclusivity(unchecked) var deliveryArrays = ArrayPool<ViewDelivery>()
  /// The phases a turn delivers to recognizers, in order.
  private static let recognizerPhases: [TouchPhase] = [.began, .moved, .ended, .cancelled]
  /// Press deliveries to responders not made yet, in order (see PressDelivery.swift).
  @exclusivity(unchecked) var pressQueue: [PressDelivery] = []
  /// The application's tracer (``Application/tracer``).
  @exclusivity(unchecked) var tracer: ((TraceEvent) -> Void)?
  /// The application's recognizer outcome observer (``Application/recognizerOutcomeObserver``).
  @exclusivity(unchecked) var outcomeObserver: ((GestureRecognizer, Bool) -> Void)?
  /// The application's view delivery observer (``Application/viewDeliveryObserver``).
  @exclusivity(unchecked) var deliveryObserver: ((ViewDeliveryRecord) -> Void)?
  /// Why touches are being cancelled, while the application cancels them (trace only).
  @exclusivity(unchecked) var cancellationReason: String?

  // The turns are here; their parts are in GestureArbiter+Admission.swift (touch-down),
  // GestureArbiter+Transitions.swift and GestureArbiter+Requirements.swift (arbitration),
  // GestureArbiter+Views.swift (view delivery) and Presses/PressDelivery.swift (presses).

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
    // With a delivery observer (forwarding), a touch the view refuses only for
    // multipleTouchEnabled still goes through the queue, as it would to a view with multiple touch:
    // the observer hears it, the view does not (docs/forward.md, "Multiple touch").
    for touch in admitted where (touch.deliversToView || deliveryObserver != nil) && !touch.viewCancelled {
      toView.append(touch)
    }
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
  func takeCallSet() -> Set<Touch> {
    var set = callSet
    callSet = []
    set.removeAll(keepingCapacity: true)
    return set
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
