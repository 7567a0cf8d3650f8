// GestureArbiter: delivery to views: the ordered queue, holding back (`delaysTouchesBegan`/`Ended`),
// cancelling in views (`cancelsTouchesInView`) and the views' touches calls.

import TouchdCore

extension GestureArbiter {
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

  /// Queues a view delivery. A `moved` for a touch whose last queued item is a `moved` still
  /// waiting replaces that item's position and time: a held touch gets one catch-up `moved`.
  /// `waiting` is how many items at the queue's head are left from earlier turns: the only ones
  /// the item can merge with, so a turn with nothing held scans nothing.
  func enqueueView(_ item: ViewDelivery, mergingWithin waiting: Int) {
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
  func cancelInViews(_ touches: [Touch], by r: GestureRecognizer) {
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
    /// The recognizers holding the waiting items the view gets, those holding the items only the
    /// delivery observer gets (a touch the view refused for multipleTouchEnabled), and those of the
    /// item at hand. An observer-only item never holds back one the view gets, so forwarding
    /// leaves the view's own delivery as it is without an observer.
    var holders = recognizerArrays.borrow()
    var observerHolders = recognizerArrays.borrow()
    var own = recognizerArrays.borrow()
    for var item in queue where !item.touch.viewCancelled {
      heldBy(item, into: &own)
      let toView = item.touch.deliversToView
      let behind =
        !waiting.isEmpty
        && (waiting.contains { w in
          w.touch === item.touch || (w.touch.view === item.touch.view && (w.touch.deliversToView || !toView))
        }
          || item.touch.gestureRecognizers.contains { r in
            holders.contains { $0 === r } || (!toView && observerHolders.contains { $0 === r })
          })
      if own.isEmpty && !behind {
        ready.append(item)
        continue
      }
      if toView {
        for r in own where !holders.contains(where: { $0 === r }) { holders.append(r) }
      } else {
        for r in own where !observerHolders.contains(where: { $0 === r }) { observerHolders.append(r) }
      }
      if !item.wasHeld {
        item.wasHeld = true
        if item.touch.deliversToView { tracer?(.held(item.touch, phase: item.phase, by: own)) }
        deliveryObserver?(
          ViewDeliveryRecord(
            id: item.touch.id, phase: item.phase, location: item.location, wasHeld: false, isHold: true))
      }
      waiting.append(item)
    }
    recognizerArrays.giveBack(&holders)
    recognizerArrays.giveBack(&observerHolders)
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
        if item.wasHeld && t.deliversToView { tracer?(.released(t, phase: item.phase, location: item.location)) }
        deliveryObserver?(
          ViewDeliveryRecord(id: t.id, phase: item.phase, location: item.location, wasHeld: item.wasHeld))
      }
      if let view = first.touch.view, run.contains(where: { $0.touch.deliversToView }) {
        var touches = takeCallSet()
        // A touch the view refused for multipleTouchEnabled is only in the queue for the observer.
        for item in run where item.touch.deliversToView { touches.insert(item.touch) }
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
  static func group(_ touches: [Touch], into result: inout [Touch], scratch samePhase: inout [Touch]) {
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
}
