import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// VoiceOver over a forwarded window (issue #40): the fingers exploring and the gestures are
/// VoiceOver's and reach no one; an activation is written to the virtual touchscreen as a tap at
/// the element's activation point (a down frame, then a lift frame), for the app underneath.
@Suite struct ForwardVoiceOverTests {
  static let yaml = """
    version: 1
    windows:
      - id: w
        size: {width: 1000, height: 800}
        forward: {}
        voiceOver: true
        views:
          - id: root
            frame: {x: 0, y: 0, width: 1000, height: 800}
            multipleTouchEnabled: true
            views:
              - {id: pay, frame: {x: 100, y: 100, width: 200, height: 100}, accessibility: {label: Pay, traits: button}}
    """

  @Test(arguments: SyntheticDeviceKind.allCases)
  func anActivationIsATapAtTheActivationPointOnTheVirtualTouchscreen(kind: SyntheticDeviceKind) throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    s.tap(at: .init(x: 150, y: 120))  // selects `pay`
    s.wait(1)
    s.doubleTap(at: .init(x: 700, y: 600))  // anywhere: activates it
    s.wait(1)
    let recording = kind.encode(s.recording)
    let (frames, _, counters) = try forwarded(recording, Self.yaml)
    // The tap at pay's centre (200, 150), at the second tap's lift; the selecting tap and the
    // double tap's fingers are VoiceOver's: nothing of them is forwarded.
    let lift = try #require(recording.events.last { $0.type == EV.syn && $0.code == SYN.report }?.time)
    // The lift a microsecond after the touch-down, in a frame of its own (ForwardEncoder: a touch
    // with two changes in one batch splits it).
    #expect(
      frames == [
        "\(lift) id=0 x=\(fx(200)) y=\(fy(150)) touch=1 ax=\(fx(200)) ay=\(fy(150))",
        "\(stamp(lift.seconds + 0.000001)) up touch=0",
      ], "\(counters)")
    #expect(counters.hasPrefix("forwarded 1 "), "\(counters)")
  }

  /// Through the CLI: `touchctl replay --forward` writes the activation tap into the virtual
  /// device's evemu file, and prints the accessibility messages.
  @Test func touchctlReplayForwardWritesTheActivationTap() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-forward-vo-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    s.tap(at: .init(x: 150, y: 120))
    s.wait(1)
    s.doubleTap(at: .init(x: 700, y: 600))
    s.wait(1)
    let recording = dir.appendingPathComponent("taps.evemu")
    try s.evemuText.write(to: recording, atomically: true, encoding: .utf8)
    let scene = dir.appendingPathComponent("scene.yaml")
    try Self.yaml.write(to: scene, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("fwd.evemu")
    let result = try runTouchctl(["replay", "--scene", scene.path, recording.path, "--forward", out.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.split(separator: "\n").map {
        $0.contains(#""event":"focus""#) || $0.contains(#""event":"activate""#)
      }
        == [true, true], "\(result.stdout)")
    let parsed = try EvemuParser.parse(Array(try String(contentsOf: out, encoding: .utf8).utf8), source: out.path)
    let lines = forwardLines(parsed.events)
    #expect(
      lines.count == 2 && lines[0].hasSuffix("id=0 x=\(fx(200)) y=\(fy(150)) touch=1 ax=\(fx(200)) ay=\(fy(150))"))
    #expect(lines.last?.hasSuffix(" up touch=0") == true, "\(lines)")
  }

  /// Double tap and hold: the held finger passes through, and is forwarded live as the window's
  /// own touch, from where it is when it starts passing through to its lift.
  @Test(arguments: SyntheticDeviceKind.allCases)
  func aFingerPassingThroughIsForwardedLive(kind: SyntheticDeviceKind) throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    s.tap(at: .init(x: 500, y: 400))
    s.wait(0.15)
    let finger = s.down([.init(x: 500, y: 400)])
    s.wait(0.7)  // held past the long press's 0.5 s: passing through
    s.animate(finger, duration: 0.2) { _, t in .init(x: 500 + 100 * t, y: 400) }
    s.up(finger)
    s.wait(1)
    let (frames, _, counters) = try forwarded(kind.encode(s.recording), Self.yaml)
    #expect(
      frames.first?.hasSuffix("id=0 x=\(fx(500)) y=\(fy(400)) touch=1 ax=\(fx(500)) ay=\(fy(400))") == true, "\(frames)"
    )
    #expect(frames.dropFirst().dropLast().allSatisfy { $0.contains(" x=") && !$0.contains("id=") }, "\(frames)")
    #expect(frames.count > 3 && frames.last?.hasSuffix(" up touch=0") == true, "\(frames)")
    #expect(frames.dropLast().last?.contains("x=\(fx(600))") == true, "the last move is where it lifted: \(frames)")
    #expect(counters.hasPrefix("forwarded 1 "), "\(counters)")
  }
}

/// VoiceOver's three-finger scroll over a forwarded window: the scene's scroll view moves by a page,
/// and the app underneath gets a one-finger drag of that page on the virtual touchscreen, held
/// still before it lifts.
@Suite struct ForwardVoiceOverScrollTests {
  static let yaml = """
    version: 1
    windows:
      - id: w
        size: {width: 1000, height: 800}
        forward: {}
        voiceOver: true
        views:
          - id: list
            frame: {x: 0, y: 200, width: 1000, height: 400}
            scroll: {contentSize: {width: 1000, height: 1600}}
            views:
              - {id: row, frame: {x: 0, y: 0, width: 1000, height: 100}, accessibility: {label: Row}}
    """

  @Test(arguments: [SyntheticDeviceKind.protocolB, .protocolA])
  func threeFingersFlickingUpDragTheAppsContentUpByAPage(kind: SyntheticDeviceKind) throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    s.drag(from: .init(x: 500, y: 500), to: .init(x: 500, y: 380), duration: 0.1, fingers: 3)
    s.wait(1)
    let recording = kind.encode(s.recording)
    let (frames, _, _) = try forwarded(recording, Self.yaml)
    // The page is the list's 400 pt: the finger goes from y 600 to y 200 (window points), across
    // the list's centre (y 400), in 15 moves over 0.25 s, and lifts 0.15 s after.
    let lift = try #require(recording.events.last { $0.type == EV.syn && $0.code == SYN.report }?.time.seconds)
    #expect(frames.count == 17, "\(frames)")
    #expect(frames.first == "\(stamp(lift)) id=0 x=\(fx(500)) y=\(fy(600)) touch=1 ax=\(fx(500)) ay=\(fy(600))")
    #expect(frames[15] == "\(stamp(lift + 0.25)) y=\(fy(200)) ay=\(fy(200))", "\(frames)")
    #expect(frames.last == "\(stamp(lift + 0.4)) up touch=0", "\(frames)")
    // The scene's own list is a page down too, and the accessibility message says so.
    let messages = try ScenePlayer.replay(recording, scene: try Scene.parse(Self.yaml))
    let said = messages.compactMap { m -> String? in
      if case .accessibility(let a) = m { "\(a.event) \(a.spoken ?? "")" } else { nil }
    }
    #expect(said == ["scroll page 2 of 4"])
  }
}
