// Event type and code numbers from <linux/input-event-codes.h>, with the names libevdev prints.

/// Event types (`EV_*`).
public enum EV {
  public static let syn: UInt16 = 0x00
  public static let key: UInt16 = 0x01
  public static let rel: UInt16 = 0x02
  public static let abs: UInt16 = 0x03
  public static let msc: UInt16 = 0x04
  public static let sw: UInt16 = 0x05
  public static let led: UInt16 = 0x11
  public static let snd: UInt16 = 0x12
  public static let rep: UInt16 = 0x14
  public static let ff: UInt16 = 0x15
  public static let pwr: UInt16 = 0x16
  public static let ffStatus: UInt16 = 0x17
  /// `EV_MAX`.
  public static let max: UInt16 = 0x1f
}

/// `EV_SYN` codes.
public enum SYN {
  public static let report: UInt16 = 0
  public static let config: UInt16 = 1
  public static let mtReport: UInt16 = 2
  public static let dropped: UInt16 = 3
}

/// `EV_KEY` button codes (`BTN_*`) relevant to pointers, tablets and touch devices.
public enum BTN {
  /// `BTN_MOUSE`: the first mouse button (`BTN_LEFT`); mouse buttons run up to `BTN_JOYSTICK - 1`.
  public static let mouse: UInt16 = 0x110
  public static let left: UInt16 = 0x110
  public static let right: UInt16 = 0x111
  public static let middle: UInt16 = 0x112
  public static let side: UInt16 = 0x113
  public static let extra: UInt16 = 0x114
  /// `BTN_JOYSTICK` (`BTN_TRIGGER`): joystick buttons run up to `BTN_DIGI - 1`.
  public static let joystick: UInt16 = 0x120
  /// `BTN_DIGI` (`BTN_TOOL_PEN`): the first digitizer code.
  public static let digi: UInt16 = 0x140
  public static let toolPen: UInt16 = 0x140
  public static let toolRubber: UInt16 = 0x141
  public static let toolBrush: UInt16 = 0x142
  public static let toolPencil: UInt16 = 0x143
  public static let toolAirbrush: UInt16 = 0x144
  public static let toolFinger: UInt16 = 0x145
  public static let toolMouse: UInt16 = 0x146
  public static let toolLens: UInt16 = 0x147
  public static let toolQuinttap: UInt16 = 0x148
  public static let stylus3: UInt16 = 0x149
  public static let touch: UInt16 = 0x14a
  public static let stylus: UInt16 = 0x14b
  public static let stylus2: UInt16 = 0x14c
  public static let toolDoubletap: UInt16 = 0x14d
  public static let toolTripletap: UInt16 = 0x14e
  public static let toolQuadtap: UInt16 = 0x14f
  public static let dpadUp: UInt16 = 0x220
  public static let dpadRight: UInt16 = 0x223
  public static let triggerHappy1: UInt16 = 0x2c0
  public static let triggerHappy40: UInt16 = 0x2e7
}

/// `EV_REL` axis codes (`REL_*`) udev's classification looks at.
public enum REL {
  public static let x: UInt16 = 0x00
  public static let y: UInt16 = 0x01
}

/// `EV_MSC` codes.
public enum MSC {
  public static let serial: UInt16 = 0
  public static let pulseled: UInt16 = 1
  public static let gesture: UInt16 = 2
  public static let raw: UInt16 = 3
  public static let scan: UInt16 = 4
  public static let timestamp: UInt16 = 5
}

/// `EV_ABS` axis codes (`ABS_*`), including every `ABS_MT_*`.
public enum ABS {
  public static let x: UInt16 = 0x00
  public static let y: UInt16 = 0x01
  public static let z: UInt16 = 0x02
  public static let rx: UInt16 = 0x03
  public static let ry: UInt16 = 0x04
  public static let rz: UInt16 = 0x05
  public static let throttle: UInt16 = 0x06
  public static let rudder: UInt16 = 0x07
  public static let wheel: UInt16 = 0x08
  public static let gas: UInt16 = 0x09
  public static let brake: UInt16 = 0x0a
  public static let hat0x: UInt16 = 0x10
  public static let hat0y: UInt16 = 0x11
  public static let hat1x: UInt16 = 0x12
  public static let hat1y: UInt16 = 0x13
  public static let hat2x: UInt16 = 0x14
  public static let hat2y: UInt16 = 0x15
  public static let hat3x: UInt16 = 0x16
  public static let hat3y: UInt16 = 0x17
  public static let pressure: UInt16 = 0x18
  public static let distance: UInt16 = 0x19
  public static let tiltX: UInt16 = 0x1a
  public static let tiltY: UInt16 = 0x1b
  public static let toolWidth: UInt16 = 0x1c
  public static let volume: UInt16 = 0x20
  public static let profile: UInt16 = 0x21
  public static let misc: UInt16 = 0x28
  public static let reserved: UInt16 = 0x2e
  public static let mtSlot: UInt16 = 0x2f
  public static let mtTouchMajor: UInt16 = 0x30
  public static let mtTouchMinor: UInt16 = 0x31
  public static let mtWidthMajor: UInt16 = 0x32
  public static let mtWidthMinor: UInt16 = 0x33
  public static let mtOrientation: UInt16 = 0x34
  public static let mtPositionX: UInt16 = 0x35
  public static let mtPositionY: UInt16 = 0x36
  public static let mtToolType: UInt16 = 0x37
  public static let mtBlobID: UInt16 = 0x38
  public static let mtTrackingID: UInt16 = 0x39
  public static let mtPressure: UInt16 = 0x3a
  public static let mtDistance: UInt16 = 0x3b
  public static let mtToolX: UInt16 = 0x3c
  public static let mtToolY: UInt16 = 0x3d
  /// `ABS_MAX`.
  public static let max: UInt16 = 0x3f
}

/// Device properties (`INPUT_PROP_*`).
public enum InputProp {
  public static let pointer: UInt16 = 0x00
  public static let direct: UInt16 = 0x01
  public static let buttonpad: UInt16 = 0x02
  public static let semiMT: UInt16 = 0x03
  public static let topButtonpad: UInt16 = 0x04
  public static let pointingStick: UInt16 = 0x05
  public static let accelerometer: UInt16 = 0x06
  public static let pressurepad: UInt16 = 0x07
  /// `INPUT_PROP_MAX`.
  public static let max: UInt16 = 0x1f
}

/// `ABS_MT_TOOL_TYPE` values (`MT_TOOL_*`).
public enum MTTool {
  public static let finger: Int32 = 0x00
  public static let pen: Int32 = 0x01
  public static let palm: Int32 = 0x02
  public static let dial: Int32 = 0x0a
}

/// The names libevdev gives event types, codes and properties, for evemu comments and listings.
public enum EventNames {
  /// `"EV_ABS"` for 3; nil for a type without a name.
  public static func type(_ type: UInt16) -> String? { typeNames[type] }

  /// `"ABS_MT_SLOT"` for (3, 0x2f); nil when the code has no known name.
  public static func code(type: UInt16, code: UInt16) -> String? {
    switch type {
    case EV.syn: synNames[code]
    case EV.key: keyNames[code]
    case EV.abs: absNames[code]
    case EV.msc: mscNames[code]
    default: nil
    }
  }

  /// `"INPUT_PROP_DIRECT"` for 1; nil when unknown.
  public static func property(_ property: UInt16) -> String? { propNames[property] }

  /// The largest code of `type` (libevdev's `libevdev_event_type_get_max`), or nil when the type has
  /// no codes of its own.
  public static func maxCode(type: UInt16) -> UInt16? {
    switch type {
    case EV.syn: 0x0f
    case EV.key: 0x2ff
    case EV.rel: 0x0f
    case EV.abs: ABS.max
    case EV.msc: 0x07
    case EV.sw: 0x10
    case EV.led: 0x0f
    case EV.snd: 0x07
    case EV.rep: 0x01
    case EV.ff: 0x7f
    default: nil
    }
  }

  private static let typeNames: [UInt16: String] = [
    EV.syn: "EV_SYN", EV.key: "EV_KEY", EV.rel: "EV_REL", EV.abs: "EV_ABS", EV.msc: "EV_MSC",
    EV.sw: "EV_SW", EV.led: "EV_LED", EV.snd: "EV_SND", EV.rep: "EV_REP", EV.ff: "EV_FF",
    EV.pwr: "EV_PWR", EV.ffStatus: "EV_FF_STATUS", EV.max: "EV_MAX",
  ]

  private static let synNames: [UInt16: String] = [
    SYN.report: "SYN_REPORT", SYN.config: "SYN_CONFIG", SYN.mtReport: "SYN_MT_REPORT",
    SYN.dropped: "SYN_DROPPED", 0x0f: "SYN_MAX",
  ]

  private static let keyNames: [UInt16: String] = [
    BTN.left: "BTN_LEFT", BTN.right: "BTN_RIGHT", BTN.middle: "BTN_MIDDLE", BTN.side: "BTN_SIDE",
    BTN.extra: "BTN_EXTRA", BTN.toolPen: "BTN_TOOL_PEN", BTN.toolRubber: "BTN_TOOL_RUBBER",
    BTN.toolBrush: "BTN_TOOL_BRUSH", BTN.toolPencil: "BTN_TOOL_PENCIL",
    BTN.toolAirbrush: "BTN_TOOL_AIRBRUSH", BTN.toolFinger: "BTN_TOOL_FINGER",
    BTN.toolMouse: "BTN_TOOL_MOUSE", BTN.toolLens: "BTN_TOOL_LENS",
    BTN.toolQuinttap: "BTN_TOOL_QUINTTAP", BTN.stylus3: "BTN_STYLUS3", BTN.touch: "BTN_TOUCH",
    BTN.stylus: "BTN_STYLUS", BTN.stylus2: "BTN_STYLUS2", BTN.toolDoubletap: "BTN_TOOL_DOUBLETAP",
    BTN.toolTripletap: "BTN_TOOL_TRIPLETAP", BTN.toolQuadtap: "BTN_TOOL_QUADTAP",
  ]

  private static let mscNames: [UInt16: String] = [
    MSC.serial: "MSC_SERIAL", MSC.pulseled: "MSC_PULSELED", MSC.gesture: "MSC_GESTURE",
    MSC.raw: "MSC_RAW", MSC.scan: "MSC_SCAN", MSC.timestamp: "MSC_TIMESTAMP",
  ]

  private static let absNames: [UInt16: String] = [
    ABS.x: "ABS_X", ABS.y: "ABS_Y", ABS.z: "ABS_Z", ABS.rx: "ABS_RX", ABS.ry: "ABS_RY",
    ABS.rz: "ABS_RZ", ABS.throttle: "ABS_THROTTLE", ABS.rudder: "ABS_RUDDER",
    ABS.wheel: "ABS_WHEEL", ABS.gas: "ABS_GAS", ABS.brake: "ABS_BRAKE", ABS.hat0x: "ABS_HAT0X",
    ABS.hat0y: "ABS_HAT0Y", ABS.hat1x: "ABS_HAT1X", ABS.hat1y: "ABS_HAT1Y",
    ABS.hat2x: "ABS_HAT2X", ABS.hat2y: "ABS_HAT2Y", ABS.hat3x: "ABS_HAT3X",
    ABS.hat3y: "ABS_HAT3Y", ABS.pressure: "ABS_PRESSURE", ABS.distance: "ABS_DISTANCE",
    ABS.tiltX: "ABS_TILT_X", ABS.tiltY: "ABS_TILT_Y", ABS.toolWidth: "ABS_TOOL_WIDTH",
    ABS.volume: "ABS_VOLUME", ABS.profile: "ABS_PROFILE", ABS.misc: "ABS_MISC",
    ABS.reserved: "ABS_RESERVED", ABS.mtSlot: "ABS_MT_SLOT",
    ABS.mtTouchMajor: "ABS_MT_TOUCH_MAJOR", ABS.mtTouchMinor: "ABS_MT_TOUCH_MINOR",
    ABS.mtWidthMajor: "ABS_MT_WIDTH_MAJOR", ABS.mtWidthMinor: "ABS_MT_WIDTH_MINOR",
    ABS.mtOrientation: "ABS_MT_ORIENTATION", ABS.mtPositionX: "ABS_MT_POSITION_X",
    ABS.mtPositionY: "ABS_MT_POSITION_Y", ABS.mtToolType: "ABS_MT_TOOL_TYPE",
    ABS.mtBlobID: "ABS_MT_BLOB_ID", ABS.mtTrackingID: "ABS_MT_TRACKING_ID",
    ABS.mtPressure: "ABS_MT_PRESSURE", ABS.mtDistance: "ABS_MT_DISTANCE",
    ABS.mtToolX: "ABS_MT_TOOL_X", ABS.mtToolY: "ABS_MT_TOOL_Y", ABS.max: "ABS_MAX",
  ]

  private static let propNames: [UInt16: String] = [
    InputProp.pointer: "INPUT_PROP_POINTER", InputProp.direct: "INPUT_PROP_DIRECT",
    InputProp.buttonpad: "INPUT_PROP_BUTTONPAD", InputProp.semiMT: "INPUT_PROP_SEMI_MT",
    InputProp.topButtonpad: "INPUT_PROP_TOPBUTTONPAD",
    InputProp.pointingStick: "INPUT_PROP_POINTING_STICK",
    InputProp.accelerometer: "INPUT_PROP_ACCELEROMETER", InputProp.pressurepad: "INPUT_PROP_PRESSUREPAD",
  ]
}

/// One kernel input event (`struct input_event`).
public struct InputEvent: Hashable, Sendable {
  public var time: Timestamp
  public var type: UInt16
  public var code: UInt16
  public var value: Int32

  public init(time: Timestamp, type: UInt16, code: UInt16, value: Int32) {
    self.time = time
    self.type = type
    self.code = code
    self.value = value
  }
}
