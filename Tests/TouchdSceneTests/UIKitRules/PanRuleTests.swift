import Testing
import TouchDelivery
import TouchdTestKit

@testable import TouchdScene

/// Issue #15, pan and screen-edge pan rules, through the scene replay.
@Suite("UIKit rules: pan and screen-edge pan")
struct PanRuleTests {
  typealias P = FingerScript.Point

  func panScene(_ parameters: String = "") -> String {
    ruleScene(
      """
      - id: map
        frame: {x: 0, y: 0, width: 1000, height: 800}
        multipleTouchEnabled: true
        recognizers:
          - {id: pan, type: pan, action: move\(parameters)}
      """)
  }

  @Test(
    "pan: touches beyond maximumNumberOfTouches are ignored: a resting second finger does not stop a one-finger pan")
  func extraTouchesAreIgnored() throws {
    let s = ruleScript()
    let a = s.down([P(x: 200, y: 300)])
    s.wait(0.02)
    let b = s.down([P(x: 600, y: 300)])  // rests
    s.animate(a, duration: 0.2) { _, t in P(x: 200 + 100 * t, y: 300) }
    s.up(b)
    s.animate(a, duration: 0.1) { _, t in P(x: 300 + 50 * t, y: 300) }
    s.up(a)
    let run = try RuleRun(panScene(", maximumNumberOfTouches: 1"), s)
    let states = run.actions.map(\.gestureState)
    #expect(states.first == .began)
    #expect(states.last == .ended)
    #expect(states.dropFirst().dropLast().allSatisfy { $0 == .changed })
    // The resting finger is never part of the pan: one touch, the centroid is finger A's.
    #expect(run.actions.dropLast().allSatisfy { $0.numberOfTouches == 1 })
    let began = try #require(run.actions.first)
    let ended = try #require(run.actions.last)
    // The translation is finger A's movement since its touch-down at x 200, unaffected by B.
    let (start, end) = (try #require(began.locationPoint), try #require(ended.locationPoint))
    #expect(abs(began.panTranslation.x - (start.x - 200)) < 0.5)
    #expect(abs(ended.panTranslation.x - (end.x - 200)) < 0.5)
    #expect(abs(end.x - 350) < 0.5)
  }

  @Test("pan: the pan ends when all its touches have lifted, not when fewer than minimumNumberOfTouches remain")
  func endsWhenAllLifted() throws {
    for parameters in ["", ", minimumNumberOfTouches: 2"] {
      let s = ruleScript()
      let f = s.down([P(x: 200, y: 300), P(x: 300, y: 300)])
      s.animate(f, duration: 0.2) { i, t in P(x: (i == 0 ? 200 : 300) + 80 * t, y: 300) }
      s.up([f[0]])
      s.animate([f[1]], duration: 0.1) { _, t in P(x: 380 + 40 * t, y: 300) }
      let liftTime = s.time
      s.up([f[1]])
      let run = try RuleRun(panScene(parameters), s)
      #expect(run.actions.first?.gestureState == .began, "\(parameters)")
      #expect(run.actions.filter { $0.gestureState == .ended }.count == 1, "\(parameters)")
      let ended = try #require(run.actions.last)
      #expect(ended.gestureState == .ended)
      #expect(abs(ended.time - liftTime) < 1e-6, "ended at the last finger's lift \(parameters)")
      // The remaining finger kept panning after the first lifted.
      #expect(run.actions.filter { $0.gestureState == .changed && $0.numberOfTouches == 1 }.count >= 5, "\(parameters)")
    }
  }

  @Test("pan: the 10 pt start threshold is per axis: 8 pt diagonally (11.3 pt) does not begin, 10.5 pt along x does")
  func startThresholdPerAxis() throws {
    func drag(_ dx: Double, _ dy: Double) throws -> [String] {
      let s = ruleScript()
      let f = s.down([P(x: 500, y: 400)])
      s.animate(f, duration: 0.05) { _, t in P(x: 500 + dx * t, y: 400 + dy * t) }
      s.wait(0.05)
      s.up(f)
      return try RuleRun(panScene(), s).actionLog
    }
    #expect(try drag(8, 8) == [])
    #expect(try drag(10.5, 0) == ["pan:began", "pan:ended"])
    #expect(try drag(0, -10.5) == ["pan:began", "pan:ended"])
  }

  @Test(
    "pan: translation counts from the initial point of contact, also when the pan begins after waiting on requireToFail"
  )
  func translationCountsFromContactAfterWaiting() throws {
    let scene = ruleScene(
      """
      - id: map
        frame: {x: 0, y: 0, width: 1000, height: 800}
        recognizers:
          - {id: pan, type: pan, action: move, requireToFail: [tap]}
          - {id: tap, type: tap, action: tapped}
      """)
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 300)])
    s.animate(f, duration: 0.5) { _, t in P(x: 200 + 100 * t, y: 300) }  // 2 pt per 10 ms frame
    s.up(f)
    let run = try RuleRun(scene, s)
    let began = try #require(run.actions.first)
    #expect(began.gestureState == .began)
    // It could only begin once the tap failed (moved > 45 pt); its translation is the distance
    // from the touch-down at x 200 (Apple, "Handling pan gestures"), the wait included; the panel
    // reports that touch-down at its device unit's centre, 200.07.
    let beganX = try #require(began.locationPoint).x
    #expect(beganX > 245)
    let downX = panelCoordinate(200, of: 1000)
    #expect(abs(downX - 200) < 0.125)
    #expect(abs(began.panTranslation.x - (beganX - downX)) < 1e-6)
    #expect(began.panTranslation.y == 0)
    let firstChange = try #require(run.actions.dropFirst().first)
    #expect(firstChange.gestureState == .changed)
    #expect(abs(firstChange.panTranslation.x - (beganX - 200 + 2)) < 0.5)
  }

  // MARK: Screen-edge pan

  let edgeScene = ruleScene(
    """
    - id: root
      frame: {x: 0, y: 0, width: 1000, height: 800}
      recognizers:
        - {id: back, type: screenEdgePan, action: back, edges: left}
      views:
        - id: strip
          frame: {x: 0, y: 0, width: 120, height: 800}
          touches: true
    """)

  @Test("screen-edge pan: UIKit's defaults are maximumNumberOfTouches 1, delaysTouchesBegan true and a 15 pt start")
  func edgeDefaults() throws {
    let fresh = ScreenEdgePanGestureRecognizer()
    #expect(fresh.maximumNumberOfTouches == 1)
    #expect(fresh.delaysTouchesBegan)
    #expect(fresh.startDistance == 15)
    let scene = try Scene.parse(edgeScene)
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    let back = try #require(runtime.view("root")?.gestureRecognizers.first as? ScreenEdgePanGestureRecognizer)
    #expect(back.maximumNumberOfTouches == 1 && back.delaysTouchesBegan && back.startDistance == 15)

    func inward(_ dx: Double) throws -> [String] {
      let s = ruleScript()
      let f = s.down([P(x: 5, y: 400)])
      s.animate(f, duration: 0.05) { _, t in P(x: 5 + dx * t, y: 400) }
      s.up(f)
      return try RuleRun(edgeScene, s).actionLog
    }
    #expect(try inward(14) == [])
    #expect(try inward(16) == ["back:began", "back:ended"])
  }

  @Test("screen-edge pan: a view under an edge pan sees nothing of a recognized edge swipe")
  func viewSeesNothingOfEdgeSwipe() throws {
    let s = ruleScript()
    let f = s.down([P(x: 4, y: 400)])
    s.animate(f, duration: 0.2) { _, t in P(x: 4 + 300 * t, y: 400) }
    s.up(f)
    let run = try RuleRun(edgeScene, s)
    #expect(run.touchesLog == [])
    #expect(run.actionLog.first == "back:began")
    #expect(run.actionLog.last == "back:ended")
  }

  @Test("screen-edge pan: the translation counts from the touch-down in the edge zone, at began and at the lift")
  func edgeTranslationFromContact() throws {
    let s = ruleScript()
    let f = s.down([P(x: 4, y: 400)])
    s.animate(f, duration: 0.2) { _, t in P(x: 4 + 300 * t, y: 400 + 20 * t) }
    s.up(f)
    let run = try RuleRun(edgeScene, s)
    let began = try #require(run.actions.first)
    #expect(began.gestureState == .began)
    // Past the 15 pt start distance, and all of it counted (Apple, "Handling pan gestures").
    // Within 0.2 pt: the script's points are quantized to the recording's device units.
    let at = try #require(began.locationPoint)
    #expect(at.x - 4 > 15)
    #expect(abs(began.panTranslation.x - (at.x - 4)) < 0.2)
    #expect(abs(began.panTranslation.y - (at.y - 400)) < 0.2)
    let ended = try #require(run.actions.last)
    #expect(ended.gestureState == .ended)
    #expect(abs(ended.panTranslation.x - 300) < 0.2)
    #expect(abs(ended.panTranslation.y - 20) < 0.2)
  }

  @Test("screen-edge pan: a tap in the edge zone reaches its view, began included, only when the edge pan fails")
  func tapInEdgeZoneWaitsForEdgePan() throws {
    let s = ruleScript()
    let f = s.down([P(x: 8, y: 400)])
    s.wait(0.08)
    s.up(f)
    let run = try RuleRun(edgeScene, s)
    #expect(run.actionLog == [])
    #expect(run.touchesLog == ["strip.began(1@8,400)", "strip.ended(1@8,400)"])
    // Both at the lift (10.08), when the edge pan failed: nothing at the touch-down (10.0).
    #expect(run.touches.map(\.time).allSatisfy { abs($0 - 10.08) < 1e-6 })
  }
}

extension ActionMessage {
  /// The pan translation of the action (zero for other gestures).
  var panTranslation: Point {
    if case .pan(let t, _) = values { return Point(t) }
    return .zero
  }
}
