import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The virtual touchscreen a forwarding window writes to (issue #25): its description from the
/// physical panel's, its name, and the encoder's slots and tracking ids.
@Suite("The virtual touchscreen and its encoder")
struct VirtualTouchscreenTests {
  @Test("protocol B: the panel's slots and axes, INPUT_PROP_DIRECT, tool type up to palm, BUS_VIRTUAL")
  func protocolBDescription() {
    let device = VirtualTouchscreen.description(for: SyntheticTouchscreen.description)
    let axis = AbsInfo(minimum: 0, maximum: 4095, resolution: 16)
    #expect(device.name == "touchd synthetic touchscreen (touchd)")
    #expect(device.id == InputID(bustype: 0x06, vendor: 0, product: 0, version: 1))
    #expect(device.properties == [InputProp.direct])
    #expect(device.events[EV.key] == [BTN.touch])
    #expect(
      device.events[EV.abs]
        == [ABS.x, ABS.y, ABS.mtSlot, ABS.mtToolType, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID])
    #expect(
      device.absInfo == [
        ABS.x: axis, ABS.y: axis, ABS.mtPositionX: axis, ABS.mtPositionY: axis,
        ABS.mtSlot: AbsInfo(minimum: 0, maximum: 9), ABS.mtToolType: AbsInfo(minimum: 0, maximum: 2),
        ABS.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
      ])
    #expect(device.touchProtocol == .slots(10))
    #expect(device.udevInputClasses.classes.contains(.touchscreen))
  }

  @Test("the default name is cut by whole characters to fit a uinput name (79 bytes)")
  func defaultName() {
    #expect(VirtualTouchscreen.defaultName(for: "ILITEK ILITEK-TP") == "ILITEK ILITEK-TP (touchd)")
    let long = String(repeating: "é", count: 40)  // 80 bytes
    let name = VirtualTouchscreen.defaultName(for: long)
    #expect(name == String(repeating: "é", count: 35) + " (touchd)")
    #expect(name.utf8.count == 79)
  }

  @Test("protocol A gets ten slots, single touch one, both protocol B with the panel's ranges")
  func otherKinds() {
    let a = VirtualTouchscreen.description(for: SyntheticDeviceKind.protocolA.description, name: "A")
    #expect(a.name == "A")
    #expect(a.touchProtocol == .slots(10))
    var single = SyntheticDeviceKind.singleTouch.description
    single.absInfo[ABS.x] = AbsInfo(minimum: 100, maximum: 3900, fuzz: 4, resolution: 12)
    let s = VirtualTouchscreen.description(for: single)
    #expect(s.touchProtocol == .slots(1))
    #expect(s.absInfo[ABS.mtPositionX] == AbsInfo(minimum: 100, maximum: 3900, resolution: 12))
    #expect(s.absInfo[ABS.x] == AbsInfo(minimum: 100, maximum: 3900, resolution: 12))
  }

  @Test("slots are reused lowest free first, tracking ids keep growing, a touch with no free slot is not forwarded")
  func slotsAndIDs() {
    var one = SyntheticTouchscreen.description
    one.absInfo[ABS.mtSlot] = AbsInfo(minimum: 0, maximum: 1)
    let encoder = ForwardEncoder(device: VirtualTouchscreen.description(for: one))
    func id(_ n: UInt64) -> TouchID { TouchID(rawValue: n) }
    func t(_ us: Int64) -> Timestamp { Timestamp(microseconds: us) }
    var lines: [String] = []
    lines += forwardLines(
      encoder.encode(
        [
          .init(id: id(1), kind: .down(released: false), x: 10, y: 20),
          .init(id: id(2), kind: .down(released: false), x: 30, y: 40),
        ], at: t(1)))
    lines += forwardLines(encoder.encode([.init(id: id(3), kind: .down(released: true), x: 1, y: 1)], at: t(2)))
    lines += forwardLines(encoder.encode([.init(id: id(1), kind: .lift)], at: t(3)))
    lines += forwardLines(encoder.encode([.init(id: id(4), kind: .down(released: true), x: 50, y: 60)], at: t(4)))
    lines += forwardLines(
      encoder.encode([.init(id: id(2), kind: .cancel), .init(id: id(4), kind: .move, x: 51, y: 60)], at: t(5)))
    lines += forwardLines(encoder.encode([.init(id: id(5), kind: .down(released: false), x: 70, y: 80)], at: t(6)))
    #expect(
      lines == [
        "0.000001 id=0 x=10 y=20 slot=1 id=1 x=30 y=40 touch=1 ax=10 ay=20",
        "0.000003 slot=0 up ax=30 ay=40",
        "0.000004 id=2 x=50 y=60",
        "0.000005 x=51 slot=1 palm",
        "0.000006 up ax=51 ay=60",
        "0.000006 finger id=3 x=70 y=80",
      ])
    #expect(encoder.counters.forwarded == 4)
    #expect(encoder.counters.released == 1)
    #expect(encoder.counters.cancelled == 1)
    #expect(encoder.counters.noSlot == 1)
  }
}
