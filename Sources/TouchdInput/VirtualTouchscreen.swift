/// The virtual touchscreen touchd forwards a window's unclaimed touches to, one per physical
/// touchscreen of a window with `forward:` (docs/forward.md): a multitouch protocol B device,
/// whatever the physical kind, with `INPUT_PROP_DIRECT`, the physical device's position ranges and
/// resolution, `ABS_MT_TOOL_TYPE` up to `MT_TOOL_PALM` (how a touch is cancelled) and single-touch
/// emulation (`BTN_TOUCH`, `ABS_X`/`ABS_Y`), as the kernel's `input_mt_report_pointer_emulation`
/// gives every protocol B device.
public enum VirtualTouchscreen {
  /// Slots of a virtual device forwarding a protocol A panel, which reports any number of contacts
  /// without slots: ten fingers, two hands. A protocol B panel's virtual device has the panel's
  /// slots, a single-touch panel's one.
  public static let protocolASlots = 10
  /// `BUS_VIRTUAL`, the bus of a uinput device.
  public static let bus: UInt16 = 0x06
  /// The longest name a uinput device takes, in UTF-8 bytes (`UINPUT_MAX_NAME_SIZE` 80, with the NUL).
  public static let maximumNameBytes = 79
  /// The largest tracking id; ids wrap after it, as the kernel's (`TRKID_MAX`).
  public static let maximumTrackingID: Int32 = 0xffff

  /// How many slots the virtual device of `physical` has: its own slots (protocol B), ten
  /// (protocol A), one (single touch).
  public static func slotCount(for physical: DeviceDescription) -> Int {
    switch physical.touchProtocol {
    case .slots(let count): Swift.max(1, count)
    case .contacts: protocolASlots
    case .singleTouch, nil: 1
    }
  }

  /// The position axes of `physical` the virtual device copies: `ABS_MT_POSITION_X/Y` of a
  /// multitouch panel, `ABS_X/ABS_Y` of a single-touch one; 0...4095 without either.
  public static func positionAxes(of physical: DeviceDescription) -> (x: AbsInfo, y: AbsInfo) {
    func axis(_ mt: UInt16, _ st: UInt16) -> AbsInfo {
      var info =
        physical.absInfo[mt].flatMap { $0.maximum > $0.minimum ? $0 : nil }
        ?? physical.absInfo[st].flatMap { $0.maximum > $0.minimum ? $0 : nil }
        ?? AbsInfo(minimum: 0, maximum: 4095)
      // The device's description, not its state: no current value, no fuzz or flat (touchd sends
      // the positions it decided; the kernel's fuzz filter would only drop them).
      info.value = 0
      info.fuzz = 0
      info.flat = 0
      return info
    }
    return (axis(ABS.mtPositionX, ABS.x), axis(ABS.mtPositionY, ABS.y))
  }

  /// `physical` + " (touchd)", within ``maximumNameBytes``.
  public static func defaultName(for physical: String) -> String {
    let suffix = " (touchd)"
    var base = physical
    while base.utf8.count + suffix.utf8.count > maximumNameBytes { base.removeLast() }
    return base + suffix
  }

  /// The virtual device of `physical`: named `name`, else the physical name followed by
  /// " (touchd)", the physical name shortened (by whole characters) to fit ``maximumNameBytes``.
  /// Its id is `BUS_VIRTUAL` with vendor and product 0, so that udev rules and hwdb
  /// entries written for the physical panel (a `LIBINPUT_CALIBRATION_MATRIX` above all) never match
  /// it: it reports positions touchd has already calibrated.
  public static func description(for physical: DeviceDescription, name: String? = nil) -> DeviceDescription {
    let (x, y) = positionAxes(of: physical)
    let slots = slotCount(for: physical)
    return DeviceDescription(
      name: name ?? defaultName(for: physical.name), id: InputID(bustype: bus, vendor: 0, product: 0, version: 1),
      properties: [InputProp.direct],
      events: [
        EV.syn: [SYN.report, SYN.config, SYN.dropped],
        EV.key: [BTN.touch],
        EV.abs: [ABS.x, ABS.y, ABS.mtSlot, ABS.mtToolType, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID],
      ],
      absInfo: [
        ABS.x: x, ABS.y: y, ABS.mtPositionX: x, ABS.mtPositionY: y,
        ABS.mtSlot: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
        ABS.mtToolType: AbsInfo(minimum: 0, maximum: MTTool.palm),
        ABS.mtTrackingID: AbsInfo(minimum: 0, maximum: maximumTrackingID),
      ])
  }
}

/// One change of a forwarded touch, in the virtual device's axis units.
public struct ForwardedChange: Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// The touch goes down at (x, y); `released`: it had been held by a recognizer.
    case down(released: Bool)
    /// The touch moves to (x, y).
    case move
    /// The touch lifts.
    case lift
    /// The touch is cancelled: its slot turns `MT_TOOL_PALM`, and it lifts in the next frame.
    case cancel
  }

  /// The touch's contact id (touchd's; the virtual device gets tracking ids of its own).
  public var id: TouchID
  public var kind: Kind
  /// Position in the virtual device's units (ignored by lift and cancel).
  public var x: Int32
  public var y: Int32

  public init(id: TouchID, kind: Kind, x: Int32 = 0, y: Int32 = 0) {
    self.id = id
    self.kind = kind
    self.x = x
    self.y = y
  }
}

/// How many touches a virtual device got, for `status` (docs/forward.md).
public struct ForwardCounters: Hashable, Sendable {
  /// Touches that went down on the virtual device.
  public var forwarded = 0
  /// Touches whose touch-down a recognizer held back (`delaysTouchesBegan`, or behind another held
  /// touch), released or not; counted by the scene's forwarding (the encoder never sees them).
  public var held = 0
  /// Of the forwarded, touches a recognizer had held and released (down at their first position).
  public var released = 0
  /// Touches cancelled on the virtual device (palm, then lift).
  public var cancelled = 0
  /// Touches not forwarded because every slot was taken.
  public var noSlot = 0

  public init() {}
}
