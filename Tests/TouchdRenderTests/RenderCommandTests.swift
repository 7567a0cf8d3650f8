import Foundation
import Testing
import TouchdTestKit

@Suite("touchctl render")
struct RenderCommandTests {
  @Test("Renders the kiosk scene with the docs recording: the docs picture, byte for byte")
  func kioskWithRecording() throws {
    let out = temporaryFile("kiosk.svg")
    let result = try runTouchctl(["render", "--scene", kioskScenePath, docsRecordingURL.path, "-o", out.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let svg = try String(contentsOf: out, encoding: .utf8)
    #expect(svg == (try String(contentsOf: docsImageURL, encoding: .utf8)))
    let doc = try SVGDocument(svg)
    #expect(
      doc.all("rect", "view").filter { $0.window == "main" }.map { $0["data-id"] ?? "" } == [
        "root", "buy-ticket", "show-map", "help", "language", "signature",
      ])
    #expect(doc.all("text", "action-label").count == 3)
  }

  @Test("--heatmap with a recording draws its touch-down grid: a cell per touched cell, by count")
  func heatmapFromARecording() throws {
    let out = temporaryFile("heat.svg")
    let result = try runTouchctl([
      "render", "--scene", kioskScenePath, docsRecordingURL.path, "--heatmap", "-o", out.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let doc = try SVGDocument(try String(contentsOf: out, encoding: .utf8))
    let cells = doc.all("rect", "heat-cell")
    #expect(!cells.isEmpty)
    // The cells' counts are the recording's touch-downs, the busiest shaded 0.6.
    let counts = cells.compactMap { $0["data-count"].flatMap(Int.init) }
    #expect(counts.count == cells.count && counts.allSatisfy { $0 > 0 })
    // One tap, a double tap and a two-finger pinch: five touch-downs.
    #expect(counts.reduce(0, +) == 5, "\(counts)")
    #expect(cells.contains { $0["fill-opacity"] == "0.6" })
    #expect(doc.all("rect", "dead-cell").isEmpty)
    // Without --heatmap: none.
    let plain = temporaryFile("plain.svg")
    _ = try runTouchctl(["render", "--scene", kioskScenePath, docsRecordingURL.path, "-o", plain.path])
    #expect(try SVGDocument(try String(contentsOf: plain, encoding: .utf8)).all("rect", "heat-cell").isEmpty)
  }

  @Test("--accessibility outlines each element of the kiosk and numbers it in VoiceOver's reading order")
  func accessibilityElementsInReadingOrder() throws {
    let out = temporaryFile("accessibility.svg")
    let result = try runTouchctl(["render", "--scene", kioskScenePath, "--accessibility", "-o", out.path])
    #expect(result.status == 0, "\(result.stderr)")
    let doc = try SVGDocument(try String(contentsOf: out, encoding: .utf8))
    let elements = doc.all("rect", "element")
    // The kiosk's labelled views, top to bottom, then left to right (docs/accessibility.md): the
    // language button in the top corner first.
    #expect(
      elements.map { "\($0["data-order"] ?? "") \($0["data-view"] ?? "")" } == [
        "1 language", "2 buy-ticket", "3 show-map", "4 help", "5 signature",
      ])
    #expect(elements[1]["data-spoken"] == "Buy a ticket, button. Starts buying a ticket.")
    #expect(doc.all("text", "element-order").count == elements.count)
    // Without --accessibility: none.
    let plain = temporaryFile("plain.svg")
    _ = try runTouchctl(["render", "--scene", kioskScenePath, "-o", plain.path])
    #expect(try SVGDocument(try String(contentsOf: plain, encoding: .utf8)).all("rect", "element").isEmpty)
  }

  @Test("With VoiceOver on, a recording's marks show what VoiceOver did at each element and the gesture that did it")
  func voiceOverMarks() throws {
    // The kiosk with VoiceOver on, and the docs recording: a tap on "buy ticket", a double tap on
    // "show map", a two-finger pinch on "help".
    let scene = temporaryFile("voiceover.yaml")
    let text = try String(contentsOfFile: kioskScenePath, encoding: .utf8)
    try text.replacingOccurrences(
      of: "    size: {width: 1920, height: 1080}\n    devices: [\"*\"]",
      with: "    size: {width: 1920, height: 1080}\n    devices: [\"*\"]\n    voiceOver: true"
    ).write(to: scene, atomically: true, encoding: .utf8)
    let out = temporaryFile("voiceover.svg")
    let result = try runTouchctl(["render", "--scene", scene.path, docsRecordingURL.path, "-o", out.path])
    #expect(result.status == 0, "\(result.stderr)")
    let doc = try SVGDocument(try String(contentsOf: out, encoding: .utf8))
    // The tap selects "buy ticket"; the double tap, on "show map", activates the focus, "buy ticket",
    // whose tap recognizer publishes its action; nothing else VoiceOver does names an element.
    let marks = doc.all("g", "voiceover")
    #expect(
      marks.map { "\($0["data-gesture"] ?? "") \($0["data-event"] ?? "") \($0["data-view"] ?? "")" } == [
        "tap focus buy-ticket", "double tap activate buy-ticket",
      ])
    #expect(doc.all("text", "action-label").map(\.text).contains { $0.hasSuffix("→ buy-ticket") })
    // Without VoiceOver: no marks.
    let plain = temporaryFile("plain.svg")
    _ = try runTouchctl(["render", "--scene", kioskScenePath, docsRecordingURL.path, "-o", plain.path])
    #expect(try SVGDocument(try String(contentsOf: plain, encoding: .utf8)).all("g", "voiceover").isEmpty)
  }

  @Test("A signature pad's strokes are drawn where they were signed, a pen's segments as wide as its pressure")
  func signatureStrokes() throws {
    // The Dell Canvas pen's stroke on config/pos-signature.yaml's pad: its tip lands, bounces
    // (its pressure drops to nothing once, as libinput reads it) and signs on: two strokes.
    let out = temporaryFile("signature.svg")
    let pen = TestPaths.penRecordings.appendingPathComponent("dell-canvas27-wacom-isdv4-pen-hover-buttons-stroke.evemu")
    let result = try runTouchctl([
      "render", "--scene", TestPaths.config("pos-signature.yaml").path, pen.path, "-o", out.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let doc = try SVGDocument(try String(contentsOf: out, encoding: .utf8))
    let strokes = doc.all("g", "stroke")
    #expect(strokes.map { $0["data-points"] ?? "" } == ["10", "218"])
    #expect(strokes.allSatisfy { $0["data-view"] == "pad" && $0["data-touch-type"] == "pencil" })
    let segments = doc.all("line", "stroke-segment")
    #expect(segments.count == 9 + 217)
    let widths = Set(segments.compactMap { $0["stroke-width"].flatMap(Double.init) })
    #expect(widths.count > 10, "the width follows the pressure: \(widths.sorted())")
    // Inside the pad (160, 120, 1600 × 600), where the pen signed.
    #expect(
      segments.allSatisfy { s in
        let x = Double(s["x1"] ?? "") ?? -1
        let y = Double(s["y1"] ?? "") ?? -1
        return x >= 160 && x <= 1760 && y >= 120 && y <= 720
      })
  }

  @Test("Renders the product list with the scroll recording: the scroll docs picture, byte for byte")
  func productListWithRecording() throws {
    let out = temporaryFile("product-list.svg")
    let result = try runTouchctl([
      "render", "--scene", productListScenePath, scrollDocsRecordingURL.path, "-o", out.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let svg = try String(contentsOf: out, encoding: .utf8)
    #expect(svg == (try String(contentsOf: scrollDocsImageURL, encoding: .utf8)))
    let doc = try SVGDocument(svg)
    #expect(doc.elements.filter { $0.name == "clipPath" }.map { $0["data-id"] } == ["products", "offers"])
    #expect(doc.all("text", "action-label").count == 1)
  }

  @Test("Renders the controls kiosk with the controls recording: the controls docs picture, byte for byte")
  func controlsWithRecording() throws {
    let out = temporaryFile("kiosk-controls.svg")
    let result = try runTouchctl([
      "render", "--scene", kioskControlsScenePath, controlsDocsRecordingURL.path, "-o", out.path,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    let svg = try String(contentsOf: out, encoding: .utf8)
    #expect(svg == (try String(contentsOf: controlsDocsImageURL, encoding: .utf8)))
    let doc = try SVGDocument(svg)
    #expect(
      doc.all("g", "control").filter { $0.window == "main" }.map { $0["data-id"] ?? "" } == [
        "language", "ticket-count", "receipt", "volume", "buy", "cancel",
      ])
    #expect(doc.all("g", "control-action").count == 5)
  }

  @Test("Every example scene renders without a recording to standard output")
  func examplesToStdout() throws {
    for name in [
      "kiosk.yaml", "photo-viewer.yaml", "carousel.yaml", "product-list.yaml", "kiosk-controls.yaml", "museum-map.yaml",
    ] {
      let path = TestPaths.repositoryRoot.appendingPathComponent("config").appendingPathComponent(name).path
      let result = try runTouchctl(["render", "--scene", path, "-o", "-"])
      #expect(result.status == 0, "\(name): \(result.stderr)")
      let doc = try SVGDocument(result.stdout)
      #expect(!doc.all("rect", "view").filter { $0.window != nil }.isEmpty, "\(name)")
      #expect(doc.all("polyline", "touch").filter { $0.window != nil }.isEmpty, "\(name)")
    }
  }

  @Test("An events-only recording with --desc renders the same touches")
  func splitRecording() throws {
    let text = try String(contentsOf: docsRecordingURL, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let desc = temporaryFile("device.desc")
    let events = temporaryFile("touches.events")
    try lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n").write(to: desc, atomically: true, encoding: .utf8)
    try lines.filter { $0.hasPrefix("E:") }.joined(separator: "\n").write(to: events, atomically: true, encoding: .utf8)
    let result = try runTouchctl(["render", "--scene", kioskScenePath, events.path, "--desc", desc.path, "-o", "-"])
    #expect(result.status == 0, "\(result.stderr)")
    let doc = try SVGDocument(result.stdout)
    #expect(doc.all("polyline", "touch").filter { $0.window == "main" }.count == 5)
    #expect(doc.all("text", "action-label").count == 3)
  }

  @Test("Errors: an unknown window, an invalid scene, an unreadable recording exit 1 with a message")
  func errors() throws {
    let out = temporaryFile("never.svg")
    let window = try runTouchctl(["render", "--scene", kioskScenePath, "--window", "side", "-o", out.path])
    #expect(window.status == 1)
    #expect(window.stderr == "\(kioskScenePath): no window 'side' in the scene (windows: main)\n")
    #expect(!FileManager.default.fileExists(atPath: out.path))

    let bad = temporaryFile("bad.yaml")
    try "version: 1\nwindows:\n  - id: main\n    size: {width: 10}\n".write(to: bad, atomically: true, encoding: .utf8)
    let invalid = try runTouchctl(["render", "--scene", bad.path, "-o", out.path])
    #expect(invalid.status == 1)
    #expect(invalid.stderr.hasPrefix("\(bad.path):4:"))

    let elsewhere = temporaryFile("elsewhere.yaml")
    try (try String(contentsOfFile: kioskScenePath, encoding: .utf8))
      .replacingOccurrences(of: "devices: [\"*\"]", with: "devices: [\"elsewhere\"]")
      .write(to: elsewhere, atomically: true, encoding: .utf8)
    let noWindow = try runTouchctl(["render", "--scene", elsewhere.path, docsRecordingURL.path, "-o", out.path])
    #expect(noWindow.status == 1)
    #expect(
      noWindow.stderr
        == "\(docsRecordingURL.path): no window of the scene takes touches from 'touchd synthetic touchscreen'\n")

    let missing = try runTouchctl(["render", "--scene", kioskScenePath, "/nonexistent.evemu", "-o", out.path])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("/nonexistent.evemu"))
  }
}
