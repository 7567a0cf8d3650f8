import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdRender
import TouchdScene
import TouchdTestKit

/// A vertical list (content 400 × 2000) holding a row at the top, a paged horizontal carousel of
/// four cards, and a row far below the fold; a plain panel beside it.
func scrollScene(
  list listOffset: Scene.Point = .init(x: 0, y: 0), carousel carouselOffset: Scene.Point = .init(x: 0, y: 0)
)
  -> Scene
{
  func view(_ id: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double, tap: String? = nil)
    -> Scene.View
  {
    Scene.View(
      id: id, frame: .init(x: x, y: y, width: width, height: height),
      recognizers: tap.map { [Scene.Recognizer(id: "\(id)-tap", type: .tap, action: $0)] } ?? [])
  }
  var cards = view("carousel", 0, 120, 400, 200)
  cards.views = (0..<4).map { view("card-\($0 + 1)", Double($0) * 400, 0, 400, 200, tap: "open-card-\($0 + 1)") }
  cards.scroll = Scene.Scroll(contentSize: .init(width: 1600, height: 200))
  cards.scroll?.pagingEnabled = true
  cards.scroll?.contentOffset = carouselOffset
  var below = view("row-below", 0, 1500, 400, 100, tap: "buy-below")
  below.hitOutset = 10
  var list = view("list", 0, 0, 400, 600)
  list.views = [view("row-top", 0, 0, 400, 100, tap: "buy-top"), cards, below]
  list.scroll = Scene.Scroll(contentSize: .init(width: 400, height: 2000))
  list.scroll?.contentOffset = listOffset
  return Scene(windows: [
    Scene.Window(
      id: "main", size: .init(width: 800, height: 600), views: [list, view("panel", 420, 0, 380, 600, tap: "panel")])
  ])
}

@Suite("SceneRenderer: scroll views")
struct ScrollRenderTests {
  func rect(_ doc: SVGDocument, _ id: String) throws -> Element {
    try #require(doc.all("rect", "view").first { $0["data-id"] == id && $0.window == "main" })
  }

  /// The ids of the scroll-content groups around an element, outermost first.
  func clipGroups(_ e: Element) -> [String] {
    e.ancestors.filter { $0["class"] == "scroll-content" }.map { $0["data-id"] ?? "" }
  }

  @Test("The viewport is a dashed scroll rect; its content is clipped to it with a clipPath")
  func viewportAndClip() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: scrollScene()).svg())
    let list = try rect(doc, "list")
    #expect(list.classes == ["view", "scroll"])
    #expect([list.number("x"), list.number("y"), list.number("width"), list.number("height")] == [0, 0, 400, 600])
    #expect(clipGroups(list).isEmpty)

    // One clipPath per scroll view, in window coordinates.
    let clips = doc.elements.filter { $0.name == "clipPath" }
    #expect(clips.map { $0["data-id"] } == ["list", "carousel"])
    let listClip = try #require(clips.first)
    let clipRect = try #require(doc.elements.first { $0.name == "rect" && $0.ancestors.last?["id"] == listClip["id"] })
    #expect(
      [clipRect.number("x"), clipRect.number("y"), clipRect.number("width"), clipRect.number("height")] == [
        0, 0, 400, 600,
      ])

    // The content's group refers to it; the panel beside the list is outside every group.
    let group = try #require(doc.all("g", "scroll-content").first { $0["data-id"] == "list" })
    #expect(group["clip-path"] == "url(#\(listClip["id"] ?? "?"))")
    #expect(clipGroups(try rect(doc, "row-top")) == ["list"])
    #expect(clipGroups(try rect(doc, "row-below")) == ["list"])
    #expect(clipGroups(try rect(doc, "panel")).isEmpty)
    // The dashed outline is drawn again over the content.
    #expect(doc.all("rect", "scroll-frame").map { $0["data-id"] } == ["carousel", "list"])

    let label = try #require(doc.all("text", "view-label").first { $0["data-id"] == "list" })
    #expect(label.text == "list (scroll)" + "offset 0, 0 · content 400 × 2000")
    let carouselLabel = try #require(doc.all("text", "view-label").first { $0["data-id"] == "carousel" })
    #expect(carouselLabel.text == "carousel (scroll)" + "offset 0, 0 · content 1600 × 200 · paging")
  }

  @Test("Content is placed at the scene's contentOffset: a row below the fold at y − offset, hit outsets too")
  func sceneOffset() throws {
    let doc = try SVGDocument(try SceneRenderer(scene: scrollScene(list: .init(x: 0, y: 1100))).svg())
    let below = try rect(doc, "row-below")
    #expect(below.number("y") == 400)  // 1500 − 1100
    #expect(below.number("x") == 0)
    #expect(!below.has("scrolled-out"))
    let outset = try #require(doc.all("rect", "hit-outset").first { $0["data-id"] == "row-below" })
    #expect(outset.number("y") == 390)  // 1500 − 1100 − the 10 pt outset
    #expect(clipGroups(outset) == ["list"])
    // The top row is above the viewport now: drawn (clipped away) and marked as never hit.
    let top = try rect(doc, "row-top")
    #expect(top.number("y") == -1100)
    #expect(top.has("scrolled-out"))
    #expect(try rect(doc, "carousel").has("scrolled-out"))
    let extent = try #require(doc.all("rect", "scroll-extent").first { $0["data-id"] == "list" })
    #expect([extent.number("y"), extent.number("height")] == [-1100, 2000])
    // The scroll view itself does not move.
    #expect(try rect(doc, "list").number("y") == 0)
    #expect(try rect(doc, "panel").number("x") == 420)
  }

  @Test("A zoom view is drawn at the scene's zoomScale with its subtree, where hit-testing finds it")
  func zoomedContent() throws {
    var pin = Scene.View(id: "pin", frame: .init(x: 600, y: 200, width: 40, height: 40))
    pin.recognizers = [Scene.Recognizer(id: "pin-tap", type: .tap, action: "open-pin")]
    let photo = Scene.View(id: "photo", frame: .init(x: 0, y: 0, width: 800, height: 800), views: [pin])
    var map = Scene.View(id: "map", frame: .init(x: 0, y: 0, width: 800, height: 800), views: [photo])
    map.scroll = Scene.Scroll(contentSize: .init(width: 800, height: 800))
    map.scroll?.maximumZoomScale = 4
    map.scroll?.zoomScale = 2
    map.scroll?.zoomView = "photo"
    map.scroll?.contentOffset = .init(x: 800, y: 0)
    let scene = Scene(windows: [Scene.Window(id: "main", size: .init(width: 800, height: 800), views: [map])])
    let doc = try SVGDocument(try SceneRenderer(scene: scene).svg())
    let drawnPhoto = try rect(doc, "photo")
    #expect([drawnPhoto.number("x"), drawnPhoto.number("width")] == [-800, 1600])
    // The pin (600, 200) at scale 2, less the offset (800, 0): (400, 400), 80 × 80.
    let drawnPin = try rect(doc, "pin")
    #expect(
      [drawnPin.number("x"), drawnPin.number("y"), drawnPin.number("width"), drawnPin.number("height")] == [
        400, 400, 80, 80,
      ])
    // The same place is where a touch hits the pin (SceneRuntime builds the scene the same way).
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    #expect(runtime.windows.first?.hitTest(Point(x: 440, y: 440), with: nil)?.identifier == "pin")
    let label = try #require(doc.all("text", "view-label").first { $0["data-id"] == "map" })
    #expect(label.text.hasSuffix("offset 800, 0 · content 800 × 800 · zoom 2× (1…4)"))
  }

  @Test("Nested: a carousel inside the list follows both offsets and both clips")
  func nested() throws {
    let scene = scrollScene(list: .init(x: 0, y: 60), carousel: .init(x: 400, y: 0))
    let doc = try SVGDocument(try SceneRenderer(scene: scene).svg())
    let carousel = try rect(doc, "carousel")
    #expect([carousel.number("x"), carousel.number("y")] == [0, 60])  // 120 − 60
    #expect(clipGroups(carousel) == ["list"])
    // Card n starts at 400 (n − 1) in the carousel's content: card 2 is in view at the viewport's left.
    let card2 = try rect(doc, "card-2")
    #expect([card2.number("x"), card2.number("y")] == [0, 60])
    #expect(clipGroups(card2) == ["list", "carousel"])
    #expect(!card2.has("scrolled-out"))
    #expect(try rect(doc, "card-1").number("x") == -400)
    for id in ["card-1", "card-3", "card-4"] { #expect(try rect(doc, id).has("scrolled-out"), "\(id)") }
    // The carousel's clip is its viewport in window coordinates.
    let clip = try #require(doc.elements.first { $0.name == "clipPath" && $0["data-id"] == "carousel" })
    let clipRect = try #require(doc.elements.first { $0.name == "rect" && $0.ancestors.last?["id"] == clip["id"] })
    #expect([clipRect.number("x"), clipRect.number("y"), clipRect.number("width")] == [0, 60, 400])
    // The top row is partly scrolled out: its label is in the part still in view (0 to 40).
    let topLabel = try #require(doc.all("text", "view-label").first { $0["data-id"] == "row-top" })
    #expect(topLabel.number("y").map { $0 > 0 && $0 < 40 } == true)
    // The row after the carousel is back in the list's group only.
    #expect(clipGroups(try rect(doc, "row-below")) == ["list"])
    // Its labels are clipped the same way.
    let label = try #require(doc.all("text", "view-label").first { $0["data-id"] == "card-2" })
    #expect(clipGroups(label) == ["list", "carousel"])
    #expect(label.number("y").map { $0 > 60 && $0 < 260 } == true)
  }

  @Test("Scroll indicators show the visible fraction and position of the content on scrollable axes")
  func indicators() throws {
    let doc = try SVGDocument(
      try SceneRenderer(scene: scrollScene(list: .init(x: 0, y: 1000), carousel: .init(x: 400, y: 0))).svg())
    func parts(_ id: String, _ axis: String) throws -> (track: Element, bar: Element) {
      let track = try #require(doc.all("rect", "scroll-track").first { $0["data-id"] == id && $0["data-axis"] == axis })
      let bar = try #require(
        doc.all("rect", "scroll-indicator").first { $0["data-id"] == id && $0["data-axis"] == axis })
      return (track, bar)
    }
    // The list: 600 of 2000 visible, offset 1000 of 1400 possible; on its right edge.
    let v = try parts("list", "vertical")
    let (trackY, trackH) = (try #require(v.track.number("y")), try #require(v.track.number("height")))
    let (barY, barH) = (try #require(v.bar.number("y")), try #require(v.bar.number("height")))
    #expect(abs(barH - trackH * 600 / 2000) < 0.02)
    #expect(abs((barY - trackY) - (trackH - barH) * 1000 / 1400) < 0.02)
    #expect(try #require(v.bar.number("x")) > 390 && (try #require(v.bar.number("x"))) < 400)
    #expect(clipGroups(v.bar).isEmpty)
    // Neither scrolls the other way.
    #expect(doc.all("rect", "scroll-indicator").filter { $0["data-id"] == "list" }.count == 1)
    #expect(doc.all("rect", "scroll-indicator").filter { $0["data-id"] == "carousel" }.count == 1)
    // The carousel: a quarter visible, a third of the way; drawn inside the list's clip.
    let h = try parts("carousel", "horizontal")
    let (trackX, trackW) = (try #require(h.track.number("x")), try #require(h.track.number("width")))
    let (barX, barW) = (try #require(h.bar.number("x")), try #require(h.bar.number("width")))
    #expect(abs(barW - trackW / 4) < 0.02)
    #expect(abs((barX - trackX) - (trackW - barW) / 3) < 0.02)
    #expect(clipGroups(h.bar) == ["list"])
  }

  @Test("Scenes without scroll views have no scroll styles, clips or legend entries")
  func noScrollNoChange() throws {
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
    #expect(!svg.contains("scroll"))
    #expect(!svg.contains("clipPath"))
    #expect(try SceneRenderer(scene: scrollScene()).svg().contains(".view.scroll {"))
  }

  @Test("After a replayed drag, content is drawn at the offset the recording left the list at")
  func replayedDrag() throws {
    let scene = scrollScene()
    let script = FingerScript(windowWidth: 800, windowHeight: 600, start: 3)
    script.drag(from: .init(x: 200, y: 500), to: .init(x: 200, y: 200), duration: 0.3)
    script.wait(0.5)
    let recording = script.recording

    // The list's offset at rest, read from the runtime's scroll view after the replay.
    let clock = VirtualClock(now: ScenePlayer.origin(of: recording))
    let runtime = SceneRuntime(scene: scene, clock: clock) { _ in }
    let window = try runtime.replayWindow(for: recording)
    Replay.forEachFrame(of: recording) { frame in
      clock.advance(to: frame.time.seconds)
      runtime.handle(frame, inWindow: window)
    }
    clock.runUntilIdle()
    let offset = try #require(runtime.scrollView("list")).contentOffset
    #expect(offset.x == 0)
    #expect(offset.y > 300 && offset.y <= 1400)

    let trace = try RenderTrace.replaying(recording, scene: scene)
    #expect(trace.contentOffsets["list"] == offset)
    #expect(trace.contentOffsets["carousel"] == nil)
    let doc = try SVGDocument(try SceneRenderer(scene: scene, trace: trace, recordingName: "drag.evemu").svg())
    let top = try rect(doc, "row-top")
    #expect(abs(try #require(top.number("y")) - (0 - offset.y)) < 0.01)
    let carousel = try rect(doc, "carousel")
    #expect(abs(try #require(carousel.number("y")) - (120 - offset.y)) < 0.01)
    // The carousel did not move: its content keeps the scene's offset.
    let card1 = try rect(doc, "card-1")
    #expect(card1.number("x") == 0)
    let label = try #require(doc.all("text", "view-label").first { $0["data-id"] == "list" })
    #expect(label.text.contains("offset 0, \(SVGWriter.number(offset.y)) · content 400 × 2000"))
    // The finger is drawn where it was on the screen, over the scrolled content.
    let line = try #require(doc.all("polyline", "touch").first { $0.window == "main" })
    let first = try #require(line["points"]?.split(separator: " ").first).split(separator: ",").compactMap {
      Double($0)
    }
    #expect(first.count == 2 && abs(first[0] - 200) < 0.5 && abs(first[1] - 500) < 0.5, "\(first)")
    #expect(clipGroups(line).isEmpty)
  }

  @Test("A recording feeding another window leaves this window's scroll views at the scene's offset")
  func otherWindow() throws {
    var scene = scrollScene(list: .init(x: 0, y: 200))
    scene.windows[0].devices = ["nothing"]
    scene.windows.append(
      Scene.Window(
        id: "side", size: .init(width: 100, height: 100),
        views: [Scene.View(id: "side-view", frame: .init(x: 0, y: 0, width: 100, height: 100))]))
    let trace = RenderTrace(
      windowID: "side", touches: [], actions: [], contentOffsets: ["list": Point(x: 0, y: 900)])
    let doc = try SVGDocument(try SceneRenderer(scene: scene, trace: trace).svg())
    #expect(try rect(doc, "row-top").number("y") == -200)

    let fed = RenderTrace(windowID: "main", touches: [], actions: [], contentOffsets: ["list": Point(x: 0, y: 900)])
    let moved = try SVGDocument(try SceneRenderer(scene: scene, trace: fed).svg())
    #expect(try rect(moved, "row-top").number("y") == -900)
  }
}
