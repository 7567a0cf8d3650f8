import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdRender
import TouchdScene
import TouchdTestKit

/// A scene with nesting, every way of not being hit, an outset, and text that needs escaping.
let panelScene = """
  version: 1
  windows:
    - id: front
      size: {width: 1000, height: 500}
      devices: ["no such device*"]
      views:
        - id: panel
          frame: {x: 100, y: 50, width: 600, height: 400}
          views:
            - id: door
              frame: {x: 20, y: 30, width: 200, height: 100}
              hitOutset: 8
              recognizers:
                - {id: door-tap, type: tap, action: "open <&> \\"close\\" 'now'"}
            - id: ghost
              frame: {x: 300, y: 30, width: 100, height: 100}
              hidden: true
              views:
                - id: ghost-child
                  frame: {x: 10, y: 10, width: 50, height: 50}
            - id: glass
              frame: {x: 300, y: 200, width: 100, height: 100}
              alpha: 0.005
            - id: label
              frame: {x: 450, y: 200, width: 100, height: 100}
              userInteractionEnabled: false
    - id: back
      size: {width: 800, height: 600}
      devices: ["touchd synthetic*"]
      views:
        - id: canvas
          frame: {x: 0, y: 0, width: 800, height: 600}
          multipleTouchEnabled: true
          recognizers:
            - {id: canvas-pan, type: pan, action: scroll}
            - {id: canvas-twice, type: tap, action: zoom-in, numberOfTapsRequired: 2}
  """

@Suite("SceneRenderer")
struct SceneRendererTests {
  let scene: Scene

  init() throws { scene = try Scene.parse(panelScene, file: "panel.yaml") }

  @Test("Output is well-formed SVG with a viewBox covering every window")
  func wellFormed() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: scene).svg())
    #expect(doc.root == "svg")
    let svg = try #require(doc.elements.first)
    #expect(svg["xmlns"] == "http://www.w3.org/2000/svg")
    let box = try #require(svg["viewBox"]).split(separator: " ").compactMap { Double($0) }
    #expect(box.count == 4)
    #expect(box[2] > 1000 && box[3] > 500 + 600)
    #expect(doc.all("g", "window").map { $0["data-id"] } == ["front", "back"])
    #expect(doc.all("text", "window-title").count == 2)
    #expect(doc.all("g", "legend-item").count >= 5)
  }

  @Test("One rect per view, frames converted to window coordinates")
  func viewRects() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: scene).svg())
    let rects = doc.all("rect", "view").filter { $0.window != nil }
    #expect(rects.map { $0["data-id"] ?? "" } == ["panel", "door", "ghost", "ghost-child", "glass", "label", "canvas"])
    let door = try #require(rects.first { $0["data-id"] == "door" })
    #expect(door.number("x") == 120)
    #expect(door.number("y") == 80)
    #expect(door.number("width") == 200)
    #expect(door.window == "front")
    let child = try #require(rects.first { $0["data-id"] == "ghost-child" })
    #expect(child.number("x") == 410)
    #expect(child.number("y") == 90)
    #expect(rects.first { $0["data-id"] == "canvas" }?.window == "back")
  }

  @Test("Hidden, transparent, non-interactive views and their subviews carry the dimmed, inert and blocked classes")
  func unhittableClasses() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: scene).svg())
    func classes(_ id: String) -> Set<String> {
      doc.all("rect", "view").first { $0["data-id"] == id && $0.window != nil }?.classes ?? []
    }
    #expect(classes("door") == ["view"])
    #expect(classes("ghost") == ["view", "hidden", "dimmed"])
    #expect(classes("glass") == ["view", "transparent", "dimmed"])
    #expect(classes("label") == ["view", "inert"])
    #expect(classes("ghost-child") == ["view", "blocked"])
    let ghostLabel = try #require(doc.all("text", "view-label").first { $0["data-id"] == "ghost" })
    #expect(ghostLabel.has("dimmed"))
    #expect(ghostLabel.text == "ghost (hidden)")
    let glassLabel = try #require(doc.all("text", "view-label").first { $0["data-id"] == "glass" })
    #expect(glassLabel.text == "glass (alpha 0.005)")
    let childLabel = try #require(doc.all("text", "view-label").first { $0["data-id"] == "ghost-child" })
    #expect(childLabel.has("blocked"))
    #expect(childLabel.text == "ghost-child (blocked by ghost)")
  }

  @Test("hitOutset draws a rectangle outside the frame; labels list recognizers with escaped text")
  func outsetAndLabels() throws {
    let svg = try SceneRenderer(scene: scene).svg()
    let doc = try SVGDocument(svg)
    let outsets = doc.all("rect", "hit-outset").filter { $0.window != nil }
    #expect(outsets.map { $0["data-id"] } == ["door"])
    #expect(outsets.first?.number("x") == 112)
    #expect(outsets.first?.number("width") == 216)
    let door = try #require(doc.all("text", "view-label").first { $0["data-id"] == "door" })
    #expect(door.text == "door" + "tap → open <&> \"close\" 'now'")
    #expect(svg.contains("open &lt;&amp;&gt; &quot;close&quot; &apos;now&apos;"))
    let canvas = try #require(doc.all("text", "view-label").first { $0["data-id"] == "canvas" })
    #expect(canvas.text == "canvas" + "pan → scroll" + "tap (2 taps) → zoom-in")
  }

  @Test("--window draws one window; an unknown id lists the windows")
  func windowSelection() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: scene, windowID: "back").svg())
    #expect(doc.all("g", "window").map { $0["data-id"] } == ["back"])
    #expect(doc.all("rect", "view").filter { $0.window != nil }.map { $0["data-id"] } == ["canvas"])
    #expect(throws: RenderError.unknownWindow("side", available: ["front", "back"])) {
      try SceneRenderer(scene: scene, windowID: "side")
    }
  }

  @Test("A recording draws in the window its device matches: one polyline per touch, ends and actions")
  func trace() throws {
    let script = FingerScript(windowWidth: 800, windowHeight: 600, start: 5)
    script.tap(at: .init(x: 100, y: 100))
    script.wait(0.5)
    script.drag(from: .init(x: 200, y: 300), to: .init(x: 600, y: 300), duration: 0.3)
    script.wait(0.5)
    script.down([.init(x: 700, y: 500)])  // still down at the end: cancelled
    let trace = try RenderTrace.replaying(script.recording, scene: scene)
    #expect(trace.windowID == "back")
    #expect(trace.touches.map(\.end) == [.lifted, .lifted, .cancelled])

    let doc = try SVGDocument(try SceneRenderer(scene: scene, trace: trace, recordingName: "r.evemu").svg())
    let lines = doc.all("polyline", "touch").filter { $0.window != nil }
    #expect(lines.count == 3)
    #expect(Set(lines.map(\.window)) == ["back"])
    #expect(Set(lines.map { $0["stroke"] }).count == 3)
    #expect(doc.all("circle", "touch-down").filter { $0.window != nil }.count == 3)
    #expect(doc.all("circle", "touch-up").filter { $0.window != nil }.count == 2)
    #expect(doc.all("path", "touch-cancel").filter { $0.window != nil }.count == 1)

    // The drag's polyline runs along y = 300 from x = 200 to 600, in window points.
    let drag = try #require(lines.first { $0["data-touch"] == String(trace.touches[1].id.rawValue) })
    let points = try #require(drag["points"]).split(separator: " ").map { pair in
      pair.split(separator: ",").compactMap { Double($0) }
    }
    #expect(points.count > 10)
    #expect(abs(points.first![0] - 200) < 0.5 && abs(points.last![0] - 600) < 0.5)
    #expect(points.allSatisfy { abs($0[1] - 300) < 0.5 })

    // The pan publishes began, changed…, ended: only began and ended are labelled.
    let pan = trace.actions.filter { $0.action == "scroll" }
    #expect(pan.contains { $0.gestureState == .changed })
    let groups = doc.all("g", "action")
    let drawn = groups.map { "\($0["data-gesture"] ?? "") \($0["data-state"] ?? "") \($0["data-action"] ?? "")" }
    #expect(drawn.contains("pan began scroll"))
    #expect(drawn.contains("pan ended scroll"))
    #expect(!drawn.contains { $0.hasPrefix("pan changed") })
    #expect(doc.all("text", "action-label").count == SceneRenderer.drawnActions(trace.actions).count)
    #expect(groups.count == doc.all("text", "action-label").count)
    #expect(groups.allSatisfy { $0.window == "back" })
  }

  @Test("The recording's path is mapped with the window's rotation")
  func rotation() throws {
    let rotated = try Scene.parse(
      """
      version: 1
      windows:
        - id: tall
          size: {width: 600, height: 1000}
          rotation: 90
          views:
            - {id: all, frame: {x: 0, y: 0, width: 600, height: 1000}}
      """)
    // Device-normalized (0.25, 0.1) lands at window (1 - 0.1, 0.25) × size with the panel turned 90°.
    let script = FingerScript(windowWidth: 1, windowHeight: 1, start: 1)
    script.tap(at: .init(x: 0.25, y: 0.1))
    let trace = try RenderTrace.replaying(script.recording, scene: rotated)
    let doc = try SVGDocument(try SceneRenderer(scene: rotated, trace: trace).svg())
    let dot = try #require(doc.all("circle", "touch-down").first { $0.window == "tall" })
    #expect(abs(try #require(dot.number("cx")) - 540) < 0.5)
    #expect(abs(try #require(dot.number("cy")) - 250) < 0.5)
  }

  @Test("A recording from a device no window takes is refused")
  func noWindow() throws {
    let only = try Scene.parse(
      """
      version: 1
      windows:
        - {id: w, size: {width: 10, height: 10}, devices: ["elsewhere"]}
      """)
    let script = FingerScript(windowWidth: 10, windowHeight: 10)
    script.tap(at: .init(x: 5, y: 5))
    #expect(throws: SceneRuntimeError.noWindow(device: SyntheticTouchscreen.name)) {
      try RenderTrace.replaying(script.recording, scene: only)
    }
  }

  @Test("Touches beyond the palette reuse its colours in order")
  func paletteCycles() throws {
    let count = SceneRenderer.palette.count + 2
    let touches = (0..<count).map { i in
      TouchPath(id: TouchID(rawValue: UInt64(i + 1)), points: [Point(x: Double(i * 10), y: 5)], end: .lifted)
    }
    let small = try Scene.parse(
      """
      version: 1
      windows:
        - {id: w, size: {width: 200, height: 100}}
      """)
    let trace = RenderTrace(windowID: "w", touches: touches, actions: [])
    let doc = try SVGDocument(try SceneRenderer(scene: small, trace: trace).svg())
    let strokes = doc.all("polyline", "touch").filter { $0.window == "w" }.map { $0["stroke"] ?? "" }
    #expect(strokes == (0..<count).map { SceneRenderer.palette[$0 % SceneRenderer.palette.count] })
  }
}

@Suite("SVGWriter")
struct SVGWriterTests {
  @Test("Escapes markup characters and drops characters XML forbids")
  func escape() {
    #expect(SVGWriter.escape("a & b < c > d \" e ' f") == "a &amp; b &lt; c &gt; d &quot; e &apos; f")
    #expect(SVGWriter.escape("bell\u{07}\ttab") == "bell\ttab")
    #expect(SVGWriter.escape("→ ≤ ü") == "→ ≤ ü")
  }

  @Test("Numbers have at most two decimals and no trailing zeros")
  func numbers() {
    #expect(SVGWriter.number(12) == "12")
    #expect(SVGWriter.number(12.5) == "12.5")
    #expect(SVGWriter.number(0.05) == "0.05")
    #expect(SVGWriter.number(-3.14159) == "-3.14")
    #expect(SVGWriter.number(-0.001) == "0")
    #expect(SVGWriter.number(1.999) == "2")
    #expect(SVGWriter.number(.nan) == "0")
  }

  @Test("Nested elements with hostile text parse back to the same text")
  func roundTrip() throws {
    var w = SVGWriter()
    w.open("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("data-x", "<\"&'>")])
    w.text("text", [("class", "t")], "]]> <!-- & -->")
    w.close()
    let doc = try SVGDocument(w.document)
    #expect(doc.elements.first?["data-x"] == "<\"&'>")
    #expect(doc.all("text", "t").first?.text == "]]> <!-- & -->")
  }
}
