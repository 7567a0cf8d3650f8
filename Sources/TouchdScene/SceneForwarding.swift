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
final class SceneForwarding {
  /// One physical touchscreen's virtual touchscreen.
  final class Device {
    let source: Int
    let window: Int
    let encoder: ForwardEncoder
    /// The virtual device's position axes, which window points are scaled onto.
    let axes: (x: AbsInfo, y: AbsInfo)
    let output: ([InputEvent]) -> Void
    var pending: [ForwardedChange] = []
    /// The encoded events of the last batch, kept for the next.
    var events: [InputEvent] = []
    /// Touches whose touch-down a recognizer held (``ForwardCounters/held``).
    var held = 0

    init(source: Int, window: Int, encoder: ForwardEncoder, output: @escaping ([InputEvent]) -> Void) {
      self.source = source
      self.window = window
      self.encoder = encoder
      self.axes = VirtualTouchscreen.positionAxes(of: encoder.device)
      self.output = output
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

  /// After the frame: its forwarded changes leave as one frame (split only where a touch has two).
  func endFrame() {
    frameTime = nil
    frameSource = nil
    sentAhead.removeAll(keepingCapacity: true)
    flush()
    // A contact that ended and will never be delivered (blocked, refused by its view, swallowed)
    // forgets its source; one still down on the virtual device, or whose touch-down is held (its
    // recognizer may fail later and release it), keeps it until its end or its drop.
    for id in frameEnding where !heldDown.contains(id) && !devices.contains(where: { $0.encoder.isForwarding(id) }) {
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
      guard contact.phase == .moved, device.encoder.isForwarding(contact.id) else { return }
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
    let source =
      frameSource.flatMap { s in device(source: s)?.window == window ? s : nil }
      ?? devices.first { $0.window == window }?.source
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
    let time = frameTime ?? Timestamp(microseconds: Int64((clock.now * 1_000_000).rounded()))
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
    let time = frameTime ?? Timestamp(microseconds: Int64((clock.now * 1_000_000).rounded()))
    if pendingTime != time { flush() }
    pendingTime = time
    if frameTime == nil && turnFlush == nil {
      turnFlush = clock.schedule(at: clock.now) { [weak self] in
        self?.turnFlush = nil
        self?.flush()
      }
    }
    device.pending.append(ForwardedChange(id: delivery.id, kind: kind, x: x, y: y))
    if delivery.phase.isTerminal {
      sourceOf[delivery.id] = nil
      heldDown.remove(delivery.id)
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
    for device in devices where !device.pending.isEmpty {
      // Both buffers are kept: no allocation per frame for them.
      var events = device.events
      device.events = []
      events.removeAll(keepingCapacity: true)
      device.encoder.encode(device.pending, at: time, into: &events)
      device.pending.removeAll(keepingCapacity: true)
      if !events.isEmpty { device.output(events) }
      device.events = events
    }
  }
}
