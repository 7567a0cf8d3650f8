/// How a device reports contacts, decided from its capabilities alone.
public enum TouchProtocol: Hashable, Sendable {
  /// Multitouch protocol B: `ABS_MT_SLOT` with `slots` slots and `ABS_MT_TRACKING_ID`.
  case slots(Int)
  /// Multitouch protocol A: anonymous contacts separated by `SYN_MT_REPORT`.
  case contacts
  /// One contact: `ABS_X`/`ABS_Y` and `BTN_TOUCH`.
  case singleTouch
}

/// The pointer classes udev's `input_id` builtin gives an input device, one `ID_INPUT_*=1`
/// property each. A device can have several (an absolute mouse with multitouch axes is a mouse
/// and a touchscreen).
public struct InputClasses: OptionSet, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// `ID_INPUT_TOUCHSCREEN`.
  public static let touchscreen = InputClasses(rawValue: 1 << 0)
  /// `ID_INPUT_TOUCHPAD`.
  public static let touchpad = InputClasses(rawValue: 1 << 1)
  /// `ID_INPUT_TABLET`.
  public static let tablet = InputClasses(rawValue: 1 << 2)
  /// `ID_INPUT_MOUSE`.
  public static let mouse = InputClasses(rawValue: 1 << 3)
  /// `ID_INPUT_JOYSTICK`.
  public static let joystick = InputClasses(rawValue: 1 << 4)
  /// `ID_INPUT_ACCELEROMETER`.
  public static let accelerometer = InputClasses(rawValue: 1 << 5)
  /// `ID_INPUT_POINTINGSTICK`.
  public static let pointingStick = InputClasses(rawValue: 1 << 6)
  /// `ID_INPUT_KEY`: the device has keys (set by udev only; touchd's rule does not compute it).
  public static let key = InputClasses(rawValue: 1 << 7)
  /// `ID_INPUT_KEYBOARD` (set by udev only).
  public static let keyboard = InputClasses(rawValue: 1 << 8)

  /// Each class with its udev property and its short name, in udev's order.
  public static let all: [(InputClasses, property: String, name: String)] = [
    (.touchscreen, "ID_INPUT_TOUCHSCREEN", "touchscreen"), (.touchpad, "ID_INPUT_TOUCHPAD", "touchpad"),
    (.tablet, "ID_INPUT_TABLET", "tablet"), (.mouse, "ID_INPUT_MOUSE", "mouse"),
    (.joystick, "ID_INPUT_JOYSTICK", "joystick"), (.accelerometer, "ID_INPUT_ACCELEROMETER", "accelerometer"),
    (.pointingStick, "ID_INPUT_POINTINGSTICK", "pointing stick"), (.key, "ID_INPUT_KEY", "key"),
    (.keyboard, "ID_INPUT_KEYBOARD", "keyboard"),
  ]

  /// The classes from udev properties: `value(property)` answers a property's value or nil.
  public init(udevProperty value: (String) -> String?) {
    self = []
    for (member, property, _) in Self.all where value(property) == "1" { insert(member) }
  }

  /// The short names joined with "+", e.g. "mouse+touchscreen"; "none" when empty.
  public var description: String {
    let names = Self.all.filter { contains($0.0) }.map(\.name)
    return names.isEmpty ? "none" : names.joined(separator: "+")
  }
}

/// What decided whether a device is a touchscreen.
public enum ClassificationSource: String, Hashable, Sendable {
  /// udev's database: `ID_INPUT_TOUCHSCREEN` (its `input_id` builtin, hwdb entries and local rules).
  case udev
  /// touchd's copy of udev's `input_id` rule, where udev has no answer (replay, no udev database).
  case touchdRule = "touchd-rule"
}

/// What `DeviceDescription.touchscreenKind(udev:)` decided.
public enum TouchscreenKind: Hashable, Sendable {
  /// A touchscreen using multitouch protocol B with this many slots.
  case multitouchB(slots: Int)
  /// A touchscreen using multitouch protocol A.
  case multitouchA
  /// A single-touch touchscreen.
  case singleTouch
  /// A pen on a display (`BTN_TOOL_PEN`, `ABS_X/ABS_Y` and `INPUT_PROP_DIRECT`): its tip makes
  /// touches of type pencil (``PenAssembler``), as a touchscreen's fingers make touches.
  case pen
  /// Not a touchscreen, and why.
  case notTouchscreen(reason: String)

  /// Whether the device is a touchscreen.
  public var isTouchscreen: Bool {
    if case .notTouchscreen = self { return false }
    return true
  }

  /// The contact protocol to assemble frames with, nil when not a touchscreen.
  public var touchProtocol: TouchProtocol? {
    switch self {
    case .multitouchB(let slots): .slots(slots)
    case .multitouchA: .contacts
    case .singleTouch: .singleTouch
    case .pen, .notTouchscreen: nil
    }
  }

  /// Why the device is not a touchscreen, nil when it is one.
  public var reason: String? {
    if case .notTouchscreen(let reason) = self { return reason }
    return nil
  }
}

extension DeviceDescription {
  /// The contact protocol implied by the axes, whatever kind of device it is: protocol B when
  /// `ABS_MT_SLOT` exists, protocol A when `ABS_MT_POSITION_X/Y` exist without slots, single touch
  /// when `ABS_X/ABS_Y` exist; nil without position axes.
  public var touchProtocol: TouchProtocol? {
    let hasMT = has(type: EV.abs, code: ABS.mtPositionX) && has(type: EV.abs, code: ABS.mtPositionY)
    if hasMT {
      if has(type: EV.abs, code: ABS.mtSlot) {
        let info = absInfo[ABS.mtSlot]
        let count = info.map { Int($0.maximum) - Int($0.minimum) + 1 } ?? 1
        return .slots(Swift.max(1, count))
      }
      return .contacts
    }
    if has(type: EV.abs, code: ABS.x) && has(type: EV.abs, code: ABS.y) { return .singleTouch }
    return nil
  }

  /// Whether the device reports absolute positions and a sign of touch (`BTN_TOUCH`,
  /// `INPUT_PROP_DIRECT` or multitouch axes): a device a user may expect touchd to take, so one
  /// that is not taken is reported at `notice` level with the reason.
  public var looksLikeTouchDevice: Bool {
    guard let proto = touchProtocol else { return false }
    return proto != .singleTouch || has(type: EV.key, code: BTN.touch) || has(property: InputProp.direct)
  }

  /// A pen: `BTN_TOOL_PEN` with `ABS_X/ABS_Y` (libinput's tablet tool, src/evdev-tablet.c).
  public var isPen: Bool {
    has(type: EV.key, code: BTN.toolPen) && has(type: EV.abs, code: ABS.x) && has(type: EV.abs, code: ABS.y)
  }

  /// A pen on a display (``isPen`` with `INPUT_PROP_DIRECT`): what touchd reads with a
  /// ``PenAssembler`` and forwards to a ``VirtualPen``; a pen without it is a desk tablet.
  public var isPenDisplay: Bool { isPen && has(property: InputProp.direct) }

  /// The pointer classes udev's `input_id` builtin gives this device, with the rule's reason for
  /// the touchscreen decision.
  ///
  /// A transcription of `test_pointers()` in systemd's `src/udev/udev-builtin-input_id.c` (systemd
  /// 252, Debian 12's udev; the rule has been stable since systemd 244). Its order matters, for
  /// absolute (`ABS_X/ABS_Y`) and, separately, multitouch (`ABS_MT_POSITION_X/Y`) coordinates:
  /// 1. `BTN_STYLUS` or `BTN_TOOL_PEN` → tablet;
  /// 2. `BTN_TOOL_FINGER` (without `BTN_TOOL_PEN`) and no `INPUT_PROP_DIRECT` → touchpad;
  /// 3. absolute coordinates only: a mouse button (`BTN_MOUSE`…`BTN_JOYSTICK - 1`) → mouse
  ///    (VMware's absolute USB mouse);
  /// 4. `BTN_TOUCH` or `INPUT_PROP_DIRECT` → touchscreen;
  /// 5. absolute coordinates only: joystick axes or buttons → joystick.
  /// Before that, `INPUT_PROP_ACCELEROMETER`, or `ABS_X/Y/Z` without any `EV_KEY`, makes an
  /// accelerometer and nothing else; and a device claiming both `ABS_MT_SLOT` and the code below it
  /// ("every axis", a broken descriptor) has its multitouch coordinates ignored. The replay and
  /// the live daemon without a udev database decide with this; the VM suite checks that it agrees
  /// with the real udevd on every bundled recording and description.
  public var udevInputClasses: (classes: InputClasses, touchscreenReason: String) {
    func key(_ code: UInt16) -> Bool { has(type: EV.key, code: code) }
    func abs(_ code: UInt16) -> Bool { has(type: EV.abs, code: code) }
    // udev tests the type bitmap (`capabilities/ev`), evemu's `B: 00` line, which libevdev's
    // description keeps as the EV_SYN codes.
    func type(_ type: UInt16) -> Bool { (events[EV.syn]?.contains(type) ?? false) || has(type: type) }
    let hasKeys = type(EV.key)
    let hasAbsCoordinates = abs(ABS.x) && abs(ABS.y)
    if has(property: InputProp.accelerometer) || (!hasKeys && hasAbsCoordinates && abs(ABS.z)) {
      return ([.accelerometer], "an accelerometer (INPUT_PROP_ACCELEROMETER, or ABS_X/Y/Z without keys)")
    }
    var classes: InputClasses = []
    if has(property: InputProp.pointingStick) { classes.insert(.pointingStick) }
    let stylusOrPen = key(BTN.stylus) || key(BTN.toolPen)
    let fingerButNoPen = key(BTN.toolFinger) && !key(BTN.toolPen)
    let hasMouseButton = (BTN.mouse..<BTN.joystick).contains(where: key)
    let hasRelCoordinates = type(EV.rel) && has(type: EV.rel, code: REL.x) && has(type: EV.rel, code: REL.y)
    let hasMTCoordinates =
      abs(ABS.mtPositionX) && abs(ABS.mtPositionY) && !(abs(ABS.mtSlot) && abs(ABS.mtSlot - 1))
    let isDirect = has(property: InputProp.direct)
    let hasTouch = key(BTN.touch)
    var joystick = false
    if !key(BTN.joystick - 1) {
      joystick =
        (BTN.joystick..<BTN.digi).contains(where: key) || (BTN.triggerHappy1...BTN.triggerHappy40).contains(where: key)
        || (BTN.dpadUp...BTN.dpadRight).contains(where: key)
    }
    joystick = joystick || (ABS.rx..<ABS.pressure).contains(where: abs)

    var reason = "no absolute position axes (ABS_X/ABS_Y or ABS_MT_POSITION_X/Y)"
    // Steps 1, 2 and 4 for one kind of coordinates; step 3 (and 5) only for ABS_X/ABS_Y.
    func pointer(_ coordinates: String, mouseAndJoystick: Bool) {
      if stylusOrPen {
        classes.insert(.tablet)
        reason = "a tablet: \(coordinates) with BTN_STYLUS or BTN_TOOL_PEN"
      } else if fingerButNoPen && !isDirect {
        classes.insert(.touchpad)
        reason = "a touchpad: \(coordinates) with BTN_TOOL_FINGER and no INPUT_PROP_DIRECT"
      } else if mouseAndJoystick && hasMouseButton {
        classes.insert(.mouse)
        reason = "a mouse: \(coordinates) with a mouse button (BTN_LEFT…) and no multitouch axes"
      } else if hasTouch || isDirect {
        classes.insert(.touchscreen)
        reason = "a touchscreen: \(coordinates) with \(hasTouch ? "BTN_TOUCH" : "INPUT_PROP_DIRECT")"
      } else if mouseAndJoystick && joystick {
        classes.insert(.joystick)
        reason = "a joystick: \(coordinates) with joystick axes or buttons"
      } else {
        reason = "\(coordinates) without BTN_TOUCH or INPUT_PROP_DIRECT (an absolute pointer, not a touch device)"
      }
    }
    if hasAbsCoordinates {
      pointer("ABS_X/ABS_Y", mouseAndJoystick: true)
    } else if joystick {
      classes.insert(.joystick)
    }
    if hasMTCoordinates { pointer("ABS_MT_POSITION_X/Y", mouseAndJoystick: false) }
    // Mouse buttons with relative axes, or with no absolute ones, make a mouse too.
    if classes.isDisjoint(with: [.tablet, .touchpad, .joystick]) && hasMouseButton
      && (hasRelCoordinates || !hasAbsCoordinates)
    {
      classes.insert(.mouse)
    }
    return (classes, reason)
  }

  /// Classifies the device.
  ///
  /// `udev` is udev's classes of the device when udev has an answer (a live device in udev's
  /// database): the device is a touchscreen exactly when udev says `ID_INPUT_TOUCHSCREEN=1`,
  /// which includes hwdb entries and local rules, as libinput decides. Without an answer (nil:
  /// replay, a system without udevd) touchd's copy of udev's rule decides
  /// (`udevInputClasses`), so live and replay agree.
  ///
  /// A touchscreen is then read with multitouch protocol B when it has `ABS_MT_SLOT`, protocol A
  /// with multitouch axes but no slots, and as a single-touch panel with `ABS_X/ABS_Y` only; the
  /// single-touch panel needs `BTN_TOUCH` (nothing else says when its finger is down).
  ///
  /// A pen, which udev classifies as a tablet (`ID_INPUT_TABLET`), is taken as ``TouchscreenKind/pen``
  /// when it is on a display (`INPUT_PROP_DIRECT`, libinput's and libwacom's sign of a screen
  /// tablet); a pen tablet without it (a desk tablet moves a pointer, it does not touch the screen)
  /// is left alone, and the reason says so.
  public func touchscreenKind(udev: InputClasses? = nil) -> TouchscreenKind {
    if isPen && (udev.map { $0.contains(.tablet) } ?? udevInputClasses.classes.contains(.tablet)) {
      guard has(property: InputProp.direct) else {
        return .notTouchscreen(
          reason: "a pen tablet without INPUT_PROP_DIRECT (a desk tablet, not on a display): touchd leaves it alone")
      }
      return .pen
    }
    let source: String
    if let udev {
      guard udev.contains(.touchscreen) else {
        return .notTouchscreen(
          reason: "udev does not classify it as a touchscreen (ID_INPUT_TOUCHSCREEN is not 1; udev: \(udev))")
      }
      source = "udev classifies it as a touchscreen"
    } else {
      let rule = udevInputClasses
      guard rule.classes.contains(.touchscreen) else {
        return .notTouchscreen(reason: "by udev's input_id rule, \(rule.touchscreenReason)")
      }
      source = "by udev's input_id rule it is a touchscreen"
    }
    guard let proto = touchProtocol else {
      return .notTouchscreen(reason: "\(source), but it has no ABS_X/ABS_Y nor ABS_MT_POSITION_X/Y")
    }
    switch proto {
    case .slots(let count): return .multitouchB(slots: count)
    case .contacts: return .multitouchA
    case .singleTouch:
      guard has(type: EV.key, code: BTN.touch) else {
        return .notTouchscreen(
          reason: "\(source), but it reports ABS_X/ABS_Y without BTN_TOUCH: nothing says when a finger is down")
      }
      return .singleTouch
    }
  }
}
