import Testing
import TouchdRender
import TouchdScene
import TouchdTestKit

/// `touchctl render` of page controls: a dot per page, 7 pt across and 16 pt apart, the row
/// centred in the frame, the current one filled; nothing drawn when hidesForSinglePage hides it.
@Suite("SceneRenderer: page controls")
struct PageControlRenderTests {
  let scene = """
    version: 1
    windows:
      - id: main
        size: {width: 800, height: 600}
        views:
          - id: dots
            frame: {x: 100, y: 500, width: 200, height: 30}
            control: {type: pageControl, numberOfPages: 3, currentPage: 1, actions: {valueChanged: page}}
          - id: single
            frame: {x: 400, y: 500, width: 200, height: 30}
            control: {type: pageControl, numberOfPages: 1, hidesForSinglePage: true}
          - id: shown
            frame: {x: 400, y: 400, width: 200, height: 30}
            control: {type: pageControl, numberOfPages: 1}
    """

  func indicators(_ doc: SVGDocument, _ id: String) -> [Element] {
    doc.all("circle", "page-indicator").filter { e in
      e.ancestors.contains { $0["class"]?.hasPrefix("control") == true && $0["data-id"] == id }
    }
  }

  @Test("Three pages: dots at 184, 200 and 216 (the frame's middle ± 16), the second filled")
  func dots() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: try Scene.parse(scene)).svg())
    let group = try #require(doc.all("g", "control").first { $0["data-id"] == "dots" })
    #expect(group["data-type"] == "pageControl" && group["data-value"] == "1")
    let dots = indicators(doc, "dots")
    #expect(dots.map { $0.number("cx") } == [184, 200, 216])
    #expect(dots.allSatisfy { $0.number("cy") == 515 && $0.number("r") == 3.5 })
    #expect(dots.map { $0.has("current") } == [false, true, false])
    let label = try #require(doc.all("text", "view-label").first { $0["data-id"] == "dots" })
    #expect(label.text == "dots (pageControl page 1)" + "valueChanged → page")
  }

  @Test("One page with hidesForSinglePage: no dot; without it, one dot in the middle")
  func hiddenForSinglePage() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: try Scene.parse(scene)).svg())
    #expect(indicators(doc, "single").isEmpty)
    #expect(indicators(doc, "shown").map { $0.number("cx") } == [500])
  }
}
