import Foundation
import Testing
import TouchdTestKit

@testable import TouchdScene

/// Issue #43: `touchctl replay --explain` shows the recognizers a key press goes to and a
/// control's tracking of its touch, as it shows a touch's recognizers (docs/explain.md).
@Suite("touchctl replay --explain: presses and control tracking")
struct ExplainPressControlTests {
  /// `text` written to a fresh file named `name`; the directory goes when the value does.
  final class File {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-explain-\(UUID())")
    let path: String
    init(_ name: String, _ text: String) throws {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      path = directory.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
    deinit { try? FileManager.default.removeItem(at: directory) }
  }

  func explain(_ recordings: [String], scene: String) throws -> [String] {
    let result = try runTouchctl(["replay"] + recordings + ["--scene", scene, "--explain"])
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init)
  }

  @Test("a key press lists its responder and the recognizers whose allowedPressTypes take it")
  func pressRecognizers() throws {
    // The keypad fixture: ENTER (select) 0.10-0.25, F1 (help) 0.50-1.50, UP (upArrow) 2.00-2.40.
    let scene = try File(
      "keys.yaml",
      """
      version: 1
      windows:
        - id: w
          size: {width: 1000, height: 800}
          keys: {devices: ["Kiosk Keypad"], map: {KEY_ENTER: select, KEY_F1: help, KEY_UP: upArrow}}
          firstResponder: field
          views:
            - id: panel
              frame: {x: 0, y: 0, width: 1000, height: 800}
              recognizers:
                - {id: hold, type: longPress, action: help, allowedPressTypes: help}
                - {id: choose, type: tap, action: choose, allowedPressTypes: [select, help]}
              views:
                - {id: field, frame: {x: 100, y: 100, width: 300, height: 60}, presses: true}
      """)
    let out = try explain([keypadFixturePath], scene: scene.path)
    let presses = out.filter { $0.contains(" press ") && $0.contains(" began") }
    #expect(
      presses == [
        "+0.000 press 1 select (KEY_ENTER) began at responder 'field' → choose",
        "+0.400 press 2 help (KEY_F1) began at responder 'field' → hold, choose",
        "+1.900 press 3 upArrow (KEY_UP) began at responder 'field' → no recognizer",
      ], "\(out)")
  }

  @Test(
    "a button's tracking of its touch: begin inside, continue outside and back, end inside with touchUpInside and the primary action"
  )
  func controlTracking() throws {
    let scene = try File(
      "button.yaml",
      """
      version: 1
      windows:
        - id: w
          size: {width: 1000, height: 800}
          views:
            - id: buy
              frame: {x: 100, y: 100, width: 200, height: 60}
              control: {type: button, actions: {primaryActionTriggered: buy}}
      """)
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    let f = s.down([.init(x: 200, y: 130)])
    s.wait(0.05)
    s.move(f, to: [.init(x: 200, y: 400)])  // far outside (UIKit's 70 pt tolerance)
    s.wait(0.05)
    s.move(f, to: [.init(x: 210, y: 130)])
    s.wait(0.05)
    s.up(f)
    let recording = try File("tap.evemu", s.evemuText)
    let out = try explain([recording.path], scene: scene.path)
    let tracking = out.filter { $0.contains(" control 'buy' ") && $0.contains("Tracking") }
    #expect(
      tracking == [
        "+0.000 control 'buy' beginTracking touch 1: inside, tracking → touchDown",
        "+0.050 control 'buy' continueTracking touch 1: outside, tracking → touchDragOutside, touchDragExit",
        "+0.100 control 'buy' continueTracking touch 1: inside, tracking → touchDragInside, touchDragEnter",
        "+0.150 control 'buy' endTracking touch 1: inside → touchUpInside, primaryActionTriggered",
      ], "\(out)")
  }
}
