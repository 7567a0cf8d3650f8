// A pen display's events as libinput's tablet code reads them (libinput src/evdev-tablet.c): the
// tool's proximity, its tip, pressure, distance, tilt and barrel buttons, into touch frames whose
// contact, while the tip is down, is a pen's.

/// Turns one pen device's kernel events into frames: every `SYN_REPORT` that changed the pen gives
/// a ``TouchFrame`` with the pen's ``PenState`` and, while its tip is down, its contact (a
/// ``Contact`` with ``PenProperties``: UIKit's touch of type `.pencil`).
///
/// - **Proximity** is `BTN_TOOL_PEN` or `BTN_TOOL_RUBBER` (the eraser end) down, as libinput takes
///   a tool's `BTN_TOOL_*` key for proximity in and out (`tablet_process_key`). Other tools of
///   the device (brush, airbrush, mouse, lens) are not pens and are left alone.
/// - **The tip**, read only in proximity (libinput's `tablet_flush` does nothing out of it): on a
///   device with `ABS_PRESSURE`, pressure decides and `BTN_TOUCH` is ignored, with libinput's
///   hysteresis (`detect_tool_contact`, `update_pressure_range`): down at 5 % of the axis range,
///   up again at 1 % or below; without pressure, `BTN_TOUCH`. The tip going up, or the tool
///   leaving proximity with the tip still down, ends the contact (libinput lifts the tip before it
///   reports proximity out: `tablet_flush`, `tablet_send_events`). The tip is decided once a frame,
///   at `SYN_REPORT`, as libinput's `detect_tool_contact` runs in `tablet_flush`.
/// - **A worn pen's pressure offset** (libinput's `detect_pressure_offset`, `set_pressure_offset`,
///   `update_pressure_offset`): a tool that comes into proximity at 50 % or more of the
///   `ABS_DISTANCE` range with a pressure above the minimum (and at most 50 % of the range; more
///   is taken for a pen already pressed, not a worn one) has that pressure as its offset: it lifts
///   at or below the offset, touches down at the offset plus the default thresholds' gap (4 % of
///   the range), and its force counts from the offset. A pressure below the offset later lowers
///   it. The offset is the tool's (its end and serial), kept across proximity for this device, as
///   libinput keeps a tool. A device without `ABS_DISTANCE` gets no offset (Debian 12's libinput,
///   1.22, does the same; later versions guess one over three proximity-ins).
/// - **Pressure** is the contact's force, as libinput normalizes it (`normalize_pressure`): the
///   units above the lift threshold over those from it to the axis maximum, inclusive;
///   **distance** (`ABS_DISTANCE`) a fraction of its range; **tilt** (`ABS_TILT_X/Y`) in degrees,
///   from the axis resolution in units per radian where it is set and the axis is centred on 0
///   (linux/input.h documents tilt resolution in units/radian), else the axis range spread over
///   -64...64 degrees, Wacom's physical range, as libinput's `adjust_tilt` does.
/// - **Angles**: the tilts give UIKit's altitude and azimuth by the W3C Pointer Events
///   conversion (``PenAngles``).
/// - `BTN_STYLUS`, `BTN_STYLUS2`, `BTN_STYLUS3` are the barrel buttons; `MSC_SERIAL` the tool's
///   serial.
/// - `SYN_DROPPED` (a recording's) cancels the contact, which is then ignored until the tip
///   lifts, as a touchscreen's; the events up to the next `SYN_REPORT` are discarded.
///
/// Positions are normalized by the axis range and clamped to 0...1 (``AbsInfo/fraction(of:)``), as
/// a touchscreen's.
public final class PenAssembler {
  /// The device this assembler reads.
  public let device: DeviceDescription
  private let ids: TouchIDAllocator
  private let x: AbsInfo
  private let y: AbsInfo
  private let pressure: AbsInfo?
  private let distance: AbsInfo?
  private let tiltX: AbsInfo?
  private let tiltY: AbsInfo?

  // The pen's state, as the kernel reported it.
  private var rawX: Int32
  private var rawY: Int32
  private var rawPressure: Int32
  private var rawDistance: Int32
  private var rawTiltX: Int32
  private var rawTiltY: Int32
  private var penTool = false
  private var rubberTool = false
  private var tip = false
  private var buttons: PenButtons = []
  private var serial: UInt32?
  /// The pressure the tip lifts at or below, and touches down at or above (device units): 1 % and
  /// 5 % of the range, or the tool's offset and the offset plus that gap.
  private var lowerThreshold: Int32 = 0
  private var upperThreshold: Int32 = 0
  /// Each tool's pressure offset (a worn pen's), by its end and serial.
  private var offsets: [ToolKey: Int32] = [:]
  private struct ToolKey: Hashable {
    var eraser: Bool
    var serial: UInt32?
  }

  // What the last frame said.
  private var wasInProximity = false
  private var contact: TouchID?
  /// The contact as the last frame gave it.
  private var lastContact: Contact?
  /// The tip was down when the contact was cancelled: ignored until it lifts.
  private var ignoringTip = false
  private var changed = false
  /// The frame's contacts, kept between frames (as FrameAssembler keeps its output): a frame
  /// released before the next one is read leaves it unique, and nothing is allocated.
  private var output: [Contact] = []
  private var discarding = false
  private var syncing = false

  /// Reads `device` (a pen: ``DeviceDescription/isPen``), taking new touch identities from `ids`.
  public init(device: DeviceDescription, ids: TouchIDAllocator) {
    self.device = device
    self.ids = ids
    func axis(_ code: UInt16) -> AbsInfo? {
      guard device.has(type: EV.abs, code: code), let info = device.absInfo[code], info.maximum > info.minimum
      else { return nil }
      return info
    }
    x = axis(ABS.x) ?? AbsInfo(minimum: 0, maximum: 1)
    y = axis(ABS.y) ?? AbsInfo(minimum: 0, maximum: 1)
    pressure = axis(ABS.pressure)
    distance = axis(ABS.distance)
    tiltX = axis(ABS.tiltX)
    tiltY = axis(ABS.tiltY)
    rawX = device.absInfo[ABS.x]?.value ?? 0
    rawY = device.absInfo[ABS.y]?.value ?? 0
    rawPressure = device.absInfo[ABS.pressure]?.value ?? 0
    rawDistance = device.absInfo[ABS.distance]?.value ?? 0
    rawTiltX = device.absInfo[ABS.tiltX]?.value ?? 0
    rawTiltY = device.absInfo[ABS.tiltY]?.value ?? 0
    output.reserveCapacity(1)
    setThresholds(offset: nil)
  }

  /// A worn pen's offset is only taken at or beyond this fraction of the distance range, and only
  /// up to this fraction of the pressure range (libinput's `detect_pressure_offset`: 50 % of each).
  public static let offsetMinimumDistance = 0.5
  public static let offsetMaximumPressure = 0.5

  /// The pressure, as a fraction of its axis range, at which the tip touches down, and at or
  /// below which it lifts: libinput's defaults (src/evdev-tablet.c, `update_pressure_range`: 5 %
  /// and 1 % of the range).
  public static let tipDownPressure = 0.05
  public static let tipUpPressure = 0.01

  /// The pen's tool is in proximity (its `BTN_TOOL_*` key down).
  public var inProximity: Bool { penTool || rubberTool }

  /// Feeds one event; returns a frame at `SYN_REPORT` when the pen changed (nil otherwise).
  public func process(_ event: InputEvent) -> TouchFrame? {
    switch event.type {
    case EV.syn:
      switch event.code {
      case SYN.report:
        if discarding {
          discarding = false
          return nil
        }
        if syncing { return nil }
        return flush(at: event.time, endedPhase: .ended)
      case SYN.dropped:
        if syncing { return nil }
        discarding = true
        return cancelAll(at: event.time)
      default:
        return nil
      }
    case _ where discarding:
      return nil
    case EV.key:
      guard device.has(type: EV.key, code: event.code) else { return nil }
      let down = event.value != 0
      switch event.code {
      case BTN.toolPen: set(&penTool, down)
      case BTN.toolRubber: set(&rubberTool, down)
      case BTN.touch: if pressure == nil { set(&tip, down) }
      case BTN.stylus: set(.barrel, down)
      case BTN.stylus2: set(.barrel2, down)
      case BTN.stylus3: set(.barrel3, down)
      default: break
      }
    case EV.abs:
      guard device.has(type: EV.abs, code: event.code) else { return nil }
      switch event.code {
      case ABS.x: set(&rawX, event.value)
      case ABS.y: set(&rawY, event.value)
      case ABS.pressure: set(&rawPressure, event.value)
      case ABS.distance: set(&rawDistance, event.value)
      case ABS.tiltX: set(&rawTiltX, event.value)
      case ABS.tiltY: set(&rawTiltY, event.value)
      default: break
      }
    case EV.msc:
      if event.code == MSC.serial, device.has(type: EV.msc, code: MSC.serial) {
        let value = UInt32(bitPattern: event.value)
        if serial != value {
          serial = value
          changed = true
        }
      }
    default:
      break
    }
    return nil
  }

  /// Cancels the pen's contact (device removed, end of a recording, `SYN_DROPPED`); nil when its
  /// tip is not down. The tip is then ignored until it lifts.
  public func cancelAll(at time: Timestamp) -> TouchFrame? {
    guard let id = contact else { return nil }
    contact = nil
    ignoringTip = true
    let state = self.state(contact: nil)
    return TouchFrame(time: time, contacts: [makeContact(id, .cancelled, state)], pen: state)
  }

  /// Starts a live resync after `SYN_DROPPED`: the sync events are fed through ``process(_:)``,
  /// which returns nil meanwhile, then ``endSync(at:)``.
  public func beginSync() {
    syncing = true
    discarding = false
  }

  /// Ends a resync: a contact whose tip is still down goes on, one whose tip lifted meanwhile is
  /// cancelled (its lift was lost), and a tip that came down meanwhile begins a contact.
  public func endSync(at time: Timestamp) -> TouchFrame? {
    guard syncing else { return nil }
    syncing = false
    return flush(at: time, endedPhase: .cancelled)
  }

  private func set(_ flag: inout Bool, _ value: Bool) {
    if flag != value {
      flag = value
      changed = true
    }
  }

  private func set(_ button: PenButtons, _ down: Bool) {
    guard buttons.contains(button) != down else { return }
    if down { buttons.insert(button) } else { buttons.remove(button) }
    changed = true
  }

  private func set(_ value: inout Int32, _ new: Int32) {
    if value != new {
      value = new
      changed = true
    }
  }

  private func flush(at time: Timestamp, endedPhase: TouchPhase) -> TouchFrame? {
    guard changed else { return nil }
    changed = false
    let near = inProximity
    if let pressure, near {
      if !wasInProximity { toolEntered(pressure) }
      updateOffset()
      // libinput's hysteresis (`detect_tool_contact`): down at or above the upper threshold, up at
      // or below the lower one.
      if !tip && rawPressure >= upperThreshold { tip = true }
      if tip && rawPressure <= lowerThreshold { tip = false }
    }
    // Out of proximity the tip is up (libinput's `tablet_flush` clears it), whatever pressure
    // the device last reported.
    if !near && pressure != nil { tip = false }
    guard near || wasInProximity || contact != nil else { return nil }
    let touching = near && tip
    if !tip { ignoringTip = false }
    // The tip's contact after this frame: the one it had, a new one landing, or none. The pen's
    // state (its angles' trigonometry) is computed once, for the frame and its contact.
    let current: TouchID? = touching && !ignoringTip ? (contact ?? ids.next()) : nil
    let state = self.state(contact: current)
    output.removeAll(keepingCapacity: true)
    if let id = current {
      var drawn = makeContact(id, contact == nil ? .began : .moved, state)
      // Only a button or the serial changed: the tip is where it was.
      if contact != nil, let last = lastContact, last.x == drawn.x, last.y == drawn.y, last.force == drawn.force,
        last.pen == drawn.pen
      {
        drawn.phase = .stationary
      }
      output.append(drawn)
    } else if let id = contact {
      output.append(makeContact(id, endedPhase, state))
    }
    contact = current
    lastContact = output.first
    wasInProximity = near
    return TouchFrame(time: time, contacts: output, pen: state)
  }

  /// The tip's contact where the pen is (`state`'s position and properties).
  private func makeContact(_ id: TouchID, _ phase: TouchPhase, _ state: PenState) -> Contact {
    Contact(
      id: id, phase: phase, x: state.x, y: state.y, force: pressure.map(normalizedPressure),
      pen: state.properties)
  }

  /// libinput's `normalize_pressure`: the pressure above the lift threshold (the offset of a worn
  /// pen) over the units from it to the axis maximum, counted inclusively as libinput counts them.
  private func normalizedPressure(_ axis: AbsInfo) -> Double {
    Swift.min(1, Swift.max(0, (Double(rawPressure) - Double(lowerThreshold)) / Self.forceSpan(axis, lowerThreshold)))
  }

  /// The units a force of 1 spans above `lower` on `axis`: libinput's `absinfo->maximum - base + 1`.
  static func forceSpan(_ axis: AbsInfo, _ lower: Int32) -> Double { Double(axis.maximum) - Double(lower) + 1 }

  /// `fraction` of `axis`'s range above its minimum, truncated to a unit: libinput's
  /// `axis_range_percentage`, which places its thresholds.
  public static func threshold(_ fraction: Double, of axis: AbsInfo) -> Int32 {
    Int32((Double(axis.maximum) - Double(axis.minimum)) * fraction) + axis.minimum
  }

  /// The thresholds of a tool with `offset` (nil: none): libinput's `update_pressure_range` (1 %
  /// and 5 % of the range) and `set_pressure_offset` (the offset, and the offset plus their gap).
  private func setThresholds(offset: Int32?) {
    guard let pressure else { return }
    let lower = Self.threshold(Self.tipUpPressure, of: pressure)
    let upper = Self.threshold(Self.tipDownPressure, of: pressure)
    lowerThreshold = offset ?? lower
    upperThreshold = (offset ?? lower) + (upper - lower)
  }

  private var toolKey: ToolKey { ToolKey(eraser: rubberTool && !penTool, serial: serial) }

  /// A tool comes into proximity: its offset if it has one, else one detected now (libinput's
  /// `detect_pressure_offset`, which runs on proximity in only).
  private func toolEntered(_ axis: AbsInfo) {
    if let known = offsets[toolKey] {
      setThresholds(offset: known)
      return
    }
    setThresholds(offset: nil)
    guard let distance, rawPressure > axis.minimum,
      distance.unitFraction(of: rawDistance) >= Self.offsetMinimumDistance,
      axis.unitFraction(of: rawPressure) <= Self.offsetMaximumPressure
    else { return }
    offsets[toolKey] = rawPressure
    setThresholds(offset: rawPressure)
  }

  /// A pressure below the tool's offset lowers it (libinput's `update_pressure_offset`: a fast
  /// contact can start with a higher offset than the pen needs).
  private func updateOffset() {
    guard let offset = offsets[toolKey], rawPressure < offset else { return }
    offsets[toolKey] = rawPressure
    setThresholds(offset: rawPressure)
  }

  /// The pressure offset of the tool in proximity (device units), nil when it has none.
  public var pressureOffset: Int32? { inProximity ? offsets[toolKey] : nil }

  /// The inverse of the force's normalization on a pen without an offset: the value of pressure
  /// `axis` whose force is `force` (what the virtual pen writes for a forwarded contact's force).
  public static func pressureValue(force: Double, axis: AbsInfo) -> Int32 {
    let lower = threshold(tipUpPressure, of: axis)
    let value = (Double(lower) + Swift.min(1, Swift.max(0, force)) * forceSpan(axis, lower)).rounded()
    return Int32(Swift.min(Double(axis.maximum), value))
  }

  private func state(contact: TouchID?) -> PenState {
    let degreesX = tiltX.map { PenAngles.degrees(rawTiltX, axis: $0) } ?? 0
    let tilt = PenAngles(tiltX: degreesX, tiltY: tiltY.map { PenAngles.degrees(rawTiltY, axis: $0) } ?? 0)
    return PenState(
      inProximity: inProximity, x: x.fraction(of: rawX), y: y.fraction(of: rawY),
      distance: distance.map { $0.unitFraction(of: rawDistance) }, buttons: buttons, serial: serial,
      properties: PenProperties(
        isEraser: rubberTool && !penTool, altitudeAngle: tilt.altitude, azimuthAngle: tilt.azimuth),
      contact: contact, tiltX: degreesX)
  }
}

extension AbsInfo {
  /// Where `value` lies between the axis's minimum (0) and maximum (1), clamped: a pressure's or a
  /// distance's fraction of its range (unlike a position, whose units are cells).
  public func unitFraction(of value: Int32) -> Double {
    let span = Double(maximum) - Double(minimum)
    guard span > 0 else { return 0 }
    return Swift.min(1, Swift.max(0, (Double(value) - Double(minimum)) / span))
  }

  /// The value at `fraction` (clamped to 0...1) of the range, rounded: the inverse of
  /// ``unitFraction(of:)``.
  public func value(atUnitFraction fraction: Double) -> Int32 {
    let span = Double(maximum) - Double(minimum)
    return Int32((Double(minimum) + Swift.min(1, Swift.max(0, fraction)) * span).rounded())
  }
}
