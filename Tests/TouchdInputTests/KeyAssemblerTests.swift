import Testing

@testable import TouchdInput

/// `KeyAssembler`: EV_KEY events of a key device become key frames at SYN_REPORT.
@Suite("Key frames from a key device's events")
struct KeyAssemblerTests {
  // <linux/input-event-codes.h>
  static let keyEsc: UInt16 = 1
  static let keyEnter: UInt16 = 28
  static let keyF1: UInt16 = 59
  static let keyUp: UInt16 = 103
  static let mscScan: UInt16 = 4

  static let keypad = DeviceDescription(
    name: "Kiosk Keypad", id: InputID(bustype: 3, vendor: 0x1234, product: 0x5678, version: 1),
    events: [EV.syn: [EV.syn, EV.key, EV.msc], EV.key: [keyEsc, keyEnter, keyF1, keyUp], EV.msc: [mscScan]])

  /// Feeds `(type, code, value)` events at `ms` milliseconds; returns the frames produced, each
  /// as `(milliseconds, [(code, phase)])`.
  final class Keys {
    let assembler = KeyAssembler(device: KeyAssemblerTests.keypad)

    func feed(_ ms: Int64, _ events: [(UInt16, UInt16, Int32)]) -> [KeyFrame] {
      events.compactMap { type, code, value in
        assembler.process(InputEvent(time: Timestamp(microseconds: ms * 1000), type: type, code: code, value: value))
      }
    }

    /// One frame: the events, then SYN_REPORT.
    func frame(_ ms: Int64, _ events: [(UInt16, UInt16, Int32)]) -> [KeyFrame] {
      feed(ms, events + [(EV.syn, SYN.report, 0)])
    }
  }

  static func frame(_ ms: Int64, _ changes: [(UInt16, KeyPhase)]) -> KeyFrame {
    KeyFrame(time: Timestamp(microseconds: ms * 1000), changes: changes.map { KeyChange(code: $0.0, phase: $0.1) })
  }

  @Test("A press and a release are a down frame and an up frame, at their SYN_REPORT; MSC_SCAN is ignored")
  func pressAndRelease() {
    let keys = Keys()
    #expect(keys.feed(100, [(EV.msc, Self.mscScan, 0x70028), (EV.key, Self.keyEnter, 1)]) == [])
    #expect(keys.feed(100, [(EV.syn, SYN.report, 0)]) == [Self.frame(100, [(Self.keyEnter, .down)])])
    #expect(keys.assembler.keysDown == [Self.keyEnter])
    #expect(
      keys.frame(250, [(EV.msc, Self.mscScan, 0x70028), (EV.key, Self.keyEnter, 0)])
        == [Self.frame(250, [(Self.keyEnter, .up)])])
    #expect(keys.assembler.keysDown == [])
  }

  @Test("The kernel's own releases on unplug (SYN_REPORT value 1) cancel the press, as measured in the VM")
  func kernelReleaseOnUnplugIsACancel() {
    let keys = Keys()
    #expect(keys.frame(0, [(EV.key, Self.keyF1, 1)]) == [Self.frame(0, [(Self.keyF1, .down)])])
    // input_dev_release_keys(): KEY_F1 0, then SYN_REPORT 1, no MSC_SCAN.
    #expect(
      keys.feed(1028, [(EV.key, Self.keyF1, 0), (EV.syn, SYN.report, 1)])
        == [Self.frame(1028, [(Self.keyF1, .cancelled)])])
    #expect(keys.assembler.keysDown == [])
    // A later cancelAll (the read fails with ENODEV) has nothing left to cancel.
    #expect(keys.assembler.cancelAll(at: Timestamp(microseconds: 1_029_000)) == nil)
  }

  @Test("Autorepeat (value 2) makes no frame; the release after it is an up")
  func autorepeatIsIgnored() {
    let keys = Keys()
    #expect(keys.frame(0, [(EV.key, Self.keyUp, 1)]) == [Self.frame(0, [(Self.keyUp, .down)])])
    #expect(keys.frame(250, [(EV.key, Self.keyUp, 2)]) == [])
    #expect(keys.frame(283, [(EV.key, Self.keyUp, 2)]) == [])
    #expect(keys.frame(400, [(EV.key, Self.keyUp, 0)]) == [Self.frame(400, [(Self.keyUp, .up)])])
  }

  @Test("Changes of one frame keep the device's order; a frame without changes is none")
  func severalChangesInOneFrame() {
    let keys = Keys()
    #expect(
      keys.frame(10, [(EV.key, Self.keyF1, 1), (EV.key, Self.keyEnter, 1)])
        == [Self.frame(10, [(Self.keyF1, .down), (Self.keyEnter, .down)])])
    #expect(
      keys.frame(20, [(EV.key, Self.keyEnter, 0), (EV.key, Self.keyEsc, 1), (EV.key, Self.keyEsc, 0)])
        == [Self.frame(20, [(Self.keyEnter, .up), (Self.keyEsc, .down), (Self.keyEsc, .up)])])
    #expect(keys.assembler.keysDown == [Self.keyF1])
    #expect(keys.frame(30, []) == [])
  }

  @Test("A down for a key already down and an up for a key not down are dropped")
  func duplicatesAreDropped() {
    let keys = Keys()
    #expect(keys.frame(10, [(EV.key, Self.keyEnter, 0)]) == [])
    #expect(keys.frame(20, [(EV.key, Self.keyEnter, 1)]) == [Self.frame(20, [(Self.keyEnter, .down)])])
    #expect(keys.frame(30, [(EV.key, Self.keyEnter, 1)]) == [])
    #expect(keys.frame(40, [(EV.key, Self.keyEnter, 0)]) == [Self.frame(40, [(Self.keyEnter, .up)])])
    #expect(keys.frame(50, [(EV.key, Self.keyEnter, 0)]) == [])
  }

  @Test("Touch and pointer codes are never keys: BTN_TOUCH, BTN_TOOL_*, BTN_STYLUS*, mouse buttons")
  func touchCodesAreNotKeys() {
    let keys = Keys()
    let pointer: [UInt16] = [
      BTN.touch, BTN.toolFinger, BTN.toolDoubletap, BTN.toolPen, BTN.stylus, BTN.stylus2,
      BTN.stylus3, BTN.toolQuadtap, BTN.left, BTN.right, BTN.middle, 0x117,
    ]
    for code in pointer {
      #expect(!KeyAssembler.isKey(code), "\(code)")
      #expect(keys.frame(10, [(EV.key, code, 1)]) == [])
      #expect(keys.frame(20, [(EV.key, code, 0)]) == [])
    }
    #expect(!KeyAssembler.isKey(0))  // KEY_RESERVED
    for code: UInt16 in [Self.keyEsc, Self.keyEnter, 0x100, 0x118, 0x120, 0x13f, 0x150, 0x2c0] {
      #expect(KeyAssembler.isKey(code), "\(code)")
    }
    #expect(!KeyAssembler.hasKeys(DeviceDescription(name: "ts", id: Self.keypad.id, events: [EV.key: [BTN.touch]])))
    #expect(KeyAssembler.hasKeys(Self.keypad))
  }

  @Test("cancelAll ends every key down with cancelled, in press order; a pending down is dropped")
  func cancelAll() {
    let keys = Keys()
    _ = keys.frame(10, [(EV.key, Self.keyF1, 1)])
    _ = keys.frame(20, [(EV.key, Self.keyEnter, 1)])
    #expect(keys.feed(30, [(EV.key, Self.keyUp, 1)]) == [])  // no SYN_REPORT yet
    #expect(
      keys.assembler.cancelAll(at: Timestamp(microseconds: 40_000))
        == Self.frame(40, [(Self.keyF1, .cancelled), (Self.keyEnter, .cancelled)]))
    #expect(keys.assembler.cancelAll(at: Timestamp(microseconds: 50_000)) == nil)
    // The keys' later releases are dropped: they are no longer down.
    #expect(keys.frame(60, [(EV.key, Self.keyF1, 0), (EV.key, Self.keyUp, 0)]) == [])
    #expect(keys.frame(70, [(EV.key, Self.keyF1, 1)]) == [Self.frame(70, [(Self.keyF1, .down)])])
  }

  @Test("A recorded SYN_DROPPED cancels the keys down at once and discards events up to the next SYN_REPORT")
  func recordedDrop() {
    let keys = Keys()
    _ = keys.frame(10, [(EV.key, Self.keyF1, 1)])
    #expect(
      keys.feed(20, [(EV.key, Self.keyEnter, 1), (EV.syn, SYN.dropped, 0)])
        == [Self.frame(20, [(Self.keyF1, .cancelled)])])
    // What libevdev would have synthesized, then the SYN_REPORT that ends the discarded run.
    #expect(keys.frame(20, [(EV.key, Self.keyEsc, 1)]) == [])
    #expect(keys.frame(30, [(EV.key, Self.keyF1, 0)]) == [])
    #expect(keys.frame(40, [(EV.key, Self.keyUp, 1)]) == [Self.frame(40, [(Self.keyUp, .down)])])
  }

  @Test("A live resync: keys released meanwhile end cancelled, keys pressed meanwhile begin, held keys go on")
  func liveResync() {
    let keys = Keys()
    _ = keys.frame(10, [(EV.key, Self.keyF1, 1), (EV.key, Self.keyEnter, 1)])
    // The interrupted frame pressed ESC and released ENTER before the drop.
    #expect(keys.feed(20, [(EV.key, Self.keyEsc, 1), (EV.key, Self.keyEnter, 0)]) == [])
    keys.assembler.beginSync()
    // libevdev's sync events: F1 released, UP pressed during the loss.
    #expect(keys.frame(30, [(EV.key, Self.keyF1, 0), (EV.key, Self.keyUp, 1)]) == [])
    #expect(
      keys.assembler.endSync(at: Timestamp(microseconds: 35_000))
        == Self.frame(
          35, [(Self.keyF1, .cancelled), (Self.keyEnter, .cancelled), (Self.keyEsc, .down), (Self.keyUp, .down)]))
    #expect(keys.assembler.keysDown == [Self.keyEsc, Self.keyUp])
    #expect(keys.frame(40, [(EV.key, Self.keyUp, 0)]) == [Self.frame(40, [(Self.keyUp, .up)])])
    #expect(keys.assembler.endSync(at: Timestamp(microseconds: 50_000)) == nil)
  }

  @Test("A live resync with nothing changed is no frame; a SYN_DROPPED fed while syncing is ignored")
  func quietResync() {
    let keys = Keys()
    _ = keys.frame(10, [(EV.key, Self.keyF1, 1)])
    keys.assembler.beginSync()
    #expect(keys.feed(20, [(EV.syn, SYN.dropped, 0), (EV.syn, SYN.report, 0)]) == [])
    #expect(keys.assembler.endSync(at: Timestamp(microseconds: 30_000)) == nil)
    #expect(keys.frame(40, [(EV.key, Self.keyF1, 0)]) == [Self.frame(40, [(Self.keyF1, .up)])])
  }
}
