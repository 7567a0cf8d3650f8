import Foundation
import Testing
import TouchdInput
import TouchdTestKit
import Yams

@testable import TouchdScene

/// The scene format of controls (`control:`), presses (`presses:`, `allowedPressTypes`) and key
/// devices (a window's `keys:` and `firstResponder`): decoding with UIKit's defaults, the controls'
/// errors with their positions, the JSON Schema and the kiosk-controls example. The keys' and
/// presses' errors and the key-name table are in KeySceneFormatTests.swift.
@Suite("Scene format: controls, keys and presses")
struct ControlSceneFormatTests {
  func diagnostics(_ yaml: String) -> [String] { sceneDiagnostics(yaml) }

  // MARK: Decoding

  @Test("Every control type decodes its keys with UIKit's names")
  func controlsDecode() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - id: buy
              frame: {x: 0, y: 0, width: 200, height: 80}
              control:
                type: button
                enabled: false
                selected: true
                actions: {touchUpInside: buy-ticket, touchDown: press-buy, primaryActionTriggered: buy-primary}
            - id: receipt
              frame: {x: 0, y: 80, width: 51, height: 31}
              control: {type: switch, on: true, actions: {valueChanged: receipt}}
            - id: volume
              frame: {x: 0, y: 120, width: 300, height: 40}
              control: {type: slider, value: -5, minimumValue: -10, maximumValue: 10, continuous: false}
            - id: count
              frame: {x: 0, y: 160, width: 94, height: 29}
              control:
                type: stepper
                value: 4
                minimumValue: 1
                maximumValue: 8
                stepValue: 0.5
                continuous: false
                autorepeat: false
            - id: language
              frame: {x: 0, y: 200, width: 300, height: 40}
              control: {type: segmented, segments: [en, de, fr], selectedSegmentIndex: 2}
      """)
    let views = try #require(scene.windows.first?.views)
    let buy = try #require(views[0].control)
    #expect(buy.type == .button && !buy.enabled && buy.selected)
    #expect(
      buy.actions == ["touchUpInside": "buy-ticket", "touchDown": "press-buy", "primaryActionTriggered": "buy-primary"])
    let receipt = try #require(views[1].control)
    #expect(receipt.type == .switch && receipt.on && receipt.actions == ["valueChanged": "receipt"])
    let volume = try #require(views[2].control)
    #expect(volume.type == .slider && volume.value == -5 && volume.minimumValue == -10 && volume.maximumValue == 10)
    #expect(!volume.continuous)
    let count = try #require(views[3].control)
    #expect(count.type == .stepper && count.value == 4 && count.minimumValue == 1 && count.maximumValue == 8)
    #expect(count.stepValue == 0.5 && !count.continuous && !count.autorepeat)
    let language = try #require(views[4].control)
    #expect(language.type == .segmented && language.segments == ["en", "de", "fr"])
    #expect(language.selectedSegmentIndex == 2)
  }

  @Test("Omitted control keys take UIKit's defaults: slider max 1, stepper max 100, no segment selected")
  func controlDefaults() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - {id: button, frame: {x: 0, y: 0, width: 10, height: 10}, control: {type: button}}
            - {id: switch, frame: {x: 0, y: 0, width: 10, height: 10}, control: {type: switch}}
            - {id: slider, frame: {x: 0, y: 0, width: 10, height: 10}, control: {type: slider}}
            - {id: stepper, frame: {x: 0, y: 0, width: 10, height: 10}, control: {type: stepper}}
            - {id: segmented, frame: {x: 0, y: 0, width: 10, height: 10}, control: {type: segmented, segments: [a]}}
            - {id: pinned, frame: {x: 0, y: 0, width: 10, height: 10}, control: {type: stepper, minimumValue: 1}}
            - {id: plain, frame: {x: 0, y: 0, width: 10, height: 10}}
      """)
    let views = try #require(scene.windows.first?.views)
    let controls = views.compactMap(\.control)
    #expect(controls.count == 6)
    #expect(controls.allSatisfy { $0.enabled && !$0.selected && $0.actions.isEmpty })
    #expect(controls[0].type == .button)
    #expect(!controls[1].on)
    let slider = controls[2]
    #expect(slider.value == 0 && slider.minimumValue == 0 && slider.maximumValue == 1 && slider.continuous)
    let stepper = controls[3]
    #expect(stepper.value == 0 && stepper.minimumValue == 0 && stepper.maximumValue == 100)
    #expect(stepper.stepValue == 1 && stepper.continuous && stepper.autorepeat)
    #expect(controls[4].selectedSegmentIndex == -1 && controls[4].segments == ["a"])
    // An absent value is 0 pinned into minimumValue...maximumValue, as UIKit pins it.
    #expect(controls[5].value == 1)
    #expect(views[6].control == nil && !views[6].presses)
    #expect(scene.windows[0].keys == nil && scene.windows[0].firstResponder == nil)
    #expect(Scene.Control.defaultMaximum(for: .slider) == 1 && Scene.Control.defaultMaximum(for: .stepper) == 100)
  }

  @Test("keys:, firstResponder, presses and allowedPressTypes decode; allowedPressTypes defaults to none")
  func keysAndPressesDecode() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          keys:
            devices: ["Kiosk Keypad", "0eef:72a1"]
            map: {KEY_ENTER: select, KEY_F1: help, BTN_A: playPause, KEY_ZOOM: zoom_2}
          firstResponder: panel
          views:
            - id: root
              frame: {x: 0, y: 0, width: 800, height: 480}
              views:
                - id: panel
                  frame: {x: 0, y: 0, width: 400, height: 480}
                  presses: true
                  recognizers:
                    - {id: one, type: tap, action: one, allowedPressTypes: select}
                    - {id: list, type: longPress, action: list, allowedPressTypes: [select, help]}
                    - {id: none, type: tap, action: none}
                    - {id: empty, type: longPress, action: empty, allowedPressTypes: []}
        - id: side
          size: {width: 800, height: 480}
          keys: {devices: ["pad"]}
      """)
    let main = scene.windows[0]
    #expect(
      main.keys
        == Scene.Keys(
          devices: ["Kiosk Keypad", "0eef:72a1"],
          map: [
            "KEY_ENTER": "select", "KEY_F1": "help", "BTN_A": "playPause", "KEY_ZOOM": "zoom_2",
          ]))
    #expect(main.firstResponder == "panel")
    let panel = try #require(main.views.first?.views.first)
    #expect(panel.presses && !main.views[0].presses)
    let recognizers = panel.recognizers
    #expect(recognizers[0].parameter("allowedPressTypes")?.options == ["select"])
    #expect(recognizers[1].parameter("allowedPressTypes")?.options == ["select", "help"])
    #expect(recognizers[2].parameter("allowedPressTypes")?.options == [])
    #expect(recognizers[2].parameters["allowedPressTypes"] == nil)
    #expect(recognizers[3].parameter("allowedPressTypes")?.options == [])
    // A map may be left out: the devices' keys then make no press.
    #expect(scene.windows[1].keys == Scene.Keys(devices: ["pad"], map: [:]))
  }

  // MARK: Control errors

  @Test("Control errors name the key, the view and the type, at the value or the key")
  func controlErrors() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - id: volume
              frame: {x: 0, y: 0, width: 300, height: 40}
              control:
                type: slider
                on: true
                stepValue: 2
                value: 1.5
                actions: {touchUpInsid: buy, touchDown: ""}
            - id: mode
              frame: {x: 0, y: 40, width: 51, height: 31}
              control: {type: switch, value: 1, segments: [a]}
            - id: count
              frame: {x: 0, y: 80, width: 94, height: 29}
              control: {type: stepper, minimumValue: 200, stepValue: 0}
            - id: language
              frame: {x: 0, y: 120, width: 300, height: 40}
              control: {type: segmented, segments: [en, de, fr], selectedSegmentIndex: 3, on: false}
            - id: empty
              frame: {x: 0, y: 160, width: 300, height: 40}
              control: {type: segmented, segments: [], selectedSegmentIndex: -2}
            - id: typo
              frame: {x: 0, y: 200, width: 300, height: 40}
              control: {type: Slider, value: 5, bogus: 1}
            - id: untyped
              frame: {x: 0, y: 240, width: 300, height: 40}
              control: {on: true, enabled: "yes"}
            - id: range
              frame: {x: 0, y: 280, width: 300, height: 40}
              control: {type: slider, minimumValue: 2, maximumValue: 1, value: 9}
            - id: nosegments
              frame: {x: 0, y: 320, width: 300, height: 40}
              control: {type: segmented, selectedSegmentIndex: 0, actions: [valueChanged]}
            - id: nothing
              frame: {x: 0, y: 360, width: 300, height: 40}
              control: {type: [button]}
      """)
    #expect(
      errors == [
        "scene.yaml:10:11: error: 'on' in control of view 'volume' is a switch property; this control is a slider",
        "scene.yaml:11:11: error: 'stepValue' in control of view 'volume' is a stepper property; this control is a slider",
        "scene.yaml:12:18: error: 'value' in control of view 'volume' must be within minimumValue...maximumValue (0...1), found 1.5",
        "scene.yaml:13:21: error: unknown control event 'touchUpInsid' in actions of control of view 'volume' (did you mean 'touchUpInside'?)",
        "scene.yaml:13:51: error: 'touchDown' in actions of control of view 'volume' must be an action name (a non-empty string), found ''",
        "scene.yaml:16:33: error: 'value' in control of view 'mode' is a slider and stepper property; this control is a switch",
        "scene.yaml:16:43: error: 'segments' in control of view 'mode' is a segmented control property; this control is a switch",
        "scene.yaml:19:48: error: 'minimumValue' in control of view 'count' must be less than maximumValue (100, a stepper's default), found 200",
        "scene.yaml:19:64: error: 'stepValue' in control of view 'count' must be greater than 0, found 0",
        "scene.yaml:22:82: error: 'selectedSegmentIndex' in control of view 'language' must be -1 (no segment) or less than the number of segments (3), found 3",
        "scene.yaml:22:85: error: 'on' in control of view 'language' is a switch property; this control is a segmented control",
        "scene.yaml:25:46: error: 'segments' in control of view 'empty' must be a non-empty list of strings, found an empty list",
        "scene.yaml:25:72: error: 'selectedSegmentIndex' in control of view 'empty' must be at least -1, found -2",
        "scene.yaml:28:25: error: unknown control type 'Slider' in control of view 'typo' (did you mean 'slider'?)",
        "scene.yaml:28:43: error: unknown key 'bogus' in control of view 'typo'",
        "scene.yaml:31:18: error: missing required key 'type' in control of view 'untyped'",
        "scene.yaml:31:38: error: 'enabled' in control of view 'untyped' must be true or false, found 'yes'",
        "scene.yaml:34:64: error: 'maximumValue' in control of view 'range' must be greater than minimumValue (2), found 1",
        "scene.yaml:37:18: error: missing required key 'segments' in control of view 'nosegments'",
        "scene.yaml:37:70: error: 'actions' in control of view 'nosegments' must be a mapping of control events to action names, found a list",
        "scene.yaml:40:25: error: unknown control type a list in control of view 'nothing' (expected one of button, switch, slider, stepper, segmented, pageControl)",
      ])
  }

  @Test("minimumValue < maximumValue with either default, value within them, bounds included")
  func valueRange() {
    func errors(_ control: String) -> [String] {
      diagnostics(
        """
        version: 1
        windows:
          - id: main
            size: {width: 800, height: 480}
            views:
              - {id: c, frame: {x: 0, y: 0, width: 1, height: 1}, control: \(control)}
        """)
    }
    for ok in [
      "{type: slider, value: 1}", "{type: slider, value: 0}", "{type: slider, minimumValue: -1, maximumValue: 0}",
      "{type: stepper, value: 100}", "{type: stepper, minimumValue: 99}", "{type: stepper, maximumValue: 0.5}",
      "{type: slider, maximumValue: 100, value: 50}", "{type: segmented, segments: [a, b], selectedSegmentIndex: 1}",
      "{type: segmented, segments: [a], selectedSegmentIndex: -1}",
    ] {
      #expect(errors(ok) == [], "\(ok)")
    }
    #expect(
      errors("{type: slider, minimumValue: 1}") == [
        "scene.yaml:6:97: error: 'minimumValue' in control of view 'c' must be less than maximumValue (1, a slider's default), found 1"
      ])
    #expect(
      errors("{type: stepper, maximumValue: -1}") == [
        "scene.yaml:6:98: error: 'maximumValue' in control of view 'c' must be greater than minimumValue (0), found -1"
      ])
    #expect(
      errors("{type: stepper, value: -0.5}") == [
        "scene.yaml:6:91: error: 'value' in control of view 'c' must be within minimumValue...maximumValue (0...100), found -0.5"
      ])
    // A wrong bound is reported once, as a number, and the range is not checked with it.
    #expect(
      errors("{type: slider, maximumValue: \"2\", value: 1.5}") == [
        "scene.yaml:6:97: error: 'maximumValue' in control of view 'c' must be a number, found '2'"
      ])
    #expect(
      errors("{type: stepper, stepValue: -1}") == [
        "scene.yaml:6:95: error: 'stepValue' in control of view 'c' must be greater than 0, found -1"
      ])
  }

  @Test("A control is not a scroll view and does not publish touches; subviews and recognizers are allowed")
  func controlViewConflicts() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - id: panel
              frame: {x: 0, y: 0, width: 300, height: 300}
              scroll: {contentSize: {width: 300, height: 900}}
              control: {type: button}
            - id: buy
              frame: {x: 0, y: 300, width: 300, height: 80}
              touches: true
              control: {type: button, actions: {touchUpInside: buy}}
            - id: quiet
              frame: {x: 300, y: 300, width: 300, height: 80}
              touches: false
              presses: true
              control: {type: switch}
              recognizers:
                - {id: quiet-hold, type: longPress, action: reset}
              views:
                - {id: quiet-label, frame: {x: 0, y: 0, width: 100, height: 20}}
      """)
    #expect(
      errors == [
        "scene.yaml:9:9: error: 'control' in view 'panel' is not allowed with 'scroll': a view is either a control or a scroll view",
        "scene.yaml:12:18: error: 'touches' in view 'buy' must be false: a control handles its own touches; subscribe to control messages",
      ])
  }

  // MARK: Schema

  @Test("The schema has the control, keys and press-type objects, each type's own defaults")
  func schema() throws {
    let data = try Data(contentsOf: TestPaths.config("scene.schema.json"))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let defs = try #require(schema["$defs"] as? [String: [String: Any]])
    func properties(_ name: String) -> [String: [String: Any]] {
      defs[name]?["properties"] as? [String: [String: Any]] ?? [:]
    }
    #expect(properties("view")["control"]?["$ref"] as? String == "#/$defs/control")
    #expect(properties("view")["presses"]?["default"] as? Bool == false)
    #expect(properties("window")["keys"]?["$ref"] as? String == "#/$defs/keys")
    #expect(properties("window")["firstResponder"]?["type"] as? String == "string")
    #expect(
      properties("control")["type"]?["enum"] as? [String]
        == ["button", "switch", "slider", "stepper", "segmented", "pageControl"])
    #expect(defs["control"]?["required"] as? [String] == ["type"])
    #expect((defs["control"]?["allOf"] as? [Any])?.count == 6)
    let events = (properties("control")["actions"]?["propertyNames"] as? [String: Any])?["enum"] as? [String]
    #expect(events == SceneFormat.controlEvents)
    #expect(properties("sliderControl")["maximumValue"]?["default"] as? Double == 1)
    #expect(properties("stepperControl")["maximumValue"]?["default"] as? Double == 100)
    #expect(properties("stepperControl")["stepValue"]?["exclusiveMinimum"] as? Double == 0)
    #expect(properties("segmentedControl")["selectedSegmentIndex"]?["default"] as? Double == -1)
    #expect(properties("segmentedControl")["segments"]?["minItems"] as? Double == 1)
    #expect(defs["segmentedControl"]?["required"] as? [String] == ["type", "segments"])
    #expect(properties("switchControl")["on"]?["default"] as? Bool == false)
    #expect(properties("buttonControl").keys.sorted() == ["actions", "enabled", "selected", "type"])
    #expect(defs["keys"]?["required"] as? [String] == ["devices"])
    let keyNames = (properties("keys")["map"]?["propertyNames"] as? [String: Any])?["enum"] as? [String]
    #expect(keyNames == SceneFormat.keyNames)
    #expect(keyNames?.contains("KEY_ENTER") == true && keyNames?.contains("BTN_TOUCH") == false)
    #expect(properties("keys")["map"]?["additionalProperties"] as? [String: String] == ["$ref": "#/$defs/pressType"])
    let pressType = try #require(defs["pressType"]?["anyOf"] as? [[String: Any]])
    #expect(pressType.first?["enum"] as? [String] == SceneFormat.pressTypes)
    #expect(pressType.last?["pattern"] as? String == "^[A-Za-z][A-Za-z0-9_-]*$")
    #expect(properties("tapRecognizer")["allowedPressTypes"] != nil)
    #expect(properties("longPressRecognizer")["allowedPressTypes"]?["default"] as? [String] == [])
    #expect(properties("panRecognizer")["allowedPressTypes"] == nil)
  }

  @Test("python3 jsonschema rejects a property of another control type, unknown events and key names")
  func schemaRejects() throws {
    let script = """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(sys.argv[2])))
      for e in errors: print(e.message)
      sys.exit(1 if errors else 0)
      """
    let bad = """
      {"version":1,"windows":[{"id":"w","size":{"width":1,"height":1},
      "keys":{"devices":["pad"],"map":{"BTN_TOUCH":"select","KEY_ENTER":"two words"}},
      "views":[{"id":"v","frame":{"x":0,"y":0,"width":1,"height":1},
      "control":{"type":"slider","on":true,"actions":{"tap":"a"}},
      "recognizers":[{"id":"p","type":"pan","action":"a","allowedPressTypes":["select"]}]}]}]}
      """
    let result = try runPython(script, [TestPaths.config("scene.schema.json").path, bad])
    #expect(result.status == 1)
    #expect(result.output.contains("'on' was unexpected"))
    #expect(result.output.contains("'tap' is not one of"))
    #expect(result.output.contains("'BTN_TOUCH' is not one of"))
    #expect(result.output.contains("'two words' is not valid under any of the given schemas"))
    #expect(result.output.contains("'allowedPressTypes' was unexpected"))
  }

  // MARK: The example

  @Test("config/kiosk-controls.yaml: buttons, a slider, a segmented control, a stepper, a switch and a keypad")
  func kioskControlsExample() throws {
    let scene = try Scene.load(path: TestPaths.config("kiosk-controls.yaml").path)
    #expect(scene.windows.count == 1)
    let window = scene.windows[0]
    #expect(window.size == Scene.Size(width: 1280, height: 800))
    #expect(
      window.keys
        == Scene.Keys(
          devices: ["Kiosk Keypad"],
          map: [
            "KEY_F1": "help", "KEY_ENTER": "select", "KEY_UP": "upArrow", "KEY_DOWN": "downArrow", "KEY_ESC": "menu",
          ]))
    var views: [String: Scene.View] = [:]
    func collect(_ list: [Scene.View]) {
      for view in list {
        views[view.id] = view
        collect(view.views)
      }
    }
    collect(window.views)
    let firstResponder = try #require(views[window.firstResponder ?? ""])
    #expect(firstResponder.presses)
    let select = try #require(firstResponder.recognizers.first)
    #expect(select.type == .tap && select.parameter("allowedPressTypes")?.options == ["select"])
    let help = try #require(views["root"]?.recognizers.first)
    #expect(help.type == .longPress && help.parameter("allowedPressTypes")?.options == ["help"])
    #expect(views["buy"]?.control == Scene.Control(type: .button, actions: ["touchUpInside": "buy-ticket"]))
    #expect(views["cancel"]?.control == Scene.Control(type: .button, actions: ["touchUpInside": "cancel"]))
    let volume = try #require(views["volume"]?.control)
    #expect(volume.type == .slider && volume.actions == ["valueChanged": "volume"] && volume.maximumValue == 1)
    let language = try #require(views["language"]?.control)
    #expect(language.type == .segmented && language.segments == ["en", "de", "fr"])
    #expect(language.actions == ["valueChanged": "language"])
    let tickets = try #require(views["ticket-count"]?.control)
    #expect(tickets.type == .stepper && tickets.actions == ["valueChanged": "ticket-count"])
    #expect(tickets.minimumValue <= tickets.value && tickets.value <= tickets.maximumValue)
    #expect(views["receipt"]?.control?.type == .switch)
    // Every control type appears but the page control (config/carousel.yaml's, PageControlFormatTests),
    // and no control publishes touches or scrolls.
    let controls = views.values.compactMap(\.control)
    #expect(Set(controls.map(\.type)) == Set(Scene.Control.Kind.allCases).subtracting([.pageControl]))
    #expect(views.values.allSatisfy { $0.control == nil || (!$0.touches && $0.scroll == nil) })
    #expect(bundledScenes.contains("kiosk-controls.yaml") && exampleScenes.contains("kiosk-controls.yaml"))
  }

  @Test("touchctl check passes the kiosk-controls example")
  func checkKioskControls() throws {
    let path = TestPaths.config("kiosk-controls.yaml").path
    let result = try runTouchctl(["check", path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout == "\(path): ok (1 windows, 8 views, 2 recognizers)\n")
  }

  @Test("docs/scene.md's control and key errors are what the validator prints")
  func docsExample() throws {
    let docs = try readText(TestPaths.repositoryRoot.appendingPathComponent("docs/scene.md"))
    let yaml = """
      version: 1
      windows:
        - id: main
          size: {width: 1280, height: 800}
          keys:
            devices: ["Kiosk Keypad"]
            map:
              KEY_F1: help
              KEY_ENTR: select
              BTN_TOUCH: menu
          firstResponder: tickts
          views:
            - {id: tickets, frame: {x: 32, y: 128, width: 760, height: 480}, presses: true}
            - id: volume
              frame: {x: 880, y: 640, width: 368, height: 56}
              control:
                type: slider
                on: true
                value: 1.5
                actions: {touchUpInsid: volume}
      """
    let errors: [String]
    do {
      _ = try Scene.parse(yaml, file: "kiosk.yaml")
      errors = []
    } catch {
      errors = error.diagnostics.map(\.description)
    }
    #expect(errors.count == 6)
    for line in errors { #expect(docs.contains(line + "\n"), "\(line)") }
  }
}
