/// A press delivery to its responder: the press as it was when queued.
struct PressDelivery {
  let press: Press
  let phase: PressPhase
  let event: PressesEvent
  let timestamp: Double
}

/// Press delivery, UIKit's rules for touches applied to presses (docs/delivery.md "Presses"):
/// 1. A press that begins goes to the window's first responder (``Window/pressResponder``), fixed
///    for its life, and to the enabled, undecided recognizers of the responder's view and its
///    superviews whose ``GestureRecognizer/allowedPressTypes`` have its type.
/// 2. Recognizers get a turn's presses first, one call per phase, with the usual arbitration after
///    each call (failure requirements, prevention, `cancelsTouchesInView`, actions).
/// 3. The responder then gets the presses through one ordered queue: an item waits while an
///    undecided recognizer of its press delays it (`delaysTouchesBegan`: every phase,
///    `delaysTouchesEnded`: the end) or an earlier item of the same press waits. A recognition
///    with `cancelsTouchesInView` drops the press's queued items, and the responder gets
///    `pressesCancelled` if it heard `pressesBegan` and not yet the end.
extension GestureArbiter {
  /// The phases a turn delivers to recognizers, in order.
  private static let pressPhases: [PressPhase] = [.began, .changed, .ended, .cancelled]

  /// Delivers the changed presses of `event` (all in `window`).
  func deliver(_ changed: [Press], event: PressesEvent, in window: Window) {
    depth += 1
    defer { depth -= 1 }
    for press in changed where press.phase == .began { admit(press) }
    var recognizers: [GestureRecognizer] = []
    for press in changed {
      for r in press.gestureRecognizers where !recognizers.contains(where: { $0 === r }) { recognizers.append(r) }
    }
    for r in recognizers {
      for phase in Self.pressPhases {
        guard r.acceptsTouches else { break }
        let set = Set(changed.filter { p in p.phase == phase && r.trackedPresses.contains { $0 === p } })
        guard !set.isEmpty else { continue }
        switch phase {
        case .began: r.pressesBegan(set, with: event)
        case .changed: r.pressesChanged(set, with: event)
        case .ended: r.pressesEnded(set, with: event)
        default: r.pressesCancelled(set, with: event)
        }
        update()
      }
    }
    for press in changed where !press.responderCancelled {
      pressQueue.append(PressDelivery(press: press, phase: press.phase, event: event, timestamp: press.timestamp))
    }
    flushViews()
    flushPresses()
    for press in changed where press.phase.isTerminal {
      for r in press.gestureRecognizers { r.trackedPresses.removeAll { $0 === press } }
    }
    resetFinished()
  }

  private func admit(_ press: Press) {
    guard let window = press.window else { return }
    let responder = window.pressResponder
    press.responder = responder
    var current = responder as? View
    while let view = current {
      for r in view.gestureRecognizers
      where r.isEnabled && r.acceptsTouches && r.allowedPressTypes.contains(press.type) {
        press.gestureRecognizers.append(r)
        r.trackedPresses.append(press)
        r.attemptPresses.append(press)
        if !participants.contains(where: { $0 === r }) { participants.append(r) }
        if r._state == .began || r._state == .changed, r.cancelsTouchesInView { press.responderCancelled = true }
      }
      current = view.superview
    }
    tracer?(.pressBegan(press, recognizers: press.gestureRecognizers))
  }

  /// Takes the presses from their responders: queued deliveries are dropped, and a responder that
  /// heard `pressesBegan` but not the end gets `pressesCancelled`.
  func cancelInResponders(_ presses: [Press], by r: GestureRecognizer) {
    var cancellations: [PressDelivery] = []
    for press in presses where !press.responderCancelled {
      press.responderCancelled = true
      let queued = pressQueue.first { $0.press === press }?.event
      pressQueue.removeAll { $0.press === press }
      if press.responderBeganDelivered && !press.responderFinished, let event = queued ?? currentPressesEvent(press) {
        cancellations.append(PressDelivery(press: press, phase: .cancelled, event: event, timestamp: press.timestamp))
      }
    }
    dispatchPresses(cancellations)
  }

  private func currentPressesEvent(_ press: Press) -> PressesEvent? {
    press.window?.application?.currentPressesEvent
  }

  /// Delivers, in order, the queued press items nothing holds back.
  func flushPresses() {
    guard !pressQueue.isEmpty else { return }
    var waiting: [PressDelivery] = []
    var ready: [PressDelivery] = []
    for item in pressQueue where !item.press.responderCancelled {
      let held = item.press.gestureRecognizers.contains { r in
        r._state == .possible && (r.delaysTouchesBegan || (item.phase == .ended && r.delaysTouchesEnded))
      }
      if held || waiting.contains(where: { $0.press === item.press }) {
        waiting.append(item)
      } else {
        ready.append(item)
      }
    }
    pressQueue = waiting
    dispatchPresses(ready)
  }

  /// Calls the responders' presses methods, one call per run of items with the same responder,
  /// phase and event.
  private func dispatchPresses(_ items: [PressDelivery]) {
    var start = 0
    while start < items.count {
      let first = items[start]
      var end = start + 1
      while end < items.count, items[end].press.responder === first.press.responder, items[end].phase == first.phase,
        items[end].event === first.event
      {
        end += 1
      }
      let run = items[start..<end]
      var saved: [(Press, PressPhase, Double)] = []
      for item in run {
        if item.phase == .began { item.press.responderBeganDelivered = true }
        if item.phase.isTerminal { item.press.responderFinished = true }
        saved.append((item.press, item.press.phase, item.press.timestamp))
        item.press.phase = item.phase
        item.press.timestamp = item.timestamp
      }
      if let responder = first.press.responder {
        let presses = Set(run.map(\.press))
        switch first.phase {
        case .began: responder.pressesBegan(presses, with: first.event)
        case .changed: responder.pressesChanged(presses, with: first.event)
        case .ended: responder.pressesEnded(presses, with: first.event)
        case .cancelled: responder.pressesCancelled(presses, with: first.event)
        case .stationary: break
        }
      }
      for (press, phase, timestamp) in saved {
        press.phase = phase
        press.timestamp = timestamp
      }
      start = end
    }
  }
}
