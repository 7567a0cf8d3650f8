import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// UIPageControl through the whole pipeline (scene replay): a tap beside the current indicator
/// moves one page, a drag scrubs page by page, hidesForSinglePage, `pages:` binding a paging scroll
/// view both ways without a loop, the runtime `set`, and the scene format's errors.
@Suite struct PageControlTests {
  /// A 200 x 30 page control `dots` at (400, 700) of 5 pages on page 2, valueChanged mapped to
  /// `page`: its indicators' centres are 16 pt apart around x 500 (468, 484, 500, 516, 532).
  func dotsScene(_ extra: String = "") -> String {
    ruleScene(
      """
      - id: dots
        frame: {x: 400, y: 700, width: 200, height: 30}
        control: {type: pageControl, numberOfPages: 5, currentPage: 2, actions: {valueChanged: page}\(extra)}
      """)
  }

  /// The pages of the control messages of `view`, in order.
  func pages(_ run: RuleRun, of view: String) -> [Int?] {
    run.controlStates.filter { $0.view == view }.map {
      if case .currentPage(let page) = $0.controlValue { page } else { nil }
    }
  }

  // MARK: Geometry

  @Test func theIndicatorsAreSixteenPointsApartAroundTheMiddle() {
    let control = PageControl(frame: Rect(x: 0, y: 0, width: 200, height: 30))
    control.numberOfPages = 5
    #expect((0..<5).map(control.indicatorCenterX) == [68, 84, 100, 116, 132])
    #expect(control.page(at: 75) == 0 && control.page(at: 77) == 1 && control.page(at: -1e300) == 0)
    #expect(control.page(at: 1e300) == 4)
    control.currentPage = 9
    #expect(control.currentPage == 4)
    control.numberOfPages = 2
    #expect(control.currentPage == 1)
    control.currentPage = -3
    #expect(control.currentPage == 0)
  }

  // MARK: Taps

  @Test func aTapBesideTheCurrentIndicatorMovesOnePage() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 590, y: 715))  // right of page 2's dot, far out: one page forward
    s.wait(0.5)
    s.tap(at: .init(x: 410, y: 715))  // left of page 3's dot: one page back
    s.wait(0.5)
    s.tap(at: .init(x: 517, y: 715))  // right of page 2's dot (its centre is at 500)
    let run = try RuleRun(dotsScene(), s)
    #expect(run.controlActions.map(\.controlValue) == [.currentPage(3), .currentPage(2), .currentPage(3)])
    #expect(run.controlActions.allSatisfy { $0.event == "valueChanged" && $0.control == "pageControl" })
    #expect(run.controlActions.first?.jsonLine.contains(#""value":3"#) == true)
    // Highlighted on page 2 at touch-down, then page 3 with the lift, before the action.
    #expect(pages(run, of: "dots") == [2, 3, 3, 2, 2, 3])
    #expect(run.highlights(of: "dots") == ["H", "-", "H", "-", "H", "-"])
    #expect(run.controlStates.first?.jsonLine.contains(#""currentPage":2"#) == true)
    // `touchctl replay --explain` names the page.
    let action = try #require(run.messages.first { if case .action = $0 { true } else { false } })
    #expect(Explanation.text(action) == "action 'page': pageControl 'dots' valueChanged, page 3")
  }

  @Test func aTapPastTheLastPageOrOutsideChangesNothing() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 590, y: 715))
    s.wait(0.5)
    s.tap(at: .init(x: 590, y: 715))  // already on the last page
    let run = try RuleRun(dotsScene().replacingOccurrences(of: "currentPage: 2", with: "currentPage: 3"), s)
    #expect(run.controlActions.map(\.controlValue) == [.currentPage(4)])
    #expect(pages(run, of: "dots") == [3, 4, 4, 4])
  }

  // MARK: Scrubbing

  @Test func aDragScrubsPageByPageWithAValueChangedForEach() throws {
    let s = ruleScript()
    let finger = s.down([.init(x: 500, y: 715)])
    s.wait(0.05)
    s.move(finger, to: [.init(x: 505, y: 715)])  // within the 10 pt hysteresis: no scrub yet
    s.wait(0.05)
    s.move(finger, to: [.init(x: 540, y: 715)])  // past page 3's and page 4's dots in one frame
    s.wait(0.05)
    s.move(finger, to: [.init(x: 700, y: 715)])  // far past the last: stays on it
    s.wait(0.05)
    s.move(finger, to: [.init(x: 470, y: 715)])  // back over pages 3, 2 and 1 to page 0's dot
    s.wait(0.05)
    s.up(finger)
    let run = try RuleRun(dotsScene(), s)
    #expect(
      run.controlActions.map(\.controlValue) == [3, 4, 3, 2, 1, 0].map { ControlValue.currentPage($0) })
    // The lift after a scrub moves no further (a tap would have gone back one page from 0: none).
    #expect(pages(run, of: "dots").last == 0)
  }

  @Test func withoutContinuousInteractionADragIsATapAtItsLift() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 500, y: 715), to: .init(x: 560, y: 715), duration: 0.2)
    let run = try RuleRun(dotsScene(", allowsContinuousInteraction: false"), s)
    #expect(run.controlActions.map(\.controlValue) == [.currentPage(3)])
  }

  // MARK: hidesForSinglePage

  @Test func withOnePageAndHidesForSinglePageTheControlIsNotHit() throws {
    func run(_ properties: String) throws -> RuleRun {
      let s = ruleScript()
      s.tap(at: .init(x: 500, y: 715))
      return try RuleRun(
        ruleScene(
          """
          - id: dots
            frame: {x: 400, y: 700, width: 200, height: 30}
            control: {type: pageControl, \(properties), actions: \(everyEvent("dots"))}
          """), s)
    }
    #expect(try run("numberOfPages: 1, hidesForSinglePage: true").messages.isEmpty)
    #expect(
      try run("numberOfPages: 1").events(of: "dots") == ["touchDown", "touchUpInside"])
    // Two pages are shown: a tap on the middle (right of page 0's dot) moves to page 1.
    #expect(
      try run("numberOfPages: 2, hidesForSinglePage: true").events(of: "dots")
        == ["touchDown", "valueChanged", "primaryActionTriggered", "touchUpInside"])
  }

  // MARK: pages: binding

  /// A 500 x 300 paging scroll view `carousel` of 5 pages at the top, and `dots` bound to it
  /// below: a 500 pt wide control whose indicators are at 218, 234, 250, 266 and 282.
  static let boundScene = ruleScene(
    """
    - id: carousel
      frame: {x: 0, y: 0, width: 500, height: 300}
      scroll: {contentSize: {width: 2500, height: 300}, pagingEnabled: true}
    - id: dots
      frame: {x: 0, y: 320, width: 500, height: 30}
      control: {type: pageControl, numberOfPages: 5, pages: carousel, actions: {valueChanged: page}}
    """)

  @Test func scrollingMovesThePageAsItPassesTheMiddleWithoutAnEvent() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 400, y: 150), to: .init(x: 100, y: 150), duration: 0.3)
    let run = try RuleRun(Self.boundScene, s)
    #expect(run.controlActions.isEmpty)
    #expect(pages(run, of: "dots") == [1])
    // Mid-drag: the page changes before the finger lifts (willEndDragging).
    let changed = run.messages.firstIndex { if case .control = $0 { true } else { false } }
    let lifted = run.messages.firstIndex { if case .scroll(let m) = $0 { m.phase == "willEndDragging" } else { false } }
    #expect(changed != nil && lifted != nil && changed! < lifted!)
    let last = run.messages.last { if case .scroll = $0 { true } else { false } }
    guard case .scroll(let m)? = last else { return #expect(Bool(false), "no scroll message") }
    #expect(m.phase == "didEndDecelerating" && abs(m.contentOffset.x - 500) < 0.5)
  }

  @Test func aTapOnTheControlScrollsToItsPageAnimatedWithoutLooping() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 260, y: 335), to: .init(x: 290, y: 335), duration: 0.1)  // scrub from 0 to page 4
    let run = try RuleRun(Self.boundScene, s)
    #expect(run.controlActions.map(\.controlValue) == [1, 2, 3, 4].map { ControlValue.currentPage($0) })
    // Page 0 highlighted at touch-down, each page of the scrub, the lift's un-highlight: the
    // animation passing pages 1…3 again (and each restart of it) does not set the page back.
    #expect(pages(run, of: "dots") == [0, 1, 2, 3, 4, 4])
    let scrolls = run.messages.compactMap { if case .scroll(let m) = $0 { m } else { nil } }
    #expect(scrolls.last?.phase == "didEndScrollingAnimation" && scrolls.last?.contentOffset.x == 2000)
    #expect(scrolls.filter { $0.phase == "didScroll" }.count > 3)
  }

  @Test func setCurrentPageChangesTheControlAndNotTheScrollView() throws {
    let scene = try Scene.parse(
      Self.boundScene + """

              - id: buy
                frame: {x: 0, y: 400, width: 100, height: 40}
                control: {type: button}
        """)
    var messages: [Message] = []
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { messages.append($0) }
    try runtime.setView("dots", control: ControlChange(currentPage: 3))
    #expect(messages.map(\.type) == ["control"])
    #expect(runtime.scrollView("carousel")?.contentOffset.x == 0)
    #expect((runtime.view("dots") as? PageControl)?.currentPage == 3)
    #expect(
      throws: SceneRuntimeError.invalidValue(
        "currentPage 5 of 'dots' must be at least 0 and less than its numberOfPages (5)")
    ) {
      try runtime.setView("dots", control: ControlChange(currentPage: 5))
    }
    #expect(throws: SceneRuntimeError.invalidValue("'currentPage' is a page control property; view 'buy' is a button"))
    {
      try runtime.setView("buy", control: ControlChange(currentPage: 1))
    }
    try runtime.setView("carousel", scroll: ScrollChange(contentOffset: WirePoint(x: 1000, y: 0)))
    #expect((runtime.view("dots") as? PageControl)?.currentPage == 2)
  }
}

/// The scene format of `type: pageControl`: UIKit's defaults, and each error at its place.
@Suite struct PageControlFormatTests {
  @Test func propertiesDecodeWithUIKitsDefaults() throws {
    let scene = try Scene.parse(
      ruleScene(
        """
        - id: dots
          frame: {x: 0, y: 0, width: 200, height: 30}
          control: {type: pageControl}
        - id: bound
          frame: {x: 0, y: 40, width: 200, height: 30}
          control: {type: pageControl, numberOfPages: 4, currentPage: 3, hidesForSinglePage: true, allowsContinuousInteraction: false, pages: carousel}
        - id: carousel
          frame: {x: 0, y: 100, width: 200, height: 100}
          scroll: {contentSize: {width: 800, height: 100}, pagingEnabled: true}
        """))
    let views = scene.windows[0].views
    let plain = try #require(views[0].control)
    #expect(plain.type == .pageControl && plain.numberOfPages == 0 && plain.currentPage == 0)
    #expect(!plain.hidesForSinglePage && plain.allowsContinuousInteraction && plain.pages == nil)
    let bound = try #require(views[1].control)
    #expect(bound.numberOfPages == 4 && bound.currentPage == 3 && bound.hidesForSinglePage)
    #expect(!bound.allowsContinuousInteraction && bound.pages == "carousel")
  }

  @Test func theSchemaHasThePageControlWithUIKitsDefaults() throws {
    let data = try Data(contentsOf: TestPaths.config("scene.schema.json"))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let defs = try #require(schema["$defs"] as? [String: [String: Any]])
    let properties = try #require(defs["pageControl"]?["properties"] as? [String: [String: Any]])
    #expect(properties["numberOfPages"]?["default"] as? Double == 0)
    #expect(properties["numberOfPages"]?["minimum"] as? Double == 0)
    #expect(properties["hidesForSinglePage"]?["default"] as? Bool == false)
    #expect(properties["allowsContinuousInteraction"]?["default"] as? Bool == true)
    #expect(properties["pages"]?["type"] as? String == "string")
    #expect(defs["pageControl"]?["required"] as? [String] == ["type"])
  }

  @Test func theCarouselExampleShowsItsSlidesWithAPageControl() throws {
    let scene = try Scene.parse(try readText(TestPaths.config("carousel.yaml")))
    let dots = try #require(scene.windows[0].views.first { $0.id == "slide-dots" }?.control)
    #expect(dots.type == .pageControl && dots.numberOfPages == 5 && dots.currentPage == 0)
    #expect(dots.actions == ["valueChanged": "show-slide"])
    // A tap right of the first dot (the row is centred at x 960) shows slide 1.
    let s = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 10)
    s.tap(at: .init(x: 1000, y: 1035))
    let messages = try ScenePlayer.replay(s.recording, scene: scene)
    let actions = messages.compactMap { if case .action(let a) = $0 { a } else { nil } }
    #expect(actions.map(\.action) == ["show-slide"] && actions.first?.controlValue == .currentPage(1))
  }

  @Test func badPagesAndPageCountsAreReportedAtTheirPlace() {
    // The views start at line 6, indented 6 columns (ruleScene).
    let errors = sceneDiagnostics(
      ruleScene(
        """
        - id: carousel
          frame: {x: 0, y: 0, width: 500, height: 300}
          scroll: {contentSize: {width: 2500, height: 300}}
        - id: photo
          frame: {x: 0, y: 300, width: 10, height: 10}
        - id: a
          frame: {x: 0, y: 320, width: 200, height: 30}
          control: {type: pageControl, numberOfPages: 3, currentPage: 3, pages: carousel}
        - id: b
          frame: {x: 0, y: 360, width: 200, height: 30}
          control: {type: pageControl, numberOfPages: -1, currentPage: 1.5, pages: photo}
        - id: c
          frame: {x: 0, y: 400, width: 200, height: 30}
          control: {type: pageControl, currentPage: 1, pages: carousle, segments: [x]}
        """))
    #expect(
      errors == [
        "scene.yaml:13:69: error: 'currentPage' in control of view 'a' must be less than numberOfPages (3), found 3",
        "scene.yaml:13:79: error: 'pages' in control of view 'a' names 'carousel', a scroll view without paging (it needs pagingEnabled: true)",
        "scene.yaml:16:53: error: 'numberOfPages' in control of view 'b' must be at least 0, found -1",
        "scene.yaml:16:70: error: 'currentPage' in control of view 'b' must be an integer, found 1.5",
        "scene.yaml:16:82: error: 'pages' in control of view 'b' names 'photo', which is not a scroll view (a paging scroll view has scroll: with pagingEnabled: true)",
        "scene.yaml:19:51: error: 'currentPage' in control of view 'c' must be 0 when numberOfPages is 0, found 1",
        "scene.yaml:19:61: error: 'pages' in control of view 'c' names 'carousle', an unknown view",
        "scene.yaml:19:71: error: 'segments' in control of view 'c' is a segmented control property; this control is a page control",
      ])
  }
}
