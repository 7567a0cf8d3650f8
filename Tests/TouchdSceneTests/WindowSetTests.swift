import Foundation
import Testing
import TouchDelivery
import TouchdInput

@testable import TouchdScene

/// `{"cmd":"set","window":W,"rotation":…,"calibration":…,"size":…}` (issue #19): a display rotated
/// or recalibrated while running. The command's strict decoding, and the runtime: touches in
/// progress cancelled, later touches mapped the new way.
@Suite("set on a window: rotation, calibration, size")
struct WindowSetTests {
  /// A 1000×800 window `main` with four corner views 100 pt square (`tl`, `tr`, `bl`, `br`), each
  /// publishing its touches.
  static func scene() throws -> Scene {
    try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 1000, height: 800}
          views:
            - {id: tl, frame: {x: 0, y: 0, width: 100, height: 100}, touches: true}
            - {id: tr, frame: {x: 900, y: 0, width: 100, height: 100}, touches: true}
            - {id: bl, frame: {x: 0, y: 700, width: 100, height: 100}, touches: true}
            - {id: br, frame: {x: 900, y: 700, width: 100, height: 100}, touches: true}
            - {id: wide, frame: {x: 900, y: 900, width: 100, height: 100}, touches: true}
      """)
  }

  /// The scene's runtime (``RuntimeHarness``: touches logged as `view phase`).
  static func harness() throws -> RuntimeHarness { RuntimeHarness(scene: try scene()) }

  @Test("The rotations the protocol takes are the screen rotations input maps")
  func protocolRotationsAreTheScreenRotations() {
    #expect(WindowChange.rotations == ScreenRotation.allCases.map(\.rawValue))
  }

  @Test("The command decodes strictly: each field's type and range, one of view or window, something to change")
  func decoding() throws {
    func parse(_ json: String) -> String {
      do {
        return try SceneCommand.parse(json: json).json
      } catch {
        return "error: \(error.message)"
      }
    }
    #expect(
      parse(
        #"{"cmd":"set","window":"main","rotation":90,"calibration":[1,0,0,0,1,0],"size":{"width":800,"height":1280}}"#)
        == #"{"cmd":"set","window":"main","rotation":90,"calibration":[1,0,0,0,1,0],"size":{"width":800,"height":1280}}"#
    )
    #expect(parse(#"{"cmd":"set","window":"main","rotation":180}"#) == #"{"cmd":"set","window":"main","rotation":180}"#)
    #expect(
      parse(#"{"cmd":"set","window":"main","rotation":45}"#) == "error: 'rotation' must be 0, 90, 180 or 270, found 45")
    #expect(
      parse(#"{"cmd":"set","window":"main","rotation":"90"}"#) == #"error: 'rotation' must be an integer, found "90""#)
    #expect(
      parse(#"{"cmd":"set","window":"main","calibration":[1,0,0,0,1]}"#)
        == "error: 'calibration' must be an array of 6 numbers (a 2x3 matrix, LIBINPUT_CALIBRATION_MATRIX's meaning), found an array of 5 items"
    )
    #expect(
      parse(#"{"cmd":"set","window":"main","calibration":[1,0,"0",0,1,0]}"#)
        == #"error: 'calibration[2]' must be a finite number, found "0""#)
    #expect(
      parse(#"{"cmd":"set","window":"main","size":{"width":0,"height":10}}"#)
        == "error: 'size' must be above 0 points wide and high")
    #expect(
      parse(#"{"cmd":"set","window":"main","hidden":true}"#)
        == "error: unknown field 'hidden' (set takes window, rotation, calibration, size, voiceOver)")
    #expect(
      parse(#"{"cmd":"set","window":"main","view":"tl","hidden":true}"#)
        == "error: 'set' takes 'view' or 'window', not both (one command changes one of them)")
    #expect(
      parse(#"{"cmd":"set","window":"main"}"#)
        == "error: 'set' with 'window' changes at least one of rotation, calibration, size, voiceOver")
    #expect(
      parse(#"{"cmd":"set","hidden":true}"#)
        == "error: missing field 'view' (a string: the view id, or 'window' with a window id)")
  }

  @Test("Rotating mid-touch cancels the touch (its later events are ignored); the next tap maps rotated")
  func rotationCancelsAndRemaps() throws {
    let h = try Self.harness()
    // Device top-left is the window's top-left.
    h.tap(0.1, 0.05, 0.05)
    // A finger down on `br`, then the display turns.
    let finger = TouchID(rawValue: 99)
    h.frame(0.3, [Contact(id: finger, phase: .began, x: 0.95, y: 0.95)])
    let reply = try h.runtime.apply(.setWindow(window: "main", change: WindowChange(rotation: 90)))
    #expect(reply.fieldsJSON == #""window":"main","width":1000,"height":800,"rotation":90,"calibration":[1,0,0,0,1,0]"#)
    h.frame(0.35, [Contact(id: finger, phase: .moved, x: 0.9, y: 0.9)])
    h.frame(0.4, [Contact(id: finger, phase: .ended, x: 0.9, y: 0.9)])
    // Rotated 90° clockwise: the device's top-left is the window's top-right, its bottom-left
    // the window's top-left.
    h.tap(0.5, 0.05, 0.05)
    h.tap(0.6, 0.05, 0.95)
    #expect(
      h.log == [
        "tl began", "tl ended", "br began", "br cancelled", "tr began", "tr ended", "tl began", "tl ended",
      ])
    #expect(h.runtime.scene.windows[0].rotation == 90)
  }

  @Test("A new calibration and size take effect at the next touch; the window's frame follows the size")
  func calibrationAndSize() throws {
    let h = try Self.harness()
    // Half-width offset: device x 0.05 lands at 0.55 of the window.
    try h.runtime.apply(.setWindow(window: "main", change: WindowChange(calibration: [0.5, 0, 0.45, 0, 1, 0])))
    h.tap(0.1, 0.95, 0.05)  // 0.5 * 0.95 + 0.45 = 0.925 → x 925: `tr`
    h.tap(0.2, 0.05, 0.95)  // 0.475 → x 475: nothing
    // Taller window: device y 0.95 is y 950 of 1000, inside `wide` (900...1000).
    let reply = try h.runtime.apply(
      .setWindow(
        window: "main",
        change: WindowChange(calibration: [1, 0, 0, 0, 1, 0], size: Scene.Size(width: 1000, height: 1000))))
    #expect(reply.fieldsJSON == #""window":"main","width":1000,"height":1000,"rotation":0,"calibration":[1,0,0,0,1,0]"#)
    #expect(h.runtime.windows[0].bounds.size == Size(width: 1000, height: 1000))
    h.tap(0.3, 0.95, 0.95)
    #expect(h.log == ["tr began", "tr ended", "wide began", "wide ended"])
    #expect(h.runtime.scene.windows[0].size == Scene.Size(width: 1000, height: 1000))
  }

  @Test("An unknown window is an error with a suggestion, and changes nothing")
  func unknownWindow() throws {
    let h = try Self.harness()
    #expect(throws: SceneRuntimeError.unknownWindow("mainn", suggestion: "main")) {
      try h.runtime.apply(.setWindow(window: "mainn", change: WindowChange(rotation: 90)))
    }
    #expect(h.runtime.scene.windows[0].rotation == 0)
  }
}
