import Foundation
import Testing
import TouchDelivery
import TouchdTestKit

@testable import TouchdScene

/// Issue #15, pinch and rotation rules, through the scene replay. The script's device units are
/// 0.24 pt wide and 0.2 pt high on the 1000 x 800 window, so measured values carry tolerances.
@Suite("UIKit rules: pinch and rotation")
struct PinchRotationRuleTests {
  typealias P = FingerScript.Point

  func scene(_ type: String, _ parameters: String = "") -> String {
    ruleScene(
      """
      - id: photo
        frame: {x: 0, y: 0, width: 1000, height: 800}
        multipleTouchEnabled: true
        recognizers:
          - {id: g, type: \(type), action: act\(parameters)}
      """)
  }

  /// Two fingers on opposite sides of (500, 400), `radius` pt from it, the line from the first to
  /// the second at `angle` (radians, clockwise on screen).
  func opposite(_ angle: Double, radius: Double = 100, center: P = P(x: 500, y: 400)) -> [P] {
    [
      P(x: center.x - radius * cos(angle), y: center.y - radius * sin(angle)),
      P(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle)),
    ]
  }

  // MARK: Pinch

  @Test("pinch: lifting one finger does not end the pinch; it ends when the last finger lifts")
  func pinchEndsAtTheLastLift() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
    s.animate([f[1]], duration: 0.2) { _, t in P(x: 600 + 200 * t, y: 400) }
    s.wait(0.01)
    let firstLift = s.time
    s.up([f[1]])
    // The finger left down moves: nothing changes.
    s.animate([f[0]], duration: 0.1) { _, t in P(x: 400 - 50 * t, y: 400 + 50 * t) }
    s.wait(0.01)
    let lastLift = s.time
    s.up([f[0]])
    let run = try RuleRun(scene("pinch"), s)
    let states = run.actions.map(\.gestureState)
    #expect(states.first == .began)
    #expect(states.dropFirst().dropLast().allSatisfy { $0 == .changed })
    #expect(states.filter { $0 == .ended } == [.ended])
    #expect(states.count == 21)
    let ended = try #require(run.actions.last)
    #expect(ended.gestureState == .ended)
    #expect(abs(ended.time - lastLift) < 1e-6, "ended at the last finger's lift")
    #expect(run.actions.dropLast().allSatisfy { $0.time < firstLift && $0.numberOfTouches == 2 })
    // The scale at the end is the one the pair last had: 400 pt over 210 pt at began.
    let last = try #require(run.actions.dropLast().last?.pinchScale)
    #expect(ended.pinchScale == last)
    #expect(abs(last - 400.0 / 210) < 0.005)
  }

  @Test("pinch: a finger put back down re-anchors: scale continues without a jump")
  func pinchReanchors() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
    s.animate([f[1]], duration: 0.2) { _, t in P(x: 600 + 200 * t, y: 400) }
    s.wait(0.01)
    s.up([f[1]])
    s.animate([f[0]], duration: 0.1) { _, t in P(x: 400 - 100 * t, y: 400) }
    s.wait(0.01)
    let landing = s.time
    // C lands 400 pt from the finger left down (now at 300): the pair is re-anchored at the current
    // scale.
    let c = s.down([P(x: 700, y: 400)])
    s.animate(c, duration: 0.2) { _, t in P(x: 700 + 200 * t, y: 400) }
    s.wait(0.01)
    s.up([f[0], c[0]])
    let run = try RuleRun(scene("pinch"), s)
    let before = run.actions.filter { $0.time < landing }
    let after = run.actions.filter { $0.time > landing }
    #expect(before.map(\.gestureState) == [.began] + Array(repeating: .changed, count: 19))
    #expect(after.map(\.gestureState) == Array(repeating: .changed, count: 20) + [.ended])
    #expect(after.allSatisfy { $0.numberOfTouches == 2 })
    let atLift = try #require(before.last?.pinchScale)
    #expect(abs(atLift - 400.0 / 210) < 0.005)
    // The first move after the landing (C 10 pt farther, 410 pt) changes the scale by 2.5 %.
    let first = try #require(after.first?.pinchScale)
    #expect(abs(first - atLift * 410 / 400) < 0.002)
    // 600 pt over the 400 pt at the landing.
    let final = try #require(after.last?.pinchScale)
    #expect(abs(final - atLift * 600 / 400) < 0.005)
  }

  @Test("pinch: began reports scale 1.0; the 8 pt threshold is subtracted")
  func pinchBeganIsOne() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
    // Each finger 1.5 pt per frame outwards: 9 pt after the third frame, 150 pt after 0.5 s.
    s.animate(f, duration: 0.5) { i, t in P(x: i == 0 ? 400 - 75 * t : 600 + 75 * t, y: 400) }
    s.wait(0.01)
    s.up(f)
    let run = try RuleRun(scene("pinch"), s)
    let began = try #require(run.actions.first)
    #expect(began.gestureState == .began)
    #expect(abs(began.time - 10.03) < 1e-6)
    #expect(began.numberOfTouches == 2)
    #expect(began.pinchScale == 1.0)
    // The velocity includes the movement before began: 300 pt/s over 209 pt.
    #expect(abs(began.pinchVelocity - 300.0 / 209) < 0.05 * 300 / 209)
    // 350 pt apart at the end, over the 209 pt at began (not 200).
    let ended = try #require(run.actions.last)
    #expect(ended.gestureState == .ended)
    #expect(abs(ended.pinchScale - 350.0 / 209) < 0.005)
    #expect(run.actions.map(\.gestureState) == [.began] + Array(repeating: .changed, count: 47) + [.ended])
  }

  @Test("pinch: 7 pt of distance change does not begin, 9 pt does")
  func pinchThreshold() throws {
    func pinch(by change: Double) throws -> RuleRun {
      let s = ruleScript()
      let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
      s.animate([f[1]], duration: 0.01) { _, _ in P(x: 600 + change, y: 400) }
      s.wait(0.1)
      s.up(f)
      return try RuleRun(scene("pinch"), s)
    }
    #expect(try pinch(by: 7).actionLog == [])
    #expect(try pinch(by: -7).actionLog == [])
    let spread = try pinch(by: 9)
    #expect(spread.actionLog == ["g:began", "g:ended"])
    #expect(spread.actions.map(\.pinchScale) == [1, 1])
    #expect(spread.actions.first?.numberOfTouches == 2)
    #expect(try pinch(by: -9).actionLog == ["g:began", "g:ended"])
  }

  @Test(
    "pinch: a third concurrent finger is ignored: numberOfTouches stays 2 and the pinch ends when its own fingers lift")
  func pinchIgnoresAThirdFinger() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
    s.animate([f[1]], duration: 0.1) { _, t in P(x: 600 + 100 * t, y: 400) }
    let third = s.down([P(x: 500, y: 700)])
    s.animate(third, duration: 0.1) { _, t in P(x: 500 + 300 * t, y: 700) }
    s.wait(0.01)
    s.up([f[1]])
    s.animate(third, duration: 0.1) { _, t in P(x: 800 - 300 * t, y: 700) }
    s.wait(0.01)
    let lastLift = s.time
    s.up([f[0]])
    s.wait(0.1)
    s.up(third)
    let run = try RuleRun(scene("pinch"), s)
    #expect(run.actions.map(\.gestureState) == [.began] + Array(repeating: .changed, count: 9) + [.ended])
    #expect(run.actions.dropLast().allSatisfy { $0.numberOfTouches == 2 })
    #expect(abs((run.actions.last?.time ?? 0) - lastLift) < 1e-6)
    #expect(abs((run.actions.last?.pinchScale ?? 0) - 300.0 / 210) < 0.005)
  }

  @Test("pinch: every finger lifting before it began fails it: no action")
  func pinchFailsBeforeItBegan() throws {
    let s = ruleScript()
    let f = s.down([P(x: 400, y: 400), P(x: 600, y: 400)])
    s.animate([f[1]], duration: 0.05) { _, t in P(x: 600 + 5 * t, y: 400) }
    s.up([f[1]])
    s.animate([f[0]], duration: 0.05) { _, t in P(x: 400 - 50 * t, y: 400) }
    s.up([f[0]])
    #expect(try RuleRun(scene("pinch"), s).actionLog == [])
  }

  // MARK: Rotation

  @Test("rotation: began reports rotation 0")
  func rotationBeganIsZero() throws {
    let s = ruleScript()
    let f = s.down(opposite(0))
    // π/100 rad per frame: 3.1 pt of arc each, 12.6 pt after the fourth frame.
    s.animate(f, duration: 0.5) { i, t in opposite(Double.pi / 2 * t)[i] }
    s.wait(0.01)
    s.up(f)
    let run = try RuleRun(scene("rotation"), s)
    let began = try #require(run.actions.first)
    #expect(began.gestureState == .began)
    #expect(abs(began.time - 10.04) < 1e-6)
    #expect(began.numberOfTouches == 2)
    #expect(began.rotationAngle == 0)
    // The velocity includes the turn before began: π rad/s.
    #expect(abs(began.rotationVelocity - Double.pi) < 0.05 * Double.pi)
    #expect(run.actions.map(\.gestureState) == [.began] + Array(repeating: .changed, count: 46) + [.ended])
    // A quarter turn less the 4π/100 turned before began.
    #expect(abs((run.actions.last?.rotationAngle ?? 0) - (Double.pi / 2 - 4 * Double.pi / 100)) < 0.01)
  }

  @Test("rotation: lifting one finger does not end the rotation; a finger put back down re-anchors without a jump")
  func rotationReanchors() throws {
    let s = ruleScript()
    let f = s.down(opposite(0))
    // 0.03 rad per frame: 3 pt of arc each, 12 pt after the fourth frame.
    s.animate(f, duration: 0.2) { i, t in opposite(0.6 * t)[i] }
    s.wait(0.01)
    let firstLift = s.time
    s.up([f[0]])
    let b = opposite(0.6)[1]
    s.animate([f[1]], duration: 0.1) { _, t in P(x: b.x + (638 - b.x) * t, y: b.y + (498 - b.y) * t) }
    s.wait(0.01)
    let landing = s.time
    // C lands level with B (638, 498), 200 pt to its left: the new pair's line points left.
    let c = s.down([P(x: 438, y: 498)])
    // Turn the pair (B, C) by 0.3 rad clockwise around its midpoint (538, 498).
    let center = P(x: 538, y: 498)
    s.animate([f[1], c[0]], duration: 0.15) { i, t in
      opposite(0.3 * t, center: center)[1 - i]
    }
    s.wait(0.01)
    let lastLift = s.time
    s.up([f[1], c[0]])
    let run = try RuleRun(scene("rotation"), s)
    let before = run.actions.filter { $0.time < firstLift }
    let after = run.actions.filter { $0.time > landing }
    #expect(run.actions.allSatisfy { $0.time < firstLift || $0.time > landing }, "no action with one finger down")
    #expect(before.map(\.gestureState) == [.began] + Array(repeating: .changed, count: 16))
    #expect(before.allSatisfy { $0.numberOfTouches == 2 })
    #expect(after.map(\.gestureState) == Array(repeating: .changed, count: 15) + [.ended])
    #expect(after.dropLast().allSatisfy { $0.numberOfTouches == 2 })
    #expect(abs((after.last?.time ?? 0) - lastLift) < 1e-6)
    let atLift = try #require(before.last?.rotationAngle)
    // The turn before began (0.12 rad of 0.6: 12 pt of arc at 100 pt) is not part of it.
    #expect(abs(atLift - 0.48) < 0.01)
    let first = try #require(after.first?.rotationAngle)
    #expect(abs(first - (atLift + 0.02)) < 0.005)
    #expect(abs((after.last?.rotationAngle ?? 0) - (atLift + 0.3)) < 0.005)
  }
}

extension ActionMessage {
  /// The pinch scale of the action (0 for other gestures).
  fileprivate var pinchScale: Double {
    if case .pinch(let scale, _) = values { return scale }
    return 0
  }

  fileprivate var pinchVelocity: Double {
    if case .pinch(_, let velocity) = values { return velocity }
    return 0
  }

  /// The rotation of the action in radians (0 for other gestures).
  fileprivate var rotationAngle: Double {
    if case .rotation(let rotation, _) = values { return rotation }
    return 0
  }

  fileprivate var rotationVelocity: Double {
    if case .rotation(_, let velocity) = values { return velocity }
    return 0
  }
}
