import Foundation
import Testing
import TouchdProtocol
import TouchdTestKit

@testable import TouchdScene

/// Issue #40: `touchctl replay --explain` shows the VoiceOver gesture each touch made, before what
/// it did to the focus (docs/explain.md), from the `voiceOverGesture` trace event a client
/// subscribed to `trace` gets too (docs/protocol.md).
@Suite("touchctl replay --explain: VoiceOver's gestures")
struct VoiceOverExplainTests {
  /// VoiceOverTests' window (a header, three buttons, a slider and a stepper), VoiceOver on.
  static let sceneText = VoiceOverTests.scene()

  /// A tap, a double tap, a flick right, a held finger exploring, a two-finger tap, a three-finger
  /// tap and a two-finger flick up, each 1 s after the one before.
  static func script() -> FingerScript {
    let s = ruleScript()
    s.tap(at: .init(x: 100, y: 250))  // selects `single`
    s.wait(1)
    s.doubleTap(at: .init(x: 500, y: 700))  // activates it
    s.wait(1)
    s.drag(from: .init(x: 500, y: 600), to: .init(x: 650, y: 600), duration: 0.1)  // the next element, `day`
    s.wait(1)
    let finger = s.down([.init(x: 800, y: 250)])  // explores `week`
    s.wait(0.5)
    s.animate(finger, duration: 0.2) { _, t in .init(x: 800, y: 250 + 150 * t) }  // out of `week`: nothing
    s.up(finger)
    s.wait(1)
    s.tap(at: .init(x: 400, y: 700), fingers: 2)  // two fingers: pause speech
    s.wait(1)
    s.tap(at: .init(x: 400, y: 700), fingers: 3)  // three fingers: where the focus is
    s.wait(1)
    s.drag(from: .init(x: 400, y: 700), to: .init(x: 400, y: 600), duration: 0.1, fingers: 2)  // read all
    s.wait(2)
    return s
  }

  @Test("each gesture's line comes before what it did, with its fingers and a flick's direction")
  func gestureLines() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-vo-explain-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let scene = directory.appendingPathComponent("scene.yaml").path
    let touches = directory.appendingPathComponent("touches.evemu").path
    try Self.sceneText.write(toFile: scene, atomically: true, encoding: .utf8)
    try Self.script().evemuText.write(toFile: touches, atomically: true, encoding: .utf8)
    let result = try runTouchctl(["replay", touches, "--scene", scene, "--explain"])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init).filter { $0.contains("VoiceOver") }
    #expect(
      lines == [
        // The tap selects once the multiple-tap interval (0.35 s) after its lift has passed.
        "+0.400 VoiceOver gesture in window 'w': tap",
        "+0.400 VoiceOver focus 'single': \"Single, button. Buys one ticket.\"",
        "+1.300 VoiceOver gesture in window 'w': double tap",
        "+1.300 VoiceOver activate 'single'",
        "+2.400 VoiceOver gesture in window 'w': flick right",
        "+2.400 VoiceOver focus 'day': \"Day pass, button.\"",
        // Exploring from 0.25 s after the finger landed; traced once, not at every move.
        "+3.650 VoiceOver gesture in window 'w': explore",
        "+3.650 VoiceOver focus 'week': \"Week pass, button.\"",
        "+5.500 VoiceOver gesture in window 'w': 2-finger tap",
        "+5.500 VoiceOver pause nothing",
        "+6.200 VoiceOver gesture in window 'w': 3-finger tap",
        "+6.200 VoiceOver position 'week': \"4 of 6\"",
        "+7.300 VoiceOver gesture in window 'w': 2-finger flick up",
        "+7.300 VoiceOver readAll 'title': \"Tickets, heading. Single, button. Buys one ticket. Day pass, button. "
          + "Week pass, button. Volume, 50%, adjustable. Tickets, 1, adjustable.\"",
      ], "\(result.stdout)")
  }

  /// The trace message itself, as a subscriber to `trace` reads it.
  @Test("a voiceOverGesture trace carries the gesture, its fingers, a flick's direction and the window")
  func traceMessages() throws {
    let messages = try ScenePlayer.replay(
      Self.script().recording, scene: try Scene.parse(Self.sceneText), trace: true)
    let gestures = messages.compactMap { m -> String? in
      guard case .trace(let t) = m, case .voiceOverGesture = t.detail else { return nil }
      return t.jsonLine
    }
    #expect(gestures.count == 7, "\(gestures)")
    #expect(
      gestures.first?.hasSuffix(
        #","event":"voiceOverGesture","gesture":"tap","fingers":1,"direction":null,"window":"w"}"#)
        == true)
    #expect(gestures[2].hasSuffix(#""gesture":"flick","fingers":1,"direction":"right","window":"w"}"#))
    let decoded = try TraceMessage(jsonLine: gestures[6])
    #expect(decoded.detail == .voiceOverGesture(gesture: "flick", fingers: 2, direction: "up", window: "w"))
    #expect(decoded.view == nil)
    // Without tracing, no gesture is built and the other messages are the same.
    let untraced = try ScenePlayer.replay(Self.script().recording, scene: try Scene.parse(Self.sceneText))
    #expect(untraced.map(\.jsonLine) == messages.filter { if case .trace = $0 { false } else { true } }.map(\.jsonLine))
  }
}
