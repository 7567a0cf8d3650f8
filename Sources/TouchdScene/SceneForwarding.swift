import TouchDelivery
import TouchdInput

/// Forwarding (docs/forward.md): the touches of a window with `forward:` that no recognizer claims
/// go on to a virtual touchscreen, one per physical touchscreen, which the compositor reads as if
/// it were the real one. UIKit's model with the compositor as the view underneath: the forwarded
/// stream is what the touch's hit-test view receives (``ViewDeliveryRecord``):
/// - `touchesBegan` delivered → the touch goes down on the virtual device, in the frame it is
///   delivered in: the input frame itself when nothing holds it (no added frame, no timer);
/// - `touchesMoved` → motion; a touch released by a failing `delaysTouchesBegan` recognizer shows
///   its touch-down point, then one catch-up motion: "the window delivers these objects to the view
///   in a touchesBegan(_:with:) message (and possibly a follow-up touchesMoved(_:with:) message to
///   inform it of the touches' current locations)" (Apple's `delaysTouchesBegan` documentation);
/// - `touchesEnded` → the lift, so a lift held by `delaysTouchesEnded` lifts when released ("If
///   the gesture recognizer does not recognize its gesture, the window delivers these objects in
///   an invocation of the view's touchesEnded(_:with:) method", Apple's `delaysTouchesEnded`);
/// - `touchesCancelled` (a recognizer's `cancelsTouchesInView` claim: "previously delivered touches
///   are cancelled through a touchesCancelled(_:with:) message sent to the view", Apple's
///   `cancelsTouchesInView`; or touchd's own cancel: a palm, `SYN_DROPPED`, the device gone) →
///   `MT_TOOL_PALM`, then the lift in the next frame, which libinput reports as
///   `LIBINPUT_EVENT_TOUCH_CANCEL`;
/// - a touch whose held `touchesBegan` is dropped by a recognition ("If the gesture recognizer
///   subsequently recognizes its gesture, these touch objects are discarded", Apple's
///   `delaysTouchesBegan`) is never forwarded;
/// - a touch that hits no view (``ViewDeliveryRecord/hitNothing``) is forwarded as it arrives.
/// Positions are window points (calibrated and rotated) scaled back onto the virtual device's axes,
/// so the compositor sees what touchd's views see.
///
/// A pen display's virtual device is a pen (``VirtualPen``, docs/pens.md "Forwarded windows"): its
/// touch's deliveries are the tip's (down, moves, lift) with the frame's pressure, tilt and
/// buttons; a cancel takes the virtual pen out of proximity; and every frame of the pen hovering
/// (near, tip up) is forwarded as it comes, since a hovering pen makes no touch for a view to get.
final class SceneForwarding {
  /// One physical device's virtual device.
  final class Device {
    /// The encoder of the virtual device: a touchscreen's or a pen's.
    enum Encoder {
      case touchscreen(ForwardEncoder)
      case pen(PenForwardEncoder)
    }

    let source: Int
    let window: Int
    let encoder: Encoder
    /// The virtual device's position axes, which window points are scaled onto.
    let axes: (x: AbsInfo, y: AbsInfo)
    let output: ([InputEvent]) -> Void
    var pending: [ForwardedChange] = []
    var penPending: [ForwardedPenChange] = []
    /// A pen's state in the frame being delivered (window points), with its contact's force, and
    /// the last one: what its touch's deliveries, and timers' releases, are forwarded with.
    var pen: (state: PenState, force: Double?)?
    /// The pen's touch that is down on the virtual pen.
    var penTouch: TouchID?
    /// The encoded events of the last batch, kept for the next.
    var events: [InputEvent] = []
    /// Touches whose touch-down a recognizer held (``ForwardCounters/held``).
    var held = 0

    init(source: Int, window: Int, encoder: Encoder, output: @escaping ([InputEvent]) -> Void) {
      self.source = source
      self.window = window
      self.encoder = encoder
      self.axes = VirtualTouchscreen.positionAxes(of: encoder.description)
      self.output = output
    }

    /// The touchscreen's encoder, nil for a pen.
    var touchscreen: ForwardEncoder? {
      if case .touchscreen(let encoder) = encoder { encoder } else { nil }
    }

    /// Whether `id` is down on the virtual device.
    func isForwarding(_ id: TouchID) -> Bool {
      switch encoder {
      case .touchscreen(let encoder): encoder.isForwarding(id)
      case .pen: penTouch == id
      }
    }

    var counters: ForwardCounters {
      switch encoder {
      case .touchscreen(let encoder): encoder.counters
      case .pen(let encoder): encoder.counters
      }
    }
  }

  /// By source, in the order added.
  private(set) var devices: [Device] = []
  /// The source of every touch that began on a forwarding device and may still be delivered.
  private var sourceOf: [TouchID: Int] = [:]
  /// Touches whose touch-down is held: they may be delivered after their contact has ended.
  private var heldDown: Set<TouchID> = []
  /// The time of the pending changes: the input frame's while one is delivered, else a timer's.
  private var pendingTime: Timestamp?
  private var frameTime: Timestamp?
  /// The forwarding device whose frame is being delivered.
  private var frameSource: Int?
  /// The pen device whose frame reached the views (``penFrame(_:source:)``).
  private var penFrameSource: Int?
  private var frameEnding: [TouchID] = []
  /// The moves ``forwardAhead(_:source:window:)`` sent for the frame being delivered: the views'
  /// `touchesMoved` for them are already on the virtual device.
  private var sentAhead: [ForwardedChange] = []
  /// Flushes what a turn outside an input frame (a recognizer's timer, a command) forwarded, once
  /// that turn is over: a timer at the clock's own time, so it runs right after the turn on any
  /// clock (next in `VirtualClock.advance`, the next block on the daemon's queue).
  private var turnFlush: ScheduledTimer?
  private let clock: TouchClock
  private let mapping: (Int) -> ScreenMapping

  init(clock: TouchClock, mapping: @escaping (Int) -> ScreenMapping) {
    self.clock = clock
    self.mapping = mapping
  }

  func device(source: Int) -> Device? { devices.first { $0.source == source } }

  func add(_ device: Device) { devices.append(device) }

  /// Sends what is pending, then forgets `source`'s device and the touches that began on it.
  func remove(source: Int) {
    flush()
    devices.removeAll { $0.source == source }
    for (id, from) in sourceOf where from == source {
      sourceOf[id] = nil
      heldDown.remove(id)
    }
  }

  /// Before a frame from `source` is delivered: its new touches belong to `source`'s virtual
  /// device, and what is pending from an earlier time leaves first.
  func beginFrame(_ frame: TouchFrame, source: Int?) {
    if pendingTime != frame.time { flush() }
    frameTime = frame.time
    frameEnding = []
    sentAhead.removeAll(keepingCapacity: true)
    frameSource = nil
    guard let source, device(source: source) != nil else { return }
    frameSource = source
    for contact in frame.contacts {
      if contact.phase == .began { sourceOf[contact.id] = source }
      if contact.phase.isTerminal { frameEnding.append(contact.id) }
    }
  }

  /// A pen frame of `source` in window points (its window's mapped frame), before it is delivered:
  /// the pen state the deliveries of its touch are forwarded with. Only frames that reach the views
  /// come here (not a calibration's, an idle scene's swallowed wake, VoiceOver's).
  func penFrame(_ frame: TouchFrame, source: Int?) {
    guard let source, let pen = frame.pen, let device = device(source: source), case .pen = device.encoder else {
      return
    }
    let force = pen.contact.flatMap { id in frame.contacts.first { $0.id == id }?.force }
    device.pen = (pen, force)
    penFrameSource = source
  }

  /// After the frame: its forwarded changes leave as one frame (split only where a touch has two).
  func endFrame() {
    if let source = penFrameSource, let device = device(source: source), let pen = device.pen?.state,
      let time = frameTime
    {
      // The pen above the glass, tip up, is forwarded as it moves; its leaving takes it out.
      if pen.inProximity && pen.contact == nil {
        appendPen(.hover, at: Point(x: pen.x, y: pen.y), to: device, time: time)
      } else if !pen.inProximity {
        appendPen(.leave, at: Point(x: pen.x, y: pen.y), to: device, time: time)
      }
    }
    penFrameSource = nil
    frameTime = nil
    frameSource = nil
    sentAhead.removeAll(keepingCapacity: true)
    flush()
    // A contact that ended and will never be delivered (blocked, refused by its view, swallowed)
    // forgets its source; one still down on the virtual device, or whose touch-down is held (its
    // recognizer may fail later and release it), keeps it until its end or its drop.
    for id in frameEnding where !heldDown.contains(id) && !devices.contains(where: { $0.isForwarding(id) }) {
      sourceOf[id] = nil
    }
    frameEnding = []
  }

  /// Forwards a frame's motion ahead of its delivery when that motion is all there is to forward
  /// from it: every contact that moved is already down on `source`'s virtual device, and no contact
  /// begins or ends. Unless a recognizer claims one of them in this frame, such a frame leaves as
  /// these moves anyway, but only after the whole pipeline ran; written first, it reaches the
  /// compositor at once (#25's latency bound, docs/performance.md "Forwarding"). The view's
  /// `touchesMoved` for the same positions is then skipped (``sentAhead``), so nothing leaves
  /// twice. A recognizer
  /// that claims a touch in this frame cancels it in a frame of its own after the motion (the
  /// compositor's client gets one more motion before `touchcancel`, never a tap). `frame` is in
  /// window points (``SceneRuntime/handle(_:inWindow:source:)``'s mapped frame).
  func forwardAhead(_ frame: TouchFrame, source: Int?, window: Int) {
    guard let source, pendingTime == nil, let device = device(source: source), device.window == window else {
      return
    }
    var moved = false
    for contact in frame.contacts where contact.phase != .stationary {
      guard contact.phase == .moved, let encoder = device.touchscreen, encoder.isForwarding(contact.id) else {
        return
      }
      moved = true
    }
    guard moved else { return }
    let m = mapping(window)
    for contact in frame.contacts where contact.phase == .moved {
      let (x, y) = VirtualTouchscreen.position(contact.x, contact.y, in: m, axes: device.axes)
      device.pending.append(ForwardedChange(id: contact.id, kind: .move, x: x, y: y))
    }
    sentAhead.append(contentsOf: device.pending)
    pendingTime = frame.time
    flush()
  }

  /// A touch touchd makes itself in window `window` (VoiceOver's activation tap) is forwarded as the
  /// device's own are (what its hit-test view receives): on the virtual touchscreen of the device
  /// whose frame made it, else (a key, a timer) of the window's first forwarding device.
  func adopt(_ id: TouchID, window: Int) {
    func takes(_ device: Device?) -> Bool { device?.window == window && device?.touchscreen != nil }
    let source =
      frameSource.flatMap { s in takes(device(source: s)) ? s : nil } ?? devices.first { takes($0) }?.source
    guard let source else { return }
    sourceOf[id] = source
  }

  /// Whether window `window` has a virtual touchscreen.
  func forwards(window: Int) -> Bool { devices.contains { $0.window == window } }

  /// A change of a touch touchd makes itself (``adopt(_:window:)`` first), written to its virtual
  /// touchscreen as it is, past the views: at `point` in window `window`'s points; in the frame being
  /// delivered, else at once at the clock's time.
  func send(_ id: TouchID, _ kind: ForwardedChange.Kind, at point: Point, window: Int) {
    guard let source = sourceOf[id], let device = device(source: source) else { return }
    let (x, y) = VirtualTouchscreen.position(point.x, point.y, in: mapping(window), axes: device.axes)
    let time = frameTime ?? clockTime
    if pendingTime != time { flush() }
    pendingTime = time
    device.pending.append(ForwardedChange(id: id, kind: kind, x: x, y: y))
    if kind == .lift { sourceOf[id] = nil }
    if frameTime == nil { flush() }
  }

  /// One touch of a view delivery.
  func record(_ delivery: ViewDeliveryRecord) {
    guard let source = sourceOf[delivery.id], let device = device(source: source) else { return }
    if delivery.isHold {
      if delivery.phase == .began {
        device.held += 1
        heldDown.insert(delivery.id)
      }
      return
    }
    if delivery.isDrop {
      heldDown.remove(delivery.id)
      sourceOf[delivery.id] = nil
      return
    }
    if delivery.phase == .began { heldDown.remove(delivery.id) }
    if delivery.phase.isTerminal {
      sourceOf[delivery.id] = nil
      heldDown.remove(delivery.id)
    }
    if case .pen = device.encoder {
      recordPen(delivery, device: device)
      return
    }
    let m = mapping(device.window)
    let (x, y) = VirtualTouchscreen.position(delivery.location.x, delivery.location.y, in: m, axes: device.axes)
    let kind: ForwardedChange.Kind
    switch delivery.phase {
    case .began: kind = .down(released: delivery.wasHeld)
    case .moved, .stationary:
      // Sent ahead already (``forwardAhead(_:source:window:)``): nothing to encode again.
      if sentAhead.contains(where: { $0.id == delivery.id && $0.x == x && $0.y == y }) { return }
      kind = .move
    case .ended: kind = .lift
    case .cancelled: kind = .cancel
    }
    pend(at: frameTime ?? clockTime)
    device.pending.append(ForwardedChange(id: delivery.id, kind: kind, x: x, y: y))
  }

  /// A delivery of a pen's touch: its tip on the virtual pen, with the pen's last state.
  private func recordPen(_ delivery: ViewDeliveryRecord, device: Device) {
    let kind: ForwardedPenChange.Kind
    switch delivery.phase {
    case .began:
      kind = .down(released: delivery.wasHeld)
      device.penTouch = delivery.id
    case .moved, .stationary: kind = .move
    case .ended: kind = .lift
    case .cancelled: kind = .cancel
    }
    if delivery.phase.isTerminal, device.penTouch == delivery.id { device.penTouch = nil }
    appendPen(kind, at: delivery.location, to: device, time: frameTime ?? clockTime)
  }

  /// Appends a change of `device`'s pen at window point `point`, at `time`.
  private func appendPen(_ kind: ForwardedPenChange.Kind, at point: Point, to device: Device, time: Timestamp) {
    guard case .pen(let encoder) = device.encoder else { return }
    let pen = device.pen ?? (PenState(inProximity: true, x: point.x, y: point.y), nil)
    let touching = kind != .hover && kind != .leave
    let sample = VirtualPen.sample(
      of: pen.state, at: point.x, point.y, force: touching ? pen.force : nil, in: mapping(device.window),
      device: encoder.device)
    pend(at: time)
    device.penPending.append(ForwardedPenChange(kind, sample))
  }

  /// The clock's time, for what a turn outside a frame forwards.
  private var clockTime: Timestamp { Timestamp(microseconds: Int64((clock.now * 1_000_000).rounded())) }

  /// Makes `time` the pending changes' time (what is pending from another time leaves first); a
  /// turn outside a frame flushes once it is over.
  private func pend(at time: Timestamp) {
    if pendingTime != time { flush() }
    pendingTime = time
    if frameTime == nil && turnFlush == nil {
      turnFlush = clock.schedule(at: clock.now) { [weak self] in
        self?.turnFlush = nil
        self?.flush()
      }
    }
  }

  /// How many touches the forwarding still knows (tests: nothing stays behind).
  var trackedTouchCount: Int { sourceOf.count + heldDown.count }

  /// Whether nothing waits to be sent: a frame's moves can then go ahead of it.
  var isSettled: Bool { pendingTime == nil && turnFlush == nil && frameTime == nil }

  /// Sends the pending changes, each device's as one batch at their time.
  func flush() {
    turnFlush?.cancel()
    turnFlush = nil
    guard let time = pendingTime else { return }
    pendingTime = nil
    for device in devices where !device.pending.isEmpty || !device.penPending.isEmpty {
      // Both buffers are kept: no allocation per frame for them.
      var events = device.events
      device.events = []
      events.removeAll(keepingCapacity: true)
      switch device.encoder {
      case .touchscreen(let encoder):
        encoder.encode(device.pending, at: time, into: &events)
        device.pending.removeAll(keepingCapacity: true)
      case .pen(let encoder):
        encoder.encode(device.penPending, at: time, into: &events)
        device.penPending.removeAll(keepingCapacity: true)
      }
      if !events.isEmpty { device.output(events) }
      device.events = events
    }
  }
}

extension SceneForwarding.Device.Encoder {
  /// The virtual device's description.
  var description: DeviceDescription {
    switch self {
    case .touchscreen(let encoder): encoder.device
    case .pen(let encoder): encoder.device
    }
  }
}
