import TouchdInput

@testable import TouchdDevices

/// Builders of libevdev devices without a kernel node (`libevdev_new()`), and of their descriptions.
enum Fixtures {
  static let x = AbsInfo(minimum: 0, maximum: 1919, resolution: 10)
  static let y = AbsInfo(minimum: 0, maximum: 1079, resolution: 10)

  /// A protocol B touchscreen with `slots` slots, like the VM recipe's evemu device.
  static func protocolB(slots: Int32 = 10) -> LinuxInput.Evdev {
    let dev = LinuxInput.Evdev()
    dev.setName("Test Touchscreen")
    dev.setID(InputID(bustype: 0x18, vendor: 0x04f3, product: 0x2b7c, version: 1))
    dev.enable(property: InputProp.direct)
    dev.enable(type: EV.key, code: BTN.touch)
    dev.enable(type: EV.abs, code: ABS.x, abs: x)
    dev.enable(type: EV.abs, code: ABS.y, abs: y)
    dev.enable(type: EV.abs, code: ABS.mtSlot, abs: AbsInfo(minimum: 0, maximum: slots - 1))
    dev.enable(type: EV.abs, code: ABS.mtPositionX, abs: x)
    dev.enable(type: EV.abs, code: ABS.mtPositionY, abs: y)
    dev.enable(type: EV.abs, code: ABS.mtTrackingID, abs: AbsInfo(minimum: 0, maximum: 65535))
    return dev
  }

  /// A keyboard: keys only, no axes.
  static func keyboard() -> LinuxInput.Evdev {
    let dev = LinuxInput.Evdev()
    dev.setName("AT Translated Set 2 keyboard")
    dev.setID(InputID(bustype: 0x11, vendor: 1, product: 1, version: 0xab41))
    dev.enable(type: EV.key, code: 30)
    dev.enable(type: EV.key, code: 31)
    return dev
  }

  static func event(_ ms: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: Timestamp(microseconds: ms * 1000), type: type, code: code, value: value)
  }
}
