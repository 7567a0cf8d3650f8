import Testing

@testable import TouchdInput

/// touchd's copy of udev's `input_id` rule (`DeviceDescription.udevInputClasses`), step by step, in
/// the order udev applies it.
@Suite struct UdevRuleTests {
  let xy: [UInt16: Int32] = [ABS.x: 4095, ABS.y: 4095]
  let mt: [UInt16: Int32] = [ABS.x: 4095, ABS.y: 4095, ABS.mtSlot: 9, ABS.mtPositionX: 4095, ABS.mtPositionY: 4095]

  func classes(_ abs: [UInt16: Int32], _ keys: [UInt16], _ properties: Set<UInt16> = []) -> InputClasses {
    makeDevice(abs: abs, keys: keys, properties: properties).udevInputClasses.classes
  }

  @Test func penComesFirst() {
    // A pen tool wins over BTN_TOUCH, INPUT_PROP_DIRECT and a finger tool.
    #expect(classes(xy, [BTN.toolPen, BTN.touch], [InputProp.direct]) == [.tablet])
    #expect(classes(mt, [BTN.stylus, BTN.toolFinger, BTN.touch]) == [.tablet])
  }

  @Test func fingerToolWithoutDirectIsATouchpad() {
    #expect(classes(mt, [BTN.toolFinger, BTN.touch, BTN.left]) == [.touchpad])
    // With INPUT_PROP_DIRECT the finger tool is a touchscreen's (Wacom's finger nodes).
    #expect(classes(mt, [BTN.toolFinger, BTN.touch], [InputProp.direct]) == [.touchscreen])
  }

  @Test func mouseButtonWithAbsoluteAxesIsAMouseButNotOnMultitouchAxes() {
    // VMware's absolute mouse: ABS_X/ABS_Y and BTN_LEFT, BTN_TOUCH notwithstanding.
    #expect(classes(xy, [BTN.left, BTN.touch]) == [.mouse])
    #expect(classes(xy, [BTN.extra]) == [.mouse])
    // Multitouch axes skip the mouse step: such a panel is a mouse *and* a touchscreen.
    #expect(classes(mt, [BTN.left, BTN.touch]) == [.mouse, .touchscreen])
  }

  @Test func touchOrDirectMakesATouchscreen() {
    #expect(classes(xy, [BTN.touch]) == [.touchscreen])
    #expect(classes(xy, [], [InputProp.direct]) == [.touchscreen])
    #expect(classes(xy, []) == [])
    // MT-only (the Nexus 4): no ABS_X, no BTN_TOUCH, INPUT_PROP_DIRECT.
    #expect(classes([ABS.mtPositionX: 100, ABS.mtPositionY: 100], [], [InputProp.direct]) == [.touchscreen])
  }

  @Test func accelerometersAndJoysticks() {
    // ABS_X/Y/Z and no EV_KEY at all: an accelerometer, nothing else.
    #expect(classes([ABS.x: 10, ABS.y: 10, ABS.z: 10], []) == [.accelerometer])
    #expect(classes(xy, [BTN.touch], [InputProp.accelerometer]) == [.accelerometer])
    // Joystick axes with absolute coordinates and no touch.
    #expect(classes([ABS.x: 10, ABS.y: 10, ABS.rx: 10], [BTN.joystick]) == [.joystick])
    // ... but BTN_TOUCH comes before the joystick step.
    #expect(classes([ABS.x: 10, ABS.y: 10, ABS.rx: 10], [BTN.touch]) == [.touchscreen])
  }

  @Test func deviceClaimingEveryAxisHasItsMultitouchAxesIgnored() {
    // A broken descriptor that sets every ABS bit up to ABS_MT_SLOT: udev ignores its MT axes, so
    // the mouse button decides (with real MT axes it would be a touchscreen too).
    var every: [UInt16: Int32] = [:]
    for code in ABS.x...ABS.mtPositionY { every[code] = 10 }
    #expect(classes(every, [BTN.left, BTN.touch]) == [.mouse])
    every[ABS.reserved] = nil
    #expect(classes(every, [BTN.left, BTN.touch]) == [.mouse, .touchscreen])
  }

  @Test func relativeMiceAndPointingSticks() {
    var mouse = makeDevice(abs: [:], keys: [BTN.left, BTN.right], properties: [])
    mouse.events[EV.rel] = [REL.x, REL.y]
    mouse.events[EV.abs] = nil
    #expect(mouse.udevInputClasses.classes == [.mouse])
    mouse.properties = [InputProp.pointingStick]
    #expect(mouse.udevInputClasses.classes == [.mouse, .pointingStick])
  }

  @Test func udevAnswerDecidesWhenThereIsOne() {
    // The rule says tablet: with INPUT_PROP_DIRECT a pen display, read as a pen (issue #41); a
    // local rule (or hwdb) that makes it a touchscreen wins over the rule.
    let pen = makeDevice(abs: mt, keys: [BTN.toolPen, BTN.touch])
    #expect(pen.touchscreenKind() == .pen)
    #expect(pen.touchscreenKind(udev: [.tablet]) == .pen)
    #expect(pen.touchscreenKind(udev: [.touchscreen]) == .multitouchB(slots: 10))
    // Without INPUT_PROP_DIRECT, a desk tablet: not taken.
    let desk = makeDevice(abs: mt, keys: [BTN.toolPen, BTN.touch], properties: [])
    #expect(!desk.touchscreenKind().isTouchscreen)
    // The rule says touchscreen; udev says otherwise (ID_INPUT_TOUCHSCREEN=0 from a rule).
    let panel = makeDevice(abs: mt, keys: [BTN.touch])
    #expect(panel.touchscreenKind() == .multitouchB(slots: 10))
    #expect(
      panel.touchscreenKind(udev: [.mouse])
        == .notTouchscreen(
          reason: "udev does not classify it as a touchscreen (ID_INPUT_TOUCHSCREEN is not 1; udev: mouse)"))
    // udev calls it a touchscreen but it has no axes touchd can read.
    let keys = makeDevice(abs: [:], keys: [BTN.touch])
    #expect(
      keys.touchscreenKind(udev: [.touchscreen])
        == .notTouchscreen(
          reason: "udev classifies it as a touchscreen, but it has no ABS_X/ABS_Y nor ABS_MT_POSITION_X/Y"))
  }

  @Test func classesFromUdevProperties() {
    let properties = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1", "ID_INPUT_MOUSE": "1", "ID_INPUT_TABLET": "0"]
    let classes = InputClasses(udevProperty: { properties[$0] })
    #expect(classes == [.touchscreen, .mouse])
    #expect("\(classes)" == "touchscreen+mouse")
    #expect("\(InputClasses())" == "none")
  }

  @Test func recordingOfATouchpadIsRefusedWithTheReason() {
    let pad = makeDevice(abs: mt, keys: [BTN.toolFinger, BTN.touch], properties: [])
    let recording = Recording(description: pad, events: [], source: "pad.evemu")
    #expect(
      recording.notTouchscreenMessage
        == "pad.evemu: the recorded device \"test\" is not a touchscreen: by udev's input_id rule, a touchpad: "
        + "ABS_MT_POSITION_X/Y with BTN_TOOL_FINGER and no INPUT_PROP_DIRECT; touchd would not take it live either")
    let panel = Recording(description: makeDevice(abs: mt, keys: [BTN.touch]), events: [], source: "p.evemu")
    #expect(panel.notTouchscreenMessage == nil)
  }
}

@Suite struct InputIDTests {
  @Test func vendorProductIsFourLowercaseHexDigitsEach() {
    #expect(InputID(bustype: 3, vendor: 0x4f3, product: 0x2B7C, version: 1).vendorProduct == "04f3:2b7c")
    #expect(InputID(bustype: 0, vendor: 0, product: 0xffff, version: 0).vendorProduct == "0000:ffff")
    #expect(InputID.hex4(0x18) == "0018")
  }
}
