import Testing
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Touches messages' `coalesced` and `predicted` entries (TouchMotion.swift; docs/protocol.md,
/// "Coalesced and predicted touches").
@Suite("Coalesced and predicted touches")
struct TouchMotionTests {
  /// A window of the script's size, one view taking its touches; `delays`: a tap recognizer on it
  /// holds the touches' began (`delaysTouchesBegan`) until it fails.
  static func scene(delays: Bool = false) throws -> Scene {
    try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 1000, height: 800}
          views:
            - id: canvas
              frame: {x: 0, y: 0, width: 1000, height: 800}
              touches: true
              recognizers:
                - {id: hold, type: tap, action: tapped, delaysTouchesBegan: \(delays)}
      """)
  }

  /// A one-finger drag of 400 pt right in 0.2 s at 120 Hz, starting at 1 s.
  static func drag() -> FingerScript {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1, sampleRate: 120)
    script.drag(from: .init(x: 100, y: 400), to: .init(x: 500, y: 400), duration: 0.2)
    return script
  }

  static func touches(_ script: FingerScript, _ scene: Scene, _ entries: TouchesMessage.Entries) throws
    -> [TouchesMessage]
  {
    var out: [TouchesMessage] = []
    try ScenePlayer.run([script.recording], scene: scene, touchesEntries: entries) { step in
      if case .message(.touches(let m)) = step { out.append(m) }
    }
    return out
  }

  /// The times of the recording's frames in which the touch began or moved.
  static func movingFrameTimes(_ script: FingerScript) -> [Double] {
    let replay = MultiReplay([script.recording], readings: [MultiReplay.Reading(touches: true, keys: false)])
    var times: [Double] = []
    replay.feed { _, frame in
      if case .touches(let f) = frame, f.contacts.contains(where: { $0.phase == .began || $0.phase == .moved }) {
        times.append(f.time.seconds)
      }
    }
    return times
  }

  @Test("Each message lists its touch's frame: every moving frame once, at the touch's position and time")
  func everyFrameOnce() throws {
    let script = Self.drag()
    let messages = try Self.touches(script, try Self.scene(), [.coalesced])
    #expect(messages.map(\.phase) == ["began"] + Array(repeating: "moved", count: messages.count - 2) + ["ended"])
    for m in messages where m.phase != "ended" {
      let t = try #require(m.touches.first)
      #expect(m.coalesced == [TouchesMessage.Sample(id: t.id, x: t.x, y: t.y, time: m.time)])
      #expect(m.predicted == nil)
    }
    // The lift frame moves nothing: the ended message has no frame to add.
    #expect(messages.last?.coalesced == [])
    let listed = messages.flatMap { $0.coalesced ?? [] }.map(\.time)
    #expect(listed == Self.movingFrameTimes(script))
    #expect(listed.count == 25)
  }

  @Test("A held began lists its own frame; its catch-up moved every frame it waited for; later ones their own")
  func heldDeliveryCoalesces() throws {
    let messages = try Self.touches(Self.drag(), try Self.scene(delays: true), [.coalesced, .predicted])
    // The tap holds the began until it fails, when the finger is over 45 pt away (allowableMovement)
    // at 16.7 pt a frame: the third move, at 1.025 s. The began is delivered then, as the touch was
    // at the touch-down (GestureArbiter+Views), and the held moves as one catch-up moved.
    let began = messages[0]
    let touch = began.touches[0]
    #expect(began.phase == "began")
    #expect(began.time == 1.025)
    #expect(began.coalesced == [TouchesMessage.Sample(id: touch.id, x: touch.x, y: touch.y, time: 1)])
    // Predicted from the touch-down alone: at rest, ahead of the touch's time, not the message's.
    #expect(began.predicted?.map(\.time) == [1.008, 1.016])
    #expect(began.predicted?.allSatisfy { $0.x == touch.x } == true)
    let catchUp = messages[1]
    let moved = catchUp.touches[0]
    #expect(catchUp.phase == "moved")
    #expect(catchUp.time == 1.025)
    let frames = try #require(catchUp.coalesced)
    #expect(frames.count == 3)
    #expect(abs(frames[0].time - (1 + 1.0 / 120)) < 1e-6)
    #expect(frames.last == TouchesMessage.Sample(id: moved.id, x: moved.x, y: moved.y, time: 1.025))
    #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.time < $1.time && $0.x < $1.x })
    #expect(messages[2].coalesced?.map(\.time) == [messages[2].time])
  }

  @Test("Predictions: at rest on the first frame, then the fitted velocity, 8 and 16 ms ahead; none at the end")
  func predictions() throws {
    let messages = try Self.touches(Self.drag(), try Self.scene(), [.predicted])
    let first = messages[0]
    let t = first.touches[0]
    // One frame: the touch is at rest.
    #expect(
      first.predicted == [
        TouchesMessage.Sample(id: t.id, x: t.x, y: t.y, time: first.time + 0.008),
        TouchesMessage.Sample(id: t.id, x: t.x, y: t.y, time: first.time + 0.016),
      ])
    // 2000 pt/s to the right: 16 and 32 pt ahead in 8 and 16 ms (the synthetic device's axis
    // rounds positions by under a point).
    for m in messages[3..<(messages.count - 1)] {
      let p = try #require(m.predicted)
      let x = m.touches[0].x
      #expect(p.map(\.time) == [m.time + 0.008, m.time + 0.016])
      #expect(abs(p[0].x - (x + 16)) < 0.5, "\(p[0].x) vs \(x + 16)")
      #expect(abs(p[1].x - (x + 32)) < 1)
      #expect(p.allSatisfy { abs($0.y - 400) < 0.5 })
      #expect(m.coalesced == nil)
    }
    #expect(messages.last?.phase == "ended")
    #expect(messages.last?.predicted == [])
  }

  @Test("Without entries asked for, touches messages are as before: no entry, the same lines")
  func nothingAsked() throws {
    let script = Self.drag()
    let plain = try Self.touches(script, try Self.scene(), [])
    let full = try Self.touches(script, try Self.scene(), [.coalesced, .predicted])
    #expect(plain.count == full.count)
    #expect(plain.allSatisfy { $0.coalesced == nil && $0.predicted == nil && !$0.jsonLine.contains("coalesced") })
    for (a, b) in zip(plain, full) {
      var stripped = b
      (stripped.coalesced, stripped.predicted) = (nil, nil)
      #expect(stripped == a)
    }
  }

  @Test("The model: least-squares velocity over the last 50 ms, from the latest position; older frames left out")
  func model() {
    // 100 pt/s along x, a frame every 10 ms; an old outlier 100 ms before the last frame is
    // outside the window.
    var samples = [MotionSample(time: 1.0, x: 900, y: 0)]
    for i in 5...10 { samples.append(MotionSample(time: 1 + Double(i) * 0.01, x: Double(i), y: 5)) }
    let p = TouchPrediction.predict(samples[...], now: 1.1, horizon: 0.016)
    #expect(p?.time == 1.1 + 0.016)
    #expect(abs((p?.x ?? 0) - (10 + 100 * 0.016)) < 1e-9)
    #expect(p?.y == 5)
    // Jitter about a line: the least-squares slope, not the last step (here -2 pt in 10 ms).
    let jitter = [(1.00, 0.0), (1.01, 2.0), (1.02, 1.0), (1.03, 4.0), (1.04, 2.0)].map {
      MotionSample(time: $0.0, x: $0.1, y: 0)
    }
    // Σ(dt·dx) / Σdt² about the means (1.02 s, 1.8 pt):
    // (−0.02·−1.8 − 0.01·0.2 + 0 + 0.01·2.2 + 0.02·0.2) / 0.001 = 60 pt/s.
    let fitted = TouchPrediction.predict(jitter[...], now: 1.04, horizon: 0.01)
    #expect(abs((fitted?.x ?? 0) - (2 + 60 * 0.01)) < 1e-9)
    #expect(TouchPrediction.predict([][...], now: 1, horizon: 0.008) == nil)
    // A message after the frames are older than the window: the touch is at rest.
    let later = TouchPrediction.predict(samples[...], now: 1.2, horizon: 0.008)
    #expect(later == MotionSample(time: 1.2 + 0.008, x: 10, y: 5))
  }
}
