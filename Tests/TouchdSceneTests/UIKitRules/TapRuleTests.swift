import Testing
import TouchDelivery
import TouchdTestKit

@testable import TouchdScene

/// Issue #15, tap rules, through the scene replay (`touchctl replay --scene`).
@Suite("UIKit rules: tap")
struct TapRuleTests {
  typealias P = FingerScript.Point

  let pad = ruleScene(
    """
    - id: pad
      frame: {x: 0, y: 0, width: 1000, height: 800}
      recognizers:
        - {id: tap, type: tap, action: tapped}
    """)

  let twoFinger = ruleScene(
    """
    - id: pad
      frame: {x: 0, y: 0, width: 1000, height: 800}
      recognizers:
        - {id: two, type: tap, action: two, numberOfTouchesRequired: 2}
    """)

  let twoFingerDouble = ruleScene(
    """
    - id: pad
      frame: {x: 0, y: 0, width: 1000, height: 800}
      recognizers:
        - {id: two-double, type: tap, action: zoom, numberOfTapsRequired: 2, numberOfTouchesRequired: 2}
    """)

  /// One finger slides `distance` pt to the right and back, then lifts.
  func slide(_ distance: Double) -> FingerScript {
    let s = ruleScript()
    let f = s.down([P(x: 300, y: 300)])
    s.animate(f, duration: 0.1) { _, t in P(x: 300 + distance * t, y: 300) }
    s.up(f)
    return s
  }

  @Test("tap: allowableMovement is 45 pt: a finger sliding 44 pt still taps, 46 pt fails")
  func allowableMovementIs45() throws {
    #expect(try RuleRun(pad, slide(44)).actionLog == ["tap:ended"])
    let failed = try RuleRun(pad, slide(46), trace: true)
    #expect(failed.actionLog == [])
    // 46 pt through the synthetic panel's 0.24 pt units: 46.1 pt (299.93 to 346.07).
    let cause = try #require(failed.causes.first)
    #expect(cause.hasPrefix("tap: possible → failed: moved 46.1 pt"))
    #expect(cause.hasSuffix(" pt > allowableMovement 45"))
    // The old 10 pt threshold would have failed this one.
    #expect(try RuleRun(pad, slide(20)).actionLog == ["tap:ended"])
  }

  @Test("tap: movement is the centroid's from the first touch-down: two fingers spreading 40 pt each way still tap")
  func movementIsTheCentroids() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 300), P(x: 500, y: 300)])
    s.animate(f, duration: 0.1) { i, t in P(x: (i == 0 ? 400 - 40 * t : 500 + 40 * t), y: 300) }
    s.up(f)
    let run = try RuleRun(twoFinger, s)
    #expect(run.actionLog == ["two:ended"])
    #expect(near(run.actions.first?.location, Point(x: 450, y: 300)))

    // Both fingers moving 50 pt the same way move the centroid 50 pt: fails.
    let t = ruleScript()
    let g = t.down([P(x: 400, y: 300), P(x: 500, y: 300)])
    t.animate(g, duration: 0.1) { i, p in P(x: (i == 0 ? 400 : 500) + 50 * p, y: 300) }
    t.up(g)
    #expect(try RuleRun(twoFinger, t).actionLog == [])
  }

  @Test(
    "tap: fingers 120 pt apart make a two-finger double tap; location is the first tap's centroid, numberOfTouches 2")
  func twoFingerDoubleTapSpreadApart() throws {
    let s = ruleScript()
    let a = s.down([P(x: 300, y: 400), P(x: 420, y: 400)])
    s.wait(0.06)
    s.up(a)
    s.wait(0.15)
    let b = s.down([P(x: 306, y: 404), P(x: 428, y: 398)])
    s.wait(0.06)
    s.up(b)
    let run = try RuleRun(twoFingerDouble, s)
    #expect(run.actionLog == ["two-double:ended"])
    let action = try #require(run.actions.first)
    // UITapGestureRecognizer.h: "from the first tap in the sequence … the centroid".
    #expect(near(action.location, Point(x: 360, y: 400)))
    #expect(action.numberOfTouches == 2)

    // The second tap's centroid 50 pt from the first's: fails.
    let t = ruleScript()
    let c = t.down([P(x: 300, y: 400), P(x: 420, y: 400)])
    t.wait(0.06)
    t.up(c)
    t.wait(0.15)
    let d = t.down([P(x: 350, y: 400), P(x: 470, y: 400)])
    t.wait(0.06)
    t.up(d)
    #expect(try RuleRun(twoFingerDouble, t).actionLog == [])
  }

  @Test("tapCount belongs to each finger: two fingers double-tapping two buttons at once each get tapCount 2")
  func tapCountPerFinger() throws {
    let scene = ruleScene(
      """
      - {id: left, frame: {x: 100, y: 300, width: 200, height: 200}, touches: true}
      - {id: right, frame: {x: 700, y: 300, width: 200, height: 200}, touches: true}
      - {id: other, frame: {x: 400, y: 0, width: 200, height: 100}, touches: true}
      """)
    let s = ruleScript()
    for _ in 0..<2 {
      let both = s.down([P(x: 200, y: 400), P(x: 800, y: 400)])
      s.wait(0.05)
      s.up(both)
      s.wait(0.05)
      // A tap elsewhere between the two taps does not reset either place's count.
      let elsewhere = s.down([P(x: 500, y: 50)])
      s.wait(0.05)
      s.up(elsewhere)
      s.wait(0.05)
    }
    let run = try RuleRun(scene, s)
    let began = run.touches.filter { $0.phase == "began" }
    let counts = began.map { m in "\(m.view):\(m.touches.map { String($0.tapCount ?? 0) }.joined(separator: ","))" }
    #expect(counts == ["left:1", "right:1", "other:1", "left:2", "right:2", "other:2"])
  }

  @Test("tap: numberOfTouches is 2 for a two-finger tap whose fingers lift in different frames")
  func numberOfTouchesWhenFingersLiftApart() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 300)])
    s.wait(0.02)
    let g = s.down([P(x: 480, y: 300)])
    s.wait(0.05)
    s.up(f)
    s.wait(0.03)
    s.up(g)
    let run = try RuleRun(twoFinger, s)
    #expect(run.actions.map(\.numberOfTouches) == [2])
    #expect(near(run.actions.first?.location, Point(x: 440, y: 300)))
  }

  @Test("tap: numberOfTouches is 2 when a two-finger tap fires after waiting for a double tap to fail")
  func numberOfTouchesAfterWaiting() throws {
    let scene = ruleScene(
      """
      - id: pad
        frame: {x: 0, y: 0, width: 1000, height: 800}
        recognizers:
          - {id: two, type: tap, action: two, numberOfTouchesRequired: 2, requireToFail: [two-double]}
          - {id: two-double, type: tap, action: zoom, numberOfTapsRequired: 2, numberOfTouchesRequired: 2}
      """)
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 300), P(x: 500, y: 300)])
    s.wait(0.05)
    s.up(f)
    let run = try RuleRun(scene, s, trace: true)
    #expect(run.actionLog == ["two:ended"])
    let action = try #require(run.actions.first)
    #expect(action.numberOfTouches == 2)
    #expect(
      run.causes.filter { !$0.contains("→ possible") } == [
        "two-double: possible → failed: no tap 2 within maximumIntervalBetweenTaps 0.35 s",
        "two: possible → ended: tap 1 of 1 lifted; required 'two-double' failed",
      ])
    // It fired when the double tap's 0.35 s interval ran out after the lift at 10.05.
    #expect(abs(action.time - 10.4) < 0.001)
  }

  @Test("tap: the fingers of a two-finger tap must land within allowableTouchTimeSeparation 0.25 s")
  func fingersLandCloseTogether() throws {
    func tap(secondAfter gap: Double) throws -> [String] {
      let s = ruleScript()
      let f = s.down([P(x: 400, y: 300)])
      s.wait(gap)
      let g = s.down([P(x: 480, y: 300)])
      s.wait(0.05)
      s.up(f + g)
      return try RuleRun(twoFinger, s).actionLog
    }
    #expect(try tap(secondAfter: 0.2) == ["two:ended"])
    #expect(try tap(secondAfter: 0.3) == [])
  }
}
