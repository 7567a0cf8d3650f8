import Foundation
import Testing
import TouchdInput

@testable import TouchdDevices

@Suite struct DiscoveryTests {
  @Test func eventNodes() {
    #expect(DeviceDiscovery.isEventNode("/dev/input/event0"))
    #expect(DeviceDiscovery.isEventNode("/dev/input/event17"))
    #expect(!DeviceDiscovery.isEventNode("/dev/input/event"))
    #expect(!DeviceDiscovery.isEventNode("/dev/input/mouse0"))
    #expect(!DeviceDiscovery.isEventNode("/dev/input/js0"))
    #expect(!DeviceDiscovery.isEventNode("/dev/input/event1x"))
    #expect(!DeviceDiscovery.isEventNode("/dev/input/by-id/usb-event0"))
    #expect(DeviceDiscovery.eventNumber("/dev/input/event10") == 10)
  }

  /// These machines have no input devices: the scan must succeed and find nothing.
  @Test func scanSucceedsHere() throws {
    let devices = try DeviceDiscovery.scan()
    if !FileManager.default.fileExists(atPath: "/dev/input") {
      #expect(devices.isEmpty)
    }
    #expect(devices.allSatisfy { DeviceDiscovery.isEventNode($0.path) })
  }

  @Test func openingAMissingNodeNamesIt() {
    #expect(throws: DeviceError.open(path: "/dev/input/event999", .noSuchFile)) {
      try EvdevDevice(path: "/dev/input/event999")
    }
  }

  @Test func openingANonEvdevNodeFailsInLibevdevAndNamesIt() {
    do {
      _ = try EvdevDevice(path: "/dev/null")
      Issue.record("/dev/null opened as an evdev device")
    } catch {
      guard case .evdev(let path, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == "/dev/null")
    }
  }

  @Test func hotplugEventsKeepOnlyEventNodeAddsRemovesAndChanges() {
    func node(_ devnode: String?, _ action: String?, touch: Bool = false) -> LinuxInput.UdevNode {
      LinuxInput.UdevNode(
        syspath: "/sys/x", devnode: devnode, action: action, classes: touch ? [.touchscreen] : [])
    }
    #expect(
      DeviceMonitor.event(for: node("/dev/input/event5", "add", touch: true))
        == DeviceEvent(action: .add, path: "/dev/input/event5", udevTouchscreen: true))
    #expect(
      DeviceMonitor.event(for: node("/dev/input/event5", "remove"))
        == DeviceEvent(action: .remove, path: "/dev/input/event5"))
    // A change (udevadm trigger, a new rule) makes the daemon decide again.
    #expect(
      DeviceMonitor.event(for: node("/dev/input/event5", "change", touch: true))
        == DeviceEvent(action: .change, path: "/dev/input/event5", udevTouchscreen: true))
    #expect(DeviceMonitor.event(for: node("/dev/input/event5", "bind")) == nil)
    #expect(DeviceMonitor.event(for: node("/dev/input/mouse0", "add")) == nil)
    #expect(DeviceMonitor.event(for: node(nil, "add")) == nil)
  }

  /// Without udevd (containers) the monitor still opens, and nothing is pending.
  @Test func monitorOpensAndIsEmpty() throws {
    let monitor = try DeviceMonitor()
    #expect(monitor.fileDescriptor >= 0)
    #expect(monitor.receive() == nil)
  }
}
