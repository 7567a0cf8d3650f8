import Foundation
import Testing
import TouchdInput
import TouchdRender
import TouchdScene
import TouchdTestKit

/// docs/images/kiosk-tap-doubletap-pinch.svg and its recording stay what the code produces
/// (TOUCHD_UPDATE_GOLDEN=1 rewrites both).
@Suite("Docs picture")
struct DocsImageTests {
  @Test("The fixture recording is the scripted tap, double tap and pinch")
  func recording() throws {
    let text = docsScript().evemuText
    if updatingGoldens {
      try FileManager.default.createDirectory(
        at: docsRecordingURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: docsRecordingURL, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOf: docsRecordingURL, encoding: .utf8) == text)
  }

  @Test("The docs picture is the kiosk scene rendered with that recording")
  func picture() throws {
    let scene = try Scene.load(path: kioskScenePath)
    let trace = try RenderTrace.replaying(docsScript().recording, scene: scene)
    let svg = try SceneRenderer(
      scene: scene, trace: trace, sceneName: "scene.yaml", recordingName: docsRecordingURL.lastPathComponent
    ).svg()
    if updatingGoldens {
      try FileManager.default.createDirectory(
        at: docsImageURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try svg.write(to: docsImageURL, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOf: docsImageURL, encoding: .utf8) == svg)

    let doc = try SVGDocument(svg)
    // Five touches (tap, two taps, two pinch fingers); three tap actions; the pinch hits no recognizer.
    #expect(doc.all("polyline", "touch").filter { $0.window == "main" }.count == 5)
    let labels = doc.all("text", "action-label").map(\.text)
    #expect(labels == ["#1 tap ended → buy-ticket", "#2 tap ended → show-map", "#3 tap ended → show-map"])
  }
}

/// docs/images/product-list-scroll.svg and its recording stay what the code produces
/// (TOUCHD_UPDATE_GOLDEN=1 rewrites both).
@Suite("Docs picture of scroll views")
struct ScrollDocsImageTests {
  @Test("The fixture recording is the scripted flick, swipe and tap")
  func recording() throws {
    let text = scrollDocsScript().evemuText
    if updatingGoldens {
      try FileManager.default.createDirectory(
        at: scrollDocsRecordingURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: scrollDocsRecordingURL, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOf: scrollDocsRecordingURL, encoding: .utf8) == text)
  }

  @Test(
    "The docs picture is the product list rendered with that recording: scrolled, paged, the tap on the row in view")
  func picture() throws {
    let scene = try Scene.load(path: productListScenePath)
    let trace = try RenderTrace.replaying(scrollDocsScript().recording, scene: scene)
    let svg = try SceneRenderer(
      scene: scene, trace: trace, sceneName: "product-list.yaml",
      recordingName: scrollDocsRecordingURL.lastPathComponent
    ).svg()
    if updatingGoldens {
      try FileManager.default.createDirectory(
        at: scrollDocsImageURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try svg.write(to: scrollDocsImageURL, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOf: scrollDocsImageURL, encoding: .utf8) == svg)

    // The flick moved the list down the content and the swipe paged the offers once.
    let products = try #require(trace.contentOffsets["products"])
    #expect(products.x == 0 && products.y > 350)
    #expect(trace.contentOffsets["offers"] == .init(x: 448, y: 0))
    let doc = try SVGDocument(svg)
    #expect(Set(doc.all("g", "scroll-content").map { $0["data-id"] ?? "" }) == ["products", "offers"])
    let offer2 = try #require(doc.all("rect", "view").first { $0["data-id"] == "offer-2" })
    #expect(offer2.number("x") == 816)
    // The tap at y = 400 bought the row the content puts there now.
    let row = Int(((400 + products.y) / 100).rounded(.down)) + 1
    let labels = doc.all("text", "action-label").map(\.text)
    #expect(labels.last?.hasSuffix(String(format: "→ buy-%02d", row)) == true, "\(labels)")
  }
}

/// docs/images/kiosk-controls.svg and its recording stay what the code produces
/// (TOUCHD_UPDATE_GOLDEN=1 rewrites both).
@Suite("Docs picture of controls")
struct ControlsDocsImageTests {
  @Test("The fixture recording is the scripted switch tap, slider drag and taps on the stepper, segment and button")
  func recording() throws {
    let text = controlsDocsScript().evemuText
    if updatingGoldens {
      try FileManager.default.createDirectory(
        at: controlsDocsRecordingURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: controlsDocsRecordingURL, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOf: controlsDocsRecordingURL, encoding: .utf8) == text)
  }

  @Test("The docs picture is the controls kiosk rendered with that recording, every control in its final state")
  func picture() throws {
    let scene = try Scene.load(path: kioskControlsScenePath)
    let trace = try RenderTrace.replaying(controlsDocsScript().recording, scene: scene)
    let svg = try SceneRenderer(
      scene: scene, trace: trace, sceneName: "kiosk-controls.yaml",
      recordingName: controlsDocsRecordingURL.lastPathComponent
    ).svg()
    if updatingGoldens {
      try FileManager.default.createDirectory(
        at: controlsDocsImageURL.deletingLastPathComponent(), withIntermediateDirectories: true)
      try svg.write(to: controlsDocsImageURL, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOf: controlsDocsImageURL, encoding: .utf8) == svg)

    let doc = try SVGDocument(svg)
    func control(_ id: String) throws -> Element {
      try #require(doc.all("g", "control").first { $0["data-id"] == id && $0.window == "main" })
    }
    #expect(try control("receipt")["data-value"] == "off")
    #expect(try control("ticket-count")["data-value"] == "2")
    #expect(try control("language")["data-value"] == "1")
    let volume = try #require(Double(try control("volume")["data-value"] ?? ""))
    #expect(abs(volume - 0.8) < 0.01, "\(volume)")
    let labels = doc.all("text", "action-label").map(\.text)
    #expect(labels.count == 5, "\(labels)")
    #expect(labels.first?.hasSuffix("control valueChanged → receipt (off)") == true, "\(labels)")
    #expect(labels.last?.hasSuffix("control touchUpInside → buy-ticket") == true, "\(labels)")
  }
}
