import Foundation
import Testing
import TouchdInput
import TouchdScene
import TouchdTestKit

/// One scripted recording replayed against an example scene.
struct GoldenCase: CustomTestStringConvertible, Sendable {
  var name: String
  var scene: String
  var script: @Sendable (FingerScript) -> Void
  var testDescription: String { name }

  static let all: [GoldenCase] = [
    GoldenCase(name: "kiosk-tap-buy-ticket", scene: "kiosk.yaml") { $0.tap(at: .init(x: 400, y: 480)) },
    GoldenCase(name: "kiosk-admin-five-finger-hold", scene: "kiosk.yaml") {
      $0.longPress(at: .init(x: 960, y: 160), duration: 2.5, fingers: 5)
    },
    GoldenCase(name: "kiosk-signature-stroke", scene: "kiosk.yaml") {
      $0.drag(from: .init(x: 400, y: 850), to: .init(x: 440, y: 870), duration: 0.05)
    },
    GoldenCase(name: "photo-pinch-out", scene: "photo-viewer.yaml") {
      $0.pinch(center: .init(x: 960, y: 540), fromDistance: 200, toDistance: 400, duration: 0.25)
    },
    GoldenCase(name: "photo-rotate-quarter", scene: "photo-viewer.yaml") {
      $0.rotate(center: .init(x: 960, y: 540), radius: 150, fromAngle: 0, toAngle: Double.pi / 2, duration: 0.25)
    },
    GoldenCase(name: "carousel-swipe-left", scene: "carousel.yaml") {
      $0.drag(from: .init(x: 1400, y: 540), to: .init(x: 1000, y: 540), duration: 0.15)
    },
    GoldenCase(name: "carousel-edge-menu", scene: "carousel.yaml") {
      $0.drag(from: .init(x: 4, y: 540), to: .init(x: 300, y: 540), duration: 0.25)
    },
    GoldenCase(name: "carousel-tap-slide", scene: "carousel.yaml") { $0.tap(at: .init(x: 960, y: 540)) },
  ]

  /// The replayed messages as JSON lines.
  func run() throws -> String {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 10)
    self.script(script)
    let scene = try Scene.parse(try readText(TestPaths.config(self.scene)), file: self.scene)
    return try ScenePlayer.replay(script.recording, scene: scene).map { $0.jsonLine + "\n" }.joined()
  }
}

/// The JSON lines as objects.
func objects(_ lines: String) throws -> [[String: Any]] {
  try lines.split(separator: "\n").map { line in
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
  }
}

@Suite("Golden replays")
struct GoldenTests {
  static let directory = TestPaths.repositoryRoot.appendingPathComponent("Tests/TouchdSceneTests/Golden")

  @Test("Replays match the checked-in messages (TOUCHD_UPDATE_GOLDEN=1 rewrites them)", arguments: GoldenCase.all)
  func golden(_ c: GoldenCase) throws {
    let output = try c.run()
    let url = Self.directory.appendingPathComponent("\(c.name).jsonl")
    if updatingGoldens { try output.write(to: url, atomically: true, encoding: .utf8) }
    #expect(output == (try readText(url)))
    #expect(output == (try c.run()), "replay is deterministic")
  }

  @Test("A tap on a button publishes exactly that button's action, once")
  func tapOnButton() throws {
    let messages = try objects(try GoldenCase.all[0].run())
    #expect(messages.count == 1)
    #expect(messages.first?["action"] as? String == "buy-ticket")
    #expect(messages.first?["state"] as? String == "ended")
    #expect(messages.first?["view"] as? String == "buy-ticket")
    #expect(messages.first?["seq"] as? Int == 1)
  }

  @Test("The admin gesture fires two seconds after five fingers touch down")
  func adminAfterTwoSeconds() throws {
    let messages = try objects(try GoldenCase.all[1].run())
    let admin = messages.filter { $0["action"] as? String == "open-admin" }
    #expect(admin.first?["state"] as? String == "began")
    #expect(admin.first?["time"] as? Double == 12)
    #expect(admin.first?["numberOfTouches"] as? Int == 5)
    #expect(admin.last?["state"] as? String == "ended")
    #expect(messages.allSatisfy { $0["action"] as? String == "open-admin" })
  }

  @Test("A stroke on the signature pad publishes began, moved and ended touches")
  func signatureTouches() throws {
    let messages = try objects(try GoldenCase.all[2].run())
    #expect(messages.allSatisfy { $0["type"] as? String == "touches" && $0["view"] as? String == "signature" })
    #expect(messages.first?["phase"] as? String == "began")
    #expect(messages.last?["phase"] as? String == "ended")
    #expect(messages.contains { $0["phase"] as? String == "moved" })
    let seqs = messages.compactMap { $0["seq"] as? Int }
    #expect(seqs == Array(1...messages.count))
  }

  @Test("Pinching from 200 to 400 points begins at scale 1 and ends near 400 over the distance at began")
  func pinchScale() throws {
    let messages = try objects(try GoldenCase.all[3].run())
    let zoom = messages.filter { $0["action"] as? String == "zoom" }
    #expect(zoom.first?["state"] as? String == "began")
    #expect(zoom.first?["scale"] as? Double == 1)
    // 6.7 pt per frame: began at the second frame, 213.3 pt apart (the 8 pt threshold is not part
    // of the scale).
    let scale = try #require(zoom.last?["scale"] as? Double)
    #expect(abs(scale - 400 / (200 + 2 * 200.0 / 30)) < 0.005)
  }

  @Test("A quarter turn begins at 0 and ends near pi/2 less the turn before began")
  func rotationAngle() throws {
    let messages = try objects(try GoldenCase.all[4].run())
    let rotate = messages.filter { $0["action"] as? String == "rotate" }
    #expect(rotate.first?["state"] as? String == "began")
    #expect(rotate.first?["rotation"] as? Double == 0)
    // π/60 per frame, 7.9 pt of arc at 150 pt: began at the second frame, π/30.
    let angle = try #require(rotate.last?["rotation"] as? Double)
    #expect(abs(angle - (Double.pi / 2 - Double.pi / 30)) < 0.005)
  }

  @Test("A left swipe changes the slide and does not open it")
  func swipeLeft() throws {
    let actions = try objects(try GoldenCase.all[5].run()).compactMap { $0["action"] as? String }
    #expect(actions == ["next-slide"])
  }

  @Test("A drag in from the left edge opens the menu")
  func edgeMenu() throws {
    let actions = try objects(try GoldenCase.all[6].run()).compactMap { $0["action"] as? String }
    #expect(actions.first == "menu")
    #expect(actions.last == "menu")
    #expect(!actions.contains("previous-slide"))
  }

  @Test("A tap on the slide opens it once the swipes have failed")
  func tapSlide() throws {
    let actions = try objects(try GoldenCase.all[7].run()).compactMap { $0["action"] as? String }
    #expect(actions == ["open-slide"])
  }
}
