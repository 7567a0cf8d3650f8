import Testing
import TouchdInput

@testable import TouchdDevices

/// `DeviceDecision.decide`: what the daemon and `touchctl devices` take, and why.
@Suite struct DecisionTests {
  let panel = Fixtures.protocolB().describe()
  /// The WeTab's eGalax: BTN_TOUCH and axes, no INPUT_PROP_DIRECT.
  let wetab: DeviceDescription = {
    let dev = LinuxInput.Evdev()
    dev.setName("eGalax Inc. USB TouchController")
    dev.enable(type: EV.key, code: BTN.touch)
    dev.enable(type: EV.abs, code: ABS.x, abs: Fixtures.x)
    dev.enable(type: EV.abs, code: ABS.y, abs: Fixtures.y)
    return dev.describe()
  }()

  @Test func udevTouchscreenIsTakenWithoutDirect() {
    let decision = DeviceDecision.decide(description: wetab, udev: UdevProperties(classes: [.touchscreen]))
    #expect(decision.kind == .singleTouch)
    #expect(decision.source == .udev)
    #expect(decision.reason == "udev classifies it as a touchscreen (ID_INPUT_TOUCHSCREEN=1)")
  }

  @Test func withoutAUdevRecordTouchdsRuleDecides() {
    let decision = DeviceDecision.decide(description: wetab, udev: nil)
    #expect(decision.kind == .singleTouch)
    #expect(decision.source == .touchdRule)
    #expect(
      decision.reason == "by udev's input_id rule (udev has no record of it): a touchscreen: ABS_X/ABS_Y with BTN_TOUCH"
    )
  }

  @Test func udevSayingNoKeepsTouchdOffAndSaysWhatWouldChangeIt() {
    let decision = DeviceDecision.decide(description: panel, udev: UdevProperties(classes: [.tablet]))
    #expect(!decision.isTouchscreen)
    #expect(decision.source == .udev)
    #expect(decision.looksLikeTouchDevice)
    #expect(decision.reason.contains("ID_INPUT_TOUCHSCREEN is not 1; udev: tablet"))
    #expect(
      decision.remedy
        == #"a udev rule that sets ENV{ID_INPUT_TOUCHSCREEN}="1" for it (see touchd's docs/operations.md)"#)
  }

  @Test func ignorePropertyWinsOverATouchscreen() {
    let decision = DeviceDecision.decide(
      description: panel, udev: UdevProperties(classes: [.touchscreen], ignore: true))
    #expect(!decision.isTouchscreen)
    #expect(decision.source == .ignoreProperty)
    #expect(decision.reason == "udev sets TOUCHD_IGNORE=1 on it (a rule gives it to another program)")
    #expect(decision.remedy == #"remove the udev rule that sets ENV{TOUCHD_IGNORE}="1" for it"#)
  }

  @Test func touchdsOwnVirtualDevicesAreNeverRead() {
    let decision = DeviceDecision.decide(
      description: panel, udev: UdevProperties(classes: [.touchscreen]), phys: "touchd/virtual-0")
    #expect(decision.source == .ownDevice)
    #expect(!decision.isTouchscreen)
    #expect(!decision.looksLikeTouchDevice)
    // Only the prefix counts.
    #expect(DeviceDecision.decide(description: panel, udev: nil, phys: "usb-0000:00:14.0-1/input0").isTouchscreen)
  }

  @Test func keyboardsAreNotTouchLike() {
    let decision = DeviceDecision.decide(
      description: Fixtures.keyboard().describe(), udev: UdevProperties(classes: [.key, .keyboard]))
    #expect(!decision.isTouchscreen)
    #expect(!decision.looksLikeTouchDevice)
    #expect(decision.remedy == nil)
  }

  @Test func unreadableNodeNamesTheGroup() {
    let decision = DeviceDecision.decide(
      description: nil, udev: UdevProperties(classes: [.touchscreen]),
      openError: .open(path: "/dev/input/event3", .permissionDenied))
    #expect(decision.source == .unreadable)
    #expect(decision.looksLikeTouchDevice)
    #expect(decision.reason.hasPrefix("cannot open /dev/input/event3: Permission denied"))
    #expect(decision.remedy?.contains("`input` group") == true)
  }
}
