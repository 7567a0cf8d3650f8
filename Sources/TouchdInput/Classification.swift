/// How a device reports contacts, decided from its capabilities alone.
public enum TouchProtocol: Hashable, Sendable {
  /// Multitouch protocol B: `ABS_MT_SLOT` with `slots` slots and `ABS_MT_TRACKING_ID`.
  case slots(Int)
  /// Multitouch protocol A: anonymous contacts separated by `SYN_MT_REPORT`.
  case contacts
  /// One contact: `ABS_X`/`ABS_Y` and `BTN_TOUCH`.
  case singleTouch
}

/// What `DeviceDescription.touchscreenKind(lenient:)` decided.
public enum TouchscreenKind: Hashable, Sendable {
  /// A touchscreen using multitouch protocol B with this many slots.
  case multitouchB(slots: Int)
  /// A touchscreen using multitouch protocol A.
  case multitouchA
  /// A single-touch touchscreen.
  case singleTouch
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
    case .notTouchscreen: nil
    }
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

  /// Classifies the device.
  ///
  /// The rule, in order:
  /// 1. No `ABS_MT_POSITION_X/Y` and no `ABS_X/ABS_Y`: not a touchscreen (keyboards, mice, ...).
  /// 2. `INPUT_PROP_POINTER`, `INPUT_PROP_BUTTONPAD`, `INPUT_PROP_SEMI_MT` or
  ///    `INPUT_PROP_TOPBUTTONPAD`: a touchpad.
  /// 3. A pen tool (`BTN_TOOL_PEN`, `BTN_STYLUS`) without multitouch position axes: a tablet's pen.
  /// 4. `INPUT_PROP_DIRECT` is required. In `lenient` mode only (for recordings), a description with
  ///    no properties at all — evemu 1.1 and older wrote all-zero `P:` lines — is accepted unless it
  ///    has `BTN_TOOL_FINGER` (then it is a touchpad: indirect finger tools are touchpads).
  /// 5. With multitouch position axes: protocol B when `ABS_MT_SLOT` exists, protocol A otherwise.
  ///    `ABS_X` and `BTN_TOUCH` are not required (MT-only devices such as the Nexus 4 qualify).
  /// 6. Without them: single touch needs `ABS_X`, `ABS_Y` and `BTN_TOUCH`.
  public func touchscreenKind(lenient: Bool = false) -> TouchscreenKind {
    guard let proto = touchProtocol else {
      return .notTouchscreen(reason: "no absolute position axes (ABS_X/ABS_Y or ABS_MT_POSITION_X/Y)")
    }
    for prop in [InputProp.pointer, InputProp.buttonpad, InputProp.semiMT, InputProp.topButtonpad]
    where has(property: prop) {
      return .notTouchscreen(reason: "touchpad: has \(EventNames.property(prop) ?? "property \(prop)")")
    }
    let isMT = proto != .singleTouch
    if !isMT && (has(type: EV.key, code: BTN.toolPen) || has(type: EV.key, code: BTN.stylus)) {
      return .notTouchscreen(reason: "tablet pen: BTN_TOOL_PEN/BTN_STYLUS without multitouch axes")
    }
    if !has(property: InputProp.direct) {
      let unknownProperties = properties.isEmpty
      if !(lenient && unknownProperties) {
        return .notTouchscreen(reason: "no INPUT_PROP_DIRECT")
      }
      if has(type: EV.key, code: BTN.toolFinger) {
        return .notTouchscreen(reason: "touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT")
      }
    }
    switch proto {
    case .slots(let count): return .multitouchB(slots: count)
    case .contacts: return .multitouchA
    case .singleTouch:
      guard has(type: EV.key, code: BTN.touch) else {
        return .notTouchscreen(reason: "ABS_X/ABS_Y without BTN_TOUCH (an absolute pointer)")
      }
      return .singleTouch
    }
  }
}
