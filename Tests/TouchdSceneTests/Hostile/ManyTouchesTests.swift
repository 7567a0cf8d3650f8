import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #20, hostile devices: floods and many fingers, through the whole pipeline.
@Suite("Hostile devices: floods and many fingers")
struct ManyTouchesTests {
  typealias P = FingerScript.Point

  /// A full-window view `v` that publishes its touches, with a pan of any number of touches that
  /// leaves it its touches.
  let panScene = hostileScene(
    """
    - id: v
      frame: {x: 0, y: 0, width: 1000, height: 800}
      touches: true
      multipleTouchEnabled: true
      recognizers:
        - {id: pan, type: pan, action: p, cancelsTouchesInView: false}
    """)

  /// Counts of a replay: touches begun, touches ended or cancelled (as the view heard them), the
  /// most down at once, and the pan's states and most touches.
  struct Tally {
    var began = 0
    var finished = 0
    var mostDown = 0
    var messages = 0
    var panStates: [String] = []
    var panTouches = 0

    mutating func add(_ message: Message) {
      messages += 1
      switch message {
      case .touches(let t):
        if t.touchPhase == .began { began += t.touches.count }
        if t.touchPhase?.isTerminal == true { finished += t.touches.count }
        mostDown = max(mostDown, began - finished)
      case .action(let a):
        if panStates.last != a.state { panStates.append(a.state ?? "") }
        panTouches = max(panTouches, a.numberOfTouches ?? 0)
      default:
        break
      }
    }
  }

  /// Replays `recording` through `sceneYAML` and counts what it publishes.
  func tally(_ recording: Recording, _ sceneYAML: String) throws -> Tally {
    var tally = Tally()
    let scene = try Scene.parse(sceneYAML)
    try ScenePlayer.run(recording, scene: scene) { step in
      guard case .message(let m) = step else { return }
      tally.add(m)
    }
    return tally
  }

  @Test("1,000,000 events within one second: the replay finishes and ends every touch")
  func millionEvents() throws {
    let recording = FloodRecording.recording
    #expect(recording.events.count == 1_000_000)
    #expect(try #require(recording.events.last).time.microseconds - recording.events[0].time.microseconds < 1_000_000)
    let start = Date()
    let t = try tally(recording, panScene)
    let seconds = Date().timeIntervalSince(start)
    print("1e6 events: \(Int(1e6 / seconds)) events/s (this build, in process)")
    // 32,259 frames (the last cut short): 323 rounds of ten fingers, the last still down at the end (cancelled).
    #expect(FloodRecording.frameCount == 32_259)
    #expect(t.began == 3230 && FloodRecording.touchCount == 3230)
    #expect(t.finished == t.began)
    #expect(t.mostDown == 10)
    #expect(t.panTouches == 10)
    #expect(t.panStates.last == "cancelled")
    // Memory flatness is measured on a process of its own, `touchctl replay` of this flood
    // (TouchdDaemonTests, FloodMemoryTests): this process's resident set also holds whatever the
    // suites running beside this one allocate, which made a bound here fail now and then.
  }

  @Test(
    "10 fingers on protocol B and A: one touches message with all ten, a ten-finger pan, all ten end",
    arguments: [SyntheticDeviceKind.protocolB, .protocolA])
  func tenFingers(kind: SyntheticDeviceKind) throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    s.drag(from: P(x: 300, y: 400), to: P(x: 300, y: 600), duration: 0.2, fingers: 10)
    let t = try tally(kind.encode(s.recording), panScene)
    #expect(t.began == 10 && t.finished == 10 && t.mostDown == 10)
    #expect(t.panStates == ["began", "changed", "ended"])
    #expect(t.panTouches == 10)
  }

  @Test("12 fingers: the FlatFrog recording (12 at once, 17 touches) pans with 12, and every touch ends")
  func twelveFingers() throws {
    let shared = try TestPaths.sharedRecordings()
    let recording = try RecordingReader.load(path: shared + "/flatfrog-25b5-0002-12finger-swipe.evemu")
    let t = try tally(recording, panScene)
    #expect(t.began == 17 && t.finished == 17)
    #expect(t.mostDown == 12)
    #expect(t.panTouches == 12)
    #expect(t.panStates.first == "began" && t.panStates.last == "ended")
  }

  @Test("20 slots: twenty fingers land in one frame, pan together and lift; then vanish with twenty down")
  func twentyFingers() throws {
    var frames: [RawFrame] = []
    func all(_ make: (Int32) -> [(UInt16, UInt16, Int32)]) -> [(UInt16, UInt16, Int32)] {
      (0..<20).flatMap { slot in [axis(ABS.mtSlot, slot)] + make(slot) }
    }
    for round in 0..<2 {
      let t0 = 10 + Double(round)
      frames.append(
        RawFrame(
          t0,
          all {
            [
              axis(ABS.mtTrackingID, 100 * Int32(round) + $0), axis(ABS.mtPositionX, ux(40 + 45 * Double($0))),
              axis(ABS.mtPositionY, uy(300)),
            ]
          }
            + [btn(1)]))
      for step in 1...5 {
        frames.append(
          RawFrame(t0 + 0.01 * Double(step), all { _ in [axis(ABS.mtPositionY, uy(300 + 20 * Double(step)))] }))
      }
      // The first round lifts; the second vanishes with all twenty down.
      if round == 0 { frames.append(RawFrame(t0 + 0.06, all { _ in [axis(ABS.mtTrackingID, -1)] } + [btn(0)])) }
    }
    let t = try tally(rawRecording(touchscreen(slots: 20), frames), panScene)
    #expect(t.began == 40 && t.finished == 40 && t.mostDown == 20)
    #expect(t.panStates == ["began", "changed", "ended", "began", "changed", "cancelled"])
    #expect(t.panTouches == 20)
  }
}
