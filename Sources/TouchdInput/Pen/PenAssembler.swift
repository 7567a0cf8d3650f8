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
///   reports proximity out: `tablet_flush`, `tablet_send_events`). libinput's pressure-offset
///   detection for worn pens (`detect_pressure_offset`) is not done.
/// - **Pressure** is the contact's force, as libinput normalizes it (`normalize_pressure`): 0 at
///   the 1 % threshold, 1 at the axis maximum;
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
  }

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
      case ABS.pressure:
        set(&rawPressure, event.value)
        if let pressure {
          // libinput's hysteresis: down at or above 5 % of the range, up at or below 1 %.
          let level = pressure.unitFraction(of: event.value)
          if !tip && level >= Self.tipDownPressure { set(&tip, true) }
          if tip && level <= Self.tipUpPressure { set(&tip, false) }
        }
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

  /// libinput's `normalize_pressure`: 0 at the lift threshold, 1 at the axis maximum.
  private func normalizedPressure(_ axis: AbsInfo) -> Double {
    let level = axis.unitFraction(of: rawPressure)
    return Swift.min(1, Swift.max(0, (level - Self.tipUpPressure) / (1 - Self.tipUpPressure)))
  }

  private func state(contact: TouchID?) -> PenState {
    let tilt = PenAngles(
      tiltX: tiltX.map { PenAngles.degrees(rawTiltX, axis: $0) } ?? 0,
      tiltY: tiltY.map { PenAngles.degrees(rawTiltY, axis: $0) } ?? 0)
    return PenState(
      inProximity: inProximity, x: x.fraction(of: rawX), y: y.fraction(of: rawY),
      distance: distance.map { $0.unitFraction(of: rawDistance) }, buttons: buttons, serial: serial,
      properties: PenProperties(
        isEraser: rubberTool && !penTool, altitudeAngle: tilt.altitude, azimuthAngle: tilt.azimuth),
      contact: contact)
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
}
