import Foundation
import Testing
import TouchdTestKit

@testable import TouchdInput

@Suite struct ClassificationTests {
  func description(_ path: String) throws -> DeviceDescription {
    if path.hasSuffix(".evemu") { return try RecordingReader.load(path: path).description }
    return try EvemuParser.parseDescription(RecordingReader.readFile(path), source: path)
  }

  @Test func fixtureDescriptions() throws {
    let expected: [String: TouchscreenKind] = [
      "ntrig-multitouch-protocolA.desc": .multitouchA,
      "wacom-isdv4-e6-finger.desc": .multitouchB(slots: 2),
      "lge-nexus4-touch_dev-noABSX.desc": .multitouchB(slots: 10),
      "descriptions/Atmel_maXTouch_Touchscreen.desc": .multitouchB(slots: 10),
      "descriptions/EP0430M09.desc": .multitouchB(slots: 5),
      "descriptions/N-Trig_MultiTouch.desc": .multitouchA,
      "descriptions/QUANTA_OpticalTouchScreen.desc": .multitouchB(slots: 10),
    ]
    for (name, kind) in expected {
      let device = try description(fixture(name))
      #expect(device.touchscreenKind() == kind, "\(name)")
    }
    // The N-Trig .desc has an all-zero P: line (evemu 1.1 recorded no properties): BTN_TOUCH makes
    // it a touchscreen by udev's rule, as it does live when evemu-device recreates it.
    let ntrig = try description(fixture("ntrig-multitouch-protocolA.desc"))
    #expect(ntrig.properties.isEmpty)
    #expect(ntrig.touchscreenKind() == .multitouchA)
    // The Nexus 4 has INPUT_PROP_DIRECT, no ABS_X and no BTN_TOUCH: a touchscreen even strictly.
    #expect(try description(fixture("lge-nexus4-touch_dev-noABSX.desc")).touchscreenKind() == .multitouchB(slots: 10))
  }

  @Test func everyFixtureDescriptionParses() throws {
    let directory = fixture("descriptions")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".desc") }
    #expect(names.count >= 12)
    for name in names {
      let device = try description(directory + "/" + name)
      #expect(!device.name.isEmpty)
      // Wacom ISDv4 90, Wacom Serial Penabled 2FG and the resistive eGalax 0eef:0001 report
      // BTN_TOOL_PEN (tablets by udev's rule): the Penabled 2FG, with INPUT_PROP_DIRECT, is a pen
      // display (issue #41); the other two were recorded without properties (evemu 1.1 wrote
      // zeros), so without INPUT_PROP_DIRECT, and are left alone as desk tablets. The other
      // evemu-devices descriptions are touchscreens.
      if name.hasPrefix("Wacom_Serial_Penabled") {
        #expect(device.touchscreenKind() == .pen, "\(name)")
      } else if name.hasPrefix("Wacom_ISDv4_90") || name.hasPrefix("eGalax_Inc._USB") {
        #expect(!device.touchscreenKind().isTouchscreen, "\(name)")
      } else {
        #expect(
          device.touchscreenKind().isTouchscreen, "\(name): \(device.touchscreenKind())")
      }
    }
  }

  @Test func touchpadsPensKeyboardsAndPointersAreNotTouchscreens() {
    let pad = makeDevice(
      abs: [ABS.x: 1940, ABS.y: 1297, ABS.mtSlot: 4, ABS.mtPositionX: 1940, ABS.mtPositionY: 1297],
      keys: [BTN.left, BTN.toolFinger, BTN.touch], properties: [InputProp.pointer, InputProp.buttonpad])
    #expect(
      pad.touchscreenKind()
        == .notTouchscreen(
          reason:
            "by udev's input_id rule, a touchpad: ABS_MT_POSITION_X/Y with BTN_TOOL_FINGER and no INPUT_PROP_DIRECT"
        ))
    // An old recording of a touchpad (no properties): BTN_TOOL_FINGER without DIRECT gives it away.
    var oldPad = pad
    oldPad.properties = []
    #expect(!oldPad.touchscreenKind().isTouchscreen)
    // A pen: on a display (INPUT_PROP_DIRECT) read as a pen (issue #41), not as a touchscreen;
    // without it a desk tablet, left alone.
    let pen = makeDevice(abs: [ABS.x: 100, ABS.y: 100, ABS.pressure: 10], keys: [BTN.toolPen, BTN.stylus, BTN.touch])
    #expect(pen.touchscreenKind() == .pen && pen.touchscreenKind().touchProtocol == nil)
    let desk = makeDevice(
      abs: [ABS.x: 100, ABS.y: 100, ABS.pressure: 10], keys: [BTN.toolPen, BTN.stylus, BTN.touch], properties: [])
    #expect(!desk.touchscreenKind().isTouchscreen)
    let keyboard = DeviceDescription(
      name: "kbd", id: InputID(bustype: 3, vendor: 1, product: 1, version: 1), events: [EV.key: [30, 31]])
    #expect(!keyboard.touchscreenKind().isTouchscreen)
    let absolutePointer = makeDevice(abs: [ABS.x: 4095, ABS.y: 4095], keys: [BTN.left], properties: [])
    #expect(!absolutePointer.touchscreenKind().isTouchscreen)
    let single = makeDevice(abs: [ABS.x: 4095, ABS.y: 4095], keys: [BTN.touch])
    #expect(single.touchscreenKind() == .singleTouch)
    // Without INPUT_PROP_DIRECT, BTN_TOUCH alone makes a touchscreen (udev's rule; the WeTab).
    var indirect = single
    indirect.properties = []
    #expect(indirect.touchscreenKind() == .singleTouch)
  }

  @Test func sharedRecordingsAndTouchpads() throws {
    let shared = try TestPaths.sharedRecordings()
    let names = try FileManager.default.contentsOfDirectory(atPath: shared)
    var touchscreens = 0
    for name in names where name.hasSuffix(".evemu") || name.hasSuffix(".desc") {
      let device = try description(shared + "/" + name)
      #expect(device.touchscreenKind().isTouchscreen, "\(name)")
      touchscreens += 1
    }
    #expect(touchscreens == 23)
    for name in try FileManager.default.contentsOfDirectory(atPath: shared + "/touchpad") {
      let device = try description(shared + "/touchpad/" + name)
      #expect(device.udevInputClasses.classes == [.touchpad], "\(name)")
      #expect(!device.touchscreenKind().isTouchscreen, "\(name)")
    }
    // What udev's input_id says of the other descriptions (the VM suite's udev-classification check
    // compares touchd's rule with the real udevd on each). Everything else there is a touchscreen.
    let notTouch: [String: InputClasses] = [
      // Pens (BTN_TOOL_PEN / BTN_STYLUS); the Penabled 2FG has them on its multitouch node too.
      "Wacom_ISDv4_90.desc": [.tablet], "eGalax_Inc._USB_TouchController.desc": [.tablet],
      "Wacom_Serial_Penabled_2FG_Touchscreen.desc": [.tablet],
      // An Elo absolute pointer: ABS_X/ABS_Y with BTN_LEFT and no BTN_TOUCH.
      "lp-884848.prop": [.mouse],
      // No axes at all.
      "ntrig-lenovo-T410s.prop": [],
    ]
    for directory in ["descriptions/evemu-devices", "descriptions/evemu-data"] {
      for name in try FileManager.default.contentsOfDirectory(atPath: shared + "/" + directory) {
        let device = try description(shared + "/" + directory + "/" + name)
        #expect(device.udevInputClasses.classes == notTouch[name] ?? [.touchscreen], "\(name)")
        // Taken: the touchscreens, and the Penabled 2FG as a pen display (INPUT_PROP_DIRECT).
        let taken = notTouch[name] == nil || name == "Wacom_Serial_Penabled_2FG_Touchscreen.desc"
        #expect(device.touchscreenKind().isTouchscreen == taken, "\(name)")
      }
    }
  }
}

@Suite struct ScreenMappingTests {
  func close(_ a: (x: Double, y: Double), _ b: (Double, Double)) -> Bool {
    Swift.abs(a.x - b.0) < 1e-9 && Swift.abs(a.y - b.1) < 1e-9
  }

  @Test func identityScalesToTheWindow() {
    let mapping = ScreenMapping(width: 800, height: 480)
    #expect(close(mapping.map(x: 0.25, y: 0.5), (200, 240)))
    #expect(close(mapping.map(Contact(id: TouchID(rawValue: 1), phase: .began, x: 1, y: 1)), (800, 480)))
  }

  @Test func calibrationAppliesBeforeScaling() throws {
    // Swap axes, as libinput's "0 1 0 1 0 0" does.
    let swap = try CalibrationMatrix(parsing: "0 1 0 1 0 0")
    #expect(close(ScreenMapping(width: 100, height: 200, calibration: swap).map(x: 0.2, y: 0.6), (60, 40)))
    // Mirror X with an offset: x' = -x + 1.
    let mirror = try CalibrationMatrix(parsing: " -1  0 1\t0 1 0 ")
    #expect(mirror == CalibrationMatrix(a: -1, b: 0, c: 1, d: 0, e: 1, f: 0))
    #expect(close(ScreenMapping(width: 100, height: 100, calibration: mirror).map(x: 0.2, y: 0.3), (80, 30)))
    // Scale and shift.
    let m = CalibrationMatrix(a: 0.5, b: 0, c: 0.25, d: 0, e: 2, f: -0.5)
    #expect(close(m.apply(x: 0.5, y: 0.5), (0.5, 0.5)))
  }

  @Test func calibrationStringErrors() {
    #expect(throws: CalibrationMatrixError.self) { try CalibrationMatrix(parsing: "1 0 0 0 1") }
    #expect(throws: CalibrationMatrixError.self) { try CalibrationMatrix(parsing: "1 0 0 0 1 x") }
    #expect(throws: CalibrationMatrixError.self) { try CalibrationMatrix(parsing: "") }
    do {
      _ = try CalibrationMatrix(parsing: "1 0 0 0 one 0")
      Issue.record("no error")
    } catch {
      #expect(error.description == "invalid calibration matrix \"1 0 0 0 one 0\": \"one\" is not a number")
    }
  }

  @Test func rotationsAreClockwiseMounts() {
    func corners(_ rotation: ScreenRotation) -> [(x: Double, y: Double)] {
      let mapping = ScreenMapping(width: 100, height: 50, rotation: rotation)
      return [mapping.map(x: 0, y: 0), mapping.map(x: 1, y: 0), mapping.map(x: 0.25, y: 0.75)]
    }
    // Device (0,0) (top-left), (1,0) (top-right), and an inner point.
    let none = corners(.none)
    #expect(close(none[0], (0, 0)) && close(none[1], (100, 0)) && close(none[2], (25, 37.5)))
    let r90 = corners(.clockwise90)
    #expect(close(r90[0], (100, 0)) && close(r90[1], (100, 50)) && close(r90[2], (25, 12.5)))
    let r180 = corners(.clockwise180)
    #expect(close(r180[0], (100, 50)) && close(r180[1], (0, 50)) && close(r180[2], (75, 12.5)))
    let r270 = corners(.clockwise270)
    #expect(close(r270[0], (0, 50)) && close(r270[1], (0, 0)) && close(r270[2], (75, 37.5)))
  }

  @Test func calibrationComesBeforeRotation() {
    let mapping = ScreenMapping(
      width: 10, height: 10, rotation: .clockwise90,
      calibration: CalibrationMatrix(a: 0.5, b: 0, c: 0, d: 0, e: 1, f: 0))
    // calibrated (0.5, 0.2) → rotated (0.8, 0.5) → (8, 5)
    #expect(close(mapping.map(x: 1, y: 0.2), (8, 5)))
  }
}
