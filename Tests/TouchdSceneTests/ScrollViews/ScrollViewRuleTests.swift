import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// UIScrollView's rules through the whole pipeline (scene replay), with UIKit's numbers: the
/// rubber band (1 − 1/(x·0.55/d + 1))·d, deceleration at 0.998 per ms, the 150 ms content-touch
/// delay, canCancelContentTouches, paging one page per fling, nested scroll views by axis.
@Suite struct ScrollViewRuleTests {
  // MARK: Dragging and deceleration

  @Test func aFlingComesToRestAtTheProjectionOfItsReleaseVelocity() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 300), duration: 0.2)
    let run = try RuleRun(listScene(), s)
    #expect(
      run.scrollPhases(of: "list") == [
        "willBeginDragging", "willEndDragging", "didEndDragging", "willBeginDecelerating", "didEndDecelerating",
      ])
    let willEnd = try #require(run.scrolls(of: "list").first { $0.scrollPhase == .willEndDragging })
    let velocity = try #require(willEnd.velocity)
    // The finger moved up at 1500 pt/s: the offset grows at 1.5 pt/ms (UIKit's unit).
    #expect(velocity.x == 0)
    #expect(abs(velocity.y - 1.5) < 0.02)
    let rest = willEnd.contentOffset.y + uikitProjection(velocity.y * 1000, rate: 0.998)
    #expect(near(willEnd.targetContentOffset, Point(x: 0, y: rest), within: 0.001))
    #expect(near(run.finalOffset(of: "list"), Point(x: 0, y: rest), within: 0.001))
    let didEnd = try #require(run.scrolls(of: "list").last)
    #expect(didEnd.scrollPhase == .didEndDecelerating)
    // While it decelerates the offset is published at the window's 60 Hz.
    let ticks = run.scrolls(of: "list").filter { $0.scrollPhase == .didScroll && $0.time > willEnd.time }.map(\.time)
    #expect(ticks.count > 100)
    #expect(abs(ticks[1] - ticks[0] - 1.0 / 60) < 1e-6)
    #expect(abs(ticks[0] - willEnd.time - 1.0 / 60) < 1e-6)
  }

  @Test func theFastRateStopsSooner() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 300), duration: 0.2)
    let normal = try RuleRun(listScene(), s)
    let fast = try RuleRun(listScene("decelerationRate: fast"), s)
    let n = try #require(normal.scrolls(of: "list").first { $0.scrollPhase == .willEndDragging })
    let f = try #require(fast.scrolls(of: "list").first { $0.scrollPhase == .willEndDragging })
    let fv = try #require(f.velocity)
    #expect(
      near(f.targetContentOffset, Point(x: 0, y: f.contentOffset.y + uikitProjection(fv.y * 1000, rate: 0.99))))
    #expect(try #require(f.targetContentOffset).y < (try #require(n.targetContentOffset)).y - 400)
  }

  @Test func theDragFollowsTheFingerFromWhereThePanBegan() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 200, y: 600)])
    s.wait(0.01)
    s.move(f, to: [.init(x: 200, y: 585)])  // 15 pt > 10: the pan begins, translation zero
    s.wait(0.01)
    s.move(f, to: [.init(x: 200, y: 385)])
    s.wait(0.2)
    s.up(f)
    let run = try RuleRun(listScene(), s)
    let moves = run.scrolls(of: "list").filter { $0.scrollPhase == .didScroll }
    #expect(near(moves.first?.contentOffset, Point(x: 0, y: 200), within: 0.4))
    // The finger had stopped for 200 ms: no velocity, no deceleration.
    #expect(moves.count == 1)
    #expect(run.scrolls(of: "list").first { $0.scrollPhase == .didEndDragging }?.willDecelerate == false)
  }

  // MARK: Bounce

  @Test func pastTheTopTheContentRubberBandsAndSpringsBack() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 200, y: 300)])
    s.wait(0.01)
    s.move(f, to: [.init(x: 200, y: 315)])
    s.wait(0.01)
    s.move(f, to: [.init(x: 200, y: 515)])
    s.wait(0.1)
    s.up(f)
    let run = try RuleRun(listScene(), s)
    let pulled = try #require(run.scrolls(of: "list").first { $0.scrollPhase == .didScroll })
    #expect(abs(pulled.contentOffset.y + uikitRubberBand(200, 800)) < 0.2)  // −96.7, not −200
    let willEnd = try #require(run.scrolls(of: "list").first { $0.scrollPhase == .willEndDragging })
    #expect(willEnd.targetContentOffset == WirePoint(x: 0, y: 0))
    #expect(run.finalOffset(of: "list") == Point(x: 0, y: 0))
    #expect(
      run.scrollPhases(of: "list") == [
        "willBeginDragging", "willEndDragging", "didEndDragging", "willBeginDecelerating", "didEndDecelerating",
      ])
    // The settle takes about 0.6 s (critically damped spring, ω = 10/s).
    let settle = try #require(run.scrolls(of: "list").last).time - willEnd.time
    #expect(settle > 0.4 && settle < 1.0)
  }

  @Test func withoutBouncesTheContentStopsAtTheEdge() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 300), to: .init(x: 200, y: 600), duration: 0.2)
    let run = try RuleRun(listScene("bounces: false"), s)
    #expect(run.scrolls(of: "list").allSatisfy { $0.contentOffset == WirePoint(x: 0, y: 0) })
    #expect(run.scrolls(of: "list").filter { $0.scrollPhase == .didScroll }.isEmpty)
  }

  // MARK: delaysContentTouches

  @Test func aQuickTapOnARowReachesItAtTheLift() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 200, y: 250), duration: 0.05)
    let run = try RuleRun(listScene(), s)
    #expect(run.touchesLog == ["row2.began(1@200,250)", "row2.ended(1@200,250)"])
    // Held while the scroll view decided: touchesBegan arrives with the lift.
    #expect(run.touches.map(\.time) == [10.05, 10.05])
    #expect(run.actions.map(\.action) == ["buy-2"])
    #expect(run.scrolls.isEmpty)
  }

  @Test func aStillFingerReachesTheRowAfter150Milliseconds() throws {
    let s = ruleScript()
    s.longPress(at: .init(x: 200, y: 250), duration: 0.3)
    let run = try RuleRun(listScene(), s)
    #expect(run.touchesLog == ["row2.began(1@200,250)", "row2.ended(1@200,250)"])
    #expect(abs(run.touches[0].time - 10.15) < 1e-9)
    #expect(abs(run.touches[1].time - 10.3) < 1e-9)
  }

  @Test func withoutTheDelayTheRowGetsTheTouchAtTouchDown() throws {
    let s = ruleScript()
    s.longPress(at: .init(x: 200, y: 250), duration: 0.3)
    let run = try RuleRun(listScene("delaysContentTouches: false"), s)
    #expect(run.touches.map(\.time) == [10, 10.3])
  }

  @Test func aDragThatStartsOnARowWithinTheDelayNeverReachesIt() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 250), to: .init(x: 200, y: 100), duration: 0.1)
    let run = try RuleRun(listScene(), s)
    #expect(run.touches.isEmpty)
    #expect(run.actions.isEmpty)
    #expect(run.scrollPhases(of: "list").first == "willBeginDragging")
  }

  // MARK: canCancelContentTouches

  @Test func aDragAfterTheDelayCancelsTheRowsTouchAndScrolls() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 200, y: 250)])
    s.wait(0.3)
    // 7.5 pt a frame: the first move is short of the list's 10 pt, the second past it, whatever
    // the panel's rounding (10 pt a frame came out at 10.04 pt through the device units).
    s.animate(f, duration: 0.2) { _, t in .init(x: 200, y: 250 - 150 * t) }
    s.up(f)
    let run = try RuleRun(listScene(), s)
    // After the delay the row has the touch: it hears the first 7.5 pt of movement, then the
    // drag takes the touch (touchesCancelled) in the frame where the list begins dragging.
    #expect(run.touches.map { "\($0.view).\($0.phase)" } == ["row2.began", "row2.moved", "row2.cancelled"])
    let began = try #require(run.scrolls(of: "list").first)
    #expect(began.scrollPhase == .willBeginDragging)
    #expect(run.touches.last?.time == began.time)
    #expect(run.actions.isEmpty)
  }

  @Test func whenContentMayKeepItsTouchTheListDoesNotScroll() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 200, y: 250)])
    s.wait(0.3)
    s.animate(f, duration: 0.2) { _, t in .init(x: 200, y: 250 - 200 * t) }
    s.up(f)
    let run = try RuleRun(listScene("canCancelContentTouches: false"), s)
    #expect(run.scrolls.isEmpty)
    let phases = run.touches.map(\.phase)
    #expect(phases.first == "began")
    #expect(phases.last == "ended")
    #expect(phases.dropFirst().dropLast().allSatisfy { $0 == "moved" } && phases.count > 10)
  }

  @Test func withinTheDelayContentHasNoTouchToKeepSoTheListScrolls() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 250), to: .init(x: 200, y: 100), duration: 0.1)
    let run = try RuleRun(listScene("canCancelContentTouches: false"), s)
    #expect(run.touches.isEmpty)
    #expect(run.scrollPhases(of: "list").first == "willBeginDragging")
  }

  // MARK: Moving content

  @Test func aTapOnMovingContentStopsItAndReachesNoRow() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 300), duration: 0.2)
    s.wait(0.3)
    let catchTime = s.time
    s.tap(at: .init(x: 200, y: 100), duration: 0.05)
    let run = try RuleRun(listScene(), s)
    let list = run.scrolls(of: "list")
    let last = try #require(list.last)
    #expect(last.time <= catchTime + 1e-6)
    #expect(!list.contains { $0.scrollPhase == .didEndDecelerating })  // UIKit sends none when a touch stops it
    #expect(last.contentOffset.y > 500 && last.contentOffset.y < 1000)
    #expect(run.touches.isEmpty)
    #expect(run.actions.isEmpty)
  }

  @Test func hitTestingFollowsTheOffset() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 200, y: 50))
    let run = try RuleRun(listScene("contentOffset: {x: 0, y: 300}"), s)
    #expect(run.actions.map(\.action) == ["buy-3"])
    #expect(run.actions.first?.view == "row3")
  }

  // MARK: Paging

  let carousel = ruleScene(
    """
    - id: carousel
      frame: {x: 0, y: 0, width: 400, height: 300}
      scroll: {contentSize: {width: 1600, height: 300}, pagingEnabled: true}
    """)

  func pagingRun(distance: Double, duration: Double, rest: Double, scene: String? = nil) throws -> RuleRun {
    let s = ruleScript()
    let f = s.down([.init(x: 350, y: 150)])
    s.animate(f, duration: duration) { _, t in .init(x: 350 - distance * t, y: 150) }
    s.wait(rest)
    s.up(f)
    return try RuleRun(scene ?? carousel, s)
  }

  @Test func thePagingGridStartsAtTheInset() throws {
    let inset = ruleScene(
      """
      - id: carousel
        frame: {x: 0, y: 0, width: 400, height: 300}
        scroll:
          contentSize: {width: 1600, height: 300}
          contentInset: {left: 20, right: 20}
          contentOffset: {x: -20, y: 0}
          pagingEnabled: true
      """)
    // Page 1 is a view's width from page 0 at −20: 380, not 400.
    let next = try pagingRun(distance: 250, duration: 0.5, rest: 0.1, scene: inset)
    #expect(
      next.scrolls(of: "carousel").first { $0.scrollPhase == .willEndDragging }?.targetContentOffset
        == WirePoint(x: 380, y: 0))
    #expect(next.finalOffset(of: "carousel") == Point(x: 380, y: 0))
    // Short of halfway it returns to page 0, at the inset's edge.
    let back = try pagingRun(distance: 150, duration: 0.5, rest: 0.1, scene: inset)
    #expect(back.finalOffset(of: "carousel") == Point(x: -20, y: 0))
  }

  @Test func pagingReturnsToThePageWhenTheDragEndsBeforeHalfway() throws {
    let run = try pagingRun(distance: 150, duration: 0.5, rest: 0.1)
    #expect(
      run.scrolls(of: "carousel").first { $0.scrollPhase == .willEndDragging }?.targetContentOffset
        == WirePoint(x: 0, y: 0))
    #expect(run.finalOffset(of: "carousel") == .zero)
  }

  @Test func pagingMovesToTheNextPagePastHalfway() throws {
    let run = try pagingRun(distance: 250, duration: 0.5, rest: 0.1)
    #expect(run.finalOffset(of: "carousel") == Point(x: 400, y: 0))
    #expect(run.scrollPhases(of: "carousel").last == "didEndDecelerating")
  }

  @Test func aFastFlickMovesOnePageNotMore() throws {
    let run = try pagingRun(distance: 150, duration: 0.05, rest: 0)
    let willEnd = try #require(run.scrolls(of: "carousel").first { $0.scrollPhase == .willEndDragging })
    #expect((willEnd.velocity?.x ?? 0) > 2)  // > 2000 pt/s: projected far beyond one page
    #expect(willEnd.targetContentOffset == WirePoint(x: 400, y: 0))
    #expect(run.finalOffset(of: "carousel") == Point(x: 400, y: 0))
  }

  // MARK: Nested scroll views and directional lock

  let nested = ruleScene(
    """
    - id: list
      frame: {x: 0, y: 0, width: 400, height: 800}
      scroll: {contentSize: {width: 400, height: 3000}}
      views:
        - id: carousel
          frame: {x: 0, y: 100, width: 400, height: 200}
          scroll: {contentSize: {width: 1600, height: 200}}
    """)

  @Test func aHorizontalDragOnTheInnerCarouselScrollsOnlyIt() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 300, y: 200), to: .init(x: 100, y: 205), duration: 0.2)
    let run = try RuleRun(nested, s)
    #expect(run.scrollPhases(of: "carousel").first == "willBeginDragging")
    #expect(run.scrolls(of: "list").isEmpty)
  }

  @Test func aVerticalDragOnTheInnerCarouselScrollsTheList() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 250), to: .init(x: 205, y: 50), duration: 0.2)
    let run = try RuleRun(nested, s)
    #expect(run.scrollPhases(of: "list").first == "willBeginDragging")
    #expect(run.scrolls(of: "carousel").isEmpty)
  }

  let plane = """
    - id: map
      frame: {x: 0, y: 0, width: 600, height: 600}
      scroll: {contentSize: {width: 3000, height: 3000}, contentOffset: {x: 1000, y: 1000}
    """

  @Test func directionalLockKeepsAMostlyHorizontalDragHorizontal() throws {
    let s = ruleScript()
    let f = s.down([.init(x: 400, y: 300)])
    s.animate(f, duration: 0.3) { _, t in .init(x: 400 - 200 * t, y: 300 + 30 * t) }
    s.wait(0.1)
    s.up(f)
    let locked = try RuleRun(ruleScene(plane + ", directionalLockEnabled: true}"), s)
    let free = try RuleRun(ruleScene(plane + "}"), s)
    #expect(locked.finalOffset(of: "map")?.y == 1000)
    // 200 pt less the 13.3 pt the finger moved before the pan began (its translation starts at zero).
    #expect(abs((locked.finalOffset(of: "map")?.x ?? 0) - 1186.7) < 0.5)
    #expect((free.finalOffset(of: "map")?.y ?? 1000) < 980)
  }

  // MARK: Commands

  @Test func anAnimatedContentOffsetEndsWithDidEndScrollingAnimation() throws {
    let s = ruleScript()
    s.tap(at: .init(x: 900, y: 700))
    s.wait(2)
    s.tap(at: .init(x: 900, y: 700))
    let command = try SceneCommand.parse(
      json: #"{"cmd":"set","view":"list","contentOffset":{"x":0,"y":1000},"animated":true}"#)
    let messages = try ScenePlayer.replay(
      s.recording, scene: try Scene.parse(listScene()), commands: [.init(at: 0.1, command)])
    let scrolls = messages.compactMap { if case .scroll(let m) = $0 { m } else { nil } }
    #expect(scrolls.last?.scrollPhase == .didEndScrollingAnimation)
    #expect(scrolls.last?.contentOffset == WirePoint(x: 0, y: 1000))
    #expect(scrolls.filter { $0.scrollPhase == .didScroll }.count > 20)
    #expect(abs((scrolls.first?.time ?? 0) - (10.1 + 1.0 / 60)) < 1e-6)
  }

  @Test func scrollKeysOfSetNeedAScrollView() throws {
    let runtime = SceneRuntime(scene: try Scene.parse(listScene()), clock: VirtualClock()) { _ in }
    #expect(throws: SceneRuntimeError.invalidValue("view 'row1' is not a scroll view (it has no scroll:)")) {
      try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"set","view":"row1","contentOffset":{"x":0,"y":5}}"#))
    }
    try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"set","view":"list","contentOffset":{"x":0,"y":5}}"#))
    #expect(runtime.scrollView("list")?.contentOffset == Point(x: 0, y: 5))
    #expect(throws: ProtocolError("'animated' goes with 'contentOffset', 'zoomScale' or 'zoomTo'")) {
      try SceneCommand.parse(json: #"{"cmd":"set","view":"list","animated":true}"#)
    }
  }
}
