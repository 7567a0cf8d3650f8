import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Issue #20, hostile devices, through the whole pipeline (`ScenePlayer`, as `touchctl replay
/// --scene`): each attack on each kind of device it applies to; touchd stays up, ends or cancels
/// every touch, and its memory stays flat. docs/reliability.md, "Hostile devices", lists them.
@Suite("Hostile devices: replays")
struct HostileReplayTests {
  typealias P = FingerScript.Point

  /// A full-window view `v` that publishes its touches, with a tap and a pan that leave it its
  /// touches.
  let tapAndPan = hostileScene(
    """
    - id: v
      frame: {x: 0, y: 0, width: 1000, height: 800}
      touches: true
      multipleTouchEnabled: true
      recognizers:
        - {id: tap, type: tap, action: t, cancelsTouchesInView: false}
        - {id: pan, type: pan, action: p, cancelsTouchesInView: false}
    """)

  /// A full-window view `v` that publishes its touches, and nothing else.
  let touchesOnly = hostileScene(
    "- {id: v, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true, multipleTouchEnabled: true}")

  /// The touches and action lines of the log.
  func deliveries(_ run: HostileRun) -> [String] {
    run.log.filter { $0.hasPrefix("touches ") || $0.hasPrefix("action ") }
  }

  // MARK: Tracking ids

  @Test("protocol B: a tracking id reused without a lift is one touch: one tap, not two")
  func trackingIDReuse() throws {
    let recording = rawRecording(
      SyntheticTouchscreen.description,
      [
        RawFrame(
          10, [axis(ABS.mtTrackingID, 5), axis(ABS.mtPositionX, ux(500)), axis(ABS.mtPositionY, uy(400)), btn(1)]),
        RawFrame(10.02, [axis(ABS.mtTrackingID, 6), axis(ABS.mtPositionX, ux(502))]),
        RawFrame(10.05, [axis(ABS.mtTrackingID, -1), btn(0)]),
      ])
    let log = deliveries(try HostileRun(tapAndPan, recording))
    #expect(
      log == [
        "touches v began 1", "touches v moved 1", "action tap ended @50", "touches v ended 1",
      ])
  }

  @Test("single touch: BTN_TOUCH 1 repeated is one touch: one tap")
  func touchButtonRepeated() throws {
    let recording = rawRecording(
      SyntheticDeviceKind.singleTouch.description,
      [
        RawFrame(10, [axis(ABS.x, ux(500)), axis(ABS.y, uy(400)), btn(1)]),
        RawFrame(10.02, [btn(1), axis(ABS.x, ux(502))]),
        RawFrame(10.05, [btn(0)]),
      ])
    let log = deliveries(try HostileRun(tapAndPan, recording))
    #expect(
      log == [
        "touches v began 1", "touches v moved 1", "action tap ended @50", "touches v ended 1",
      ])
  }

  // MARK: Slots beyond the maximum

  @Test(
    "protocol B: ABS_MT_SLOT 12 and -1 on a 10-slot device are ignored, as the kernel ignores them; every touch ends")
  func slotsBeyondMaximum() throws {
    let recording = rawRecording(
      SyntheticTouchscreen.description,
      [
        // Slot 12 first: ignored, slot 0 (implied) takes the finger.
        RawFrame(10, [axis(ABS.mtSlot, 12), axis(ABS.mtTrackingID, 1), axis(ABS.mtPositionX, ux(500)), btn(1)]),
        // A finger in slot 5 at x 300; "slot 12" then moves slot 5's finger to x 320 before the frame ends.
        RawFrame(
          10.01,
          [
            axis(ABS.mtSlot, 5), axis(ABS.mtTrackingID, 2), axis(ABS.mtPositionX, ux(300)), axis(ABS.mtSlot, 12),
            axis(ABS.mtPositionX, ux(320)),
          ]),
        // Slot -1: ignored, slot 5's finger lifts.
        RawFrame(10.02, [axis(ABS.mtSlot, -1), axis(ABS.mtTrackingID, -1)]),
        RawFrame(10.03, [axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, -1), btn(0)]),
      ])
    let run = try HostileRun(touchesOnly, recording)
    let touches = run.messages.compactMap { m -> String? in
      guard case .touches(let t) = m else { return nil }
      return "\(t.phase) \(t.touches.map { "\($0.id)@\(Int($0.x.rounded()))" }.joined(separator: " "))"
    }
    #expect(touches == ["began 1@500", "began 2@320", "ended 2@320", "ended 1@500"])
  }

  // MARK: Coordinates outside the axis range

  @Test(
    "positions outside the axis range land on the window's edge, on each kind", arguments: SyntheticDeviceKind.allCases)
  func outOfRangeCoordinates(kind: SyntheticDeviceKind) throws {
    let scene = hostileScene(
      """
      - {id: left, frame: {x: 0, y: 0, width: 100, height: 800}, touches: true}
      - {id: top, frame: {x: 100, y: 0, width: 900, height: 100}, touches: true}
      """)
    func finger(_ x: Int32, _ y: Int32, at t: Double) -> [RawFrame] {
      switch kind {
      case .protocolB:
        [
          RawFrame(t, [axis(ABS.mtTrackingID, 1), axis(ABS.mtPositionX, x), axis(ABS.mtPositionY, y), btn(1)]),
          RawFrame(t + 0.01, [axis(ABS.mtTrackingID, -1), btn(0)]),
        ]
      case .protocolA:
        [
          RawFrame(t, [axis(ABS.mtPositionX, x), axis(ABS.mtPositionY, y), mtReport, btn(1)]),
          RawFrame(t + 0.01, [mtReport, btn(0)]),
        ]
      case .singleTouch:
        [RawFrame(t, [axis(ABS.x, x), axis(ABS.y, y), btn(1)]), RawFrame(t + 0.01, [btn(0)])]
      }
    }
    // Far left (x below the minimum): the left view at x 0. Far up: the top view at y 0.
    let recording = rawRecording(
      kind.description, finger(-50_000, uy(400), at: 10) + finger(ux(500), .min, at: 10.1))
    let run = try HostileRun(scene, recording)
    let touches = run.messages.compactMap { m -> String? in
      guard case .touches(let t) = m else { return nil }
      return "\(t.view) \(t.phase) \(t.touches.map { "\(Int($0.x.rounded())),\(Int($0.y.rounded()))" })"
    }
    #expect(
      touches == [
        "left began [\"0,400\"]", "left ended [\"0,400\"]", "top began [\"500,0\"]", "top ended [\"500,0\"]",
      ])
  }

  // MARK: Timestamps

  @Test("timestamps going backwards are replayed at the previous time; a jump of 3 h is waited out")
  func timestamps() throws {
    let scene = hostileScene(
      """
      - id: v
        frame: {x: 0, y: 0, width: 1000, height: 800}
        touches: true
        recognizers:
          - {id: press, type: longPress, action: p, cancelsTouchesInView: false}
      """)
    let threeHours = 3 * 3600.0
    let recording = rawRecording(
      SyntheticTouchscreen.description,
      [
        RawFrame(
          10, [axis(ABS.mtTrackingID, 1), axis(ABS.mtPositionX, ux(500)), axis(ABS.mtPositionY, uy(400)), btn(1)]),
        // 5 s before the touch-down: taken at 10 s.
        RawFrame(5, [axis(ABS.mtPositionX, ux(503))]),
        RawFrame(10 + threeHours, [axis(ABS.mtPositionX, ux(505))]),
        RawFrame(10 + threeHours + 0.01, [axis(ABS.mtTrackingID, -1), btn(0)]),
      ])
    let run = try HostileRun(scene, recording)
    #expect(
      deliveries(run) == [
        "touches v began 1", "touches v moved 1", "action press began @500", "action press changed @10800000",
        "touches v moved 1", "action press ended @10800010", "touches v ended 1",
      ])
    let times = run.messages.map(\.time)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "message times never go back")
  }

  // MARK: SYN_DROPPED storms

  @Test(
    "a storm of 1000 SYN_DROPPED during a pan cancels it once; the finger stays ignored; a new drag pans",
    arguments: SyntheticDeviceKind.allCases)
  func dropStorm(kind: SyntheticDeviceKind) throws {
    let s = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
    let f = s.down([P(x: 300, y: 400)])
    s.animate(f, duration: 0.03) { _, t in P(x: 300 + 60 * t, y: 400) }
    let stormStart = Int64((s.time * 1_000_000).rounded())
    // After the storm the finger moves on and lifts (ignored), then a new drag from 10.53 s.
    s.wait(0.2)
    s.move(f, to: [P(x: 380, y: 400)])
    s.up(f)
    s.wait(0.3)
    s.drag(from: P(x: 500, y: 400), to: P(x: 560, y: 400), duration: 0.03)
    var recording = kind.encode(s.recording)
    // 1000 losses in 100 ms, each followed by what was left of a frame.
    var storm: [InputEvent] = []
    for i in 1...1000 {
      let time = Timestamp(microseconds: stormStart + Int64(i) * 100)
      storm += [
        InputEvent(time: time, type: EV.syn, code: SYN.dropped, value: 0),
        InputEvent(time: time, type: EV.abs, code: kind == .singleTouch ? ABS.x : ABS.mtPositionX, value: 7),
        InputEvent(time: time, type: EV.syn, code: SYN.report, value: 0),
      ]
    }
    let cut = try #require(recording.events.firstIndex { $0.time.microseconds > stormStart })
    recording.events.insert(contentsOf: storm, at: cut)
    let run = try HostileRun(tapAndPan, recording)
    let log = deliveries(run)
    #expect(
      log == [
        "touches v began 1", "action pan began @10", "touches v moved 1", "action pan changed @20", "touches v moved 1",
        "action pan changed @30", "touches v moved 1", "action pan cancelled @30", "touches v cancelled 1",
        "touches v began 2", "action pan began @540", "touches v moved 2", "action pan changed @550",
        "touches v moved 2",
        "action pan changed @560", "touches v moved 2", "action pan ended @560", "touches v ended 2",
      ])
  }
}
