import Foundation
import Testing

@testable import TouchdInput

/// Issue #20, hostile devices, at the frame assembler: what a misbehaving driver or a hand-made
/// recording sends, on each kind of device it applies to. The rules and their sources are in
/// FrameAssembler.swift (and its FrameAssembler+Protocol… files) and docs/reliability.md, "Hostile
/// devices".
@Suite("Hostile devices: the frame assembler")
struct FrameAssemblerHostileTests {
  let protocolA = makeDevice(
    abs: [ABS.x: 1000, ABS.y: 1000, ABS.mtPositionX: 1000, ABS.mtPositionY: 1000], keys: [BTN.touch])
  let singleTouch = makeDevice(abs: [ABS.x: 1000, ABS.y: 500], keys: [BTN.touch])

  // MARK: Tracking ids

  @Test("protocol B: a second tracking id without -1 is dropped (libevdev): one touch goes on, and ends at -1")
  func trackingIDReusedWithoutLift() throws {
    let feed = Feeder(slotDevice())
    #expect(
      feed.frame([axis(ABS.mtTrackingID, 5), axis(ABS.mtPositionX, 100), axis(ABS.mtPositionY, 100)])?.phases
        == [1: .began])
    // 5 → 6 → 7 without -1: dropped; the position still moves the touch.
    #expect(feed.frame([axis(ABS.mtTrackingID, 6), axis(ABS.mtPositionX, 200)])?.phases == [1: .moved])
    #expect(feed.frame([axis(ABS.mtTrackingID, 7)]) == nil)
    // -1 ends it; -1 again is dropped too; the next id begins a new touch.
    #expect(feed.frame([axis(ABS.mtTrackingID, -1)])?.phases == [1: .ended])
    #expect(feed.frame([axis(ABS.mtTrackingID, -1)]) == nil)
    #expect(feed.frame([axis(ABS.mtTrackingID, 8)])?.phases == [2: .began])
    // -1 then a new id in one frame is a lift and a new finger (libevdev passes both).
    #expect(feed.frame([axis(ABS.mtTrackingID, -1), axis(ABS.mtTrackingID, 9)])?.phases == [2: .ended, 3: .began])
  }

  @Test("protocol B: another negative id on a free slot begins nothing and blocks ids until -1 (libevdev's state)")
  func otherNegativeTrackingIDs() throws {
    let feed = Feeder(slotDevice())
    #expect(feed.frame([axis(ABS.mtTrackingID, -7), axis(ABS.mtPositionX, 100)]) == nil)
    // libevdev drops N → M for any N other than -1, so 4 is dropped.
    #expect(feed.frame([axis(ABS.mtTrackingID, 4)]) == nil)
    #expect(feed.frame([axis(ABS.mtTrackingID, -1)]) == nil)
    #expect(feed.frame([axis(ABS.mtTrackingID, 4)])?.phases == [1: .began])
  }

  @Test("single touch: BTN_TOUCH 1 twice is one touch (the kernel passes only changes)")
  func touchButtonTwice() throws {
    let feed = Feeder(singleTouch)
    #expect(feed.frame([axis(ABS.x, 10), key(BTN.touch, 1)])?.phases == [1: .began])
    #expect(feed.frame([key(BTN.touch, 1), axis(ABS.x, 20)])?.phases == [1: .moved])
    #expect(feed.frame([key(BTN.touch, 0)])?.phases == [1: .ended])
    #expect(feed.frame([key(BTN.touch, 0)]) == nil)
  }

  // MARK: Slots beyond the maximum

  @Test(
    "protocol B: an ABS_MT_SLOT past the last slot, or negative, is ignored (the kernel's rule): the slot before goes on"
  )
  func slotBeyondMaximum() throws {
    let feed = Feeder(slotDevice(slots: 4))
    // Slot 12 on a 4-slot device before any other: slot 0 (implied) takes the events.
    let f1 = try #require(
      feed.frame([axis(ABS.mtSlot, 12), axis(ABS.mtTrackingID, 1), axis(ABS.mtPositionX, 300)]))
    #expect(f1.phases == [1: .began])
    #expect(feed.frame([axis(ABS.mtSlot, 0), axis(ABS.mtPositionX, 400)])?.contact(1)?.x == cell(400, of: 1000))
    // Slot 2, then slot -2 (ignored): a finger in slot 2.
    let f2 = try #require(
      feed.frame([axis(ABS.mtSlot, 2), axis(ABS.mtSlot, -2), axis(ABS.mtTrackingID, 2), axis(ABS.mtPositionX, 700)]))
    #expect(f2.phases == [1: .stationary, 2: .began])
    #expect(f2.contact(2)?.x == cell(700, of: 1000))
    // A finger "in slot 99" while slot 2 is selected: its id is a second id for slot 2, dropped;
    // its position moves slot 2's touch, its lift lifts it.
    #expect(
      feed.frame([axis(ABS.mtSlot, 99), axis(ABS.mtTrackingID, 3), axis(ABS.mtPositionX, 900)])?.phases
        == [1: .stationary, 2: .moved])
    #expect(feed.frame([axis(ABS.mtSlot, 99), axis(ABS.mtTrackingID, -1)])?.phases == [1: .stationary, 2: .ended])
    #expect(feed.frame([axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, -1)])?.phases == [1: .ended])
  }

  @Test("protocol B: a description claiming 100000 slots gets the kernel's limit of 1024; slot 5000 is ignored")
  func hugeSlotCount() throws {
    let device = slotDevice(slots: 100_000)
    #expect(device.touchProtocol == .slots(100_000))
    let feed = Feeder(device)
    let f = try #require(
      feed.frame([
        axis(ABS.mtSlot, 1023), axis(ABS.mtTrackingID, 1), axis(ABS.mtPositionX, 100), axis(ABS.mtSlot, 5000),
        axis(ABS.mtPositionX, 200),
      ]))
    #expect(f.contacts.map(\.x) == [cell(200, of: 1000)])
  }

  @Test("protocol B: 20 slots, 20 fingers down in one frame, moved, lifted")
  func twentyFingers() throws {
    let feed = Feeder(slotDevice(slots: 20))
    var down: [(UInt16, UInt16, Int32)] = []
    for slot in 0..<20 { down += [axis(ABS.mtSlot, Int32(slot)), axis(ABS.mtTrackingID, Int32(100 + slot))] }
    #expect(feed.frame(down)?.phases == Dictionary(uniqueKeysWithValues: (1...20).map { (UInt64($0), .began) }))
    var move: [(UInt16, UInt16, Int32)] = []
    for slot in 0..<20 { move += [axis(ABS.mtSlot, Int32(slot)), axis(ABS.mtPositionX, Int32(slot * 40))] }
    let moved = try #require(feed.frame(move))
    // Slot 0 stays at x 0: stationary; the other 19 moved.
    #expect(moved.contacts.count == 20)
    #expect(moved.contacts.filter { $0.phase == .moved }.count == 19)
    var up: [(UInt16, UInt16, Int32)] = []
    for slot in 0..<20 { up += [axis(ABS.mtSlot, Int32(slot)), axis(ABS.mtTrackingID, -1)] }
    #expect(feed.frame(up)?.contacts.allSatisfy { $0.phase == .ended } == true)
  }

  @Test("protocol A: a frame of 40 contacts keeps the first 32 (mtdev's DIM_FINGER)")
  func protocolAContactLimit() throws {
    let feed = Feeder(protocolA)
    var frame: [(UInt16, UInt16, Int32)] = []
    for i in 0..<40 { frame += [axis(ABS.mtPositionX, Int32(i * 20)), axis(ABS.mtPositionY, 500), mtReport] }
    let f = try #require(feed.frame(frame))
    #expect(f.contacts.count == 32)
    #expect(f.contacts.map(\.x) == (0..<32).map { cell(Double($0 * 20), of: 1000) })
    // 1000 contacts without a SYN_REPORT keep memory bounded too: still 32.
    var many: [(UInt16, UInt16, Int32)] = []
    for i in 0..<1000 { many += [axis(ABS.mtPositionX, Int32(i % 1000)), mtReport] }
    #expect(feed.frame(many)?.contacts.filter { !$0.phase.isTerminal }.count == 32)
  }

  // MARK: Coordinates outside the axis range

  @Test(
    "positions outside the axis range are the edge unit's (its cell's centre), on every kind; a negative touch major is 0"
  )
  func outOfRangeCoordinates() throws {
    let b = Feeder(slotDevice(extra: [ABS.mtTouchMajor: 100, ABS.mtPressure: 255]))
    let f1 = try #require(
      b.frame([
        axis(ABS.mtTrackingID, 1), axis(ABS.mtPositionX, -5000), axis(ABS.mtPositionY, .max),
        axis(ABS.mtTouchMajor, -40), axis(ABS.mtPressure, 9999),
      ]))
    #expect(
      f1.contacts == [
        Contact(
          id: TouchID(rawValue: 1), phase: .began, x: cell(0, of: 1000), y: cell(500, of: 500), majorRadius: 0, force: 1
        )
      ])
    #expect(
      b.frame([axis(ABS.mtPositionX, .max), axis(ABS.mtPositionY, .min)])?.contacts.map { [$0.x, $0.y] }
        == [[cell(1000, of: 1000), cell(0, of: 500)]])

    let a = Feeder(protocolA)
    #expect(
      a.frame([axis(ABS.mtPositionX, 2000), axis(ABS.mtPositionY, -1), mtReport])?.contacts.map { [$0.x, $0.y] }
        == [[cell(1000, of: 1000), cell(0, of: 1000)]])

    let single = Feeder(singleTouch)
    #expect(
      single.frame([axis(ABS.x, .min), axis(ABS.y, 501), key(BTN.touch, 1)])?.contacts.map { [$0.x, $0.y] }
        == [[cell(0, of: 1000), cell(500, of: 500)]])
  }

  @Test("a device whose axis has no range (max ≤ min) still gives finite positions")
  func degenerateAxis() throws {
    let device = makeDevice(abs: [ABS.x: 0, ABS.y: -5], keys: [BTN.touch])
    let feed = Feeder(device)
    let f = try #require(feed.frame([axis(ABS.x, 7), axis(ABS.y, -3), key(BTN.touch, 1)]))
    #expect(f.contacts.allSatisfy { $0.x.isFinite && $0.y.isFinite && (0...1).contains($0.x) })
  }

  // MARK: Codes the device does not have

  @Test("events of codes the device does not report are dropped, as the kernel and libevdev drop them")
  func codesTheDeviceLacks() throws {
    // No ABS_MT_PRESSURE, no ABS_MT_TOOL_TYPE: pressure gives no force, a palm tool type cancels nothing.
    let b = Feeder(slotDevice())
    _ = b.frame([axis(ABS.mtTrackingID, 1)])
    #expect(b.frame([axis(ABS.mtPressure, 50), axis(ABS.mtToolType, MTTool.palm)]) == nil)
    #expect(b.frame([axis(ABS.mtPositionX, 10)])?.phases == [1: .moved])
    // On a protocol A device without BTN_TOUCH a stray BTN_TOUCH 0 lifts nothing.
    let noButton = makeDevice(abs: [ABS.mtPositionX: 100, ABS.mtPositionY: 100])
    #expect(noButton.touchscreenKind() == .multitouchA)
    let a = Feeder(noButton)
    #expect(a.frame([axis(ABS.mtPositionX, 5), mtReport])?.phases == [1: .began])
    #expect(a.frame([axis(ABS.mtPositionX, 5), mtReport, key(BTN.touch, 0)]) == nil)
    // Codes past ABS_MAX are no axis at all.
    #expect(b.frame([(EV.abs, 0x7f, 1), (EV.abs, 0xffff, 1)]) == nil)
  }

  // MARK: SYN_DROPPED storms (recordings)

  /// Feeds `count` SYN_DROPPED, each followed by garbage events and a SYN_REPORT; returns the
  /// frames that came out.
  func storm(_ feed: Feeder, count: Int, garbage: [(UInt16, UInt16, Int32)]) -> [TouchFrame] {
    var frames: [TouchFrame] = []
    for _ in 0..<count {
      feed.time += 1
      if let f = feed.assembler.process(feed.ev(EV.syn, SYN.dropped, 0)) { frames.append(f) }
      for (type, code, value) in garbage {
        if let f = feed.assembler.process(feed.ev(type, code, value)) { frames.append(f) }
      }
      if let f = feed.assembler.process(feed.ev(EV.syn, SYN.report, 0)) { frames.append(f) }
    }
    return frames
  }

  @Test("protocol B: a storm of 10,000 SYN_DROPPED cancels once; the fingers stay ignored; new ids begin touches")
  func dropStormProtocolB() throws {
    let feed = Feeder(slotDevice())
    _ = feed.frame([axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, 1), axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, 2)])
    let frames = storm(
      feed, count: 10_000, garbage: [axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, -1), axis(ABS.mtPositionX, 7)])
    #expect(frames.map(\.phases) == [[1: .cancelled, 2: .cancelled]])
    // Still down (no -1 got through), they move: ignored.
    #expect(feed.frame([axis(ABS.mtSlot, 1), axis(ABS.mtPositionX, 600)]) == nil)
    // Slot 0's first id after the storm is taken: its finger was replaced during the loss (a new
    // id without -1, which libevdev would have dropped, but the -1 may have been lost).
    #expect(feed.frame([axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, 40)])?.phases == [3: .began])
    // Slot 1 lifts: nothing to report; its next id begins.
    #expect(feed.frame([axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, -1)]) == nil)
    #expect(feed.frame([axis(ABS.mtTrackingID, 41)])?.phases == [3: .stationary, 4: .began])
    #expect(feed.assembler.cancelAll(at: Timestamp(microseconds: 0))?.phases == [3: .cancelled, 4: .cancelled])
  }

  @Test("protocol A and single touch: a SYN_DROPPED storm cancels once; touches after it begin", arguments: [0, 1])
  func dropStormOtherKinds(kind: Int) throws {
    if kind == 0 {
      let feed = Feeder(protocolA)
      _ = feed.frame([axis(ABS.mtPositionX, 100), mtReport])
      let frames = storm(feed, count: 10_000, garbage: [axis(ABS.mtPositionX, 5), mtReport])
      #expect(frames.map(\.phases) == [[1: .cancelled]])
      #expect(feed.frame([axis(ABS.mtPositionX, 100), mtReport]) == nil)
      #expect(feed.frame([mtReport]) == nil)
      #expect(feed.frame([axis(ABS.mtPositionX, 100), mtReport])?.phases == [2: .began])
    } else {
      let feed = Feeder(singleTouch)
      _ = feed.frame([key(BTN.touch, 1)])
      let frames = storm(feed, count: 10_000, garbage: [key(BTN.touch, 0), axis(ABS.x, 9)])
      #expect(frames.map(\.phases) == [[1: .cancelled]])
      #expect(feed.frame([axis(ABS.x, 3)]) == nil)
      #expect(feed.frame([key(BTN.touch, 0)]) == nil)
      #expect(feed.frame([key(BTN.touch, 1)])?.phases == [2: .began])
    }
  }

  // MARK: Timestamps

  /// A single-touch recording: touch down at 5 s, moves at 4 s (backwards), 4.5 s, then 3 h later, lifts.
  func timeRecording() -> Recording {
    let t: [Int64] = [5_000_000, 4_000_000, 4_500_000, 4_500_000 + 3 * 3_600_000_000]
    var events: [InputEvent] = []
    for (i, time) in t.enumerated() {
      let ts = Timestamp(microseconds: time)
      if i == 0 { events.append(InputEvent(time: ts, type: EV.key, code: BTN.touch, value: 1)) }
      events.append(InputEvent(time: ts, type: EV.abs, code: ABS.x, value: Int32(100 * (i + 1))))
      if i == t.count - 1 { events.append(InputEvent(time: ts, type: EV.key, code: BTN.touch, value: 0)) }
      events.append(InputEvent(time: ts, type: EV.syn, code: SYN.report, value: 0))
    }
    return Recording(description: singleTouch, events: events, source: "time.evemu")
  }

  @Test("timestamps that go backwards are taken at the previous time; a jump by hours is kept")
  func timestampsBackwardsAndJumps() throws {
    let frames = Replay.frames(of: timeRecording())
    #expect(frames.map(\.time.microseconds) == [5_000_000, 5_000_000, 5_000_000, 4_500_000 + 3 * 3_600_000_000])
    #expect(frames.map { $0.contacts[0].phase } == [.began, .moved, .moved, .ended])
    // MultiReplay (scenes, touchctl, the daemon's --replay) the same; its end is the latest time.
    let replay = MultiReplay([timeRecording()], readings: [.init(touches: true, keys: false)])
    var times: [Int64] = []
    replay.feed { _, frame in times.append(frame.time.microseconds) }
    #expect(times == frames.map(\.time.microseconds))
    #expect(replay.endTime == Timestamp(microseconds: 4_500_000 + 3 * 3_600_000_000))
  }

  @Test("two recordings merge on their monotonic times: a backwards event does not jump ahead of the other device")
  func mergedRecordingsStayInOrder() throws {
    func recording(_ times: [Int64], x: Int32) -> Recording {
      var events: [InputEvent] = []
      for time in times {
        let ts = Timestamp(microseconds: time)
        events.append(InputEvent(time: ts, type: EV.abs, code: ABS.x, value: x + Int32(time / 1000)))
        events.append(InputEvent(time: ts, type: EV.key, code: BTN.touch, value: 1))
        events.append(InputEvent(time: ts, type: EV.syn, code: SYN.report, value: 0))
      }
      return Recording(description: singleTouch, events: events, source: "r\(x)")
    }
    // The first recording's third event claims 1 ms: it is replayed at 30 ms, after the second's 20 ms.
    let replay = MultiReplay(
      [recording([10_000, 30_000, 1_000], x: 0), recording([20_000], x: 500)],
      readings: [.init(touches: true, keys: false), .init(touches: true, keys: false)])
    var order: [String] = []
    replay.feed { index, frame in order.append("\(index)@\(frame.time.microseconds)") }
    #expect(order == ["0@10000", "1@20000", "0@30000", "0@30000"])
  }

  // MARK: Keys

  @Test("a key frame that never ends is handed out every 64 changes: memory stays bounded")
  func keyFrameLimit() throws {
    let keypad = makeDevice(abs: [:], keys: [30, 31])
    let keys = KeyAssembler(device: keypad)
    var handedOut: [Int] = []
    for i in 0..<1000 {
      let event = InputEvent(time: Timestamp(microseconds: Int64(i)), type: EV.key, code: 30, value: Int32(1 - i % 2))
      if let frame = keys.process(event) { handedOut.append(frame.changes.count) }
    }
    #expect(handedOut == Array(repeating: KeyAssembler.maximumFrameChanges, count: 1000 / 64))
    #expect(keys.keysDown == [])
  }

  // MARK: Fuzz findings (FuzzFrameAssembler against the assembler before issue #20)

  @Test("fuzz finding: a negative ABS_MT_TOUCH_MAJOR gave a negative majorRadius; it is 0")
  func fuzzNegativeTouchMajor() throws {
    // The crash input, decoded: protocol B, 10 slots, ABS_MT_TOUCH_MAJOR; the slot's major is set
    // to -1 before its tracking id arrives. Before the fix: majorRadius -0.000122.
    let feed = Feeder(slotDevice(extra: [ABS.mtTouchMajor: 255]))
    let frame = try #require(
      feed.frame([
        axis(ABS.mtPositionX, 300), axis(ABS.mtTouchMajor, -1), axis(ABS.mtTrackingID, 0),
      ]))
    #expect(frame.contacts.map(\.majorRadius) == [0])
    #expect(feed.frame([axis(ABS.mtTouchMajor, 40)])?.contacts.map(\.majorRadius) == [40.0 / 2 / 1001])
  }

  @Test("fuzz finding: a description claiming 99,999 slots and a finger in slot 90000 took > 1 s an input; now bounded")
  func fuzzHugeSlotClaim() throws {
    // The timeout input: every frame walked all 90,001 slots up to the one in use (about 60 ms an
    // input, over the fuzzer's 1 s with 700 frames). The assembler now keeps the kernel's 1024
    // slots at most, so slot 90000 is no slot: its events go to slot 0, and a frame walks one slot.
    let feed = Feeder(slotDevice(slots: 99_999))
    _ = feed.assembler.process(feed.ev(EV.abs, ABS.mtSlot, 90_000))
    _ = feed.assembler.process(feed.ev(EV.abs, ABS.mtTrackingID, 5))
    var frames = 0
    for i in 0..<700 {
      let f = feed.frame([axis(ABS.mtPositionX, Int32(256 + i % 256))])
      if f?.contacts.count == 1 { frames += 1 }
    }
    // The first frame begins the touch (slot 0), the others move it whenever x changes.
    #expect(frames == 700)
    #expect(FrameAssembler.maximumSlots == 1024)
  }
}
