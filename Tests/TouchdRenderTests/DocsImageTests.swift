import Foundation
import Testing
import TouchdInput
import TouchdRender
import TouchdScene

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
