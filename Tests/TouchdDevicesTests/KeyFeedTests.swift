import Testing
import TouchdInput

@testable import TouchdDevices

/// The live key path (`FrameFeed` with a `KeyAssembler`) fed by a scripted libevdev: presses,
/// a touchscreen read for its touches and its keys at once, SYN_DROPPED resync and removal.
@Suite struct KeyFeedTests {
  let now = Timestamp(microseconds: 500_000)
  // <linux/input-event-codes.h>
  static let keyEnter: UInt16 = 28
  static let keyF1: UInt16 = 59
  static let keyBack: UInt16 = 158
  static let mscScan: UInt16 = 4

  /// A keypad's feed.
  func keypad() -> FrameFeed {
    let description = Fixtures.keypad().describe()
    let now = now
    return FrameFeed(reader: nil, keys: KeyAssembler(device: description), now: { now })
  }

  func key(_ ms: Int64, _ code: UInt16, _ value: Int32) -> [EvdevReadResult] {
    let e = Fixtures.event
    return [
      e(ms, EV.msc, Self.mscScan, 0x70000 + Int32(code)), e(ms, EV.key, code, value), e(ms, EV.syn, SYN.report, 0),
    ]
    .map(EvdevReadResult.success)
  }

  func keys(_ frame: DeviceFrame) -> KeyFrame? {
    if case .keys(let keys) = frame { return keys }
    return nil
  }

  @Test func pressesBecomeKeyFrames() throws {
    let source = FakeSource(key(10, Self.keyEnter, 1) + key(20, Self.keyEnter, 2) + key(30, Self.keyEnter, 0))
    var frames: [DeviceFrame] = []
    #expect(try keypad().read(path: "/dev/input/event7", next: source.next) { frames.append($0) } == .drained)
    #expect(
      frames == [
        .keys(KeyFrame(time: Timestamp(microseconds: 10_000), changes: [KeyChange(code: Self.keyEnter, phase: .down)])),
        .keys(KeyFrame(time: Timestamp(microseconds: 30_000), changes: [KeyChange(code: Self.keyEnter, phase: .up)])),
      ])
  }

  @Test func resyncCancelsKeysReleasedMeanwhileAndBeginsKeysPressed() throws {
    let e = Fixtures.event
    let resync: [EvdevReadResult] =
      [.sync(e(40, EV.syn, SYN.dropped, 0))]
      + [e(50, EV.key, Self.keyEnter, 0), e(50, EV.key, Self.keyF1, 1), e(50, EV.syn, SYN.report, 0)].map(
        EvdevReadResult.sync) + [.failure(.wouldBlock)]
    let source = FakeSource(key(10, Self.keyEnter, 1) + [.failure(.wouldBlock)] + resync)
    let feed = keypad()
    var frames: [DeviceFrame] = []
    _ = try feed.read(path: "/dev/input/event7", next: source.next) { frames.append($0) }
    #expect(frames.count == 1)
    frames.removeAll()
    _ = try feed.read(path: "/dev/input/event7", next: source.next) { frames.append($0) }
    #expect(feed.drops == 1)
    #expect(
      frames.compactMap(keys) == [
        KeyFrame(
          time: now,
          changes: [KeyChange(code: Self.keyEnter, phase: .cancelled), KeyChange(code: Self.keyF1, phase: .down)])
      ])
  }

  @Test func removalCancelsTheKeysDownAtNow() throws {
    let source = FakeSource(key(10, Self.keyEnter, 1) + key(20, Self.keyF1, 1) + [.failure(.noDevice)])
    var frames: [DeviceFrame] = []
    #expect(try keypad().read(path: "/dev/input/event7", next: source.next) { frames.append($0) } == .removed)
    #expect(
      frames.last
        == .keys(
          KeyFrame(
            time: now,
            changes: [
              KeyChange(code: Self.keyEnter, phase: .cancelled), KeyChange(code: Self.keyF1, phase: .cancelled),
            ])))
  }

  @Test func aTouchscreenWithKeysGivesItsTouchFrameFirstThenItsKeyFrame() throws {
    let e = Fixtures.event
    let description = Fixtures.touchscreenWithKeys().describe()
    let now = now
    let feed = FrameFeed(
      reader: ContactReader(device: description, ids: TouchIDAllocator()), keys: KeyAssembler(device: description),
      now: { now })
    let source = FakeSource(
      [
        e(10, EV.abs, ABS.mtSlot, 0), e(10, EV.abs, ABS.mtTrackingID, 5), e(10, EV.abs, ABS.mtPositionX, 100),
        e(10, EV.abs, ABS.mtPositionY, 100), e(10, EV.key, BTN.touch, 1), e(10, EV.key, Self.keyBack, 1),
        e(10, EV.syn, SYN.report, 0),
      ].map(EvdevReadResult.success) + [.failure(.noDevice)])
    var frames: [DeviceFrame] = []
    #expect(try feed.read(path: "/dev/input/event4", next: source.next) { frames.append($0) } == .removed)
    // BTN_TOUCH is no key: only KEY_BACK makes a press.
    guard frames.count == 4, case .touches(let began) = frames[0], case .keys(let back) = frames[1],
      case .touches(let cancelled) = frames[2], case .keys(let released) = frames[3]
    else {
      Issue.record("unexpected frames: \(frames)")
      return
    }
    #expect(began.contacts.map(\.phase) == [.began])
    #expect(back.changes == [KeyChange(code: Self.keyBack, phase: .down)])
    #expect(cancelled.contacts.map(\.phase) == [.cancelled])
    #expect(released == KeyFrame(time: now, changes: [KeyChange(code: Self.keyBack, phase: .cancelled)]))
  }

  @Test func aKeyDeviceIsOnlyTakenWithKeysThatMakePresses() throws {
    #expect(KeyAssembler.hasKeys(Fixtures.keypad().describe()))
    #expect(KeyAssembler.hasKeys(Fixtures.keyboard().describe()))
    #expect(!KeyAssembler.hasKeys(Fixtures.protocolB().describe()))
    #expect(KeyAssembler.hasKeys(Fixtures.touchscreenWithKeys().describe()))
    #expect(
      DeviceError.noKeys(path: "/dev/input/event4").description
        == "/dev/input/event4 has no keys that make presses (only touch and pointer buttons, or none)")
    #expect(DeviceError.noKeys(path: "/dev/input/event4").path == "/dev/input/event4")
  }
}

extension Fixtures {
  /// A kiosk keypad: a few keys, MSC_SCAN, autorepeat.
  static func keypad() -> LinuxInput.Evdev {
    let dev = LinuxInput.Evdev()
    dev.setName("Kiosk Keypad")
    dev.setID(InputID(bustype: 3, vendor: 0x1234, product: 0x5678, version: 1))
    for code: UInt16 in [1, 28, 59, 103, 105, 106, 108] { dev.enable(type: EV.key, code: code) }
    dev.enable(type: EV.msc, code: 4)
    return dev
  }

  /// A protocol B touchscreen with a KEY_BACK button of its own.
  static func touchscreenWithKeys() -> LinuxInput.Evdev {
    let dev = protocolB()
    dev.enable(type: EV.key, code: 158)
    return dev
  }
}
