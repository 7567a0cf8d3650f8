import CForwardShortcut

/// The forwarding shortcut (docs/forward.md, "Frames and time"): a forwarded protocol B
/// touchscreen's motion frames composed for its virtual touchscreen as their events are read, before
/// frame assembly and delivery, so that the compositor does not wait for touchd's own work on them
/// (issue #25's latency bound, docs/performance.md "Forwarding").
///
/// Between two frames the scene arms it (`SceneRuntime.armShortcut`) with what the pipeline
/// would do with a frame that only moves touches already down on the virtual device: which
/// physical slot holds which of them and in which virtual slot, the raw positions, the device
/// calibration, the window's mapping and the virtual device's state as last sent. Such a frame
/// leaves the pipeline as those moves whatever the recognizers then decide
/// (`SceneForwarding.forwardAhead`), so it is composed here, from the raw events, with the very
/// expressions of the pipeline (``FrameAssembler`` normalization, ``CalibrationMatrix/apply(x:y:)``,
/// ``ScreenMapping/map(x:y:)``, ``VirtualTouchscreen/position(_:_:in:axes:)``, ``ForwardEncoder``'s
/// rules): the same events to the unit. The daemon writes them at once; when the pipeline then
/// forwards the frame, its events are checked against these and not written again.
///
/// The composing itself is C (`CForwardShortcut`), with the pipeline's expressions ported one for
/// one, so that the live input thread can run it before it enters the pipeline's queue
/// (`ForwardPath` in TouchdDevices); this class arms it and checks its frames.
///
/// Any other frame is left to the pipeline: a touch that begins, ends or turns palm (a tracking id
/// or tool type), a change in a slot not armed (a touch a recognizer holds, or not forwarded), a key,
/// a timer due at or before the frame (it fires first in the pipeline and may claim the touch), a
/// frame from the resync after `SYN_DROPPED`. Arming lasts one frame: each `SYN_REPORT` disarms,
/// and the daemon disarms before any other work on its queue (a timer, a client's command, a
/// reload), which may change what the next frame would do.
///
/// Owned by the pipeline's queue, like the device it reads; while the daemon's input thread may run
/// the composer (between the end of one input turn and the start of the queue's next work), the
/// queue does not touch it (`ForwardPath`).
public final class ForwardShortcut {
  /// The C composer: its plan, per-slot state and last composed frame.
  public let composer: UnsafeMutablePointer<touchd_shortcut>
  /// The physical device's slots (the assembler's: at most 1024).
  public var physicalSlots: Int { Int(composer.pointee.physical_slots) }
  /// The virtual device's slots.
  public var virtualSlots: Int { Int(composer.pointee.virtual_slots) }
  /// The events of the frame composed by the last ``feed(_:)`` that returned true, ending in
  /// `SYN_REPORT`.
  public var events: [InputEvent] {
    (0..<Int(composer.pointee.event_count)).map { Self.event(composer.pointee.events[$0]) }
  }
  /// Frames composed since the shortcut was made.
  public var composed: Int { Int(composer.pointee.composed) }
  /// Whether a composed frame waits for the pipeline's own events for it
  /// (``confirm(_:)``); cleared by ``confirm(_:)`` and ``confirmNothing()``.
  public var awaitsConfirmation: Bool { composer.pointee.awaits_confirmation }
  /// Composed frames the pipeline then forwarded as the same events.
  public private(set) var confirmed = 0
  /// Composed frames the pipeline forwarded otherwise, or not at all: a fault of touchd's.
  public private(set) var mismatches = 0
  /// When the composed frame was written (µs on CLOCK_MONOTONIC), for the daemon's latency stages.
  public var writtenAt: Int64? {
    get { composer.pointee.written_at == 0 ? nil : composer.pointee.written_at }
    set { composer.pointee.written_at = newValue ?? 0 }
  }

  /// A shortcut for a protocol B device of `physicalSlots` slots forwarded to a virtual device of
  /// `virtualSlots` slots.
  public init(physicalSlots: Int, virtualSlots: Int) {
    let physical = Int32(clamping: Swift.max(1, physicalSlots))
    let virtual = Int32(clamping: Swift.max(1, virtualSlots))
    guard let composer = touchd_shortcut_create(physical, virtual) else {
      fatalError("out of memory for a forwarding shortcut of \(physical) and \(virtual) slots")
    }
    self.composer = composer
  }

  /// The shortcut of a forwarded touchscreen `physical` (its virtual device:
  /// ``VirtualTouchscreen/description(for:name:)``); nil unless `physical` is a protocol B device
  /// (protocol A and single-touch frames always take the pipeline).
  public convenience init?(physical: DeviceDescription) {
    guard case .slots(let count) = physical.touchProtocol else { return nil }
    self.init(
      physicalSlots: Swift.min(Swift.max(count, 1), FrameAssembler.maximumSlots),
      virtualSlots: VirtualTouchscreen.slotCount(for: physical))
  }

  deinit { touchd_shortcut_destroy(composer) }

  /// Whether the next frame may be composed here.
  public var isArmed: Bool { composer.pointee.armed }

  /// Leaves the next frames to the pipeline until armed again.
  public func disarm() { touchd_shortcut_disarm(composer) }

  /// Arms the shortcut for the next frame, from the state the pipeline is in after its last one:
  /// `assembler` (the physical device's), `encoder` (its virtual device's), the virtual device's
  /// position `axes`, the window's `mapping`, the device's `calibration` (udev's matrix, applied
  /// before the mapping) and the clock's next timer `deadline`. Returns whether it armed: not when
  /// the assembler is not between protocol B frames, a live touch has something pending, no
  /// forwarded touch is in a slot, or the encoder's state is not the one its frames leave.
  @discardableResult
  public func arm(
    assembler: FrameAssembler, encoder: ForwardEncoder, axes: (x: AbsInfo, y: AbsInfo), mapping: ScreenMapping,
    calibration: CalibrationMatrix?, deadline: Double?
  ) -> Bool {
    disarm()
    let c = composer
    let physicalSlots = self.physicalSlots
    let virtualSlots = self.virtualSlots
    guard let state = assembler.shortcutState, state.slotCount == physicalSlots else { return false }
    let virtual = encoder.shortcutState
    guard virtual.slotCount == virtualSlots else { return false }
    let oldest = encoder.oldestSlot()
    // A move frame sends no BTN_TOUCH: the button must already say what the slots say.
    guard virtual.buttonDown == (oldest != nil) else { return false }
    for i in 0..<physicalSlots { c.pointee.slot_virtual[i] = -1 }
    for v in 0..<virtualSlots { c.pointee.virtual_physical[v] = -1 }
    var any = false
    var settled = true
    assembler.forEachLiveSlot { slot, touch, x, y, isSettled in
      guard isSettled else {
        settled = false
        return
      }
      // A live touch not forwarded (held by a recognizer, or no free slot) stays unarmed: a frame
      // that changes it goes through the pipeline.
      guard let v = encoder.virtualSlot(of: touch), v < virtualSlots else { return }
      c.pointee.slot_virtual[slot] = Int32(v)
      c.pointee.virtual_physical[v] = Int32(slot)
      c.pointee.slot_x[slot] = x
      c.pointee.slot_y[slot] = y
      any = true
    }
    guard settled, any else { return false }
    for v in 0..<virtualSlots { (c.pointee.virtual_x[v], c.pointee.virtual_y[v]) = encoder.slotPosition(v) }
    c.pointee.current_slot = Int32(state.currentSlot)
    c.pointee.virtual_current_slot = Int32(virtual.currentSlot)
    c.pointee.pointer_slot = Int32(oldest ?? -1)
    c.pointee.has_pointer = virtual.pointer != nil
    (c.pointee.pointer_x, c.pointee.pointer_y) = virtual.pointer ?? (0, 0)
    (c.pointee.x_minimum, c.pointee.x_maximum) = state.x
    (c.pointee.y_minimum, c.pointee.y_maximum) = state.y
    c.pointee.has_calibration = calibration != nil
    c.pointee.calibration = Self.matrix(calibration ?? .identity)
    c.pointee.mapping = Self.matrix(mapping.calibration)
    c.pointee.rotation = Int32(mapping.rotation.rawValue)
    c.pointee.width = mapping.width
    c.pointee.height = mapping.height
    (c.pointee.axis_x_minimum, c.pointee.axis_x_maximum) = (axes.x.minimum, axes.x.maximum)
    (c.pointee.axis_y_minimum, c.pointee.axis_y_maximum) = (axes.y.minimum, axes.y.maximum)
    c.pointee.deadline = deadline ?? .infinity
    c.pointee.armed = true
    return true
  }

  /// Reads one event, as libevdev hands it over in normal mode. Returns true at a `SYN_REPORT`
  /// that completes a frame for the shortcut: its events are then in ``events``, to be written to
  /// the virtual device now. Every `SYN_REPORT` disarms. (The live daemon feeds the composer from
  /// C on its input thread instead: `ForwardPath`.)
  @inline(__always)
  public func feed(_ event: InputEvent) -> Bool {
    touchd_shortcut_feed(
      composer,
      touchd_shortcut_event(
        microseconds: event.time.microseconds, type: event.type, code: event.code, value: event.value))
  }

  /// Compares `events`, the pipeline's own for the frame, with the frame composed here; true when
  /// they are the same events (type, code and value: the kernel stamps what uinput gets). Counts
  /// the frame ``confirmed`` or among the ``mismatches``.
  public func confirm(_ events: [InputEvent]) -> Bool {
    composer.pointee.awaits_confirmation = false
    let count = Int(composer.pointee.event_count)
    let mine = composer.pointee.events!
    let same =
      events.count == count
      && !events.indices.contains { i in
        events[i].type != mine[i].type || events[i].code != mine[i].code || events[i].value != mine[i].value
      }
    if same { confirmed += 1 } else { mismatches += 1 }
    return same
  }

  /// The pipeline forwarded nothing for the composed frame: one of the ``mismatches``.
  public func confirmNothing() {
    composer.pointee.awaits_confirmation = false
    mismatches += 1
  }

  private static func matrix(_ m: CalibrationMatrix) -> touchd_shortcut_matrix {
    touchd_shortcut_matrix(a: m.a, b: m.b, c: m.c, d: m.d, e: m.e, f: m.f)
  }

  private static func event(_ e: touchd_shortcut_event) -> InputEvent {
    InputEvent(time: Timestamp(microseconds: e.microseconds), type: e.type, code: e.code, value: e.value)
  }
}
