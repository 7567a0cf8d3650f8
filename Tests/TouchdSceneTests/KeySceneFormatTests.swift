import Foundation
import Testing
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The scene format of key devices and presses: a window's `keys:` (evdev's key names, never touch
/// or pointer codes), `firstResponder`, press types (UIKit's or the scene's own) with every error at
/// its position, and the key-name table against the kernel's header.
@Suite("Scene format: keys and presses")
struct KeySceneFormatTests {
  func diagnostics(_ yaml: String) -> [String] { sceneDiagnostics(yaml) }

  /// The press-type message's list of what is allowed.
  let pressTypeExpected =
    "a press type (touchd's select, menu, playPause, upArrow, downArrow, leftArrow, rightArrow, pageUp, pageDown, "
    + "pencilBarrel, pencilBarrel2, pencilBarrel3, "
    + "or a name of letters, digits, '_' and '-' starting with a letter)"

  // MARK: Keys and presses errors

  @Test("Key names must be evdev's, never touch or pointer codes; press types UIKit's or names of letters")
  func keyErrors() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          keys:
            devices: ["Kiosk Keypad"]
            map:
              KEY_ENTR: select
              key_esc: menu
              ENTER: select
              BTN_LEFT: select
              BTN_TOUCH: select
              BTN_TOOL_PEN: select
              BTN_STYLUS: select
              KEY_ZOOM: menu
              KEY_FULL_SCREEN: menu
              KEY_UP: Select
              KEY_DOWN: help me
              KEY_LEFT: 7
              KEY_F1: help
          firstResponder: pannel
          views:
            - id: panel
              frame: {x: 0, y: 0, width: 400, height: 480}
              presses: yes please
              recognizers:
                - {id: hold, type: longPress, action: open-help, allowedPressTypes: [help, hepl, select]}
                - {id: drag, type: pan, action: drag, allowedPressTypes: select}
                - {id: tap, type: tap, action: go, allowedPressTypes: "two words"}
        - id: side
          size: {width: 800, height: 480}
          devices: ["side*"]
          keys: {device: ["pad"], map: {BTN_0: back}}
          firstResponder: panel
          views:
            - id: side-root
              frame: {x: 0, y: 0, width: 800, height: 480}
              recognizers:
                - {id: side-tap, type: tap, action: side, allowedPressTypes: [back, help, menu]}
        - id: third
          size: {width: 800, height: 480}
          keys: {devices: "pad", map: [KEY_ENTER]}
          firstResponder: ""
      """)
    #expect(
      errors == [
        "scene.yaml:8:9: error: unknown evdev key name 'KEY_ENTR' in map of keys of window 'main' (did you mean 'KEY_ENTER'?)",
        "scene.yaml:9:9: error: unknown evdev key name 'key_esc' in map of keys of window 'main' (did you mean 'KEY_ESC'?)",
        "scene.yaml:10:9: error: unknown evdev key name 'ENTER' in map of keys of window 'main' (did you mean 'KEY_ENTER'?)",
        "scene.yaml:11:9: error: 'BTN_LEFT' in map of keys of window 'main' is a touch/pointer code, never a press",
        "scene.yaml:12:9: error: 'BTN_TOUCH' in map of keys of window 'main' is a touch/pointer code, never a press",
        "scene.yaml:13:9: error: 'BTN_TOOL_PEN' in map of keys of window 'main' is a touch/pointer code, never a press",
        "scene.yaml:14:9: error: 'BTN_STYLUS' in map of keys of window 'main' is a touch/pointer code, never a press",
        "scene.yaml:16:9: error: 'KEY_FULL_SCREEN' in map of keys of window 'main' is the same key as 'KEY_ZOOM' (code 372)",
        "scene.yaml:17:17: error: 'KEY_UP' in map of keys of window 'main' names press type 'Select'; touchd's is 'select' (press types are case-sensitive)",
        "scene.yaml:18:19: error: 'KEY_DOWN' in map of keys of window 'main' must be \(pressTypeExpected), found 'help me'",
        "scene.yaml:19:19: error: 'KEY_LEFT' in map of keys of window 'main' must be \(pressTypeExpected), found 7",
        "scene.yaml:21:21: error: 'firstResponder' in window 'main' names unknown view 'pannel' (did you mean 'panel'?)",
        "scene.yaml:25:18: error: 'presses' in view 'panel' must be true or false, found 'yes please'",
        "scene.yaml:27:86: error: 'allowedPressTypes' in longPress recognizer 'hold' names press type 'hepl', which no key in the keys map of window 'main' makes (did you mean 'help'?)",
        "scene.yaml:28:49: error: 'allowedPressTypes' is not a parameter of pan recognizer 'drag' (only of tap, longPress recognizers)",
        "scene.yaml:29:65: error: 'allowedPressTypes' in tap recognizer 'tap' must be \(pressTypeExpected), found 'two words'",
        "scene.yaml:33:11: error: missing required key 'devices' in keys of window 'side'",
        "scene.yaml:33:12: error: unknown key 'device' in keys of window 'side' (did you mean 'devices'?)",
        "scene.yaml:34:21: error: 'firstResponder' in window 'side' names view 'panel' of window 'main'; it must be a view of this window",
        "scene.yaml:39:79: error: 'allowedPressTypes' in tap recognizer 'side-tap' names press type 'help', which no key in the keys map of window 'side' makes",
        "scene.yaml:42:21: error: 'devices' in keys of window 'third' must be a list of strings, found 'pad'",
        "scene.yaml:42:33: error: 'map' in keys of window 'third' must be a mapping of evdev key names to press types, found a list",
        "scene.yaml:43:21: error: 'firstResponder' in window 'third' must be a view id, found ''",
      ])
  }

  @Test("A misspelt press type of the scene's own is caught where a recognizer allows it")
  func pressTypeSuggestions() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          keys: {devices: [pad], map: {KEY_F1: help-desk}}
          views:
            - id: v
              frame: {x: 0, y: 0, width: 10, height: 10}
              recognizers:
                - {id: a, type: tap, action: a, allowedPressTypes: [help-dsk, selec, pageDown, menu]}
      """)
    #expect(
      errors == [
        "scene.yaml:10:63: error: 'allowedPressTypes' in tap recognizer 'a' names press type 'help-dsk', which no key in the keys map of window 'main' makes (did you mean 'help-desk'?)",
        "scene.yaml:10:73: error: 'allowedPressTypes' in tap recognizer 'a' names press type 'selec', which no key in the keys map of window 'main' makes (did you mean 'select'?)",
      ])
  }

  @Test("firstResponder may name any view of its window, nested or hidden")
  func firstResponderInWindow() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          firstResponder: deep
          views:
            - id: outer
              frame: {x: 0, y: 0, width: 800, height: 480}
              hidden: true
              views:
                - {id: deep, frame: {x: 0, y: 0, width: 10, height: 10}, hidden: true}
      """)
    #expect(scene.windows[0].firstResponder == "deep")
  }

  // MARK: Key names

  @Test("Key names and codes are the kernel's, with libevdev's name for each code")
  func keyNames() {
    #expect(EventNames.keyCode(named: "KEY_ENTER") == 28)
    #expect(EventNames.keyCode(named: "KEY_F1") == 59)
    #expect(EventNames.keyCode(named: "KEY_ESC") == 1)
    #expect(EventNames.keyCode(named: "BTN_0") == 0x100)
    #expect(EventNames.keyCode(named: "BTN_SOUTH") == 0x130 && EventNames.keyCode(named: "BTN_A") == 0x130)
    #expect(EventNames.keyCode(named: "BTN_DPAD_UP") == 0x220)
    #expect(EventNames.keyCode(named: "BTN_GRIPR2") == 0x227)
    #expect(EventNames.keyCode(named: "KEY_PERFORMANCE") == 0x2bd)
    #expect(EventNames.keyCode(named: "BTN_TRIGGER_HAPPY1") == 0x2c0)
    #expect(EventNames.keyCode(named: "BTN_TRIGGER_HAPPY40") == 0x2e7)
    #expect(EventNames.keyCode(named: "KEY_ZOOM") == 0x174 && EventNames.keyCode(named: "KEY_FULL_SCREEN") == 0x174)
    for marker in [
      "BTN_MISC", "BTN_MOUSE", "BTN_JOYSTICK", "BTN_GAMEPAD", "BTN_DIGI", "BTN_WHEEL", "BTN_TRIGGER_HAPPY",
    ] {
      #expect(EventNames.keyCode(named: marker) == nil, "\(marker)")
    }
    for notAKey in ["KEY_MAX", "KEY_CNT", "KEY_MIN_INTERESTING", "ENTER", "key_enter", ""] {
      #expect(EventNames.keyCode(named: notAKey) == nil, "\(notAKey)")
    }
    // evemu comments: libevdev's name for the code (the first the header defines).
    #expect(EventNames.code(type: EV.key, code: 28) == "KEY_ENTER")
    #expect(EventNames.code(type: EV.key, code: 0x130) == "BTN_SOUTH")
    #expect(EventNames.code(type: EV.key, code: 0x174) == "KEY_FULL_SCREEN")
    #expect(EventNames.code(type: EV.key, code: 0x110) == "BTN_LEFT")
    #expect(EventNames.code(type: EV.key, code: 0x120) == "BTN_TRIGGER")
    #expect(EventNames.code(type: EV.key, code: 0x2ff) == "KEY_MAX")
    #expect(EventNames.code(type: EV.key, code: 0x2fe) == nil)
    // Touch and pointer codes.
    for name in ["BTN_LEFT", "BTN_TASK", "BTN_TOOL_PEN", "BTN_TOUCH", "BTN_STYLUS", "BTN_STYLUS3", "BTN_TOOL_QUADTAP"] {
      #expect(EventNames.keyCode(named: name).map(EventNames.isPointerCode) == true, "\(name)")
    }
    for name in [
      "KEY_ENTER", "BTN_0", "BTN_9", "BTN_TRIGGER", "BTN_SOUTH", "BTN_THUMBR", "BTN_GEAR_DOWN", "BTN_DPAD_UP",
    ] {
      #expect(EventNames.keyCode(named: name).map(EventNames.isPointerCode) == false, "\(name)")
    }
    #expect(SceneFormat.keyNames.contains("KEY_ENTER") && !SceneFormat.keyNames.contains("BTN_TOUCH"))
    #expect(Set(SceneFormat.keyNames).count == SceneFormat.keyNames.count)
  }

  @Test("Every KEY_ and BTN_ name of this machine's <linux/input-event-codes.h> has the header's code")
  func keyNamesMatchTheKernelHeader() throws {
    let path = "/usr/include/linux/input-event-codes.h"
    guard let header = try? String(contentsOfFile: path, encoding: .utf8) else { return }  // no kernel headers
    let notKeys: Set<String> = [
      "KEY_MAX", "KEY_CNT", "KEY_MIN_INTERESTING", "BTN_MISC", "BTN_MOUSE", "BTN_JOYSTICK", "BTN_GAMEPAD", "BTN_DIGI",
      "BTN_WHEEL", "BTN_TRIGGER_HAPPY",
    ]
    var values: [String: UInt16] = [:]
    var checked = 0
    for line in header.split(separator: "\n") {
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard fields.count >= 3, fields[0] == "#define", fields[1].hasPrefix("KEY_") || fields[1].hasPrefix("BTN_")
      else { continue }
      let name = String(fields[1])
      let text = String(fields[2])
      let value = text.hasPrefix("0x") ? UInt16(text.dropFirst(2), radix: 16) : UInt16(text) ?? values[text]
      guard let value else { continue }  // KEY_CNT: (KEY_MAX+1)
      values[name] = value
      if notKeys.contains(name) {
        #expect(EventNames.keyCode(named: name) == nil, "\(name)")
      } else {
        #expect(EventNames.keyCode(named: name) == value, "\(name)")
        checked += 1
      }
    }
    #expect(checked > 600)
  }
}
