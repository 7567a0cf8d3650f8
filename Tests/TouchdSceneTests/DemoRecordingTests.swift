import Foundation
import Testing
import TouchdInput
import TouchdScene
import TouchdTestKit

/// The recording bundled for the README's demo (`scripts/demo.sh`): a morning at the kiosk.
/// Kept in sync with this script (TOUCHD_UPDATE_GOLDEN=1 rewrites it) and with what it must show.
@Suite("Demo recording")
struct DemoRecordingTests {
  static let url = TestPaths.repositoryRoot.appendingPathComponent("config/recordings/kiosk-demo.evemu")

  static func script() -> FingerScript {
    let s = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 10)
    s.tap(at: .init(x: 400, y: 480))  // buy a ticket
    s.wait(0.8)
    s.doubleTap(at: .init(x: 960, y: 480))  // two taps on the map: two show-map actions
    s.wait(0.8)
    s.drag(from: .init(x: 300, y: 850), to: .init(x: 900, y: 900), duration: 0.4)  // sign
    s.wait(0.8)
    s.tap(at: .init(x: 1800, y: 80))  // change the language
    s.wait(0.8)
    s.longPress(at: .init(x: 960, y: 160), duration: 2.3, fingers: 5)  // the hidden admin gesture
    return s
  }

  @Test func bundledRecordingMatchesItsScript() throws {
    let text = Self.script().evemuText
    if ProcessInfo.processInfo.environment["TOUCHD_UPDATE_GOLDEN"] == "1" {
      try text.write(to: Self.url, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOf: Self.url, encoding: .utf8) == text)
  }

  @Test func replayingItAgainstTheKioskGivesEachActionOnce() throws {
    let recording = try RecordingReader.load(path: Self.url.path)
    let scene = try Scene.load(path: TestPaths.repositoryRoot.appendingPathComponent("config/kiosk.yaml").path)
    let actions = try ScenePlayer.replay(recording, scene: scene).compactMap { message -> String? in
      guard case .action(let a) = message else { return nil }
      return "\(a.action):\(a.state ?? "")"
    }
    #expect(
      actions == [
        "buy-ticket:ended", "show-map:ended", "show-map:ended", "next-language:ended", "open-admin:began",
        "open-admin:ended",
      ])
  }
}
