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

  // The WeTab's eGalax and other usbtouchscreen/serial panels: BTN_TOUCH without INPUT_PROP_DIRECT.
  // udev's input_id calls them touchscreens, so does touchd; without BTN_TOUCH nothing says when
  // the finger is down, and without either the device is an absolute pointer.
  @Test func singleTouchPanelsWithoutDirectAreTouchscreens() {
    let dev = LinuxInput.Evdev()
    dev.setName("Resistive panel")
    dev.enable(type: EV.abs, code: ABS.x, abs: Fixtures.x)
    dev.enable(type: EV.abs, code: ABS.y, abs: Fixtures.y)
    #expect(
      dev.describe().touchscreenKind()
        == .notTouchscreen(
          reason: "by udev's input_id rule, ABS_X/ABS_Y without BTN_TOUCH or INPUT_PROP_DIRECT "
            + "(an absolute pointer, not a touch device)"))
    dev.enable(type: EV.key, code: BTN.touch)
    #expect(dev.describe().touchscreenKind() == .singleTouch)
    #expect(!dev.describe().has(property: InputProp.direct))
  }

  @Test func directWithoutButtonTouchIsATouchscreenTouchdCannotRead() {
    let dev = LinuxInput.Evdev()
    dev.setName("Direct, no BTN_TOUCH")
    dev.enable(property: InputProp.direct)
    dev.enable(type: EV.abs, code: ABS.x, abs: Fixtures.x)
    dev.enable(type: EV.abs, code: ABS.y, abs: Fixtures.y)
    #expect(dev.describe().udevInputClasses.classes == [.touchscreen])
    #expect(
      dev.describe().touchscreenKind()
        == .notTouchscreen(
          reason: "by udev's input_id rule it is a touchscreen, but it reports ABS_X/ABS_Y without BTN_TOUCH: "
            + "nothing says when a finger is down"))
  }

  @Test func physOfALibevdevDevice() {
    let dev = Fixtures.protocolB()
    #expect(dev.phys() == nil)
    dev.setPhys("touchd/virtual-0")
    #expect(dev.phys() == "touchd/virtual-0")
  }
}
