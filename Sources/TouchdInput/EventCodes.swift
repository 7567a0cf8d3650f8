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

/// `EV_SW` codes of <linux/input-event-codes.h> touchd reads or names.
public enum SW {
  public static let lid: UInt16 = 0x00
  public static let tabletMode: UInt16 = 0x01
  /// Headphones plugged into the sound card's jack (1) or pulled out (0): the switch of the sound
  /// card's input device (ALSA's jack detection, "HDA Intel PCH Headphone" and the like).
  public static let headphoneInsert: UInt16 = 0x02
  public static let microphoneInsert: UInt16 = 0x04
  public static let lineoutInsert: UInt16 = 0x06
  public static let jackPhysicalInsert: UInt16 = 0x07
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
    case EV.sw: swNames[code]
    default: nil
    }
  }

  /// `"INPUT_PROP_DIRECT"` for 1; nil when unknown.
  public static func property(_ property: UInt16) -> String? { propNames[property] }

  /// The `EV_KEY` code of a key or button name of <linux/input-event-codes.h>: 28 for `KEY_ENTER`,
  /// 0x130 for `BTN_SOUTH` and for its other name `BTN_A`. Nil for an unknown name and for names
  /// that are no key: the range markers (`BTN_MISC`, `BTN_TRIGGER_HAPPY`) and `KEY_MAX`.
  public static func keyCode(named name: String) -> UInt16? { codesByKeyName[name] }

  /// Every name ``keyCode(named:)`` knows: each code's libevdev name in code order, then the
  /// header's other names.
  public static let keyCodeNames: [String] =
    keyNames.filter { $0.key != keyMax }.sorted { $0.key < $1.key }.map(\.value)
    + keyAliases.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)

  /// Whether an `EV_KEY` code is one a pointer or touch device reports: the mouse buttons
  /// (`BTN_LEFT` … `BTN_TASK`, up to `BTN_JOYSTICK`) and the digitizer's tools and contacts
  /// (`BTN_TOOL_*`, `BTN_TOUCH`, `BTN_STYLUS*`, up to `BTN_WHEEL`). Never a key press.
  public static func isPointerCode(_ code: UInt16) -> Bool {
    (BTN.mouse..<BTN.joystick).contains(code) || (BTN.digi..<btnWheel).contains(code)
  }

  /// `KEY_MAX`: libevdev names it, but it is no key.
  private static let keyMax: UInt16 = 0x2ff
  /// `BTN_WHEEL` (`BTN_GEAR_DOWN`): the first code after the digitizer's.
  private static let btnWheel: UInt16 = 0x150

  private static let codesByKeyName: [String: UInt16] = {
    var codes = keyAliases
    for (code, name) in keyNames where code != keyMax { codes[name] = code }
    return codes
  }()

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

  /// Every `KEY_*` and `BTN_*` code of <linux/input-event-codes.h> (as of Linux 6.17) with the name
  /// libevdev prints: the first name the header defines for the code, skipping the range markers
  /// (`BTN_MISC`, `BTN_MOUSE`, `BTN_JOYSTICK`, `BTN_GAMEPAD`, `BTN_DIGI`, `BTN_WHEEL`,
  /// `BTN_TRIGGER_HAPPY`) and defines by another name (`BTN_A` is `BTN_SOUTH`).
  private static let keyNames: [UInt16: String] = [
    0x000: "KEY_RESERVED", 0x001: "KEY_ESC", 0x002: "KEY_1", 0x003: "KEY_2", 0x004: "KEY_3", 0x005: "KEY_4",
    0x006: "KEY_5", 0x007: "KEY_6", 0x008: "KEY_7", 0x009: "KEY_8", 0x00a: "KEY_9", 0x00b: "KEY_0", 0x00c: "KEY_MINUS",
    0x00d: "KEY_EQUAL", 0x00e: "KEY_BACKSPACE", 0x00f: "KEY_TAB", 0x010: "KEY_Q", 0x011: "KEY_W", 0x012: "KEY_E",
    0x013: "KEY_R", 0x014: "KEY_T", 0x015: "KEY_Y", 0x016: "KEY_U", 0x017: "KEY_I", 0x018: "KEY_O", 0x019: "KEY_P",
    0x01a: "KEY_LEFTBRACE", 0x01b: "KEY_RIGHTBRACE", 0x01c: "KEY_ENTER", 0x01d: "KEY_LEFTCTRL", 0x01e: "KEY_A",
    0x01f: "KEY_S", 0x020: "KEY_D", 0x021: "KEY_F", 0x022: "KEY_G", 0x023: "KEY_H", 0x024: "KEY_J", 0x025: "KEY_K",
    0x026: "KEY_L", 0x027: "KEY_SEMICOLON", 0x028: "KEY_APOSTROPHE", 0x029: "KEY_GRAVE", 0x02a: "KEY_LEFTSHIFT",
    0x02b: "KEY_BACKSLASH", 0x02c: "KEY_Z", 0x02d: "KEY_X", 0x02e: "KEY_C", 0x02f: "KEY_V", 0x030: "KEY_B",
    0x031: "KEY_N", 0x032: "KEY_M", 0x033: "KEY_COMMA", 0x034: "KEY_DOT", 0x035: "KEY_SLASH", 0x036: "KEY_RIGHTSHIFT",
    0x037: "KEY_KPASTERISK", 0x038: "KEY_LEFTALT", 0x039: "KEY_SPACE", 0x03a: "KEY_CAPSLOCK", 0x03b: "KEY_F1",
    0x03c: "KEY_F2", 0x03d: "KEY_F3", 0x03e: "KEY_F4", 0x03f: "KEY_F5", 0x040: "KEY_F6", 0x041: "KEY_F7",
    0x042: "KEY_F8", 0x043: "KEY_F9", 0x044: "KEY_F10", 0x045: "KEY_NUMLOCK", 0x046: "KEY_SCROLLLOCK", 0x047: "KEY_KP7",
    0x048: "KEY_KP8", 0x049: "KEY_KP9", 0x04a: "KEY_KPMINUS", 0x04b: "KEY_KP4", 0x04c: "KEY_KP5", 0x04d: "KEY_KP6",
    0x04e: "KEY_KPPLUS", 0x04f: "KEY_KP1", 0x050: "KEY_KP2", 0x051: "KEY_KP3", 0x052: "KEY_KP0", 0x053: "KEY_KPDOT",
    0x055: "KEY_ZENKAKUHANKAKU", 0x056: "KEY_102ND", 0x057: "KEY_F11", 0x058: "KEY_F12", 0x059: "KEY_RO",
    0x05a: "KEY_KATAKANA", 0x05b: "KEY_HIRAGANA", 0x05c: "KEY_HENKAN", 0x05d: "KEY_KATAKANAHIRAGANA",
    0x05e: "KEY_MUHENKAN", 0x05f: "KEY_KPJPCOMMA", 0x060: "KEY_KPENTER", 0x061: "KEY_RIGHTCTRL", 0x062: "KEY_KPSLASH",
    0x063: "KEY_SYSRQ", 0x064: "KEY_RIGHTALT", 0x065: "KEY_LINEFEED", 0x066: "KEY_HOME", 0x067: "KEY_UP",
    0x068: "KEY_PAGEUP", 0x069: "KEY_LEFT", 0x06a: "KEY_RIGHT", 0x06b: "KEY_END", 0x06c: "KEY_DOWN",
    0x06d: "KEY_PAGEDOWN", 0x06e: "KEY_INSERT", 0x06f: "KEY_DELETE", 0x070: "KEY_MACRO", 0x071: "KEY_MUTE",
    0x072: "KEY_VOLUMEDOWN", 0x073: "KEY_VOLUMEUP", 0x074: "KEY_POWER", 0x075: "KEY_KPEQUAL", 0x076: "KEY_KPPLUSMINUS",
    0x077: "KEY_PAUSE", 0x078: "KEY_SCALE", 0x079: "KEY_KPCOMMA", 0x07a: "KEY_HANGEUL", 0x07b: "KEY_HANJA",
    0x07c: "KEY_YEN", 0x07d: "KEY_LEFTMETA", 0x07e: "KEY_RIGHTMETA", 0x07f: "KEY_COMPOSE", 0x080: "KEY_STOP",
    0x081: "KEY_AGAIN", 0x082: "KEY_PROPS", 0x083: "KEY_UNDO", 0x084: "KEY_FRONT", 0x085: "KEY_COPY", 0x086: "KEY_OPEN",
    0x087: "KEY_PASTE", 0x088: "KEY_FIND", 0x089: "KEY_CUT", 0x08a: "KEY_HELP", 0x08b: "KEY_MENU", 0x08c: "KEY_CALC",
    0x08d: "KEY_SETUP", 0x08e: "KEY_SLEEP", 0x08f: "KEY_WAKEUP", 0x090: "KEY_FILE", 0x091: "KEY_SENDFILE",
    0x092: "KEY_DELETEFILE", 0x093: "KEY_XFER", 0x094: "KEY_PROG1", 0x095: "KEY_PROG2", 0x096: "KEY_WWW",
    0x097: "KEY_MSDOS", 0x098: "KEY_COFFEE", 0x099: "KEY_ROTATE_DISPLAY", 0x09a: "KEY_CYCLEWINDOWS", 0x09b: "KEY_MAIL",
    0x09c: "KEY_BOOKMARKS", 0x09d: "KEY_COMPUTER", 0x09e: "KEY_BACK", 0x09f: "KEY_FORWARD", 0x0a0: "KEY_CLOSECD",
    0x0a1: "KEY_EJECTCD", 0x0a2: "KEY_EJECTCLOSECD", 0x0a3: "KEY_NEXTSONG", 0x0a4: "KEY_PLAYPAUSE",
    0x0a5: "KEY_PREVIOUSSONG", 0x0a6: "KEY_STOPCD", 0x0a7: "KEY_RECORD", 0x0a8: "KEY_REWIND", 0x0a9: "KEY_PHONE",
    0x0aa: "KEY_ISO", 0x0ab: "KEY_CONFIG", 0x0ac: "KEY_HOMEPAGE", 0x0ad: "KEY_REFRESH", 0x0ae: "KEY_EXIT",
    0x0af: "KEY_MOVE", 0x0b0: "KEY_EDIT", 0x0b1: "KEY_SCROLLUP", 0x0b2: "KEY_SCROLLDOWN", 0x0b3: "KEY_KPLEFTPAREN",
    0x0b4: "KEY_KPRIGHTPAREN", 0x0b5: "KEY_NEW", 0x0b6: "KEY_REDO", 0x0b7: "KEY_F13", 0x0b8: "KEY_F14",
    0x0b9: "KEY_F15", 0x0ba: "KEY_F16", 0x0bb: "KEY_F17", 0x0bc: "KEY_F18", 0x0bd: "KEY_F19", 0x0be: "KEY_F20",
    0x0bf: "KEY_F21", 0x0c0: "KEY_F22", 0x0c1: "KEY_F23", 0x0c2: "KEY_F24", 0x0c8: "KEY_PLAYCD", 0x0c9: "KEY_PAUSECD",
    0x0ca: "KEY_PROG3", 0x0cb: "KEY_PROG4", 0x0cc: "KEY_ALL_APPLICATIONS", 0x0cd: "KEY_SUSPEND", 0x0ce: "KEY_CLOSE",
    0x0cf: "KEY_PLAY", 0x0d0: "KEY_FASTFORWARD", 0x0d1: "KEY_BASSBOOST", 0x0d2: "KEY_PRINT", 0x0d3: "KEY_HP",
    0x0d4: "KEY_CAMERA", 0x0d5: "KEY_SOUND", 0x0d6: "KEY_QUESTION", 0x0d7: "KEY_EMAIL", 0x0d8: "KEY_CHAT",
    0x0d9: "KEY_SEARCH", 0x0da: "KEY_CONNECT", 0x0db: "KEY_FINANCE", 0x0dc: "KEY_SPORT", 0x0dd: "KEY_SHOP",
    0x0de: "KEY_ALTERASE", 0x0df: "KEY_CANCEL", 0x0e0: "KEY_BRIGHTNESSDOWN", 0x0e1: "KEY_BRIGHTNESSUP",
    0x0e2: "KEY_MEDIA", 0x0e3: "KEY_SWITCHVIDEOMODE", 0x0e4: "KEY_KBDILLUMTOGGLE", 0x0e5: "KEY_KBDILLUMDOWN",
    0x0e6: "KEY_KBDILLUMUP", 0x0e7: "KEY_SEND", 0x0e8: "KEY_REPLY", 0x0e9: "KEY_FORWARDMAIL", 0x0ea: "KEY_SAVE",
    0x0eb: "KEY_DOCUMENTS", 0x0ec: "KEY_BATTERY", 0x0ed: "KEY_BLUETOOTH", 0x0ee: "KEY_WLAN", 0x0ef: "KEY_UWB",
    0x0f0: "KEY_UNKNOWN", 0x0f1: "KEY_VIDEO_NEXT", 0x0f2: "KEY_VIDEO_PREV", 0x0f3: "KEY_BRIGHTNESS_CYCLE",
    0x0f4: "KEY_BRIGHTNESS_AUTO", 0x0f5: "KEY_DISPLAY_OFF", 0x0f6: "KEY_WWAN", 0x0f7: "KEY_RFKILL",
    0x0f8: "KEY_MICMUTE", 0x100: "BTN_0", 0x101: "BTN_1", 0x102: "BTN_2", 0x103: "BTN_3", 0x104: "BTN_4",
    0x105: "BTN_5", 0x106: "BTN_6", 0x107: "BTN_7", 0x108: "BTN_8", 0x109: "BTN_9", 0x110: "BTN_LEFT",
    0x111: "BTN_RIGHT", 0x112: "BTN_MIDDLE", 0x113: "BTN_SIDE", 0x114: "BTN_EXTRA", 0x115: "BTN_FORWARD",
    0x116: "BTN_BACK", 0x117: "BTN_TASK", 0x120: "BTN_TRIGGER", 0x121: "BTN_THUMB", 0x122: "BTN_THUMB2",
    0x123: "BTN_TOP", 0x124: "BTN_TOP2", 0x125: "BTN_PINKIE", 0x126: "BTN_BASE", 0x127: "BTN_BASE2", 0x128: "BTN_BASE3",
    0x129: "BTN_BASE4", 0x12a: "BTN_BASE5", 0x12b: "BTN_BASE6", 0x12f: "BTN_DEAD", 0x130: "BTN_SOUTH",
    0x131: "BTN_EAST", 0x132: "BTN_C", 0x133: "BTN_NORTH", 0x134: "BTN_WEST", 0x135: "BTN_Z", 0x136: "BTN_TL",
    0x137: "BTN_TR", 0x138: "BTN_TL2", 0x139: "BTN_TR2", 0x13a: "BTN_SELECT", 0x13b: "BTN_START", 0x13c: "BTN_MODE",
    0x13d: "BTN_THUMBL", 0x13e: "BTN_THUMBR", 0x140: "BTN_TOOL_PEN", 0x141: "BTN_TOOL_RUBBER", 0x142: "BTN_TOOL_BRUSH",
    0x143: "BTN_TOOL_PENCIL", 0x144: "BTN_TOOL_AIRBRUSH", 0x145: "BTN_TOOL_FINGER", 0x146: "BTN_TOOL_MOUSE",
    0x147: "BTN_TOOL_LENS", 0x148: "BTN_TOOL_QUINTTAP", 0x149: "BTN_STYLUS3", 0x14a: "BTN_TOUCH", 0x14b: "BTN_STYLUS",
    0x14c: "BTN_STYLUS2", 0x14d: "BTN_TOOL_DOUBLETAP", 0x14e: "BTN_TOOL_TRIPLETAP", 0x14f: "BTN_TOOL_QUADTAP",
    0x150: "BTN_GEAR_DOWN", 0x151: "BTN_GEAR_UP", 0x160: "KEY_OK", 0x161: "KEY_SELECT", 0x162: "KEY_GOTO",
    0x163: "KEY_CLEAR", 0x164: "KEY_POWER2", 0x165: "KEY_OPTION", 0x166: "KEY_INFO", 0x167: "KEY_TIME",
    0x168: "KEY_VENDOR", 0x169: "KEY_ARCHIVE", 0x16a: "KEY_PROGRAM", 0x16b: "KEY_CHANNEL", 0x16c: "KEY_FAVORITES",
    0x16d: "KEY_EPG", 0x16e: "KEY_PVR", 0x16f: "KEY_MHP", 0x170: "KEY_LANGUAGE", 0x171: "KEY_TITLE",
    0x172: "KEY_SUBTITLE", 0x173: "KEY_ANGLE", 0x174: "KEY_FULL_SCREEN", 0x175: "KEY_MODE", 0x176: "KEY_KEYBOARD",
    0x177: "KEY_ASPECT_RATIO", 0x178: "KEY_PC", 0x179: "KEY_TV", 0x17a: "KEY_TV2", 0x17b: "KEY_VCR", 0x17c: "KEY_VCR2",
    0x17d: "KEY_SAT", 0x17e: "KEY_SAT2", 0x17f: "KEY_CD", 0x180: "KEY_TAPE", 0x181: "KEY_RADIO", 0x182: "KEY_TUNER",
    0x183: "KEY_PLAYER", 0x184: "KEY_TEXT", 0x185: "KEY_DVD", 0x186: "KEY_AUX", 0x187: "KEY_MP3", 0x188: "KEY_AUDIO",
    0x189: "KEY_VIDEO", 0x18a: "KEY_DIRECTORY", 0x18b: "KEY_LIST", 0x18c: "KEY_MEMO", 0x18d: "KEY_CALENDAR",
    0x18e: "KEY_RED", 0x18f: "KEY_GREEN", 0x190: "KEY_YELLOW", 0x191: "KEY_BLUE", 0x192: "KEY_CHANNELUP",
    0x193: "KEY_CHANNELDOWN", 0x194: "KEY_FIRST", 0x195: "KEY_LAST", 0x196: "KEY_AB", 0x197: "KEY_NEXT",
    0x198: "KEY_RESTART", 0x199: "KEY_SLOW", 0x19a: "KEY_SHUFFLE", 0x19b: "KEY_BREAK", 0x19c: "KEY_PREVIOUS",
    0x19d: "KEY_DIGITS", 0x19e: "KEY_TEEN", 0x19f: "KEY_TWEN", 0x1a0: "KEY_VIDEOPHONE", 0x1a1: "KEY_GAMES",
    0x1a2: "KEY_ZOOMIN", 0x1a3: "KEY_ZOOMOUT", 0x1a4: "KEY_ZOOMRESET", 0x1a5: "KEY_WORDPROCESSOR", 0x1a6: "KEY_EDITOR",
    0x1a7: "KEY_SPREADSHEET", 0x1a8: "KEY_GRAPHICSEDITOR", 0x1a9: "KEY_PRESENTATION", 0x1aa: "KEY_DATABASE",
    0x1ab: "KEY_NEWS", 0x1ac: "KEY_VOICEMAIL", 0x1ad: "KEY_ADDRESSBOOK", 0x1ae: "KEY_MESSENGER",
    0x1af: "KEY_DISPLAYTOGGLE", 0x1b0: "KEY_SPELLCHECK", 0x1b1: "KEY_LOGOFF", 0x1b2: "KEY_DOLLAR", 0x1b3: "KEY_EURO",
    0x1b4: "KEY_FRAMEBACK", 0x1b5: "KEY_FRAMEFORWARD", 0x1b6: "KEY_CONTEXT_MENU", 0x1b7: "KEY_MEDIA_REPEAT",
    0x1b8: "KEY_10CHANNELSUP", 0x1b9: "KEY_10CHANNELSDOWN", 0x1ba: "KEY_IMAGES", 0x1bc: "KEY_NOTIFICATION_CENTER",
    0x1bd: "KEY_PICKUP_PHONE", 0x1be: "KEY_HANGUP_PHONE", 0x1bf: "KEY_LINK_PHONE", 0x1c0: "KEY_DEL_EOL",
    0x1c1: "KEY_DEL_EOS", 0x1c2: "KEY_INS_LINE", 0x1c3: "KEY_DEL_LINE", 0x1d0: "KEY_FN", 0x1d1: "KEY_FN_ESC",
    0x1d2: "KEY_FN_F1", 0x1d3: "KEY_FN_F2", 0x1d4: "KEY_FN_F3", 0x1d5: "KEY_FN_F4", 0x1d6: "KEY_FN_F5",
    0x1d7: "KEY_FN_F6", 0x1d8: "KEY_FN_F7", 0x1d9: "KEY_FN_F8", 0x1da: "KEY_FN_F9", 0x1db: "KEY_FN_F10",
    0x1dc: "KEY_FN_F11", 0x1dd: "KEY_FN_F12", 0x1de: "KEY_FN_1", 0x1df: "KEY_FN_2", 0x1e0: "KEY_FN_D",
    0x1e1: "KEY_FN_E", 0x1e2: "KEY_FN_F", 0x1e3: "KEY_FN_S", 0x1e4: "KEY_FN_B", 0x1e5: "KEY_FN_RIGHT_SHIFT",
    0x1f1: "KEY_BRL_DOT1", 0x1f2: "KEY_BRL_DOT2", 0x1f3: "KEY_BRL_DOT3", 0x1f4: "KEY_BRL_DOT4", 0x1f5: "KEY_BRL_DOT5",
    0x1f6: "KEY_BRL_DOT6", 0x1f7: "KEY_BRL_DOT7", 0x1f8: "KEY_BRL_DOT8", 0x1f9: "KEY_BRL_DOT9", 0x1fa: "KEY_BRL_DOT10",
    0x200: "KEY_NUMERIC_0", 0x201: "KEY_NUMERIC_1", 0x202: "KEY_NUMERIC_2", 0x203: "KEY_NUMERIC_3",
    0x204: "KEY_NUMERIC_4", 0x205: "KEY_NUMERIC_5", 0x206: "KEY_NUMERIC_6", 0x207: "KEY_NUMERIC_7",
    0x208: "KEY_NUMERIC_8", 0x209: "KEY_NUMERIC_9", 0x20a: "KEY_NUMERIC_STAR", 0x20b: "KEY_NUMERIC_POUND",
    0x20c: "KEY_NUMERIC_A", 0x20d: "KEY_NUMERIC_B", 0x20e: "KEY_NUMERIC_C", 0x20f: "KEY_NUMERIC_D",
    0x210: "KEY_CAMERA_FOCUS", 0x211: "KEY_WPS_BUTTON", 0x212: "KEY_TOUCHPAD_TOGGLE", 0x213: "KEY_TOUCHPAD_ON",
    0x214: "KEY_TOUCHPAD_OFF", 0x215: "KEY_CAMERA_ZOOMIN", 0x216: "KEY_CAMERA_ZOOMOUT", 0x217: "KEY_CAMERA_UP",
    0x218: "KEY_CAMERA_DOWN", 0x219: "KEY_CAMERA_LEFT", 0x21a: "KEY_CAMERA_RIGHT", 0x21b: "KEY_ATTENDANT_ON",
    0x21c: "KEY_ATTENDANT_OFF", 0x21d: "KEY_ATTENDANT_TOGGLE", 0x21e: "KEY_LIGHTS_TOGGLE", 0x220: "BTN_DPAD_UP",
    0x221: "BTN_DPAD_DOWN", 0x222: "BTN_DPAD_LEFT", 0x223: "BTN_DPAD_RIGHT", 0x224: "BTN_GRIPL", 0x225: "BTN_GRIPR",
    0x226: "BTN_GRIPL2", 0x227: "BTN_GRIPR2", 0x230: "KEY_ALS_TOGGLE", 0x231: "KEY_ROTATE_LOCK_TOGGLE",
    0x232: "KEY_REFRESH_RATE_TOGGLE", 0x240: "KEY_BUTTONCONFIG", 0x241: "KEY_TASKMANAGER", 0x242: "KEY_JOURNAL",
    0x243: "KEY_CONTROLPANEL", 0x244: "KEY_APPSELECT", 0x245: "KEY_SCREENSAVER", 0x246: "KEY_VOICECOMMAND",
    0x247: "KEY_ASSISTANT", 0x248: "KEY_KBD_LAYOUT_NEXT", 0x249: "KEY_EMOJI_PICKER", 0x24a: "KEY_DICTATE",
    0x24b: "KEY_CAMERA_ACCESS_ENABLE", 0x24c: "KEY_CAMERA_ACCESS_DISABLE", 0x24d: "KEY_CAMERA_ACCESS_TOGGLE",
    0x24e: "KEY_ACCESSIBILITY", 0x24f: "KEY_DO_NOT_DISTURB", 0x250: "KEY_BRIGHTNESS_MIN", 0x251: "KEY_BRIGHTNESS_MAX",
    0x260: "KEY_KBDINPUTASSIST_PREV", 0x261: "KEY_KBDINPUTASSIST_NEXT", 0x262: "KEY_KBDINPUTASSIST_PREVGROUP",
    0x263: "KEY_KBDINPUTASSIST_NEXTGROUP", 0x264: "KEY_KBDINPUTASSIST_ACCEPT", 0x265: "KEY_KBDINPUTASSIST_CANCEL",
    0x266: "KEY_RIGHT_UP", 0x267: "KEY_RIGHT_DOWN", 0x268: "KEY_LEFT_UP", 0x269: "KEY_LEFT_DOWN",
    0x26a: "KEY_ROOT_MENU", 0x26b: "KEY_MEDIA_TOP_MENU", 0x26c: "KEY_NUMERIC_11", 0x26d: "KEY_NUMERIC_12",
    0x26e: "KEY_AUDIO_DESC", 0x26f: "KEY_3D_MODE", 0x270: "KEY_NEXT_FAVORITE", 0x271: "KEY_STOP_RECORD",
    0x272: "KEY_PAUSE_RECORD", 0x273: "KEY_VOD", 0x274: "KEY_UNMUTE", 0x275: "KEY_FASTREVERSE",
    0x276: "KEY_SLOWREVERSE", 0x277: "KEY_DATA", 0x278: "KEY_ONSCREEN_KEYBOARD", 0x279: "KEY_PRIVACY_SCREEN_TOGGLE",
    0x27a: "KEY_SELECTIVE_SCREENSHOT", 0x27b: "KEY_NEXT_ELEMENT", 0x27c: "KEY_PREVIOUS_ELEMENT",
    0x27d: "KEY_AUTOPILOT_ENGAGE_TOGGLE", 0x27e: "KEY_MARK_WAYPOINT", 0x27f: "KEY_SOS", 0x280: "KEY_NAV_CHART",
    0x281: "KEY_FISHING_CHART", 0x282: "KEY_SINGLE_RANGE_RADAR", 0x283: "KEY_DUAL_RANGE_RADAR",
    0x284: "KEY_RADAR_OVERLAY", 0x285: "KEY_TRADITIONAL_SONAR", 0x286: "KEY_CLEARVU_SONAR", 0x287: "KEY_SIDEVU_SONAR",
    0x288: "KEY_NAV_INFO", 0x289: "KEY_BRIGHTNESS_MENU", 0x290: "KEY_MACRO1", 0x291: "KEY_MACRO2", 0x292: "KEY_MACRO3",
    0x293: "KEY_MACRO4", 0x294: "KEY_MACRO5", 0x295: "KEY_MACRO6", 0x296: "KEY_MACRO7", 0x297: "KEY_MACRO8",
    0x298: "KEY_MACRO9", 0x299: "KEY_MACRO10", 0x29a: "KEY_MACRO11", 0x29b: "KEY_MACRO12", 0x29c: "KEY_MACRO13",
    0x29d: "KEY_MACRO14", 0x29e: "KEY_MACRO15", 0x29f: "KEY_MACRO16", 0x2a0: "KEY_MACRO17", 0x2a1: "KEY_MACRO18",
    0x2a2: "KEY_MACRO19", 0x2a3: "KEY_MACRO20", 0x2a4: "KEY_MACRO21", 0x2a5: "KEY_MACRO22", 0x2a6: "KEY_MACRO23",
    0x2a7: "KEY_MACRO24", 0x2a8: "KEY_MACRO25", 0x2a9: "KEY_MACRO26", 0x2aa: "KEY_MACRO27", 0x2ab: "KEY_MACRO28",
    0x2ac: "KEY_MACRO29", 0x2ad: "KEY_MACRO30", 0x2b0: "KEY_MACRO_RECORD_START", 0x2b1: "KEY_MACRO_RECORD_STOP",
    0x2b2: "KEY_MACRO_PRESET_CYCLE", 0x2b3: "KEY_MACRO_PRESET1", 0x2b4: "KEY_MACRO_PRESET2", 0x2b5: "KEY_MACRO_PRESET3",
    0x2b8: "KEY_KBD_LCD_MENU1", 0x2b9: "KEY_KBD_LCD_MENU2", 0x2ba: "KEY_KBD_LCD_MENU3", 0x2bb: "KEY_KBD_LCD_MENU4",
    0x2bc: "KEY_KBD_LCD_MENU5", 0x2bd: "KEY_PERFORMANCE", 0x2c0: "BTN_TRIGGER_HAPPY1", 0x2c1: "BTN_TRIGGER_HAPPY2",
    0x2c2: "BTN_TRIGGER_HAPPY3", 0x2c3: "BTN_TRIGGER_HAPPY4", 0x2c4: "BTN_TRIGGER_HAPPY5", 0x2c5: "BTN_TRIGGER_HAPPY6",
    0x2c6: "BTN_TRIGGER_HAPPY7", 0x2c7: "BTN_TRIGGER_HAPPY8", 0x2c8: "BTN_TRIGGER_HAPPY9", 0x2c9: "BTN_TRIGGER_HAPPY10",
    0x2ca: "BTN_TRIGGER_HAPPY11", 0x2cb: "BTN_TRIGGER_HAPPY12", 0x2cc: "BTN_TRIGGER_HAPPY13",
    0x2cd: "BTN_TRIGGER_HAPPY14", 0x2ce: "BTN_TRIGGER_HAPPY15", 0x2cf: "BTN_TRIGGER_HAPPY16",
    0x2d0: "BTN_TRIGGER_HAPPY17", 0x2d1: "BTN_TRIGGER_HAPPY18", 0x2d2: "BTN_TRIGGER_HAPPY19",
    0x2d3: "BTN_TRIGGER_HAPPY20", 0x2d4: "BTN_TRIGGER_HAPPY21", 0x2d5: "BTN_TRIGGER_HAPPY22",
    0x2d6: "BTN_TRIGGER_HAPPY23", 0x2d7: "BTN_TRIGGER_HAPPY24", 0x2d8: "BTN_TRIGGER_HAPPY25",
    0x2d9: "BTN_TRIGGER_HAPPY26", 0x2da: "BTN_TRIGGER_HAPPY27", 0x2db: "BTN_TRIGGER_HAPPY28",
    0x2dc: "BTN_TRIGGER_HAPPY29", 0x2dd: "BTN_TRIGGER_HAPPY30", 0x2de: "BTN_TRIGGER_HAPPY31",
    0x2df: "BTN_TRIGGER_HAPPY32", 0x2e0: "BTN_TRIGGER_HAPPY33", 0x2e1: "BTN_TRIGGER_HAPPY34",
    0x2e2: "BTN_TRIGGER_HAPPY35", 0x2e3: "BTN_TRIGGER_HAPPY36", 0x2e4: "BTN_TRIGGER_HAPPY37",
    0x2e5: "BTN_TRIGGER_HAPPY38", 0x2e6: "BTN_TRIGGER_HAPPY39", 0x2e7: "BTN_TRIGGER_HAPPY40", 0x2ff: "KEY_MAX",
  ]

  /// The header's other names for codes named above (`#define KEY_ZOOM KEY_FULL_SCREEN`).
  private static let keyAliases: [String: UInt16] = [
    "KEY_HANGUEL": 0x07a, "KEY_SCREENLOCK": 0x098, "KEY_DIRECTION": 0x099, "KEY_DASHBOARD": 0x0cc,
    "KEY_BRIGHTNESS_ZERO": 0x0f4, "KEY_WIMAX": 0x0f6, "BTN_A": 0x130, "BTN_B": 0x131, "BTN_X": 0x133, "BTN_Y": 0x134,
    "KEY_ZOOM": 0x174, "KEY_SCREEN": 0x177, "KEY_BRIGHTNESS_TOGGLE": 0x1af,
  ]

  private static let swNames: [UInt16: String] = [
    SW.lid: "SW_LID", SW.tabletMode: "SW_TABLET_MODE", SW.headphoneInsert: "SW_HEADPHONE_INSERT",
    SW.microphoneInsert: "SW_MICROPHONE_INSERT", SW.lineoutInsert: "SW_LINEOUT_INSERT",
    SW.jackPhysicalInsert: "SW_JACK_PHYSICAL_INSERT",
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
