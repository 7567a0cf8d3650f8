// Publishing messages: action, control, presses, scroll, touches and idle messages to the sink,
// each with its `seq` and time.
import TouchDelivery
import TouchdInput

extension SceneRuntime {
  /// The time messages carry: the frame's while one is delivered, else the clock's.
  var now: Double { frameTime ?? application.clock.now }

  func publishIdle(_ isIdle: Bool, time: Double, swallowed: Bool) {
    if isIdle { healthMonitor?.wentIdle() }
    sink(
      .idle(
        IdleMessage(
          seq: takeSeq(), isIdle: isIdle, time: time, lastInput: idleMonitor?.lastInput, swallowed: swallowed)))
  }

  func publishAction(_ recognizer: GestureRecognizer, spec: Scene.Recognizer, viewID: String, windowID: String) {
    healthMonitor?.actionMade()
    let values: GestureValues
    switch recognizer {
    case let r as PanGestureRecognizer:
      values = .pan(translation: r.translation(in: nil), velocity: r.velocity(in: nil))
    case let r as PinchGestureRecognizer: values = .pinch(scale: r.scale, velocity: r.velocity)
    case let r as RotationGestureRecognizer: values = .rotation(rotation: r.rotation, velocity: r.velocity)
    case let r as SwipeGestureRecognizer:
      let d = r.recognizedDirection ?? r.direction
      let name =
        d.contains(.right) ? "right" : d.contains(.left) ? "left" : d.contains(.up) ? "up" : "down"
      values = .swipe(direction: name)
    case let r as HoverGestureRecognizer:
      values = .hover(zOffset: r.zOffset, altitudeAngle: r.altitudeAngle, azimuthAngle: r.azimuthAngle)
    default: values = .none
    }
    let state: GestureRecognizer.State = recognizer.state == .possible ? .ended : recognizer.state
    // A gesture made by presses (allowedPressTypes) has no touch: it is located at its view's centre.
    let press = recognizer.trackedTouches.isEmpty ? recognizer.trackedPresses.first : nil
    var location = recognizer.location(in: nil)
    if press != nil, let view = recognizer.view {
      location = view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil)
    }
    // Inside zoomed content the view's own points are not the window's: both are given.
    let view = recognizer.view
    let locationInView = view?.isScaled == true ? view?.convert(location, from: nil) : nil
    sink(
      .action(
        ActionMessage(
          seq: takeSeq(), action: spec.action, gesture: spec.type, state: state, view: viewID, window: windowID,
          recognizer: spec.id, time: now, location: location,
          numberOfTouches: press == nil ? recognizer.numberOfTouches : 0, values: values,
          press: press?.type.rawValue, locationInView: locationInView)))
  }

  func publishControl(_ control: Control) {
    healthMonitor?.actionMade()
    sink(
      .control(
        ControlMessage(
          seq: takeSeq(), control: controlTypeName(control), view: control.identifier ?? "",
          window: control.window?.identifier ?? "", time: now, enabled: control.isEnabled,
          highlighted: control.isHighlighted, selected: control.isSelected, value: ControlValue(of: control))))
  }

  func publishPresses(_ view: TouchDelivery.View, _ phase: PressPhase, _ presses: Set<Press>) {
    let infos = presses.map { p in
      PressesMessage.PressInfo(id: p.id, type: p.type.rawValue, key: p.key, phase: p.phase)
    }
    sink(
      .presses(
        PressesMessage(
          seq: takeSeq(), phase: phase, view: view.identifier ?? "", window: view.window?.identifier ?? "", time: now,
          presses: infos)))
  }

  func publishScroll(_ view: ScrollView, _ event: ScrollView.ScrollEvent) {
    sink(
      .scroll(
        ScrollMessage(
          seq: takeSeq(), phase: event.phase, view: view.identifier ?? "", window: view.window?.identifier ?? "",
          time: event.time, contentOffset: event.contentOffset, zoomScale: event.zoomScale, velocity: event.velocity,
          targetContentOffset: event.targetContentOffset, willDecelerate: event.willDecelerate)))
  }

  func publishTouches(_ view: TouchDelivery.View, _ phase: TouchPhase, _ touches: Set<Touch>) {
    let infos = touches.map { t in
      // Inside zoomed content the touch's view has points of its own, as an action's view.
      let inView = t.view.flatMap { v in v.isScaled ? v.convert(t.locationInWindow, from: nil) : nil }
      return TouchesMessage.TouchInfo(
        t, view: t.view?.identifier ?? view.window?.identifier ?? "", locationInView: inView)
    }
    var message = TouchesMessage(
      seq: takeSeq(), phase: phase, view: view.identifier ?? "", window: view.window?.identifier ?? "", time: now,
      touches: infos)
    if let touchMotion {
      // Each touch's time as delivered: a held delivery's is when it was held (GestureArbiter+Views).
      touchMotion.addEntries(to: &message) { id in touches.first { Int(clamping: $0.id.rawValue) == id }?.timestamp }
    }
    sink(.touches(message))
  }
}
