import Foundation

/// Turns one device's kernel events into touch frames, the way libinput does it, for live devices
/// and recordings alike.
///
/// - Protocol B (`ABS_MT_SLOT`): a slot's `ABS_MT_TRACKING_ID` starts (≥ 0) and ends (-1) a touch; a
///   slot that gets -1 and then a new id in one frame ends its old touch and begins a new one in that
///   frame (the old id `ended`, the new id `began`). A new id without -1 before it, and -1 for a slot
///   that is already -1, are dropped, as libevdev drops them before any reader sees them: the touch
///   goes on. Slot 0 is implied until the first `ABS_MT_SLOT`; an `ABS_MT_SLOT` outside the device's
///   slots is ignored (the events after it go to the slot selected before), as the kernel's input
///   core ignores it; a slot keeps its axis values across touches, as the kernel does.
/// - Protocol A (`SYN_MT_REPORT`): each report is one contact. With `ABS_MT_TRACKING_ID` contacts are
///   matched by id; without, each frame's contacts are matched to the previous frame's greedily, closest
///   pair first (device units). A frame with no contact (only `SYN_MT_REPORT`, nothing, or `BTN_TOUCH`
///   0) lifts every finger. An axis missing from a report keeps its last value. Contacts after the
///   32nd of a frame are dropped, as mtdev (libinput's protocol A reader) drops them.
/// - Single touch: `BTN_TOUCH` starts and ends the touch, `ABS_X`/`ABS_Y` move it; an axis missing from
///   a frame keeps its last value.
///
/// Every frame lists every live contact (unchanged ones `stationary`). A contact `moved` when its
/// position, radius or force changed. Positions are normalized by the axis range and clamped to 0...1
/// (a value outside the axis range is the screen's edge); a negative touch major is 0.
/// `ABS_MT_TOOL_TYPE` `MT_TOOL_PALM` cancels the touch. A cancelled finger (palm, `SYN_DROPPED`,
/// `cancelAll`, a resync) is ignored until it lifts; contacts that appear later begin new touches.
///
/// Events of a code the device does not report (its description) are dropped: the kernel's input
/// core never passes them, nor does libevdev. The rules for hostile input, with their sources, are
/// in docs/reliability.md, "Hostile devices".
public final class FrameAssembler {
  /// The device this assembler reads.
  public let device: DeviceDescription
  let ids: TouchIDAllocator
  let mode: Mode
  enum Mode { case slots, contacts, single, none }

  // Axis scaling (AxisScale.swift): each position axis's minimum and maximum.
  let xMin: Double
  let xMax: Double
  let yMin: Double
  let yMax: Double
  private let hasMajor: Bool
  private let pressureCode: UInt16?
  private let pressureMin: Double
  private let pressureRange: Double

  // Capabilities: the kernel's input core passes no event of a code the device does not have
  // (drivers/input/input.c, `input_get_disposition`: `is_event_supported`), and libevdev's
  // `libevdev_next_event` skips them too; a recording's stray codes are dropped the same way.
  /// Bit n: the device has `EV_ABS` code n (`ABS_MAX` is 0x3f).
  private let absCodes: UInt64
  private let hasTouchButton: Bool

  // The mutable state below is the assembler's alone, touched only inside its methods and never
  // across a call that could reach it again: no dynamic exclusivity checks (they cost ~270
  // instructions an event in the replay profile, docs/performance.md).

  // Protocol B (FrameAssembler+ProtocolB.swift).
  /// The kernel creates no device with more than 1024 slots (drivers/input/input-mt.c,
  /// `input_mt_init_slots`: "Arbitrary limit for avoiding too large memory allocation"); a
  /// recording's description that claims more gets 1024.
  static let maximumSlots = 1024
  let slotCount: Int
  let slots: UnsafeMutablePointer<Slot>
  @exclusivity(unchecked) var currentSlot: Int
  @exclusivity(unchecked) var usedSlots = 0

  // Protocol A (FrameAssembler+ProtocolA.swift).
  /// mtdev, which libinput reads protocol A devices through, keeps at most `DIM_FINGER` (32) contacts
  /// of a frame (mtdev src/core.c, `process_typeA`: `if (size < DIM_FINGER && …) size++`).
  static let maximumReports = 32
  @exclusivity(unchecked) var reports: [Report] = []
  @exclusivity(unchecked) var current = Report()
  @exclusivity(unchecked) var currentHasData = false
  @exclusivity(unchecked) var sawContactData = false
  @exclusivity(unchecked) var touchReleased = false
  @exclusivity(unchecked) var tracks: [Track] = []
  @exclusivity(unchecked) var nextTracks: [Track] = []
  @exclusivity(unchecked) var matchedReport: [Int] = []

  // Single touch (FrameAssembler+SingleTouch.swift).
  @exclusivity(unchecked) var single = Single()

  @exclusivity(unchecked) var discarding = false
  @exclusivity(unchecked) var syncing = false
  @exclusivity(unchecked) private var output: [Contact] = []

  /// Reads `device`, taking new touch identities from `ids`.
  public init(device: DeviceDescription, ids: TouchIDAllocator) {
    self.device = device
    self.ids = ids
    let proto = device.touchProtocol
    let xCode: UInt16
    let yCode: UInt16
    switch proto {
    case .slots(let count):
      mode = .slots
      slotCount = Swift.min(Swift.max(count, 1), Self.maximumSlots)
      xCode = ABS.mtPositionX
      yCode = ABS.mtPositionY
    case .contacts:
      mode = .contacts
      slotCount = 0
      xCode = ABS.mtPositionX
      yCode = ABS.mtPositionY
    case .singleTouch:
      mode = .single
      slotCount = 0
      xCode = ABS.x
      yCode = ABS.y
    case nil:
      mode = .none
      slotCount = 0
      xCode = ABS.x
      yCode = ABS.y
    }
    func limits(_ code: UInt16) -> (Double, Double) {
      guard let info = device.absInfo[code], info.maximum > info.minimum else { return (0, 1) }
      return (Double(info.minimum), Double(info.maximum))
    }
    func range(_ code: UInt16) -> (Double, Double) {
      let (minimum, maximum) = limits(code)
      return (minimum, maximum - minimum)
    }
    (xMin, xMax) = limits(xCode)
    (yMin, yMax) = limits(yCode)
    hasMajor = mode != .single && device.has(type: EV.abs, code: ABS.mtTouchMajor)
    if mode == .single {
      pressureCode = device.has(type: EV.abs, code: ABS.pressure) ? ABS.pressure : nil
    } else {
      pressureCode = device.has(type: EV.abs, code: ABS.mtPressure) ? ABS.mtPressure : nil
    }
    (pressureMin, pressureRange) = pressureCode.map(range) ?? (0, 0)
    var abs: UInt64 = 0
    for code in device.events[EV.abs] ?? [] where code < 64 { abs |= 1 << UInt64(code) }
    absCodes = abs
    hasTouchButton = device.has(type: EV.key, code: BTN.touch)

    slots = .allocate(capacity: Swift.max(slotCount, 1))
    slots.initialize(repeating: Slot(), count: Swift.max(slotCount, 1))
    let firstSlot = Int(device.absInfo[ABS.mtSlot]?.value ?? 0)
    currentSlot = (0..<Swift.max(slotCount, 1)).contains(firstSlot) ? firstSlot : 0
    if mode == .single {
      single.x = device.absInfo[ABS.x]?.value ?? 0
      single.y = device.absInfo[ABS.y]?.value ?? 0
    }
    output.reserveCapacity(Swift.max(slotCount, 16) * 2)
    reports.reserveCapacity(16)
    tracks.reserveCapacity(16)
    nextTracks.reserveCapacity(16)
    matchedReport.reserveCapacity(16)
  }

  deinit {
    slots.deinitialize(count: Swift.max(slotCount, 1))
    slots.deallocate()
  }

  /// Takes each slot's current position, contact size, pressure and tool type from the device
  /// (`value(slot, code)`, libevdev's `libevdev_get_slot_value`), for a device opened while it has
  /// state: the kernel sends an axis value only when it changes, so a finger that lands exactly
  /// where the slot's last one lifted sends no position at all, and without this the new touch
  /// would be at 0, 0 (libinput reads the slots at device init too). Tracking ids are not taken: a
  /// finger down at open is ignored until it lifts. Call before the first event.
  public func seedSlots(_ value: (_ slot: Int, _ code: UInt16) -> Int32?) {
    guard mode == .slots else { return }
    for i in 0..<slotCount {
      let slot = slots + i
      if let x = value(i, ABS.mtPositionX) { slot.pointee.x = x }
      if let y = value(i, ABS.mtPositionY) { slot.pointee.y = y }
      if hasMajor, let major = value(i, ABS.mtTouchMajor) { slot.pointee.major = major }
      if let code = pressureCode, let pressure = value(i, code) { slot.pointee.pressure = pressure }
      if let tool = value(i, ABS.mtToolType) { slot.pointee.toolType = tool }
    }
  }

  /// Feeds one event; returns a frame at `SYN_REPORT` when any contact changed (nil otherwise).
  ///
  /// A `SYN_DROPPED` read here (a recording, which has no device to resync from) cancels every live
  /// touch and returns that frame at once; the events up to and including the next `SYN_REPORT` are
  /// discarded, as libevdev prescribes. During `beginSync()`…`endSync(at:)` this always returns nil.
  public func process(_ event: InputEvent) -> TouchFrame? {
    if event.type == EV.syn {
      switch event.code {
      case SYN.report:
        if discarding {
          discarding = false
          return nil
        }
        if syncing { return nil }
        return flush(at: event.time, endedPhase: .ended)
      case SYN.mtReport:
        if !discarding && mode == .contacts { finishReport() }
        return nil
      case SYN.dropped:
        if syncing { return nil }
        let frame = cancelEverything(at: event.time)
        discarding = true
        // The lost events may have lifted fingers and put new ones down: each slot's tracking id is
        // unknown until the recording gives one (live, libevdev resyncs it from the kernel instead).
        for i in 0..<usedSlots { slots[i].trackingIDUnknown = true }
        return frame
      default:
        return nil
      }
    }
    if discarding { return nil }
    if event.type == EV.abs {
      guard event.code < 64, absCodes & (1 << UInt64(event.code)) != 0 else { return nil }
    } else if event.type == EV.key {
      guard event.code == BTN.touch, hasTouchButton else { return nil }
    }
    switch mode {
    case .slots: processSlotEvent(event)
    case .contacts: processContactEvent(event)
    case .single: processSingleEvent(event)
    case .none: break
    }
    return nil
  }

  /// Cancels every live contact (device removed, end of a recording); nil when none is live.
  ///
  /// The fingers are ignored until they lift.
  public func cancelAll(at time: Timestamp) -> TouchFrame? {
    cancelEverything(at: time)
  }

  /// Starts a live resync after `SYN_DROPPED` (libevdev `LIBEVDEV_READ_STATUS_SYNC`): feed the sync
  /// events through `process(_:)`, which returns nil meanwhile, then call `endSync(at:)`.
  ///
  /// Do not also feed the `SYN_DROPPED` itself to `process(_:)`: that is the recording path and cancels
  /// every touch.
  public func beginSync() {
    syncing = true
    discarding = false
  }

  /// Ends a resync: returns the frame in which contacts that vanished are cancelled (not ended),
  /// contacts still present continue with the same identity, and new ones begin; nil when nothing
  /// changed.
  ///
  /// Protocol A has no contact identity to resync from: every live touch is cancelled and ignored
  /// until its finger lifts.
  public func endSync(at time: Timestamp) -> TouchFrame? {
    guard syncing else { return nil }
    syncing = false
    switch mode {
    case .contacts:
      reports.removeAll(keepingCapacity: true)
      currentHasData = false
      sawContactData = false
      touchReleased = false
      return cancelEverything(at: time)
    case .slots, .single:
      return flush(at: time, endedPhase: .cancelled)
    case .none:
      return nil
    }
  }

  // MARK: - What the protocols share: a touch's status and position

  enum Status { case idle, live, ignored }

  struct Position {
    var x = 0.0
    var y = 0.0
    var major: Double?
    var force: Double?
  }

  // MARK: - Frames

  private func flush(at time: Timestamp, endedPhase: TouchPhase) -> TouchFrame? {
    output.removeAll(keepingCapacity: true)
    let changed: Bool
    switch mode {
    case .slots: changed = assembleSlots(endedPhase: endedPhase)
    case .contacts: changed = assembleContacts()
    case .single: changed = assembleSingle(endedPhase: endedPhase)
    case .none: changed = false
    }
    guard changed else {
      output.removeAll(keepingCapacity: true)
      return nil
    }
    return makeFrame(at: time)
  }

  /// Cancels every live or pending touch, leaving its finger ignored until it lifts.
  private func cancelEverything(at time: Timestamp) -> TouchFrame? {
    output.removeAll(keepingCapacity: true)
    switch mode {
    case .slots:
      for i in 0..<usedSlots {
        let slot = slots + i
        if slot.pointee.endedTouch != 0 {
          emit(slot.pointee.endedTouch, .cancelled, slot.pointee.last)
          slot.pointee.endedTouch = 0
        }
        if slot.pointee.status == .live {
          emit(slot.pointee.touch, .cancelled, slot.pointee.last)
        }
        if slot.pointee.status == .live || slot.pointee.pendingBegin {
          slot.pointee.status = .ignored
        }
        slot.pointee.touch = 0
        slot.pointee.pendingBegin = false
        slot.pointee.cancelPending = false
        slot.pointee.dirty = false
      }
    case .contacts:
      for t in tracks.indices where !tracks[t].ignored {
        emit(tracks[t].touch, .cancelled, tracks[t].last)
        tracks[t].ignored = true
      }
      reports.removeAll(keepingCapacity: true)
      currentHasData = false
      touchReleased = false
    case .single:
      if single.status == .live {
        emit(single.touch, .cancelled, single.last)
        single.status = .ignored
        single.touch = 0
      }
    case .none:
      break
    }
    if output.isEmpty { return nil }
    return makeFrame(at: time)
  }

  private func makeFrame(at time: Timestamp) -> TouchFrame {
    if output.count > 32 {
      // Many slots (up to 1024): an O(n log n) sort.
      output.sort { $0.id < $1.id }
      return TouchFrame(time: time, contacts: output)
    }
    // Insertion sort by identity: frames hold a handful of contacts.
    var i = 1
    while i < output.count {
      let item = output[i]
      var j = i - 1
      while j >= 0 && output[j].id > item.id {
        output[j + 1] = output[j]
        j -= 1
      }
      output[j + 1] = item
      i += 1
    }
    return TouchFrame(time: time, contacts: output)
  }

  @inline(__always)
  func emit(_ touch: UInt64, _ phase: TouchPhase, _ p: Position) {
    output.append(
      Contact(
        id: TouchID(rawValue: touch), phase: phase, x: p.x, y: p.y, majorRadius: p.major, force: p.force)
    )
  }

  @inline(__always)
  func position(x: Int32, y: Int32, major: Int32, pressure: Int32) -> Position {
    Position(
      x: AbsInfo.fraction(x, minimum: xMin, maximum: xMax),
      y: AbsInfo.fraction(y, minimum: yMin, maximum: yMax),
      major: hasMajor ? Swift.max(0, Double(major)) / 2 / (xMax - xMin + 1) : nil,
      force: pressureCode == nil ? nil : Self.clamp((Double(pressure) - pressureMin) / pressureRange))
  }

  @inline(__always)
  static func clamp(_ v: Double) -> Double { Swift.min(1, Swift.max(0, v)) }
}
