import Foundation
import Testing
import TouchdInput

@testable import TouchdDevices

@Suite struct ListingTests {
  let touchscreen = DiscoveredDevice(
    path: "/dev/input/event4",
    udev: UdevProperties(classes: [.touchscreen], calibrationMatrix: [0, -1, 1, 1, 0, 0]),
    description: Fixtures.protocolB(slots: 10).describe())
  let keyboard = DiscoveredDevice(
    path: "/dev/input/event0", udev: UdevProperties(classes: [.key, .keyboard]),
    description: Fixtures.keyboard().describe())
  let locked = DiscoveredDevice(
    path: "/dev/input/event2", description: nil, openError: .open(path: "/dev/input/event2", .permissionDenied))
  /// A touchscreen-like panel that udev calls a tablet (no rule changed that).
  let tablet = DiscoveredDevice(
    path: "/dev/input/event7", udev: UdevProperties(classes: [.tablet]),
    description: Fixtures.protocolB(slots: 2).describe())

  @Test func touchscreenText() {
    let text = DeviceListing.text([keyboard, touchscreen], all: false)
    #expect(
      text == """
        /dev/input/event4: "Test Touchscreen"
          id:          04f3:2b7c on i2c
          protocol:    multitouch protocol B, 10 slots
          X axis:      0..1919, 10 units/mm, 191.9 mm
          Y axis:      0..1079, 10 units/mm, 107.9 mm
          calibration: 0 -1 1 1 0 0
          udev:        touchscreen
          touchd:      taken: udev classifies it as a touchscreen (ID_INPUT_TOUCHSCREEN=1)

        Not taken:
        /dev/input/event0: "AT Translated Set 2 keyboard"
          udev:        key+keyboard
          touchd:      not taken: udev does not classify it as a touchscreen (ID_INPUT_TOUCHSCREEN is not 1; udev: key+keyboard)

        """)
  }

  /// Issue #41: a pen display (udev's tablet with INPUT_PROP_DIRECT) is taken and listed as a pen;
  /// a desk tablet is not, and says why.
  @Test func aPenDisplayIsTakenAsAPenAndADeskTabletLeftAloneWithTheReason() throws {
    let penPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("TouchdSceneTests/Fixtures/pens/dell-canvas27-wacom-isdv4-pen-hover-buttons-stroke.evemu")
    let pen = DiscoveredDevice(
      path: "/dev/input/event9", udev: UdevProperties(classes: [.tablet]),
      description: try RecordingReader.load(path: penPath.path).description)
    var deskDescription = pen.description!
    deskDescription.properties = [InputProp.pointer]
    let desk = DiscoveredDevice(
      path: "/dev/input/event10", udev: UdevProperties(classes: [.tablet]), description: deskDescription)
    let text = DeviceListing.text([pen, desk], all: true)
    #expect(text.contains("/dev/input/event9: \"Wacom ISD-V4 Pen\"\n  id:          056a:4200 on usb\n"), "\(text)")
    #expect(text.contains("  protocol:    pen (its tip makes pencil touches)\n"))
    #expect(
      text.contains(
        "  touchd:      taken: udev classifies it as a tablet (ID_INPUT_TABLET=1), with INPUT_PROP_DIRECT: a pen display"
      ))
    #expect(
      text.contains(
        "  touchd:      not taken: a pen tablet without INPUT_PROP_DIRECT (a desk tablet, not on a display): touchd leaves it alone"
      ), "\(text)")
  }

  @Test func everyDeviceWithItsReasonTouchLikeOnesFirstWithTheRemedy() throws {
    let text = DeviceListing.text([keyboard, touchscreen, locked, tablet], all: true)
    let notTaken = try #require(text.components(separatedBy: "Not taken:\n").last)
    #expect(
      notTaken.hasPrefix(
        """
        /dev/input/event7: "Test Touchscreen"
          X axis:      0..1919, 10 units/mm, 191.9 mm
          Y axis:      0..1079, 10 units/mm, 107.9 mm
          udev:        tablet
          touchd:      not taken: udev does not classify it as a touchscreen (ID_INPUT_TOUCHSCREEN is not 1; udev: tablet)
          to take it:  a udev rule that sets ENV{ID_INPUT_TOUCHSCREEN}="1" for it (see touchd's docs/operations.md)

        """))
    #expect(text.contains("/dev/input/event0: \"AT Translated Set 2 keyboard\"\n  udev:        key+keyboard\n"))
    #expect(text.contains("/dev/input/event2\n  udev:        no record (no udevd?)\n"))
    #expect(text.contains("  touchd:      not taken: cannot open /dev/input/event2: Permission denied"))
    #expect(text.contains("1 of 4 input devices could not be opened (permission denied)"))
    #expect(text.contains("`input` group"))
  }

  @Test func noCalibrationNoResolutionAndNoUdevRecord() {
    let dev = LinuxInput.Evdev()
    dev.setName("Plain")
    dev.enable(type: EV.key, code: BTN.touch)
    dev.enable(type: EV.abs, code: ABS.x, abs: AbsInfo(minimum: -5, maximum: 4095))
    dev.enable(type: EV.abs, code: ABS.y, abs: AbsInfo(minimum: 0, maximum: 4095))
    let text = DeviceListing.text(
      [DiscoveredDevice(path: "/dev/input/event1", description: dev.describe())], all: false)
    #expect(text.contains("  id:          0000:0000 on 0x0000\n"))
    #expect(text.contains("  protocol:    single-touch\n"))
    #expect(text.contains("  X axis:      -5..4095, resolution unknown\n"))
    #expect(text.contains("  calibration: none\n"))
    #expect(text.contains("  udev:        no record (no udevd?); touchd's copy of its rule: touchscreen\n"))
    #expect(
      text.contains(
        "  touchd:      taken: by udev's input_id rule (udev has no record of it): a touchscreen: ABS_X/ABS_Y with BTN_TOUCH\n"
      ))
  }

  /// Two identical panels: their udev properties tell them apart, and `touchctl devices` offers
  /// them as `devices:` patterns (issue #19).
  @Test func identifyingPropertiesAreOfferedAsPatterns() throws {
    let values = [
      "ID_PATH": "pci-0000:00:14.0-usb-0:3:1.0", "ID_SERIAL": "eGalax_Inc._USB_TouchController",
      "TOUCHD_WINDOW": "left", "TOUCHD_IGNORE": "0", "DEVNAME": "/dev/input/event4", "ID_INPUT": "1",
      "ID_INPUT_TOUCHSCREEN": "1",
    ]
    let left = DiscoveredDevice(
      path: "/dev/input/event4", udev: UdevProperties(classes: [.touchscreen], values: values),
      description: Fixtures.protocolB(slots: 10).describe())
    let report = DeviceReport(left)
    #expect(
      report.match == [
        "ID_PATH=pci-0000:00:14.0-usb-0:3:1.0", "ID_SERIAL=eGalax_Inc._USB_TouchController", "TOUCHD_WINDOW=left",
      ])
    let text = DeviceListing.text([left], all: false)
    #expect(
      text.contains(
        #"  match:       ["ID_PATH=pci-0000:00:14.0-usb-0:3:1.0", "ID_SERIAL=eGalax_Inc._USB_TouchController", "TOUCHD_WINDOW=left"]"#
          + "\n  touchd:      taken:"), "\(text)")
    // Without udev properties, no line.
    #expect(!DeviceListing.text([touchscreen], all: false).contains("match:"))
    #expect(DeviceListing.matchText(DeviceReport(left))?.hasPrefix(#"["ID_PATH=pci-"#) == true)
    let decoded = try JSONDecoder().decode(
      [DeviceReport].self, from: Data(try DeviceListing.json([left], all: false).utf8))
    #expect(decoded.first?.match == report.match)
  }

  @Test func friendlyWhenNothingIsThere() throws {
    let text = DeviceListing.text([], all: true)
    #expect(text.hasPrefix("No input devices found.\n"))
    #expect(text.contains("no /dev/input/event* nodes"))
    #expect(DeviceListing.text([keyboard], all: false).hasPrefix("No touchscreen taken.\n\nNot taken:\n"))
    #expect(DeviceListing.hint([keyboard]) == nil)
    #expect(try DeviceListing.json([keyboard], all: false) == "[]\n")
  }

  @Test func jsonRoundTrips() throws {
    let json = try DeviceListing.json([keyboard, touchscreen], all: false)
    let reports = try JSONDecoder().decode([DeviceReport].self, from: Data(json.utf8))
    #expect(reports.count == 1)
    let report = try #require(reports.first)
    #expect(report.touchProtocol == "B")
    #expect(report.slots == 10)
    #expect(report.vendor == "04f3")
    #expect(report.x?.sizeMillimetres == 191.9)
    #expect(report.calibrationMatrix == [0, -1, 1, 1, 0, 0])
    #expect(json.contains("\"protocol\" : \"B\""))
    let all = try JSONDecoder().decode(
      [DeviceReport].self, from: Data(try DeviceListing.json([keyboard, touchscreen], all: true).utf8))
    #expect(all.map(\.touchscreen) == [false, true])
    #expect(all.map(\.udev) == ["key+keyboard", "touchscreen"])
    #expect(all.map(\.touchdRule) == ["none", "touchscreen"])
    #expect(all.map(\.decidedBy) == ["udev", "udev"])
    #expect(all[0].reason.contains("ID_INPUT_TOUCHSCREEN is not 1"))
    #expect(!all[0].looksLikeTouchDevice && all[1].looksLikeTouchDevice)
  }
}
