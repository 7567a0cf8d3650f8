import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// UIScrollView's zooming through the whole pipeline (scene replay): the pinch zooms around the
/// fingers' centroid and pans with it, the scale rubber-bands past its limits and springs back,
/// hit-testing and locations follow the zoom, the delegate's zoom callbacks, `set zoomScale` and
/// `zoomTo`, and a recognizer's declarative `zoom:` (a photo viewer's double tap).
@Suite struct ZoomRuleTests {
  /// An 800 x 800 scroll view `map` zooming `photo` (800 x 800) with a 40 x 40 `pin` at (600, 200)
  /// whose tap `pinTap` publishes `open-pin`; `scroll` adds keys to the map's `scroll:`, `photo`
  /// to the photo (`recognizers:` …).
  func mapScene(_ scroll: String = "", maximum: Double = 4, photo: String = "") -> String {
    let extra = scroll.isEmpty ? "" : ", " + scroll
    return ruleScene(
      """
      - id: map
        frame: {x: 0, y: 0, width: 800, height: 800}
        scroll: {contentSize: {width: 800, height: 800}, maximumZoomScale: \(maximum), zoomView: photo\(extra)}
        views:
          - id: photo
            frame: {x: 0, y: 0, width: 800, height: 800}
            \(photo)
            views:
              - id: pin
                frame: {x: 600, y: 200, width: 40, height: 40}
                recognizers:
                  - {id: pinTap, type: tap, action: open-pin}
      """)
  }

  /// The phases of `view` but `didScroll` and `didZoom`.
  func zoomPhases(_ run: RuleRun, of view: String = "map") -> [String] {
    run.scrolls(of: view).filter { $0.scrollPhase != .didScroll && $0.scrollPhase != .didZoom }.map(\.phase)
  }

  @Test func twoFingersZoomAroundTheirCentroid() throws {
    let s = ruleScript()
    s.pinch(center: .init(x: 400, y: 400), fromDistance: 200, toDistance: 400, duration: 0.3)
    let run = try RuleRun(mapScene(), s)
    #expect(zoomPhases(run) == ["willBeginZooming", "didEndZooming"])
    let scrolls = run.scrolls(of: "map")
    #expect(scrolls.allSatisfy { $0.zoomScale != nil })
    let end = try #require(scrolls.last)
    let scale = try #require(end.zoomScale)
    // The pinch began past 208 pt (8 pt more than 200), at the first frame there (frames 6.7 pt
    // apart at 100 Hz), so the scale is 400 over 208 to 215.
    #expect(scale > 400 / 215 && scale < 400 / 208)
    // The photo point under the centroid (400, 400) stays there: the offset is 400 · (scale − 1).
    #expect(near(end.contentOffset, Point(x: 400 * (scale - 1), y: 400 * (scale - 1)), within: 0.6))
    // Within the limits nothing moves after the lift.
    #expect(end.time == scrolls.first { $0.scrollPhase == .didEndZooming }?.time)
  }

  @Test func thePinchPansTheContentWithItsCentroid() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 300, y: 400), .init(x: 500, y: 400)])
    // Spread to 300 pt around (400, 400): the pinch begins, the centroid stays.
    s.animate(f, duration: 0.2) { i, t in .init(x: 400 + (i == 0 ? -1 : 1) * (100 + 50 * t), y: 400) }
    // Both fingers move 100 pt up and left: the scale stays, the content follows the centroid.
    s.animate(f, duration: 0.2) { i, t in .init(x: 400 + (i == 0 ? -150 : 150) - 100 * t, y: 400 - 100 * t) }
    s.wait(0.1)
    s.up(f)
    let run = try RuleRun(mapScene(), s)
    let end = try #require(run.scrolls(of: "map").last)
    let scale = try #require(end.zoomScale)
    // Began past 208 pt (frames 2.5 pt apart): 300 over 208 to 211.
    #expect(scale > 300 / 211 && scale < 300 / 208)
    // The photo's (400, 400), under the centroid when the pinch began, is under (300, 300) now.
    #expect(near(end.contentOffset, Point(x: 400 * scale - 300, y: 400 * scale - 300), within: 0.6))
    // The scroll view's pan began with the centroid's move; its drag ends without a fling.
    #expect(
      zoomPhases(run) == [
        "willBeginZooming", "willBeginDragging", "willEndDragging", "didEndDragging", "didEndZooming",
      ])
    #expect(run.scrolls(of: "map").first { $0.scrollPhase == .didEndDragging }?.willDecelerate == false)
  }

  @Test func afterOneFingerLiftsTheOtherPansTheZoomedContentWithoutAJump() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 300, y: 400), .init(x: 500, y: 400)])
    s.animate(f, duration: 0.2) { i, t in .init(x: 400 + (i == 0 ? -1 : 1) * (100 + 50 * t), y: 400) }
    s.wait(0.05)
    s.up([f[1]])
    s.wait(0.05)
    let lifted = s.time
    s.animate([f[0]], duration: 0.1) { _, t in .init(x: 250 - 50 * t, y: 400) }
    s.up([f[0]])
    let run = try RuleRun(mapScene(), s)
    let scrolls = run.scrolls(of: "map")
    let before = try #require(scrolls.last { $0.time <= lifted })
    let end = try #require(scrolls.last)
    // The finger left moved 50 pt left: the content follows it, the scale stays.
    #expect(end.zoomScale == before.zoomScale)
    #expect(near(end.contentOffset, Point(x: before.contentOffset.x + 50, y: before.contentOffset.y), within: 0.6))
    // No move jumps with the centroid from the midpoint to the finger left.
    let moves = scrolls.filter { $0.scrollPhase == .didScroll && $0.time > lifted }.map(\.contentOffset.x)
    #expect(zip([before.contentOffset.x] + moves, moves).allSatisfy { abs($1 - $0) < 6 })
    #expect(end.scrollPhase == .didEndZooming)
  }

  @Test func pastTheMaximumTheScaleRubberBandsAndSpringsBack() throws {
    let s = ruleScript()
    s.pinch(center: .init(x: 400, y: 400), fromDistance: 100, toDistance: 600, duration: 0.3)
    let run = try RuleRun(mapScene(maximum: 2), s)
    let scales = run.scrolls(of: "map").compactMap(\.zoomScale)
    let peak = try #require(scales.max())
    // The raw scale reached 600 over the began distance, past 108 pt at the first frame there
    // (frames 16.7 pt apart): banded as the offset is, with the limit 2 as the dimension.
    func banded(_ raw: Double) -> Double { 2 + uikitRubberBand(raw - 2, 2) }
    #expect(peak > banded(600 / 125) && peak < banded(600 / 108))
    #expect(peak < 4)
    let end = try #require(run.scrolls(of: "map").last)
    #expect(end.scrollPhase == .didEndZooming)
    #expect(end.zoomScale == 2)
    // Back at 2 around the last centroid (400, 400): offset 400 · 2 − 400.
    #expect(near(end.contentOffset, Point(x: 400, y: 400), within: 0.6))
    // The settling spring (ω = 10/s) from the peak (about 2.8: 0.8 × the view's 800 pt, 640 pt in
    // the spring's unit) comes within half a point in (1 + 10t)·e^(−10t)·640 < 0.5: t ≈ 0.96 s
    // after the lift at 10.3.
    #expect(end.time > 11.1 && end.time < 11.4)
    #expect(zoomPhases(run) == ["willBeginZooming", "didEndZooming"])
  }

  @Test func withoutBouncesZoomTheScaleStopsAtTheMaximum() throws {
    let s = ruleScript()
    s.pinch(center: .init(x: 400, y: 400), fromDistance: 100, toDistance: 600, duration: 0.3)
    let run = try RuleRun(mapScene("bouncesZoom: false", maximum: 2), s)
    let scales = run.scrolls(of: "map").compactMap(\.zoomScale)
    #expect(scales.max() == 2)
    #expect(run.scrolls(of: "map").last?.time ?? 0 < 10.31)
  }

  @Test func aTapOnTheZoomedMapHitsThePinUnderTheFingerInItsOwnPoints() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 440, y: 440))
    // At scale 2 from offset (800, 0) the pin (600, 200, 40 x 40) is at (400, 400)-(480, 480) on screen.
    let zoomed = try RuleRun(mapScene("zoomScale: 2, contentOffset: {x: 800, y: 0}"), s)
    let action = try #require(zoomed.actions.first)
    #expect(action.action == "open-pin")
    #expect(near(action.location, Point(x: 440, y: 440), within: 0.2))
    // (440 + 800, 440) / 2 = photo (620, 220): the pin's (20, 20).
    #expect(near(action.locationInView, Point(x: 20, y: 20), within: 0.2))
    #expect(Explanation.line(.action(action), origin: 10).hasSuffix(" in 'pin')"))
    // Unzoomed the same point is the photo's (440, 440), far from the pin.
    #expect(try RuleRun(mapScene(), s).actions.isEmpty)
  }

  @Test func touchesInsideZoomedContentCarryTheirViewsOwnPoints() throws {
    let s = ruleScript()
    // Held past the scroll view's content-touch delay (a quick tap's began is never delivered: the
    // pin's tap recognizes first and cancels it), then a tap on the photo itself.
    s.longPress(at: .init(x: 440, y: 440), duration: 0.3)
    s.wait(1)
    s.tap(at: .init(x: 100, y: 300))
    // The photo publishes the touches of its subviews too (the pin passes them up the chain).
    let run = try RuleRun(mapScene("zoomScale: 2, contentOffset: {x: 800, y: 0}", photo: "touches: true"), s)
    let began = run.touches.filter { $0.phase == "began" }.flatMap(\.touches)
    try #require(began.map(\.view) == ["pin", "photo"])
    #expect(near(began.first.map { Point(x: $0.x, y: $0.y) }, Point(x: 440, y: 440), within: 0.2))
    #expect(near(began.last.map { Point(x: $0.x, y: $0.y) }, Point(x: 100, y: 300), within: 0.2))
    // The pin's (20, 20), as the tap's action; then (100 + 800, 300) / 2 = the photo's (450, 150).
    #expect(near(began[0].locationInView, Point(x: 20, y: 20), within: 0.2))
    #expect(near(began[1].locationInView, Point(x: 450, y: 150), within: 0.2))
    // At scale 1 a view's points are the window's: the entry leaves them out.
    let plain = try RuleRun(mapScene(photo: "touches: true"), s)
    #expect(!plain.touches.isEmpty)
    #expect(plain.touches.allSatisfy { $0.touches.allSatisfy { $0.locationInView == nil } })
    #expect(!plain.touches[0].jsonLine.contains("locationInView"))
    #expect(run.touches[0].jsonLine.contains(#""tapCount":1,"locationInView":{"x":"#))
  }

  @Test func setZoomScaleAnimatedSpringsThereWithTheZoomCallbacks() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 900, y: 700))  // outside the map: only starts the clock
    let set = try SceneCommand.parse(json: #"{"cmd":"set","view":"map","zoomScale":2,"animated":true}"#)
    let run = try RuleRun(mapScene(), s, commands: [ScenePlayer.TimedCommand(at: 0.5, set)])
    #expect(zoomPhases(run) == ["willBeginZooming", "didEndZooming"])
    let scrolls = run.scrolls(of: "map")
    #expect(scrolls.first?.time == 10.5)
    let zooms = scrolls.filter { $0.scrollPhase == .didZoom }
    // Per display frame at the window's 60 Hz, growing to 2.
    #expect(abs(try #require(zooms.first).time - (10.5 + 1.0 / 60)) < 1e-9)
    let values = zooms.compactMap(\.zoomScale)
    #expect(values == values.sorted())
    #expect(scrolls.last?.zoomScale == 2)
    // Around the centre (400, 400): offset 400 · 2 − 400.
    #expect(scrolls.last?.contentOffset == WirePoint(x: 400, y: 400))
  }

  @Test func aTouchStopsAnAnimatedZoomWhereItIsWithItsDidEndZooming() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 900, y: 700))
    s.wait(0.6)
    s.longPress(at: .init(x: 100, y: 100), duration: 0.3)  // at 10.65 (the tap lifted at 10.05), mid-animation
    let set = try SceneCommand.parse(json: #"{"cmd":"set","view":"map","zoomScale":4,"animated":true}"#)
    let run = try RuleRun(mapScene(), s, commands: [ScenePlayer.TimedCommand(at: 0.5, set)])
    #expect(zoomPhases(run) == ["willBeginZooming", "didEndZooming"])
    let end = try #require(run.scrolls(of: "map").last)
    #expect(end.scrollPhase == .didEndZooming)
    #expect(end.time == 10.65)
    let scale = try #require(end.zoomScale)
    #expect(scale > 1 && scale < 4)
  }

  @Test func zoomToShowsTheRectCentredAtOnce() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 900, y: 700))
    let set = try SceneCommand.parse(
      json: #"{"cmd":"set","view":"map","zoomTo":{"x":600,"y":200,"width":40,"height":40}}"#)
    let run = try RuleRun(mapScene(), s, commands: [ScenePlayer.TimedCommand(at: 0.5, set)])
    // 800 / 40 = 20, clamped to 4; the rect's centre (620, 220) → (2480, 880) − 400 = (2080, 480).
    #expect(run.scrolls(of: "map").map(\.phase) == ["didZoom", "didScroll"])
    #expect(run.scrolls(of: "map").map(\.zoomScale) == [4, 4])
    #expect(run.scrolls(of: "map").last?.contentOffset == WirePoint(x: 2080, y: 480))
    // --explain says the scale beside the offset.
    let lines = run.messages.filter { if case .scroll = $0 { true } else { false } }.map {
      Explanation.line($0, origin: 10)
    }
    #expect(
      lines == [
        "+0.500 scroll didZoom on view 'map': offset (0, 0), zoom 4",
        "+0.500 scroll didScroll on view 'map': offset (2080, 480), zoom 4",
      ])
  }

  @Test func aDoubleTapWithZoomZoomsInAroundTheTapThenBackOut() throws {
    let s = ruleScript()
    s.doubleTap(at: .init(x: 200, y: 100))
    s.wait(2)
    s.doubleTap(at: .init(x: 200, y: 100))
    let photo = """
      recognizers:
                  - {id: zoomTap, type: tap, numberOfTapsRequired: 2, action: toggle, zoom: {view: map, scale: 2.5}}
      """
    let run = try RuleRun(mapScene(photo: photo), s)
    #expect(run.actions.map(\.action) == ["toggle", "toggle"])
    #expect(zoomPhases(run) == ["willBeginZooming", "didEndZooming", "willBeginZooming", "didEndZooming"])
    let ends = run.scrolls(of: "map").filter { $0.scrollPhase == .didEndZooming }
    #expect(ends.map(\.zoomScale) == [2.5, 1])
    // The rect 320 x 320 around the tap (200, 100): offset 2.5 · (200, 100) − 400, kept ≥ 0.
    #expect(near(ends[0].contentOffset, Point(x: 100, y: 0), within: 0.6))
    #expect(ends[1].contentOffset == WirePoint(x: 0, y: 0))
  }

  @Test func aZoomViewReplacedByAnUpdateTakesTheZoom() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 900, y: 700))
    s.wait(1)
    s.tap(at: .init(x: 520, y: 520))
    let update = try SceneCommand.parse(
      json: #"{"cmd":"update","op":"replace","view":{"id":"photo","frame":{"x":0,"y":0,"width":800,"height":800},"#
        + #""views":[{"id":"pin2","frame":{"x":640,"y":240,"width":40,"height":40},"#
        + #""recognizers":[{"id":"pin2Tap","type":"tap","action":"open-pin-2"}]}]}}"#)
    let run = try RuleRun(
      mapScene("zoomScale: 2, contentOffset: {x: 800, y: 0}"), s, commands: [ScenePlayer.TimedCommand(at: 0.5, update)])
    // At scale 2 from offset (800, 0) the new pin (640, 240) is at (480, 480)-(560, 560) on screen.
    #expect(run.actions.map(\.action) == ["open-pin-2"])
    #expect(near(run.actions.first?.locationInView, Point(x: 20, y: 20), within: 0.2))
  }

  @Test func theMuseumMapExampleZoomsInOnAPinThenTheZoomedPinTakesATap() throws {
    let s = FingerScript(windowWidth: 1280, windowHeight: 800, start: 10, sampleRate: 100)
    s.doubleTap(at: .init(x: 880, y: 540))
    s.wait(1.5)
    s.tap(at: .init(x: 640, y: 400))
    let run = try RuleRun(try readText(TestPaths.config("museum-map.yaml")), s)
    // The double tap on the minerals' pin zooms the plan (the pin's tap waits for it and fails).
    #expect(run.actions.map(\.action) == ["zoom-plan", "open-minerals"])
    // 2.5 around (880, 540): offset (880, 540) · 2.5 − the view's half (640, 400) = (1560, 950).
    let end = try #require(run.scrolls(of: "floor").last { $0.scrollPhase == .didEndZooming })
    #expect(end.zoomScale == 2.5)
    #expect(near(end.contentOffset, Point(x: 1560, y: 950), within: 0.8))
    // The screen's centre is the plan's (880, 540) now: the pin's (20, 20).
    #expect(near(run.actions.last?.locationInView, Point(x: 20, y: 20), within: 0.4))
  }

  @Test func aScrollViewThatDoesNotZoomCarriesNoZoomScale() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 300), duration: 0.2)
    let run = try RuleRun(listScene(), s)
    #expect(!run.scrolls(of: "list").isEmpty)
    #expect(run.scrolls(of: "list").allSatisfy { $0.zoomScale == nil })
    #expect(run.actions.allSatisfy { $0.locationInView == nil })
  }

  // MARK: The scene's keys

  @Test func zoomKeysAreCheckedWithTheirPlaces() {
    let yaml = """
      version: 1
      windows:
        - id: w
          size: {width: 800, height: 800}
          views:
            - id: map
              frame: {x: 0, y: 0, width: 800, height: 800}
              scroll: {minimumZoomScale: 2, maximumZoomScale: 1, zoomView: phot}
              views:
                - {id: photo, frame: {x: 0, y: 0, width: 800, height: 800}}
            - id: other
              frame: {x: 0, y: 0, width: 800, height: 800}
              scroll: {maximumZoomScale: 3, zoomScale: 5, zoomView: list}
              views:
                - id: list
                  frame: {x: 0, y: 0, width: 800, height: 800}
                  recognizers:
                    - {id: t, type: tap, action: a, zoom: {view: map}}
                    - {id: u, type: tap, action: b, zoom: {view: mapp, scale: 0}}
      """
    #expect(
      sceneDiagnostics(yaml) == [
        "scene.yaml:8:57: error: 'maximumZoomScale' in scroll of view 'map' must be at least minimumZoomScale (2), found 1",
        "scene.yaml:13:50: error: 'zoomScale' in scroll of view 'other' must be within minimumZoomScale...maximumZoomScale (1...3), found 5",
        "scene.yaml:18:60: error: 'view' in zoom of recognizer 't' names 'map', which does not zoom (a scroll view needs a zoomView and maximumZoomScale above minimumZoomScale)",
        "scene.yaml:19:60: error: 'view' in zoom of recognizer 'u' names 'mapp', an unknown view",
        "scene.yaml:19:73: error: 'scale' in zoom of tap recognizer 'u' must be greater than 0, found 0",
      ])
  }
}

extension RuleRun {
  /// Replays `script` against the scene text with `commands` applied at their times.
  init(_ sceneYAML: String, _ script: FingerScript, commands: [ScenePlayer.TimedCommand]) throws {
    let document = try Scene.parseDocument(sceneYAML)
    messages = try ScenePlayer.replay(
      script.recording, scene: document.scene, commands: commands, document: document.json)
  }
}
