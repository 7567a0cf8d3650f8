// ForwardEncoder: a window's forwarded touches → the virtual touchscreen's protocol B events
// (VirtualTouchscreen.swift describes the device it writes to; docs/forward.md).

/// Turns the forwarded touches' changes into the virtual device's protocol B events.
///
/// Rules (docs/forward.md):
/// - A frame carries at most one change per touch. A batch (the changes of one input frame or one
///   timer turn) whose touch has several (a held touch released at its lift: down, then lift; a
///   cancel: palm, then lift) is split: the k-th change of each touch goes into the k-th frame,
///   timed `time` + k µs. A batch with one change per touch is one frame at `time`: no frame added.
/// - A touch that goes down and is cancelled within one batch never reached the virtual device
///   and sends nothing.
/// - Slots: a touch keeps its slot from down to lift; a new touch takes the lowest free slot (a
///   slot lifted in a frame is free from the next frame on). With every slot taken a new touch is
///   not forwarded (``ForwardCounters/noSlot``).
/// - Tracking ids: 0, 1, 2, … in the order touches go down, wrapping after 65535, as the kernel's.
/// - Only what changed is sent (a move within one unit sends nothing, and a frame with nothing in
///   it is not sent), as the kernel itself filters, per slot and across touches: a down sends its
///   tracking id and the coordinates that differ from the slot's last ones, and, when the slot last
///   held a palm, `ABS_MT_TOOL_TYPE` `MT_TOOL_FINGER` before its
///   tracking id: libinput decides whether a new touch is a palm from the slot's tool type when it
///   reads the tracking id (evdev-fallback.c), and a touch that begins as a palm stays ignored.
///   Measured in the VM (`forward-libinput`): with the tool type after the tracking id, a tap
///   after a cancelled touch on the same slot never reached libinput.
/// - Pointer emulation: `BTN_TOUCH` while any slot has a touch, `ABS_X/ABS_Y` the oldest touch's
///   position, as the kernel's `input_mt_report_pointer_emulation`.
public final class ForwardEncoder: VirtualDeviceEncoder {
  /// The virtual device (``VirtualTouchscreen/description(for:name:)``).
  public let device: DeviceDescription
  public private(set) var counters = ForwardCounters()

  private struct Slot {
    var touch: TouchID?
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var tool: Int32 = MTTool.finger
  }

  private var slots: [Slot]
  private var slotOf: [TouchID: Int] = [:]
  private var currentSlot = 0
  private var nextTrackingID: Int32 = 0
  private var buttonDown = false
  private var pointer: (x: Int32, y: Int32)?

  public init(device: DeviceDescription) {
    self.device = device
    let info = device.absInfo[ABS.mtSlot]
    let count = info.map { Int($0.maximum) - Int($0.minimum) + 1 } ?? 1
    slots = Array(repeating: Slot(), count: Swift.max(1, count))
  }

  /// Whether `id` is down on the virtual device.
  public func isForwarding(_ id: TouchID) -> Bool { slotOf[id] != nil }

  /// Goes on from `previous`, the encoder of the same virtual device for an earlier scene, as the
  /// kernel sees the device: each slot's last tracking id, coordinates and tool type, the current
  /// slot, the next tracking id, `BTN_TOUCH` and `ABS_X`/`ABS_Y`; not its counters. Its touches
  /// must have lifted (cancel and flush them first): a touch still down there is forgotten. A fresh
  /// encoder would not know that the kernel keeps the current slot and a cancelled touch's palm tool
  /// type, and would write the next touch into another slot, or as a palm, which libinput ignores
  /// (measured in the VM, `forward-grab`: a tap after a reload reached libinput as nothing).
  public func continueDevice(of previous: ForwardEncoder) {
    precondition(previous.device == device, "another virtual device")
    slots = previous.slots.map { slot in
      var slot = slot
      slot.touch = nil
      return slot
    }
    slotOf = [:]
    currentSlot = previous.currentSlot
    nextTrackingID = previous.nextTrackingID
    buttonDown = previous.buttonDown
    pointer = previous.pointer
  }

  /// ``encode(_:at:)`` appending to `events`: a caller that keeps the array between batches
  /// allocates nothing for the common batch (one change per touch, no cancel).
  public func encode(_ changes: [ForwardedChange], at time: Timestamp, into events: inout [InputEvent]) {
    if fillSingleFrame(changes) {
      var frame = frameBuffer
      frameBuffer = []
      emitFrame(frame, at: time, into: &events)
      frame.removeAll(keepingCapacity: true)
      frameBuffer = frame
      return
    }
    // Each touch's steps, in the order the touches first appear.
    var order: [TouchID] = []
    var steps: [TouchID: [ForwardedChange]] = [:]
    for change in changes {
      if steps[change.id] == nil {
        order.append(change.id)
        steps[change.id] = []
      }
      var list = steps[change.id]!
      if change.kind == .move, let last = list.last, last.kind == .move {
        list[list.count - 1] = change  // moves in one batch merge: one catch-up motion
      } else {
        list.append(change)
      }
      steps[change.id] = list
    }
    var perTouch: [(id: TouchID, steps: [Step])] = []
    for id in order {
      let list = steps[id]!
      let wasDown = slotOf[id] != nil
      // Down and cancelled within the batch: the compositor never saw it and never will.
      if !wasDown, list.first.map({ if case .down = $0.kind { true } else { false } }) == true,
        list.contains(where: { $0.kind == .cancel })
      {
        continue
      }
      var expanded: [Step] = []
      var down = wasDown
      for change in list {
        switch change.kind {
        case .down(let released):
          guard !down else { continue }
          down = true
          expanded.append(.down(change.x, change.y, released: released))
        case .move:
          if down { expanded.append(.move(change.x, change.y)) }
        case .lift:
          if down { expanded.append(.lift) }
          down = false
        case .cancel:
          if down { expanded += [.palm, .lift] }
          down = false
        }
      }
      if !expanded.isEmpty { perTouch.append((id, expanded)) }
    }
    var index = 0
    while true {
      var frame: [(id: TouchID, step: Step)] = []
      for touch in perTouch where index < touch.steps.count { frame.append((touch.id, touch.steps[index])) }
      if frame.isEmpty { break }
      emitFrame(frame, at: Timestamp(microseconds: time.microseconds + Int64(index)), into: &events)
      index += 1
    }
  }

  /// The common batch as one frame's steps, in ``frameBuffer``, without building the per-touch
  /// lists: at most one change per touch, and no cancel (a cancel takes two frames). False when
  /// the batch needs the general path.
  private func fillSingleFrame(_ changes: [ForwardedChange]) -> Bool {
    frameBuffer.removeAll(keepingCapacity: true)
    for (i, change) in changes.enumerated() {
      for j in 0..<i where changes[j].id == change.id { return false }
      let down = slotOf[change.id] != nil
      switch change.kind {
      case .down(let released):
        if !down { frameBuffer.append((change.id, .down(change.x, change.y, released: released))) }
      case .move:
        if down { frameBuffer.append((change.id, .move(change.x, change.y))) }
      case .lift:
        if down { frameBuffer.append((change.id, .lift)) }
      case .cancel:
        return false
      }
    }
    return true
  }

  /// Kept between batches: the common batch's frame and each frame's placed steps.
  private var frameBuffer: [(id: TouchID, step: Step)] = []
  private var placedBuffer: [(slot: Int, step: Step)] = []

  private enum Step {
    case down(Int32, Int32, released: Bool)
    case move(Int32, Int32)
    case palm
    case lift
  }

  private func emitFrame(_ frame: [(id: TouchID, step: Step)], at time: Timestamp, into events: inout [InputEvent]) {
    let start = events.count
    func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
      events.append(InputEvent(time: time, type: type, code: code, value: value))
    }
    func select(_ slot: Int) {
      if slot != currentSlot {
        currentSlot = slot
        emit(EV.abs, ABS.mtSlot, Int32(slot))
      }
    }
    // Slots lifted in this frame are free from the next one on.
    var lifted: [Int] = []
    // Downs take their slots first, in order, so that the frame's events go slot by slot.
    var placed = placedBuffer
    placedBuffer = []
    placed.removeAll(keepingCapacity: true)
    defer { placedBuffer = placed }
    for (id, step) in frame {
      if case .down(_, _, let released) = step {
        guard
          let free = slots.indices.first(where: { s in
            slots[s].touch == nil && !placed.contains { $0.slot == s }
          })
        else {
          counters.noSlot += 1
          continue
        }
        slots[free].touch = id
        slotOf[id] = free
        counters.forwarded += 1
        if released { counters.released += 1 }
        placed.append((free, step))
      } else if let slot = slotOf[id] {
        placed.append((slot, step))
      }
    }
    placed.sort { $0.slot < $1.slot }
    for (slot, step) in placed {
      switch step {
      case .down(let x, let y, _):
        select(slot)
        if slots[slot].tool != MTTool.finger {
          slots[slot].tool = MTTool.finger
          emit(EV.abs, ABS.mtToolType, MTTool.finger)
        }
        slots[slot].trackingID = nextTrackingID
        emit(EV.abs, ABS.mtTrackingID, nextTrackingID)
        nextTrackingID = nextTrackingID == VirtualTouchscreen.maximumTrackingID ? 0 : nextTrackingID + 1
        // The kernel keeps each slot's last values across touches and drops a repeated one, the
        // new touch's position included: send only what differs, so that the replay's file is
        // what a reader of the virtual node gets (measured: forward-live-equals-replay).
        if x != slots[slot].x { emit(EV.abs, ABS.mtPositionX, x) }
        if y != slots[slot].y { emit(EV.abs, ABS.mtPositionY, y) }
        slots[slot].x = x
        slots[slot].y = y
      case .move(let x, let y):
        guard x != slots[slot].x || y != slots[slot].y else { continue }
        select(slot)
        if x != slots[slot].x { emit(EV.abs, ABS.mtPositionX, x) }
        if y != slots[slot].y { emit(EV.abs, ABS.mtPositionY, y) }
        slots[slot].x = x
        slots[slot].y = y
      case .palm:
        select(slot)
        slots[slot].tool = MTTool.palm
        emit(EV.abs, ABS.mtToolType, MTTool.palm)
        counters.cancelled += 1
      case .lift:
        select(slot)
        emit(EV.abs, ABS.mtTrackingID, -1)
        slots[slot].trackingID = -1
        lifted.append(slot)
      }
    }
    // Pointer emulation: the oldest touch still down, BTN_TOUCH while any is.
    let oldest = oldestSlot()
    let isDown = oldest != nil
    if isDown != buttonDown {
      buttonDown = isDown
      emit(EV.key, BTN.touch, isDown ? 1 : 0)
    }
    if let o = oldest {
      let (x, y) = (slots[o].x, slots[o].y)
      if pointer?.x != x { emit(EV.abs, ABS.x, x) }
      if pointer?.y != y { emit(EV.abs, ABS.y, y) }
      pointer = (x, y)
    }
    for slot in lifted {
      if let id = slots[slot].touch { slotOf[id] = nil }
      slots[slot].touch = nil
    }
    if events.count > start { emit(EV.syn, SYN.report, 0) }
  }
}

extension ForwardEncoder {
  /// The slot of the oldest touch down (the kernel's choice for pointer emulation: the smallest
  /// tracking id, counting wrap-around), nil when none is.
  func oldestSlot() -> Int? {
    var oldest: Int?
    for i in slots.indices where slots[i].trackingID >= 0 {
      if let o = oldest {
        let age = (slots[i].trackingID - slots[o].trackingID) & VirtualTouchscreen.maximumTrackingID
        if age > VirtualTouchscreen.maximumTrackingID / 2 { oldest = i }
      } else {
        oldest = i
      }
    }
    return oldest
  }

  /// What ``ForwardShortcut`` mirrors of the virtual device between frames: its slots' last
  /// positions, the current slot, `BTN_TOUCH` and `ABS_X`/`ABS_Y` as last sent.
  var shortcutState: (slotCount: Int, currentSlot: Int, buttonDown: Bool, pointer: (x: Int32, y: Int32)?) {
    (slots.count, currentSlot, buttonDown, pointer)
  }

  /// The virtual slot `id` is down in, nil when it is not forwarded.
  func virtualSlot(of id: TouchID) -> Int? { slotOf[id] }

  /// Slot `slot`'s last position as sent.
  func slotPosition(_ slot: Int) -> (x: Int32, y: Int32) { (slots[slot].x, slots[slot].y) }
}

extension VirtualTouchscreen {
  /// A window coordinate (0...`extent` points) on a virtual device's axis: the unit whose cell
  /// holds it (``AbsInfo/units(atFraction:)``), so a touch read from a device with the same axes
  /// goes out at the unit it came in at. What the virtual touchscreen gets for a touch's window
  /// position.
  public static func units(_ points: Double, of extent: Double, axis: AbsInfo) -> Int32 {
    axis.units(atFraction: extent > 0 ? points / extent : 0)
  }

  /// A window point on a virtual device's position `axes`, the window `mapping` giving its size:
  /// what the virtual touchscreen gets for a touch there (``units(_:of:axis:)`` on each axis).
  public static func position(
    _ x: Double, _ y: Double, in mapping: ScreenMapping, axes: (x: AbsInfo, y: AbsInfo)
  ) -> (x: Int32, y: Int32) {
    (units(x, of: mapping.width, axis: axes.x), units(y, of: mapping.height, axis: axes.y))
  }
}
