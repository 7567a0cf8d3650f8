import Testing
import TouchdInput

@testable import TouchdDevices

/// The live frame path (`FrameFeed`) fed by a scripted libevdev: SYN_DROPPED resync and removal.
@Suite struct FrameFeedTests {
  let now = Timestamp(microseconds: 500_000)

  func feed() -> FrameFeed {
    let description = Fixtures.protocolB().describe()
    let now = now
    return FrameFeed(reader: ContactReader(device: description, ids: TouchIDAllocator()), now: { now })
  }

  /// Two fingers down in slots 0 and 1, at 10 ms.
  func twoFingers() -> [EvdevReadResult] {
    let e = Fixtures.event
    return [
      e(10, EV.abs, ABS.mtSlot, 0), e(10, EV.abs, ABS.mtTrackingID, 100), e(10, EV.abs, ABS.mtPositionX, 100),
      e(10, EV.abs, ABS.mtPositionY, 100), e(10, EV.abs, ABS.mtSlot, 1), e(10, EV.abs, ABS.mtTrackingID, 101),
      e(10, EV.abs, ABS.mtPositionX, 200), e(10, EV.abs, ABS.mtPositionY, 200), e(10, EV.key, BTN.touch, 1),
      e(10, EV.syn, SYN.report, 0),
    ].map(EvdevReadResult.success)
  }

  @Test func resyncContinuesPresentTouchesCancelsVanishedAndBeginsNew() throws {
    let e = Fixtures.event
    // libevdev's resync: slot 0 moved, slot 1 lifted, slot 2 appeared while events were lost.
    let resync: [EvdevReadResult] =
      [.sync(e(20, EV.syn, SYN.dropped, 0))]
      + [
        e(30, EV.abs, ABS.mtSlot, 0), e(30, EV.abs, ABS.mtPositionX, 150), e(30, EV.abs, ABS.mtSlot, 1),
        e(30, EV.abs, ABS.mtTrackingID, -1), e(30, EV.abs, ABS.mtSlot, 2), e(30, EV.abs, ABS.mtTrackingID, 102),
        e(30, EV.abs, ABS.mtPositionX, 300), e(30, EV.abs, ABS.mtPositionY, 300), e(30, EV.syn, SYN.report, 0),
      ].map(EvdevReadResult.sync) + [.failure(.wouldBlock)]
    let source = FakeSource(twoFingers() + [.failure(.wouldBlock)] + resync + [.failure(.wouldBlock)])
    let feed = feed()
    var frames: [TouchFrame] = []

    #expect(try feed.read(path: "/dev/input/event4", next: source.next) { frames.append($0) } == .drained)
    #expect(frames.count == 1)
    let began = try #require(frames.first)
    #expect(began.contacts.map(\.phase) == [.began, .began])
    let first = began.contacts[0].id
    let second = began.contacts[1].id

    frames.removeAll()
    #expect(try feed.read(path: "/dev/input/event4", next: source.next) { frames.append($0) } == .drained)
    // Only one frame for the whole resync, stamped with the clock at its end.
    #expect(frames.count == 1)
    let resynced = try #require(frames.first)
    #expect(resynced.time == now)
    let phases = Dictionary(uniqueKeysWithValues: resynced.contacts.map { ($0.id, $0.phase) })
    #expect(phases[first] == .moved)
    #expect(phases[second] == .cancelled)
    let newcomers = resynced.contacts.filter { $0.id != first && $0.id != second }
    #expect(newcomers.map(\.phase) == [.began])
    #expect(abs((newcomers.first?.x ?? 0) - 300.5 / 1920.0) < 1e-9)
    #expect(abs((resynced.contacts.first { $0.id == first }?.x ?? 0) - 150.5 / 1920.0) < 1e-9)
  }

  @Test func removalCancelsEveryLiveTouchAtNow() throws {
    let source = FakeSource(twoFingers() + [.failure(.noDevice)])
    var frames: [TouchFrame] = []
    #expect(try feed().read(path: "/dev/input/event4", next: source.next) { frames.append($0) } == .removed)
    try #require(frames.count == 2)
    #expect(frames[1].time == now)
    #expect(frames[1].contacts.map(\.phase) == [.cancelled, .cancelled])
    #expect(Set(frames[1].contacts.map(\.id)) == Set(frames[0].contacts.map(\.id)))
  }

  @Test func removalWithoutTouchesDeliversNothing() throws {
    let source = FakeSource([.failure(.noDevice)])
    var frames: [TouchFrame] = []
    #expect(try feed().read(path: "/dev/input/event4", next: source.next) { frames.append($0) } == .removed)
    #expect(frames.isEmpty)
  }
}
