import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// `devices:` patterns by udev property (issue #19): `KEY=GLOB` tells identical panels apart.
@Suite("Device patterns by udev property")
struct DevicePatternTests {
  static let panel = SyntheticTouchscreen.description

  @Test("KEY=GLOB is a property pattern only when KEY is a udev property name")
  func propertyPatternShape() {
    #expect(
      SceneRuntime.propertyPattern("ID_PATH=pci-0000:00:14.0-usb-0:3:1.0")! == (
        "ID_PATH", "pci-0000:00:14.0-usb-0:3:1.0"
      ))
    #expect(SceneRuntime.propertyPattern("TOUCHD_WINDOW=left")! == ("TOUCHD_WINDOW", "left"))
    #expect(SceneRuntime.propertyPattern("ID_SERIAL=")! == ("ID_SERIAL", ""))
    #expect(SceneRuntime.propertyPattern("eGalax=Touch") == nil)
    #expect(SceneRuntime.propertyPattern("=left") == nil)
    #expect(SceneRuntime.propertyPattern("1D=x") == nil)
    #expect(SceneRuntime.propertyPattern("touchd synthetic*") == nil)
  }

  @Test("A property pattern matches the property's value as a glob; a plain glob still matches name, id and path")
  func matching() {
    let props = ["ID_PATH": "platform-i2c-1", "TOUCHD_WINDOW": "left"]
    func m(_ pattern: String, _ properties: [String: String] = props, path: String? = "/dev/input/event3") -> Bool {
      SceneRuntime.devicePattern(pattern, matches: Self.panel, path: path, properties: properties)
    }
    #expect(m("TOUCHD_WINDOW=left"))
    #expect(!m("TOUCHD_WINDOW=right"))
    #expect(m("ID_PATH=platform-i2c-*"))
    #expect(!m("ID_SERIAL=*"), "a property the device lacks matches nothing, not even *")
    #expect(!m("TOUCHD_WINDOW=left", [:]), "without udev properties (a replay without --udev-property)")
    #expect(m("touchd synthetic*") && m("/dev/input/event3") && m(Self.panel.id.vendorProduct))
    #expect(!m("*=left"), "not a property name: a glob over the name, which has no '='")
  }

  @Test("Two identical panels go to the windows their properties name, in replay as live")
  func identicalPanels() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: left
          size: {width: 1000, height: 800}
          devices: ["TOUCHD_WINDOW=left"]
          views: [{id: l, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}]
        - id: right
          size: {width: 1000, height: 800}
          devices: ["TOUCHD_WINDOW=right"]
          views: [{id: r, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}]
      """)
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    #expect(runtime.windowIndex(for: Self.panel, properties: ["TOUCHD_WINDOW": "left"]) == 0)
    #expect(runtime.windowIndex(for: Self.panel, properties: ["TOUCHD_WINDOW": "right"]) == 1)
    #expect(runtime.windowIndex(for: Self.panel) == nil)
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    script.tap(at: .init(x: 500, y: 400))
    func views(_ properties: [String: String]) throws -> [String] {
      try ScenePlayer.replay([script.recording], scene: scene, deviceProperties: properties).compactMap {
        if case .touches(let t) = $0 { return "\(t.window)/\(t.view) \(t.phase)" }
        return nil
      }
    }
    #expect(try views(["TOUCHD_WINDOW": "right"]) == ["right/r began", "right/r ended"])
    #expect(try views(["TOUCHD_WINDOW": "left"]) == ["left/l began", "left/l ended"])
    #expect(throws: SceneRuntimeError.noWindow(device: Self.panel.name)) { try views([:]) }
  }

  @Test("touchctl replay --udev-property routes the recording as udev would live; a bad one is an error")
  func replayCommand() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-pattern-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let scenePath = dir.appendingPathComponent("two.yaml").path
    try """
    version: 1
    windows:
      - {id: left, size: {width: 1000, height: 800}, devices: ["TOUCHD_WINDOW=left"], views: [{id: l, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}]}
      - {id: right, size: {width: 1000, height: 800}, devices: ["TOUCHD_WINDOW=right"], views: [{id: r, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}]}
    """.write(toFile: scenePath, atomically: true, encoding: .utf8)
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    script.tap(at: .init(x: 500, y: 400))
    let recording = dir.appendingPathComponent("tap.evemu").path
    try script.evemuText.write(toFile: recording, atomically: true, encoding: .utf8)
    let right =
      try runTouchctl(["replay", recording, "--scene", scenePath, "--udev-property", "TOUCHD_WINDOW=right"])
    #expect(right.status == 0, "\(right.stderr)")
    #expect(right.stdout.split(separator: "\n").allSatisfy { $0.contains(#""window":"right""#) })
    #expect(right.stdout.split(separator: "\n").count == 2)
    let none = try runTouchctl(["replay", recording, "--scene", scenePath])
    #expect(none.status == 1)
    #expect(none.stderr == "\(scenePath): no window of the scene takes touches from 'touchd synthetic touchscreen'\n")
    let bad =
      try runTouchctl(["replay", recording, "--scene", scenePath, "--udev-property", "window=right"])
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("--udev-property window=right: expected KEY=VALUE with KEY a udev property name"))
  }
}
