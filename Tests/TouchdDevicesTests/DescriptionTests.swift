import Testing
import TouchdInput

@testable import TouchdDevices

@Suite struct DescriptionTests {
  @Test func protocolBTouchscreenFromLibevdev() {
    let dev = Fixtures.protocolB(slots: 10)
    let description = dev.describe()
    #expect(description.name == "Test Touchscreen")
    #expect(description.id == InputID(bustype: 0x18, vendor: 0x04f3, product: 0x2b7c, version: 1))
    #expect(description.properties == [InputProp.direct])
    #expect(description.events[EV.key] == [BTN.touch])
    #expect(
      description.events[EV.abs] == [ABS.x, ABS.y, ABS.mtSlot, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID])
    #expect(description.absInfo[ABS.mtPositionX] == AbsInfo(minimum: 0, maximum: 1919, resolution: 10))
    #expect(description.absInfo[ABS.mtSlot]?.maximum == 9)
    #expect(description.absInfo[ABS.mtTrackingID]?.maximum == 65535)
    #expect(description.absInfo.count == 6)
    // evemu's `B: 00` convention: the EV_SYN "codes" are the supported types.
    #expect(description.events[EV.syn] == [EV.syn, EV.key, EV.abs])
    #expect(description.touchscreenKind() == .multitouchB(slots: 10))
    #expect(dev.slotCount() == 10)
  }

  @Test func keyboardIsNotATouchscreen() {
    let dev = Fixtures.keyboard()
    let description = dev.describe()
    #expect(description.name == "AT Translated Set 2 keyboard")
    #expect(description.id.bustype == 0x11)
    #expect(description.properties.isEmpty)
    #expect(description.events[EV.key] == [30, 31])
    #expect(description.absInfo.isEmpty)
    #expect(description.events[EV.abs] == nil)
    #expect(!description.touchscreenKind().isTouchscreen)
    #expect(dev.slotCount() == nil)
  }

  @Test func singleTouchWithoutDirectIsNotATouchscreen() {
    let dev = LinuxInput.Evdev()
    dev.setName("Absolute pointer")
    dev.enable(type: EV.key, code: BTN.touch)
    dev.enable(type: EV.abs, code: ABS.x, abs: Fixtures.x)
    dev.enable(type: EV.abs, code: ABS.y, abs: Fixtures.y)
    #expect(dev.describe().touchscreenKind() == .notTouchscreen(reason: "no INPUT_PROP_DIRECT"))
    dev.enable(property: InputProp.direct)
    #expect(dev.describe().touchscreenKind() == .singleTouch)
  }
}
