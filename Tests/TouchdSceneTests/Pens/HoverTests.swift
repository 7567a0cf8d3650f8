import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #41: the `hover` recognizer (UIHoverGestureRecognizer) follows a pen hovering over its
/// view, with its zOffset and angles; a hovering pen makes no touch.
@Suite struct HoverTests {
  /// A hover recognizer on the left half, whose view also publishes touches.
  static let views = """
    - id: left
      frame: {x: 0, y: 0, width: 960, height: 1080}
      touches: true
      recognizers: [{id: follow, type: hover, action: follow}]
    """

  func log(_ recording: Recording) throws -> [String] {
    try ScenePlayer.replay(recording, scene: try Scene.parse(PenTouchTests.scene(Self.views))).compactMap { m in
      switch m {
      case .action(let a):
        if case .hover(let z, let altitude, _) = a.values {
          "\(a.state ?? "") z \(z) alt \((altitude * 1000).rounded() / 1000) x \(Int(a.location?.x ?? -1))"
        } else {
          "action \(a.action)"
        }
      case .touches(let t): "touches \(t.phase)"
      default: nil
      }
    }
  }

  @Test func beganChangedWithZOffsetEndedWhenItLeavesTheViewCancelledWhenItTouches() throws {
    let pen = PenScript(start: 1, sampleRate: 100)
    pen.near(.init(x: 400, y: 500), distance: 0.5)  // over `left`: began, zOffset 0.5
    pen.move(to: .init(x: 800, y: 500), duration: 0.02)  // changed ×2
    pen.move(to: .init(x: 1200, y: 500), duration: 0.01)  // out of the view: ended
    pen.move(to: .init(x: 600, y: 500), duration: 0.01)  // back over it: began
    pen.down()  // the tip touches: cancelled, then the touch is the view's
    pen.up()  // lifted, it hovers again (just above: zOffset 5/63)
    pen.leave()
    let log = try log(pen.recording)
    #expect(
      log == [
        "began z \(32.0 / 63) alt 1.571 x 400", "changed z \(32.0 / 63) alt 1.571 x 600",
        "changed z \(32.0 / 63) alt 1.571 x 799", "ended z \(32.0 / 63) alt 1.571 x 799",
        "began z \(32.0 / 63) alt 1.571 x 600", "cancelled z \(32.0 / 63) alt 1.571 x 600", "touches began",
        "touches ended", "began z \(5.0 / 63) alt 1.571 x 600", "ended z \(5.0 / 63) alt 1.571 x 600",
      ], "\(log)")
  }

  @Test func aHoveringPenMakesNoTouchAndLeavingProximityEndsTheHover() throws {
    let pen = PenScript(start: 1, sampleRate: 100)
    pen.near(.init(x: 300, y: 300), distance: 1, tiltX: 30)
    pen.move(to: .init(x: 320, y: 300), duration: 0.01)
    pen.leave()
    let log = try log(pen.recording)
    #expect(log.count == 3 && !log.contains { $0.hasPrefix("touches") }, "\(log)")
    #expect(log.first?.hasPrefix("began z 1.0") == true && log.last?.hasPrefix("ended z 1.0") == true)
    // The tilt: 30 units at 57 a radian, 30.16°: the altitude π/2 less it.
    let altitude = Double.pi / 2 - 30.0 / 57
    #expect(log.first?.contains("alt \((altitude * 1000).rounded() / 1000)") == true, "\(log)")
  }

  /// The Dell Canvas pen's real hover: over the left of the window from 0.18 s, out of it at
  /// 0.50 s, back at 0.94 s…, ended by the pen leaving proximity at 1.85 s.
  @Test func theDellCanvasPenHoversInAndOutOfTheView() throws {
    let views = """
      - id: left
        frame: {x: 0, y: 0, width: 1150, height: 1080}
        recognizers: [{id: follow, type: hover, action: follow}]
      """
    let messages = try ScenePlayer.replay(
      try RecordingReader.load(path: PenTouchTests.dell.path), scene: try Scene.parse(PenTouchTests.scene(views)))
    let states = messages.compactMap { m -> String? in
      guard case .action(let a) = m, a.state != "changed" else { return nil }
      return "\(a.state ?? "") \(a.time)"
    }
    #expect(
      Array(states.prefix(6)) == [
        "began 0.179869", "ended 0.502848", "began 0.941862", "ended 1.481962", "began 1.801966", "ended 1.850899",
      ], "\(states)")
  }
}
