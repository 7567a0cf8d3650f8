import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #43: a view's `multipleTouchEnabled` governs what touchd delivers to that view, not what
/// it forwards. The compositor's app underneath gets every finger the view would have had with
/// multiple touch, held and cancelled by the same rules (docs/forward.md, "Multiple touch").
@Suite("Forwarding and multipleTouchEnabled (issue #43)")
struct ForwardMultipleTouchTests {
  typealias P = FingerScript.Point

  /// A forwarding window whose root view keeps UIKit's default, one touch at a time, and hears
  /// touches; `recognizers` on it.
  static func scene(_ recognizers: String) -> String {
    """
    version: 1
    windows:
      - id: w
        size: {width: 1000, height: 800}
        forward: {}
        views:
          - id: root
            frame: {x: 0, y: 0, width: 1000, height: 800}
            touches: true
            recognizers:
              - \(recognizers)
    """
  }

  func script() -> FingerScript { FingerScript(windowWidth: 1000, windowHeight: 800, start: 1) }

  @Test(
    "a pinch over a view without multiple touch reaches the compositor with both fingers; the view hears one",
    arguments: SyntheticDeviceKind.allCases.filter { $0 != .singleTouch })
  func pinchKeepsBothFingers(kind: SyntheticDeviceKind) throws {
    let s = script()
    s.pinch(center: P(x: 500, y: 400), fromDistance: 200, toDistance: 400, duration: 0.2)
    let yaml = Self.scene("{id: admin, type: longPress, action: admin, numberOfTouchesRequired: 3}")
    let recording = kind.encode(s.recording)
    let result = try forwarded(recording, yaml)
    // Two tracking ids go down in the first frame, both lift at the end, nothing is cancelled.
    let downs = result.frames.flatMap { $0.split(separator: " ").filter { $0.hasPrefix("id=") } }
    #expect(downs == ["id=0", "id=1"])
    #expect(result.frames.first?.contains("id=0") == true && result.frames.first?.contains("id=1") == true)
    #expect(result.frames.joined(separator: " ").components(separatedBy: "up").count - 1 == 2)
    #expect(result.counters == "forwarded 2 held 0 released 0 cancelled 0 noSlot 0")
    // touchd's own delivery is unchanged: the view hears its first touch only.
    let messages = try ScenePlayer.replay(recording, scene: try Scene.parse(yaml))
    let ids = Set(
      messages.flatMap { m -> [Int] in
        guard case .touches(let t) = m, t.view == "root" else { return [] }
        return t.touches.map(\.id)
      })
    #expect(ids.count == 1)
  }

  @Test(
    "a three-finger hold on a view without multiple touch claims all three forwarded fingers",
    arguments: SyntheticDeviceKind.allCases.filter { $0 != .singleTouch })
  func holdClaimsEveryFinger(kind: SyntheticDeviceKind) throws {
    let s = script()
    let fingers = s.down(FingerScript.row(3, around: P(x: 500, y: 400), spacing: 80))
    s.wait(1.2)
    s.up(fingers)
    let yaml = Self.scene(
      "{id: admin, type: longPress, action: admin, numberOfTouchesRequired: 3, minimumPressDuration: 1}")
    let result = try forwarded(kind.encode(s.recording), yaml)
    #expect(result.actions == ["admin began", "admin ended"])
    // All three went down at 1.0 and are cancelled (palm, then lift) when the hold begins at 2.0.
    #expect(result.frames.first?.hasPrefix("1.000000") == true)
    #expect(result.frames.first.map { $0.components(separatedBy: "id=").count - 1 } == 3)
    #expect(result.frames.contains { $0.hasPrefix("2.000000") && $0.components(separatedBy: "palm").count - 1 == 3 })
    #expect(result.counters == "forwarded 3 held 0 released 0 cancelled 3 noSlot 0")
  }
}
