// The virtual pen touchd forwards a window's pen to (docs/pens.md, "Forwarded windows"): a uinput
// tablet tool with the physical pen's axes and buttons, so a compositor's tablet support reads a
// pen, not a finger.

/// The virtual device of a forwarded pen display: `BTN_TOOL_PEN` (and `BTN_TOOL_RUBBER` when the
/// physical pen has an eraser), `BTN_TOUCH`, the physical pen's barrel buttons, `ABS_X/ABS_Y` with
/// the physical ranges and resolution, and `ABS_PRESSURE`, `ABS_DISTANCE`, `ABS_TILT_X/Y` and
/// `MSC_SERIAL` where the physical pen has them, with `INPUT_PROP_DIRECT`: what libinput takes as
/// a tablet on a display (src/evdev-tablet.c, `tablet_reject_device`: x and y, a pen or a stylus
/// button, and a size, that is a resolution on both axes; a physical pen without a resolution is
/// refused by libinput itself, so copying it loses nothing), and what udev's `input_id` builtin
/// tags `ID_INPUT_TABLET`.
///
/// Like the virtual touchscreen (``VirtualTouchscreen``), its id is `BUS_VIRTUAL` with vendor and
/// product 0, and it reports window positions: udev rules and libwacom entries for the physical
/// pen never match it.
public enum VirtualPen {
  /// The axes the virtual pen copies from the physical one, besides the position.
  static let copiedAxes: [UInt16] = [ABS.pressure, ABS.distance, ABS.tiltX, ABS.tiltY]
  /// The keys it copies when the physical pen has them; `BTN_TOOL_PEN` and `BTN_TOUCH` it always has.
  static let copiedKeys: [UInt16] = [BTN.toolRubber, BTN.stylus, BTN.stylus2, BTN.stylus3]

  /// The virtual pen of `physical` (a pen display: ``DeviceDescription/isPenDisplay``), named `name`, else
  /// the physical name followed by " (touchd)" (``VirtualTouchscreen/defaultName(for:)``).
  public static func description(for physical: DeviceDescription, name: String? = nil) -> DeviceDescription {
    func copy(_ code: UInt16) -> AbsInfo? {
      guard physical.has(type: EV.abs, code: code), var info = physical.absInfo[code], info.maximum > info.minimum
      else { return nil }
      // The device's description, not its state; no fuzz or flat (touchd sends what it decided).
      info.value = 0
      info.fuzz = 0
      info.flat = 0
      return info
    }
    let (x, y) = VirtualTouchscreen.positionAxes(of: physical)
    var absInfo: [UInt16: AbsInfo] = [ABS.x: x, ABS.y: y]
    for code in copiedAxes { if let info = copy(code) { absInfo[code] = info } }
    var keys: Set<UInt16> = [BTN.toolPen, BTN.touch]
    for code in copiedKeys where physical.has(type: EV.key, code: code) { keys.insert(code) }
    var events: [UInt16: Set<UInt16>] = [
      EV.syn: [SYN.report, SYN.config, SYN.dropped], EV.key: keys, EV.abs: Set(absInfo.keys),
    ]
    if physical.has(type: EV.msc, code: MSC.serial) { events[EV.msc] = [MSC.serial] }
    return DeviceDescription(
      name: name ?? VirtualTouchscreen.defaultName(for: physical.name),
      id: InputID(bustype: VirtualTouchscreen.bus, vendor: 0, product: 0, version: 1),
      properties: [InputProp.direct], events: events, absInfo: absInfo)
  }

  /// The virtual pen's units for `pen` (a pen state in window points and window angles, as a
  /// scene maps it) at window point (`x`, `y`), `force` its contact's (nil while it hovers), on a
  /// window of `mapping`'s size: each axis the inverse of what ``PenAssembler`` read from it.
  public static func sample(
    of pen: PenState, at x: Double, _ y: Double, force: Double?, in mapping: ScreenMapping, device: DeviceDescription
  ) -> PenSample {
    let position = VirtualTouchscreen.position(x, y, in: mapping, axes: VirtualTouchscreen.positionAxes(of: device))
    var sample = PenSample(x: position.x, y: position.y)
    if let axis = device.absInfo[ABS.pressure] {
      sample.pressure = force.map { PenAssembler.pressureValue(force: $0, axis: axis) } ?? axis.minimum
    }
    if let axis = device.absInfo[ABS.distance] { sample.distance = axis.value(atUnitFraction: pen.distance ?? 0) }
    if let ax = device.absInfo[ABS.tiltX], let ay = device.absInfo[ABS.tiltY] {
      let tilt = PenAngles.tilts(altitude: pen.properties.altitudeAngle, azimuth: pen.properties.azimuthAngle)
      sample.tiltX = PenAngles.value(degrees: tilt.x, axis: ax)
      sample.tiltY = PenAngles.value(degrees: tilt.y, axis: ay)
    }
    sample.buttons = pen.buttons
    sample.isEraser = pen.properties.isEraser
    sample.serial = pen.serial
    return sample
  }
}

/// A forwarded pen's state in the virtual pen's units.
public struct PenSample: Hashable, Sendable {
  public var x: Int32
  public var y: Int32
  public var pressure: Int32 = 0
  public var distance: Int32 = 0
  public var tiltX: Int32 = 0
  public var tiltY: Int32 = 0
  public var buttons: PenButtons = []
  public var isEraser = false
  public var serial: UInt32?

  public init(x: Int32, y: Int32) {
    self.x = x
    self.y = y
  }
}

/// One change of a forwarded pen.
public struct ForwardedPenChange: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// The pen is near, its tip up: in proximity on the virtual pen, at the sample's position.
    case hover
    /// The tip touches down; `released`: a recognizer had held its touch.
    case down(released: Bool)
    /// The tip moves (or its pressure, tilt or buttons change).
    case move
    /// The tip lifts; the pen stays in proximity.
    case lift
    /// A recognizer claimed the stroke: the virtual pen leaves proximity (a pen has no palm state
    /// to cancel with), until the pen hovers again with its tip up.
    case cancel
    /// The pen left the device's range.
    case leave
  }

  public var kind: Kind
  public var sample: PenSample

  public init(_ kind: Kind, _ sample: PenSample) {
    self.kind = kind
    self.sample = sample
  }
}
