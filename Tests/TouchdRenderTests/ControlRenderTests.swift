import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdRender
import TouchdScene
import TouchdTestKit

/// One of each control, a disabled selected button and a control inside a hidden panel, in an
/// 800 × 600 window.
func controlScene() throws -> Scene {
  try Scene.parse(
    """
    version: 1
    windows:
      - id: main
        size: {width: 800, height: 600}
        views:
          - id: ok
            frame: {x: 40, y: 40, width: 200, height: 80}
            control: {type: button, actions: {touchUpInside: confirm, touchDown: press}}
          - id: wifi
            frame: {x: 300, y: 40, width: 51, height: 31}
            control: {type: switch, on: true, actions: {valueChanged: wifi}}
          - id: dark
            frame: {x: 400, y: 40, width: 51, height: 31}
            control: {type: switch}
          - id: volume
            frame: {x: 100, y: 200, width: 228, height: 40}
            control: {type: slider, value: 0.5, actions: {valueChanged: volume}}
          - id: level
            frame: {x: 400, y: 200, width: 228, height: 40}
            control: {type: slider, value: 25, maximumValue: 100}
          - id: count
            frame: {x: 100, y: 300, width: 120, height: 40}
            control: {type: stepper, value: 1, minimumValue: 1, maximumValue: 3, actions: {valueChanged: count}}
          - id: mode
            frame: {x: 300, y: 300, width: 300, height: 40}
            control: {type: segmented, segments: [day, week, month], selectedSegmentIndex: 2}
          - id: off
            frame: {x: 100, y: 400, width: 200, height: 60}
            control: {type: button, enabled: false, selected: true}
          - id: panel
            frame: {x: 400, y: 400, width: 300, height: 100}
            hidden: true
            views:
              - id: inside
                frame: {x: 10, y: 10, width: 51, height: 31}
                control: {type: switch}
    """)
}

@Suite("SceneRenderer: controls")
struct ControlRenderTests {
  func control(_ doc: SVGDocument, _ id: String) throws -> Element {
    try #require(doc.all("g", "control").first { $0["data-id"] == id && $0.window == "main" })
  }

  /// The elements named `name` with class `cls` inside control `id`'s group.
  func parts(_ doc: SVGDocument, _ id: String, _ name: String, _ cls: String) -> [Element] {
    doc.all(name, cls).filter { e in
      e.ancestors.contains { $0["class"]?.hasPrefix("control") == true && $0["data-id"] == id }
    }
  }

  func label(_ doc: SVGDocument, _ id: String) throws -> Element {
    try #require(doc.all("text", "view-label").first { $0["data-id"] == id && $0.window == "main" })
  }

  @Test("A slider: track, fill to the thumb, the thumb at its value's place (centre from x + 14 to x + width − 14)")
  func slider() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: try controlScene()).svg())
    let volume = try control(doc, "volume")
    #expect(volume["data-type"] == "slider")
    #expect(volume["data-value"] == "0.5")
    let thumb = try #require(parts(doc, "volume", "circle", "slider-thumb").first)
    #expect(thumb.number("cx") == 214)  // 100 + 14 + 0.5 × (228 − 28)
    #expect(thumb.number("cy") == 220)
    #expect(thumb.number("r") == 14)
    let track = try #require(parts(doc, "volume", "rect", "slider-track").first)
    #expect([track.number("x"), track.number("width")] == [100, 228])
    let fill = try #require(parts(doc, "volume", "rect", "slider-fill").first)
    #expect([fill.number("x"), fill.number("width")] == [100, 114])
    // The grab area: the thumb grown to 44 pt square (and to the slider's height, 40 here).
    let grab = try #require(parts(doc, "volume", "rect", "control-hit").first)
    #expect([grab.number("x"), grab.number("y"), grab.number("width"), grab.number("height")] == [192, 198, 44, 44])
    // Another range: 25 of 0...100 is a quarter of the travel.
    #expect(parts(doc, "level", "circle", "slider-thumb").first?.number("cx") == 464)
    #expect(try label(doc, "volume").text == "volume (slider 0.50)" + "valueChanged → volume")
    #expect(try label(doc, "level").text == "level (slider 25.00)")
  }

  @Test("A switch: a track, filled when on, and a knob as tall as the switch on the on or off side")
  func switches() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: try controlScene()).svg())
    let wifi = try control(doc, "wifi")
    #expect(wifi.has("on"))
    #expect(wifi["data-value"] == "on")
    let track = try #require(parts(doc, "wifi", "rect", "switch-track").first)
    #expect(track.has("on"))
    #expect(track.number("rx") == 15.5)
    // On: the knob's centre is half a knob inside the right edge (travel 51 − 31 = 20).
    let knob = try #require(parts(doc, "wifi", "circle", "switch-knob").first)
    #expect(knob.number("cx") == 335.5)
    #expect(knob.number("cy") == 55.5)
    // Off: at the left.
    let dark = try control(doc, "dark")
    #expect(!dark.has("on"))
    #expect(dark["data-value"] == "off")
    #expect(parts(doc, "dark", "rect", "switch-track").first?.has("on") == false)
    #expect(parts(doc, "dark", "circle", "switch-knob").first?.number("cx") == 415.5)
    #expect(try label(doc, "wifi").text == "wifi (switch on)" + "valueChanged → wifi")
    #expect(try label(doc, "dark").text == "dark (switch off)")
  }

  @Test("A segmented control: equal segments with their titles, the selected one filled")
  func segmented() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: try controlScene()).svg())
    #expect(try control(doc, "mode")["data-value"] == "2")
    let segments = parts(doc, "mode", "rect", "segment")
    #expect(segments.map { $0["data-index"] } == ["0", "1", "2"])
    // Three segments of 100 pt: the third, filled, is centred at 300 + 250.
    let selected = try #require(segments.first { $0.has("selected") })
    #expect(selected["data-index"] == "2")
    let (x, width) = (try #require(selected.number("x")), try #require(selected.number("width")))
    #expect(abs(x + width / 2 - 550) < 0.01)
    #expect(width > 90 && width <= 100)
    #expect(segments.filter { $0.has("selected") }.count == 1)
    let titles = parts(doc, "mode", "text", "segment-title")
    #expect(titles.map(\.text) == ["day", "week", "month"])
    #expect(titles.map { $0.number("x") } == [350, 450, 550])
    #expect(titles.map { $0.has("selected") } == [false, false, true])
    #expect(try label(doc, "mode").text == "mode (segmented month)")

    // No segment selected (-1): none filled.
    var scene = try controlScene()
    scene.windows[0].views[6].control?.selectedSegmentIndex = -1
    let none = try SVGDocument(try SceneRenderer(scene: scene).svg())
    #expect(parts(none, "mode", "rect", "segment").filter { $0.has("selected") }.isEmpty)
    #expect(try label(none, "mode").text == "mode (segmented none)")
  }

  @Test("A stepper: − on the left half, + on the right, its value; a half at its limit faded")
  func stepper() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: try controlScene()).svg())
    #expect(try control(doc, "count")["data-value"] == "1")
    let frame = try #require(parts(doc, "count", "rect", "control-frame").first)
    #expect(
      [frame.number("x"), frame.number("y"), frame.number("width"), frame.number("height")] == [100, 300, 120, 40])
    let divider = try #require(parts(doc, "count", "line", "control-divider").first)
    #expect(divider.number("x1") == 160 && divider.number("x2") == 160)
    let signs = parts(doc, "count", "text", "stepper-sign")
    #expect(signs.map(\.text) == ["−", "+"])
    #expect(signs.map { $0.number("x") } == [130, 190])
    // At the minimum, minus cannot step.
    #expect(signs.map { $0.has("at-limit") } == [true, false])
    let value = try #require(parts(doc, "count", "text", "stepper-value").first)
    #expect(value.text == "1" && value.number("x") == 160)
    #expect(try label(doc, "count").text == "count (stepper 1)" + "valueChanged → count")
  }

  @Test("A button: a rounded body at its frame with its id as title; its events in UIKit's order")
  func button() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: try controlScene()).svg())
    let ok = try control(doc, "ok")
    #expect(ok["data-type"] == "button")
    #expect(ok["data-value"] == nil)
    #expect(!ok.has("selected") && !ok.has("highlighted") && !ok.has("disabled"))
    let body = try #require(parts(doc, "ok", "rect", "control-frame").first)
    #expect([body.number("x"), body.number("y"), body.number("width"), body.number("height")] == [40, 40, 200, 80])
    #expect((body.number("rx") ?? 0) > 0)
    let title = try #require(parts(doc, "ok", "text", "control-title").first)
    #expect(title.text == "ok" && title.number("x") == 140)
    // touchDown comes before touchUpInside in UIKit's bit order, whatever the scene's order.
    #expect(try label(doc, "ok").text == "ok (button)" + "touchDown → press" + "touchUpInside → confirm")
    // The plain view's outline is still drawn under the control.
    #expect(doc.all("rect", "view").contains { $0["data-id"] == "ok" })
  }

  @Test("Disabled controls are dimmed, and so are controls in views that cannot be hit")
  func disabled() throws {
    let svg = try SceneRenderer(scene: try controlScene()).svg()
    let doc = try SVGDocument(svg)
    let off = try control(doc, "off")
    #expect(off.has("disabled") && off.has("selected"))
    #expect(!(try control(doc, "ok")).has("disabled"))
    #expect(svg.contains(".control.disabled { opacity: 0.35; }"))
    let offLabel = try label(doc, "off")
    #expect(offLabel.has("disabled") && offLabel.has("control"))
    #expect(offLabel.text == "off (button, disabled, selected)")
    // Inside a hidden panel: the view's classes, faded by the style sheet.
    let inside = try control(doc, "inside")
    #expect(inside.has("blocked"))
    #expect(svg.contains(".control.dimmed, .control.inert, .control.blocked { opacity: 0.4; }"))
    #expect(try label(doc, "inside").text == "inside (switch off, blocked by panel)")
    // The legend explains both.
    let legend = doc.all("text", "legend-text").map(\.text)
    #expect(legend.contains("enabled: false: dimmed; hit, but ignores touches"))
    #expect(legend.contains("where a touch grabs a slider's thumb"))
  }

  @Test("A control's label goes under it, above it at the window's bottom, right-aligned at its right edge")
  func labelPlacement() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 400, height: 300}
          views:
            - id: top-left
              frame: {x: 10, y: 10, width: 51, height: 31}
              control: {type: switch, actions: {valueChanged: toggle-the-top-left-switch}}
            - id: bottom
              frame: {x: 10, y: 260, width: 100, height: 30}
              control: {type: button}
            - id: right
              frame: {x: 340, y: 100, width: 51, height: 31}
              control: {type: switch, actions: {valueChanged: toggle-right}}
      """)
    let doc = try SVGDocument(try SceneRenderer(scene: scene).svg())
    let below = try label(doc, "top-left")
    #expect((below.number("y") ?? 0) > 41)
    #expect(below.number("x") == 10)
    #expect(below["text-anchor"] == nil)
    let above = try label(doc, "bottom")
    #expect((above.number("y") ?? 300) < 260)
    let right = try label(doc, "right")
    #expect(right["text-anchor"] == "end")
    #expect(right.number("x") == 391)
  }

  @Test("With a trace, each control is drawn in the state of its last control message in that window")
  func traceState() throws {
    let scene = try controlScene()
    func message(
      _ view: String, _ type: String, window: String = "main", highlighted: Bool = false, _ value: ControlValue
    )
      -> ControlMessage
    {
      ControlMessage(
        seq: 1, control: type, view: view, window: window, time: 0, enabled: true, highlighted: highlighted,
        selected: false, value: value)
    }
    let trace = RenderTrace(
      windowID: "main", touches: [], actions: [],
      controls: [
        "wifi": message("wifi", "switch", .on(false)), "volume": message("volume", "slider", .value(1)),
        "mode": message("mode", "segmented", .selectedSegmentIndex(0)), "count": message("count", "stepper", .value(3)),
        "ok": message("ok", "button", highlighted: true, .none),
        "dark": message("dark", "switch", window: "elsewhere", .on(true)),
      ])
    let doc = try SVGDocument(try SceneRenderer(scene: scene, trace: trace).svg())
    #expect(parts(doc, "wifi", "circle", "switch-knob").first?.number("cx") == 315.5)
    #expect(parts(doc, "volume", "circle", "slider-thumb").first?.number("cx") == 314)  // 100 + 228 − 14
    #expect(parts(doc, "mode", "rect", "segment").first { $0.has("selected") }?["data-index"] == "0")
    // At the maximum, plus cannot step.
    #expect(parts(doc, "count", "text", "stepper-sign").map { $0.has("at-limit") } == [false, true])
    #expect(try control(doc, "ok").has("highlighted"))
    #expect(try label(doc, "ok").text.hasPrefix("ok (button, highlighted)"))
    // A message of another window's control of the same id is not this one's.
    #expect(try control(doc, "dark")["data-value"] == "off")
    // The enabled state comes from the message too.
    var disabling = trace
    disabling.controls["volume"]?.enabled = false
    #expect(
      try control(try SVGDocument(try SceneRenderer(scene: scene, trace: disabling).svg()), "volume").has("disabled"))
  }

  @Test("After a replayed tap on the switch and drag of the slider: their final state and their actions")
  func replayed() throws {
    let scene = try Scene.load(path: kioskControlsScenePath)
    let script = FingerScript(windowWidth: 1280, windowHeight: 800, start: 3)
    script.tap(at: .init(x: 1222, y: 447))
    script.wait(0.5)
    script.drag(from: .init(x: 1064, y: 668), to: .init(x: 1200, y: 668), duration: 0.3)
    script.wait(0.5)
    script.tap(at: .init(x: 212, y: 712))
    script.wait(0.5)
    script.tap(at: .init(x: 212, y: 712))
    let recording = script.recording

    // The slider's value at the end, read from the runtime's slider after the replay.
    let clock = VirtualClock(now: ScenePlayer.origin(of: recording))
    let runtime = SceneRuntime(scene: scene, clock: clock) { _ in }
    let window = try runtime.replayWindow(for: recording)
    Replay.forEachFrame(of: recording) { frame in
      clock.advance(to: frame.time.seconds)
      runtime.handle(frame, inWindow: window)
    }
    clock.runUntilIdle()
    let slider = try #require(runtime.view("volume") as? Slider)
    #expect(slider.value > 0.8 && slider.value < 1)
    #expect((runtime.view("receipt") as? Switch)?.isOn == false)

    let trace = try RenderTrace.replaying(recording, scene: scene)
    #expect(trace.controls["volume"]?.controlValue == .value(slider.value))
    #expect(trace.controls["receipt"]?.controlValue == .on(false))
    #expect(trace.controls["receipt"]?.highlighted == false)
    #expect(trace.controls["language"] == nil)

    let svg = try SceneRenderer(scene: scene, trace: trace, recordingName: "controls.evemu").svg()
    let doc = try SVGDocument(svg)
    let thumb = try #require(parts(doc, "volume", "circle", "slider-thumb").first)
    #expect(abs(try #require(thumb.number("cx")) - (880 + 14 + slider.value * 340)) < 0.01)
    #expect(try control(doc, "volume")["data-value"] == String(slider.value))
    #expect(try label(doc, "volume").text.hasPrefix("volume (slider \(String(format: "%.2f", slider.value)))"))
    #expect(parts(doc, "receipt", "circle", "switch-knob").first?.number("cx") == 1212.5)  // 1197 + 31 / 2
    #expect(try control(doc, "receipt")["data-value"] == "off")
    // Untouched controls keep the scene's state.
    #expect(try control(doc, "language")["data-value"] == "0")
    #expect(try control(doc, "ticket-count")["data-value"] == "1")

    // The control actions: the switch's, the slider's drag as one mark where the finger ended, and
    // one per tap of the button (two fingers, two marks).
    let marks = doc.all("g", "control-action")
    #expect(marks.map { $0["data-view"] } == ["receipt", "volume", "buy", "buy"])
    #expect(marks.map { $0["data-event"] } == ["valueChanged", "valueChanged", "touchUpInside", "touchUpInside"])
    let drag = marks[1]
    let count = try #require(Int(drag["data-count"] ?? ""))
    #expect(count > 5)
    let dragMarker = try #require(
      doc.all("path", "action-marker").first { $0.ancestors.last?["data-seq"] == drag["data-seq"] })
    // The diamond's top vertex, "M x,y…", is on the finger's last position (device units round it).
    let top = try #require(dragMarker["d"]?.dropFirst().split(separator: "L").first?.split(separator: ","))
    #expect(abs(try #require(Double(top[0])) - 1200) < 0.5, "\(dragMarker["d"] ?? "")")
    let labels = doc.all("text", "action-label").map(\.text)
    #expect(labels[0].hasSuffix("control valueChanged → receipt (off)"))
    #expect(labels[1].hasSuffix("→ volume (\(String(format: "%.2f", slider.value))) · \(count) times"))
    #expect(labels[2].hasSuffix("control touchUpInside → buy-ticket"))
    // The title counts the marks.
    let title = try #require(doc.all("text", "window-title").first)
    #expect(title.text.hasSuffix("controls.evemu: 4 touches, 4 actions"))
  }

  @Test("Scenes without controls have no control styles or legend entries")
  func noControlsNoChange() throws {
    let plain = try Scene.parse(
      """
      version: 1
      windows:
        - id: w
          size: {width: 200, height: 100}
          views:
            - {id: a, frame: {x: 0, y: 0, width: 50, height: 50}}
      """)
    let svg = try SceneRenderer(scene: plain).svg()
    #expect(!svg.contains("control"))
    #expect(!svg.contains("slider"))
    #expect(try SceneRenderer(scene: try controlScene()).svg().contains(".switch-track.on {"))
  }
}
