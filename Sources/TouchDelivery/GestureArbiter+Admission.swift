// GestureArbiter: admitting a touch at touch-down: exclusiveTouch, multipleTouchEnabled, and the
// recognizers it goes to.

import TouchdCore

extension GestureArbiter {
  func admit(_ touch: Touch, among all: Set<Touch>) {
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
        guard r.takesTouches else { continue }
        guard r.allowedTouchTypes.contains(touch.type) else {
          if tracer != nil {
            notes.append("'\(r.traceName)' does not take \(touch.type.rawValue) touches (allowedTouchTypes)")
          }
          continue
        }
        if r.requiresExclusiveTouchType, let other = r.attemptTouches.first, other.type != touch.type {
          if tracer != nil {
            notes.append(
              "'\(r.traceName)' has a \(other.type.rawValue) touch and requiresExclusiveTouchType: no \(touch.type.rawValue) touch"
            )
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
      if v.isolatesTouches {
        if tracer != nil && v.superview != nil {
          notes.append("view '\(v.traceName)' isolates its touches: its superviews' recognizers do not get it")
        }
        break
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
}
