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
/// Any other frame is left to the pipeline: a touch that begins, ends or turns palm (a tracking id
/// or tool type), a change in a slot not armed (a touch a recognizer holds, or not forwarded), a key,
/// a timer due at or before the frame (it fires first in the pipeline and may claim the touch), a
/// frame from the resync after `SYN_DROPPED`. Arming lasts one frame: each `SYN_REPORT` disarms,
/// and the daemon disarms before any other work on its queue (a timer, a client's command, a
/// reload), which may change what the next frame would do.
///
/// Owned by the pipeline's queue, like the device it reads.
public final class ForwardShortcut {
  /// The physical device's slots (the assembler's: at most 1024).
  public let physicalSlots: Int
  /// The virtual device's slots.
  public let virtualSlots: Int
  /// The events of the frame composed by the last ``feed(_:)`` that returned true, ending in
  /// `SYN_REPORT`.
  public private(set) var events: [InputEvent] = []
  /// Frames composed since the shortcut was made.
  public private(set) var composed = 0
  /// Whether a composed frame waits for the pipeline's own events for it
  /// (``confirm(_:)``); cleared by ``confirm(_:)`` and ``confirmNothing()``.
  public private(set) var awaitsConfirmation = false
  /// Composed frames the pipeline then forwarded as the same events.
  public private(set) var confirmed = 0
  /// Composed frames the pipeline forwarded otherwise, or not at all: a fault of touchd's.
  public private(set) var mismatches = 0
  /// When the composed frame was written (µs on CLOCK_MONOTONIC), for the daemon's latency stages.
  public var writtenAt: Int64?

  private var armed = false
  /// Frames stamped at or after it (seconds on the scene's clock) are left to the pipeline: a timer
  /// due by then fires before the frame is delivered.
  private var deadline = Double.infinity
  private var currentSlot = 0
  private var virtualCurrentSlot = 0
  private var pointerSlot = -1
  private var pointer: (x: Int32, y: Int32)?
  private var xAxis = (minimum: 0.0, range: 1.0)
  private var yAxis = (minimum: 0.0, range: 1.0)
  private var calibration: CalibrationMatrix?
  private var mapping = ScreenMapping(width: 1, height: 1)
  private var axes = (x: AbsInfo(minimum: 0, maximum: 1), y: AbsInfo(minimum: 0, maximum: 1))

  // Per physical slot: the virtual slot it is armed for (-1: not armed), its raw position, and
  // whether the frame being read moved it.
  private let slotVirtual: UnsafeMutablePointer<Int>
  private let slotX: UnsafeMutablePointer<Int32>
  private let slotY: UnsafeMutablePointer<Int32>
  private let slotMoved: UnsafeMutablePointer<Bool>
  // Per virtual slot: the physical slot armed for it (-1: none) and its last position as sent.
  private let virtualPhysical: UnsafeMutablePointer<Int>
  private let virtualX: UnsafeMutablePointer<Int32>
  private let virtualY: UnsafeMutablePointer<Int32>

  /// The frame being read is not one for the shortcut.
  private var broken = false
  private var moved = false

  /// A shortcut for a protocol B device of `physicalSlots` slots forwarded to a virtual device of
  /// `virtualSlots` slots.
  public init(physicalSlots: Int, virtualSlots: Int) {
    self.physicalSlots = Swift.max(1, physicalSlots)
    self.virtualSlots = Swift.max(1, virtualSlots)
    slotVirtual = Self.buffer(self.physicalSlots, -1)
    slotX = Self.buffer(self.physicalSlots, 0)
    slotY = Self.buffer(self.physicalSlots, 0)
    slotMoved = Self.buffer(self.physicalSlots, false)
    virtualPhysical = Self.buffer(self.virtualSlots, -1)
    virtualX = Self.buffer(self.virtualSlots, 0)
    virtualY = Self.buffer(self.virtualSlots, 0)
    events.reserveCapacity(4 * self.virtualSlots + 4)
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

  /// `count` values `value`, for the life of the shortcut (freed in deinit).
  private static func buffer<T>(_ count: Int, _ value: T) -> UnsafeMutablePointer<T> {
    let buffer = UnsafeMutablePointer<T>.allocate(capacity: count)
    buffer.initialize(repeating: value, count: count)
    return buffer
  }

  deinit {
    slotVirtual.deallocate()
    slotX.deallocate()
    slotY.deallocate()
    slotMoved.deallocate()
    virtualPhysical.deallocate()
    virtualX.deallocate()
    virtualY.deallocate()
  }

  /// Whether the next frame may be composed here.
  public var isArmed: Bool { armed }

  /// Leaves the next frames to the pipeline until armed again.
  public func disarm() {
    armed = false
    resetFrame()
  }

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
    guard let state = assembler.shortcutState, state.slotCount == physicalSlots else { return false }
    let virtual = encoder.shortcutState
    guard virtual.slotCount == virtualSlots else { return false }
    let oldest = encoder.oldestSlot()
    // A move frame sends no BTN_TOUCH: the button must already say what the slots say.
    guard virtual.buttonDown == (oldest != nil) else { return false }
    for i in 0..<physicalSlots { slotVirtual[i] = -1 }
    for v in 0..<virtualSlots { virtualPhysical[v] = -1 }
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
      slotVirtual[slot] = v
      virtualPhysical[v] = slot
      slotX[slot] = x
      slotY[slot] = y
      any = true
    }
    guard settled, any else { return false }
    for v in 0..<virtualSlots { (virtualX[v], virtualY[v]) = encoder.slotPosition(v) }
    currentSlot = state.currentSlot
    virtualCurrentSlot = virtual.currentSlot
    pointerSlot = oldest ?? -1
    pointer = virtual.pointer
    xAxis = (state.x.0, state.x.1)
    yAxis = (state.y.0, state.y.1)
    self.calibration = calibration
    self.mapping = mapping
    self.axes = axes
    self.deadline = deadline ?? .infinity
    armed = true
    return true
  }

  /// Reads one event, as libevdev hands it over in normal mode. Returns true at a `SYN_REPORT`
  /// that completes a frame for the shortcut: its events are then in ``events``, to be written to
  /// the virtual device now. Every `SYN_REPORT` disarms.
  @inline(__always)
  public func feed(_ event: InputEvent) -> Bool {
    guard armed else { return false }
    switch event.type {
    case EV.syn:
      if event.code == SYN.report { return finishFrame(at: event.time) }
      broken = true
    case EV.abs:
      readAbs(event.code, event.value)
    case EV.msc:
      break  // MSC_TIMESTAMP and the like: the assembler reads none
    default:
      broken = true  // a key (BTN_TOUCH goes with a begin or an end), or anything else
    }
    return false
  }

  /// Compares `events`, the pipeline's own for the frame, with the frame composed here; true when
  /// they are the same events (type, code and value: the kernel stamps what uinput gets). Counts
  /// the frame ``confirmed`` or among the ``mismatches``.
  public func confirm(_ events: [InputEvent]) -> Bool {
    awaitsConfirmation = false
    let same =
      events.count == self.events.count
      && !zip(events, self.events).contains { a, b in a.type != b.type || a.code != b.code || a.value != b.value }
    if same { confirmed += 1 } else { mismatches += 1 }
    return same
  }

  /// The pipeline forwarded nothing for the composed frame: one of the ``mismatches``.
  public func confirmNothing() {
    awaitsConfirmation = false
    mismatches += 1
  }

  @inline(__always)
  private func readAbs(_ code: UInt16, _ value: Int32) {
    switch code {
    case ABS.mtSlot:
      // As the kernel and the assembler: a slot outside the device's is ignored.
      if value >= 0 && Int(value) < physicalSlots { currentSlot = Int(value) }
    case ABS.mtPositionX, ABS.mtPositionY:
      let slot = currentSlot
      guard slotVirtual[slot] >= 0 else {
        broken = true
        return
      }
      if code == ABS.mtPositionX {
        if slotX[slot] != value {
          slotX[slot] = value
          slotMoved[slot] = true
          moved = true
        }
      } else if slotY[slot] != value {
        slotY[slot] = value
        slotMoved[slot] = true
        moved = true
      }
    case ABS.mtTrackingID, ABS.mtToolType:
      broken = true  // a touch begins, ends or turns palm
    case ABS.mtTouchMajor...ABS.mtToolY:
      // Size, pressure, orientation: no part of what is forwarded, but they move the contact in the
      // assembler, and a moved contact that is not forwarded keeps its frame from going ahead.
      if slotVirtual[currentSlot] < 0 { broken = true }
    default:
      break  // ABS_X/ABS_Y (the device's pointer emulation) and the like: the assembler reads none
    }
  }

  private func finishFrame(at time: Timestamp) -> Bool {
    defer { disarm() }
    guard !broken, moved, time.seconds < deadline else { return false }
    events.removeAll(keepingCapacity: true)
    func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
      events.append(InputEvent(time: time, type: type, code: code, value: value))
    }
    // ForwardEncoder's move frame: slot by slot, only what changed, then pointer emulation.
    for v in 0..<virtualSlots {
      let slot = virtualPhysical[v]
      guard slot >= 0, slotMoved[slot] else { continue }
      var nx = FrameAssembler.normalized(slotX[slot], minimum: xAxis.minimum, range: xAxis.range)
      var ny = FrameAssembler.normalized(slotY[slot], minimum: yAxis.minimum, range: yAxis.range)
      if let calibration { (nx, ny) = calibration.apply(x: nx, y: ny) }
      let point = mapping.map(x: nx, y: ny)
      let (x, y) = VirtualTouchscreen.position(point.x, point.y, in: mapping, axes: axes)
      guard x != virtualX[v] || y != virtualY[v] else { continue }
      if v != virtualCurrentSlot {
        virtualCurrentSlot = v
        emit(EV.abs, ABS.mtSlot, Int32(v))
      }
      if x != virtualX[v] { emit(EV.abs, ABS.mtPositionX, x) }
      if y != virtualY[v] { emit(EV.abs, ABS.mtPositionY, y) }
      virtualX[v] = x
      virtualY[v] = y
    }
    if pointerSlot >= 0 {
      let (x, y) = (virtualX[pointerSlot], virtualY[pointerSlot])
      if pointer?.x != x { emit(EV.abs, ABS.x, x) }
      if pointer?.y != y { emit(EV.abs, ABS.y, y) }
      pointer = (x, y)
    }
    guard !events.isEmpty else { return false }
    emit(EV.syn, SYN.report, 0)
    composed += 1
    awaitsConfirmation = true
    return true
  }

  private func resetFrame() {
    if moved {
      // Only armed slots are ever marked.
      for v in 0..<virtualSlots where virtualPhysical[v] >= 0 { slotMoved[virtualPhysical[v]] = false }
    }
    broken = false
    moved = false
  }
}
