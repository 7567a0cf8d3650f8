import Testing
import TouchDelivery
import TouchdTestKit

@testable import TouchdScene

/// Issue #15, swipe rules, through the scene replay (`touchctl replay --scene`). UIKit has no speed
/// rule: after t s (t ≤ 0.5) each touch needs 50·(1 − 0.94 t) pt along the direction and may move
/// at most 50·(1 − 0.98 t) pt sideways; moving backwards fails; `location` is where it began.
///
/// Scripted points go through the synthetic panel's device units (about 0.24 pt in x, 0.2 pt in
/// y) and come back at the centre of their unit's cell, within half a unit: locations are compared
/// within 0.125 pt, and the distances below leave room for the rounding.
@Suite("UIKit rules: swipe")
struct SwipeRuleTests {
  typealias P = FingerScript.Point

  func scene(_ parameters: String = "") -> String {
    ruleScene(
      """
      - id: pad
        frame: {x: 0, y: 0, width: 1000, height: 800}
        recognizers:
          - {id: swipe, type: swipe, action: swiped\(parameters)}
      """)
  }

  /// The one action's fields, or nil when there is not exactly one.
  struct Fields: Equatable {
    var recognizer: String
    var state: GestureRecognizer.State
    var direction: String
    var location: Point
    var numberOfTouches: Int
    var time: Double

    /// The same fields, the locations within half a device unit (0.125 pt).
    static func == (a: Fields, b: Fields) -> Bool {
      a.recognizer == b.recognizer && a.state == b.state && a.direction == b.direction
        && near(a.location, b.location, within: 0.125) && a.numberOfTouches == b.numberOfTouches && a.time == b.time
    }
  }

  func onlyAction(_ run: RuleRun) -> Fields? {
    guard run.actions.count == 1, let a = run.actions.first, case .swipe(let direction) = a.values,
      let recognizer = a.recognizer, let state = a.gestureState, let location = a.locationPoint,
      let numberOfTouches = a.numberOfTouches
    else { return nil }
    return Fields(
      recognizer: recognizer, state: state, direction: direction, location: location,
      numberOfTouches: numberOfTouches, time: (a.time * 1000).rounded() / 1000)
  }

  /// One finger down at (200, 320); `t` s later it jumps by (`along`, `sideways`) in one frame and
  /// stays there 0.05 s before lifting.
  func jump(along: Double, sideways: Double = 0, after t: Double) -> FingerScript {
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 320)])
    s.wait(t)
    s.move(f, to: [P(x: 200 + along, y: 320 + sideways)])
    s.wait(0.05)
    s.up(f)
    return s
  }

  @Test("swipe: after 0.1 s each finger needs 45.3 pt along the direction: 46 pt is recognized, 44 pt is not")
  func primaryMovementAfterATenthOfASecond() throws {
    let run = try RuleRun(scene(), jump(along: 46, after: 0.1))
    #expect(
      onlyAction(run)
        == Fields(
          recognizer: "swipe", state: .ended, direction: "right", location: Point(x: 200, y: 320),
          numberOfTouches: 1, time: 10.1))
    #expect(try RuleRun(scene(), jump(along: 44, after: 0.1)).actions.isEmpty)
  }

  @Test(
    "swipe: a finger short of the distance is recognized once the requirement has decayed below it (44 pt at 0.2 s)")
  func theRequirementDecays() throws {
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 320)])
    s.wait(0.1)
    s.move(f, to: [P(x: 244, y: 320)])  // 45.3 needed
    s.wait(0.1)
    s.move(f, to: [P(x: 244.5, y: 320)])  // 40.6 needed
    s.up(f)
    #expect(
      onlyAction(try RuleRun(scene(), s))
        == Fields(
          recognizer: "swipe", state: .ended, direction: "right", location: Point(x: 200, y: 320),
          numberOfTouches: 1, time: 10.2))
  }

  @Test("swipe: after 0.1 s a finger may move 45.1 pt sideways: 44 pt sideways is recognized, 46 pt fails")
  func secondaryMovementAfterATenthOfASecond() throws {
    let run = try RuleRun(scene(), jump(along: 46, sideways: 44, after: 0.1))
    #expect(
      onlyAction(run)
        == Fields(
          recognizer: "swipe", state: .ended, direction: "right", location: Point(x: 200, y: 320),
          numberOfTouches: 1, time: 10.1))
    #expect(try RuleRun(scene(), jump(along: 46, sideways: 46, after: 0.1)).actions.isEmpty)
  }

  @Test("swipe: a slow swipe of 30 pt in 0.45 s is recognized (UIKit has no speed rule)")
  func slowSwipe() throws {
    let s = ruleScript()
    s.drag(from: P(x: 200, y: 320), to: P(x: 230, y: 320), duration: 0.45)
    #expect(
      onlyAction(try RuleRun(scene(), s))
        == Fields(
          recognizer: "swipe", state: .ended, direction: "right", location: Point(x: 200, y: 320),
          numberOfTouches: 1, time: 10.45))
  }

  @Test("swipe: moving 8 pt backwards fails the swipe, even if it then goes on to 80 pt")
  func backwardsFails() throws {
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 320)])
    s.animate(f, duration: 0.05) { _, t in P(x: 200 + 30 * t, y: 320) }
    s.animate(f, duration: 0.03) { _, t in P(x: 230 - 8 * t, y: 320) }
    s.animate(f, duration: 0.05) { _, t in P(x: 222 + 58 * t, y: 320) }
    s.up(f)
    #expect(try RuleRun(scene(), s).actions.isEmpty)
  }

  @Test("swipe: 1 pt of panel jitter does not count as moving backwards (a finger trembling before it swipes)")
  func jitterIsNotBackwards() throws {
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 320)])
    // 0.05 s of ±1 pt tremble on both axes: each sample 2 pt back from the one before.
    for k in 1...5 {
      s.wait(0.01)
      let w = k % 2 == 0 ? -1.0 : 1.0
      s.move(f, to: [P(x: 200 + w, y: 320 + w)])
    }
    s.animate(f, duration: 0.1) { _, t in P(x: 201 + 80 * t, y: 321) }
    s.up(f)
    let run = try RuleRun(scene(), s)
    #expect(run.actionLog == ["swipe:ended"])
    #expect(onlyAction(run)?.direction == "right")
    #expect(near(onlyAction(run)?.location, Point(x: 200, y: 320), within: 0.125))

    // A finger that really reverses 6 pt fails.
    let back = ruleScript()
    let g = back.down([P(x: 200, y: 320)])
    back.animate(g, duration: 0.05) { _, t in P(x: 200 + 30 * t, y: 320) }
    back.wait(0.01)
    back.move(g, to: [P(x: 224, y: 320)])
    back.animate(g, duration: 0.05) { _, t in P(x: 224 + 56 * t, y: 320) }
    back.up(g)
    #expect(try RuleRun(scene(), back).actions.isEmpty)
  }

  @Test(
    "swipe: with two fingers each must qualify on its own: a lagging finger holds the swipe back until it has moved far enough"
  )
  func laggingFingerWaits() throws {
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 320), P(x: 200, y: 480)])
    s.wait(0.1)
    // A 100 pt, B 20 pt: their centroid moved 60 pt, but B needs 45.3.
    s.move(f, to: [P(x: 300, y: 320), P(x: 220, y: 480)])
    s.wait(0.05)
    s.move(f, to: [P(x: 300, y: 320), P(x: 250, y: 480)])  // B 50 pt; 42.95 needed
    s.wait(0.05)
    s.up(f)
    #expect(
      onlyAction(try RuleRun(scene(", numberOfTouchesRequired: 2"), s))
        == Fields(
          recognizer: "swipe", state: .ended, direction: "right", location: Point(x: 200, y: 400),
          numberOfTouches: 2, time: 10.15))
  }

  @Test("swipe: a two-finger swipe whose second finger never moves far enough fails at maximumDuration 0.5 s")
  func laggingFingerNeverCatchesUp() throws {
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 320), P(x: 200, y: 480)])
    s.wait(0.1)
    s.move(f, to: [P(x: 300, y: 320), P(x: 220, y: 480)])
    s.wait(0.35)
    s.move(f, to: [P(x: 300, y: 320), P(x: 225, y: 480)])  // 25 pt at 0.45 s; 28.85 needed
    s.wait(0.1)
    s.move(f, to: [P(x: 300, y: 320), P(x: 260, y: 480)])  // 60 pt, but at 0.55 s
    s.up(f)
    #expect(try RuleRun(scene(", numberOfTouchesRequired: 2"), s).actions.isEmpty)
  }

  @Test("swipe: location is where the swipe began, the centroid of the touch-down points, not where the fingers are")
  func locationIsTheStart() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 160), P(x: 600, y: 320)])
    s.animate(f, duration: 0.1) { i, t in P(x: (i == 0 ? 400 : 600), y: (i == 0 ? 160 : 320) + 100 * t) }
    s.up(f)
    let run = try RuleRun(scene(", direction: down, numberOfTouchesRequired: 2"), s)
    let action = try #require(onlyAction(run))
    #expect(near(action.location, Point(x: 500, y: 240), within: 0.125))
    #expect(action.direction == "down")
    #expect(action.numberOfTouches == 2)
    #expect(action.state == .ended)
  }

  @Test("swipe: with left and right allowed, the direction the finger moves along is recognized")
  func severalDirections() throws {
    for (end, expected) in [(P(x: 500, y: 320), "left"), (P(x: 700, y: 320), "right")] {
      let s = ruleScript()
      s.drag(from: P(x: 600, y: 320), to: end, duration: 0.1)
      let run = try RuleRun(scene(", direction: [left, right]"), s)
      #expect(onlyAction(run)?.direction == expected)
      #expect(near(onlyAction(run)?.location, Point(x: 600, y: 320), within: 0.125))
    }
    // Straight up fits neither: it is more than the sideways allowance off both.
    let s = ruleScript()
    s.drag(from: P(x: 600, y: 480), to: P(x: 600, y: 320), duration: 0.1)
    #expect(try RuleRun(scene(", direction: [left, right]"), s).actions.isEmpty)
  }

  @Test("swipe: t runs from the first touch-down: a second finger landing 0.3 s later needs only 28.85 pt at 0.45 s")
  func timeFromTheFirstTouchDown() throws {
    let s = ruleScript()
    let a = s.down([P(x: 200, y: 320)])
    s.wait(0.3)
    let b = s.down([P(x: 200, y: 480)])
    s.wait(0.15)
    s.move(a + b, to: [P(x: 230, y: 320), P(x: 230, y: 480)])
    s.up(a + b)
    #expect(
      onlyAction(try RuleRun(scene(", numberOfTouchesRequired: 2"), s))
        == Fields(
          recognizer: "swipe", state: .ended, direction: "right", location: Point(x: 200, y: 400),
          numberOfTouches: 2, time: 10.45))
  }

  @Test("swipe: a finger resting 0.5 s then swiping 100 pt fails (maximumDuration from the first touch-down)")
  func maximumDuration() throws {
    let s = ruleScript()
    let f = s.down([P(x: 200, y: 320)])
    s.wait(0.5)
    s.animate(f, duration: 0.1) { _, t in P(x: 200 + 100 * t, y: 320) }
    s.up(f)
    #expect(try RuleRun(scene(), s).actions.isEmpty)
  }

  @Test("swipe: an extra finger or a finger lifting early fails a two-finger swipe")
  func extraFingerAndEarlyLift() throws {
    let extra = ruleScript()
    extra.drag(from: P(x: 400, y: 320), to: P(x: 600, y: 320), duration: 0.1, fingers: 3)
    #expect(try RuleRun(scene(", numberOfTouchesRequired: 2"), extra).actions.isEmpty)

    let early = ruleScript()
    let f = early.down([P(x: 200, y: 320), P(x: 200, y: 480)])
    early.animate(f, duration: 0.03) { i, t in P(x: 200 + 30 * t, y: i == 0 ? 320 : 480) }
    early.up([f[1]])
    early.animate([f[0]], duration: 0.05) { _, t in P(x: 230 + 70 * t, y: 320) }
    early.up([f[0]])
    #expect(try RuleRun(scene(", numberOfTouchesRequired: 2"), early).actions.isEmpty)

    // The same two fingers lifting only after both moved 100 pt are a swipe.
    let both = ruleScript()
    let g = both.down([P(x: 200, y: 320), P(x: 200, y: 480)])
    both.animate(g, duration: 0.08) { i, t in P(x: 200 + 100 * t, y: i == 0 ? 320 : 480) }
    both.up(g)
    #expect(try RuleRun(scene(", numberOfTouchesRequired: 2"), both).actionLog == ["swipe:ended"])
  }
}
