import Foundation
import Testing
import TouchdInput
import TouchdSystem

@testable import TouchdDevices

/// The virtual touchscreen's creation (docs/forward.md). The host has no /dev/uinput: the VM suite
/// creates real ones (`forward-*` checks); here, the template libevdev builds them from and the
/// errors that name the node.
@Suite("UinputDevice")
struct UinputDeviceTests {
  /// A protocol B panel of 10 slots on 0...4095 x 0...2303 with resolution 12.
  static var physical: DeviceDescription {
    DeviceDescription(
      name: "Panel", id: InputID(bustype: 3, vendor: 0x222a, product: 0x1, version: 1),
      properties: [InputProp.direct],
      events: [
        EV.syn: [SYN.report], EV.key: [BTN.touch],
        EV.abs: [ABS.x, ABS.y, ABS.mtSlot, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID],
      ],
      absInfo: [
        ABS.x: AbsInfo(minimum: 0, maximum: 4095, resolution: 12),
        ABS.y: AbsInfo(minimum: 0, maximum: 2303, resolution: 12),
        ABS.mtSlot: AbsInfo(minimum: 0, maximum: 9),
        ABS.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 12),
        ABS.mtPositionY: AbsInfo(minimum: 0, maximum: 2303, resolution: 12),
        ABS.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
      ])
  }

  @Test("the template libevdev creates the device from carries the virtual description whole")
  func templateCarriesTheDescription() {
    let virtual = VirtualTouchscreen.description(for: Self.physical, name: "Kiosk touchscreen")
    let described = LinuxInput.Evdev(description: virtual).describe()
    #expect(described.name == "Kiosk touchscreen")
    #expect(described.id == InputID(bustype: 0x06, vendor: 0, product: 0, version: 1))
    #expect(described.properties == [InputProp.direct])
    #expect(described.events[EV.key] == [BTN.touch])
    #expect(
      described.events[EV.abs]
        == [ABS.x, ABS.y, ABS.mtSlot, ABS.mtToolType, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID])
    #expect(described.absInfo[ABS.mtPositionY] == AbsInfo(minimum: 0, maximum: 2303, resolution: 12))
    #expect(described.absInfo[ABS.mtSlot] == AbsInfo(minimum: 0, maximum: 9))
    #expect(described.absInfo[ABS.mtToolType] == AbsInfo(minimum: 0, maximum: MTTool.palm))
    #expect(described.touchProtocol == .slots(10))
  }

  @Test("no uinput node: the error names it and says to load the module")
  func missingNode() {
    #expect(throws: DeviceError.uinput(path: "/nonexistent/uinput", .noSuchFile)) {
      try UinputDevice(description: Self.physical, physical: "/dev/input/event5", uinputPath: "/nonexistent/uinput")
    }
    let text = "\(DeviceError.uinput(path: "/dev/uinput", .noSuchFile))"
    #expect(
      text
        == "cannot create a virtual touchscreen through /dev/uinput: \(Errno.noSuchFile) (load the uinput module: modprobe uinput)"
    )
    let denied = "\(DeviceError.uinput(path: "/dev/uinput", .permissionDenied))"
    #expect(
      denied.hasSuffix(
        "(creating virtual devices needs write access to /dev/uinput: see docs/forward.md, \"Permissions\")"))
  }

  @Test("a node that is not uinput refuses UI_SET_PHYS, and the error names it")
  func notUinput() {
    #expect(throws: DeviceError.uinput(path: "/dev/null", Errno(ENOTTY))) {
      try UinputDevice(description: Self.physical, physical: "/dev/input/event5", uinputPath: "/dev/null")
    }
  }
}
