import Testing

@testable import TouchdInput

@Suite struct ProtocolBTests {
  @Test func touchBeginsMovesStaysAndEnds() throws {
    let feed = Feeder(slotDevice())
    // No ABS_MT_SLOT: slot 0 is implied. Tracking ids need not start at 0.
    let f1 = try #require(
      feed.frame([axis(ABS.mtTrackingID, 431), axis(ABS.mtPositionX, 250), axis(ABS.mtPositionY, 250)]))
    #expect(
      f1.contacts == [Contact(id: TouchID(rawValue: 1), phase: .began, x: cell(250, of: 1000), y: cell(250, of: 500))])
    let f2 = try #require(feed.frame([axis(ABS.mtPositionX, 500)]))
    #expect(f2.contacts == [Contact(id: TouchID(rawValue: 1), phase: .moved, x: 0.5, y: 0.5)])
    // A frame with nothing new is not reported.
    #expect(feed.frame([]) == nil)
    #expect(feed.frame([axis(ABS.mtPositionX, 500)]) == nil)
    let f3 = try #require(feed.frame([axis(ABS.mtTrackingID, -1)]))
    #expect(f3.contacts == [Contact(id: TouchID(rawValue: 1), phase: .ended, x: 0.5, y: 0.5)])
    #expect(f3.time == Timestamp(microseconds: 50_000))
  }

  /// Found by the VM's calibration check: after touchd reopened a device, a finger landing where
  /// the slot's last one lifted got position 0, 0, since the kernel does not send unchanged values.
  @Test func slotsSeededAtOpenGiveAFingerThatSendsNoPositionItsPlace() throws {
    let unseeded = Feeder(slotDevice())
    let lost = try #require(unseeded.frame([axis(ABS.mtTrackingID, 7)]))
    #expect(lost.contacts.first.map { ($0.x, $0.y) } ?? (1, 1) == (cell(0, of: 1000), cell(0, of: 500)))
    let feed = Feeder(slotDevice())
    feed.assembler.seedSlots { slot, code in
      switch (slot, code) {
      case (0, ABS.mtPositionX): 500
      case (0, ABS.mtPositionY): 300
      case (1, ABS.mtPositionX): 100
      default: nil
      }
    }
    let frame = try #require(feed.frame([axis(ABS.mtTrackingID, 7)]))
    #expect(
      frame.contacts == [
        Contact(id: TouchID(rawValue: 1), phase: .began, x: cell(500, of: 1000), y: cell(300, of: 500))
      ])
    let second = try #require(feed.frame([axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, 8)]))
    #expect(second.contact(2)?.x == cell(100, of: 1000))
  }

  @Test func everyLiveContactIsListedAndSlotsMayBeRevisited() throws {
    let feed = Feeder(slotDevice())
    _ = feed.frame([
      axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, 5), axis(ABS.mtPositionX, 100),
      axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, 6), axis(ABS.mtPositionX, 900),
    ])
    // Slot 1 moves, slot 0 does not, then slot 1 is revisited after slot 0.
    let frame = try #require(
      feed.frame([
        axis(ABS.mtSlot, 1), axis(ABS.mtPositionX, 800), axis(ABS.mtSlot, 0), axis(ABS.mtSlot, 1),
        axis(ABS.mtPositionY, 100),
      ]))
    #expect(frame.phases == [1: .stationary, 2: .moved])
    #expect(frame.contact(2)?.x == cell(800, of: 1000))
    #expect(frame.contact(2)?.y == cell(100, of: 500))
    #expect(frame.contacts.map(\.id.rawValue) == [1, 2])
  }

  @Test func trackingIDReuseInOneFrameEndsTheOldTouchAndBeginsANewOne() throws {
    let feed = Feeder(slotDevice())
    _ = feed.frame([axis(ABS.mtTrackingID, 16), axis(ABS.mtPositionX, 100), axis(ABS.mtPositionY, 100)])
    let frame = try #require(
      feed.frame([axis(ABS.mtTrackingID, -1), axis(ABS.mtTrackingID, 17), axis(ABS.mtPositionX, 700)]))
    #expect(frame.phases == [1: .ended, 2: .began])
    // The ended touch keeps its last position; the new one has the new X and the slot's old Y.
    #expect(frame.contact(1)?.x == cell(100, of: 1000))
    #expect(frame.contact(2)?.x == cell(700, of: 1000))
    #expect(frame.contact(2)?.y == cell(100, of: 500))
    // A new id without -1 is dropped, as libevdev drops it: the touch goes on (and moves).
    let next = try #require(feed.frame([axis(ABS.mtTrackingID, 18), axis(ABS.mtPositionX, 600)]))
    #expect(next.phases == [2: .moved])
  }

  @Test func touchMajorAndPressureBecomeRadiusAndForce() throws {
    let feed = Feeder(slotDevice(extra: [ABS.mtTouchMajor: 255, ABS.mtPressure: 200]))
    let frame = try #require(
      feed.frame([
        axis(ABS.mtTrackingID, 1), axis(ABS.mtPositionX, 10), axis(ABS.mtTouchMajor, 40),
        axis(ABS.mtPressure, 50),
      ]))
    #expect(frame.contacts[0].majorRadius == 40.0 / 2 / 1001)  // a diameter of 40 units on an axis of 1001
    #expect(frame.contacts[0].force == 0.25)
    let moved = try #require(feed.frame([axis(ABS.mtPressure, 100)]))
    #expect(moved.contacts[0].phase == .moved)
    #expect(moved.contacts[0].force == 0.5)
    // Devices without those axes report nil.
    let plain = Feeder(slotDevice())
    let f = try #require(plain.frame([axis(ABS.mtTrackingID, 1)]))
    #expect(f.contacts[0].majorRadius == nil && f.contacts[0].force == nil)
  }

  @Test func palmCancelsTheTouchUntilItLifts() throws {
    let feed = Feeder(slotDevice(extra: [ABS.mtToolType: 2]))
    _ = feed.frame([
      axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, 1), axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, 2),
    ])
    let cancel = try #require(feed.frame([axis(ABS.mtSlot, 0), axis(ABS.mtToolType, MTTool.palm)]))
    #expect(cancel.phases == [1: .cancelled, 2: .stationary])
    // The palm moving is ignored; it is not listed.
    #expect(feed.frame([axis(ABS.mtPositionX, 300)]) == nil)
    #expect(feed.frame([axis(ABS.mtToolType, MTTool.finger), axis(ABS.mtPositionX, 310)]) == nil)
    // It lifts silently; a new contact in that slot begins a new touch.
    #expect(feed.frame([axis(ABS.mtTrackingID, -1)]) == nil)
    let again = try #require(feed.frame([axis(ABS.mtTrackingID, 3)]))
    #expect(again.phases == [2: .stationary, 3: .began])
    // A contact that is a palm from the start never begins.
    let palm = Feeder(slotDevice(extra: [ABS.mtToolType: 2]))
    #expect(palm.frame([axis(ABS.mtTrackingID, 9), axis(ABS.mtToolType, MTTool.palm)]) == nil)
    #expect(palm.frame([axis(ABS.mtTrackingID, -1)]) == nil)
  }

  @Test func synDroppedCancelsEverythingAndIgnoresThoseFingers() throws {
    let feed = Feeder(slotDevice())
    _ = feed.frame([
      axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, 1), axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, 2),
    ])
    feed.time += 10_000
    _ = feed.assembler.process(feed.ev(EV.abs, ABS.mtPositionX, 10))
    let dropped = try #require(feed.assembler.process(feed.ev(EV.syn, SYN.dropped, 0)))
    #expect(dropped.phases == [1: .cancelled, 2: .cancelled])
    // Events up to the next SYN_REPORT are discarded.
    #expect(feed.assembler.process(feed.ev(EV.abs, ABS.mtTrackingID, 77)) == nil)
    #expect(feed.assembler.process(feed.ev(EV.syn, SYN.report, 0)) == nil)
    // The cancelled fingers stay ignored while they move; the next finger begins a touch.
    #expect(feed.frame([axis(ABS.mtPositionX, 500)]) == nil)
    let fresh = try #require(feed.frame([axis(ABS.mtSlot, 2), axis(ABS.mtTrackingID, 3)]))
    #expect(fresh.phases == [3: .began])
    // Slot 1 lifts (silently) and is reused: a new touch.
    let reused = try #require(
      feed.frame([axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, -1), axis(ABS.mtTrackingID, 4)]))
    #expect(reused.phases == [3: .stationary, 4: .began])
    #expect(feed.assembler.cancelAll(at: Timestamp(microseconds: 1))?.phases == [3: .cancelled, 4: .cancelled])
    #expect(feed.assembler.cancelAll(at: Timestamp(microseconds: 2)) == nil)
  }

  @Test func resyncContinuesCancelsAndBegins() throws {
    let feed = Feeder(slotDevice())
    _ = feed.frame([
      axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, 10), axis(ABS.mtPositionX, 100),
      axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, 11), axis(ABS.mtPositionX, 200),
      axis(ABS.mtSlot, 2), axis(ABS.mtTrackingID, 12), axis(ABS.mtPositionX, 300),
    ])
    feed.assembler.beginSync()
    // libevdev's sync: slot 0 moved, slot 1 ended and got a new contact, slot 2 is gone, slot 3 is new.
    let sync: [(UInt16, UInt16, Int32)] = [
      axis(ABS.mtSlot, 0), axis(ABS.mtPositionX, 150),
      axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, -1),
      axis(ABS.mtSlot, 2), axis(ABS.mtTrackingID, -1),
      axis(ABS.mtSlot, 1), axis(ABS.mtTrackingID, 20),
      axis(ABS.mtSlot, 3), axis(ABS.mtTrackingID, 21),
      (EV.syn, SYN.report, 0),
    ]
    for (type, code, value) in sync { #expect(feed.assembler.process(feed.ev(type, code, value)) == nil) }
    let frame = try #require(feed.assembler.endSync(at: Timestamp(microseconds: 99)))
    #expect(frame.phases == [1: .moved, 2: .cancelled, 3: .cancelled, 4: .began, 5: .began])
    #expect(frame.time == Timestamp(microseconds: 99))
    let after = try #require(feed.frame([axis(ABS.mtSlot, 0), axis(ABS.mtTrackingID, -1)]))
    #expect(after.phases == [1: .ended, 4: .stationary, 5: .stationary])
  }

  @Test func resyncWithoutChangesReportsNothing() {
    let feed = Feeder(slotDevice())
    _ = feed.frame([axis(ABS.mtTrackingID, 1)])
    feed.assembler.beginSync()
    #expect(feed.assembler.process(feed.ev(EV.syn, SYN.report, 0)) == nil)
    #expect(feed.assembler.endSync(at: Timestamp(microseconds: 5)) == nil)
  }

  @Test func mtOnlyDeviceWithoutABSXOrBTNTouch() throws {
    let device = makeDevice(abs: [ABS.mtSlot: 9, ABS.mtPositionX: 1535, ABS.mtPositionY: 2559, ABS.mtTrackingID: 65535])
    #expect(device.touchscreenKind() == .multitouchB(slots: 10))
    let feed = Feeder(device)
    let frame = try #require(feed.frame([axis(ABS.mtTrackingID, 5), axis(ABS.mtPositionX, 1535)]))
    #expect(
      frame.contacts == [
        Contact(id: TouchID(rawValue: 1), phase: .began, x: cell(1535, of: 1535), y: cell(0, of: 2559))
      ])
  }

  @Test func identitiesAreSharedAcrossDevices() throws {
    let ids = TouchIDAllocator(first: 100)
    let a = Feeder(slotDevice(), ids: ids)
    let b = Feeder(slotDevice(), ids: ids)
    #expect(try #require(a.frame([axis(ABS.mtTrackingID, 1)])).contacts[0].id.rawValue == 100)
    #expect(try #require(b.frame([axis(ABS.mtTrackingID, 1)])).contacts[0].id.rawValue == 101)
  }
}

@Suite struct ProtocolATests {
  let device = makeDevice(
    abs: [ABS.x: 1000, ABS.y: 1000, ABS.mtPositionX: 1000, ABS.mtPositionY: 1000], keys: [BTN.touch])

  func contact(_ x: Int32, _ y: Int32) -> [(UInt16, UInt16, Int32)] {
    [axis(ABS.mtPositionX, x), axis(ABS.mtPositionY, y), mtReport]
  }

  @Test func contactsAreMatchedByNearestDistance() throws {
    #expect(device.touchscreenKind() == .multitouchA)
    let feed = Feeder(device)
    let f1 = try #require(feed.frame(contact(100, 100) + contact(900, 900)))
    #expect(f1.phases == [1: .began, 2: .began])
    #expect(f1.contact(1)?.x == cell(100, of: 1000))
    // Reported in the other order: still matched to the nearest previous contact.
    let f2 = try #require(feed.frame(contact(880, 890) + contact(120, 100)))
    #expect(f2.phases == [1: .moved, 2: .moved])
    #expect(f2.contact(1)?.x == cell(120, of: 1000))
    #expect(f2.contact(2)?.x == cell(880, of: 1000))
    // One lifts: the far one ends, the other stays.
    let f3 = try #require(feed.frame(contact(130, 100)))
    #expect(f3.phases == [1: .moved, 2: .ended])
    #expect(feed.frame(contact(130, 100)) == nil)
    // An empty frame (only SYN_MT_REPORT) lifts everything.
    let f4 = try #require(feed.frame([mtReport]))
    #expect(f4.phases == [1: .ended])
    // BTN_TOUCH 0 lifts everything too, and a frame with nothing at all does.
    _ = feed.frame(contact(500, 500))
    #expect(try #require(feed.frame(contact(500, 500) + [key(BTN.touch, 0)])).phases == [3: .ended])
    _ = feed.frame(contact(500, 500))
    #expect(try #require(feed.frame([])).phases == [4: .ended])
  }

  @Test func trackingIDsAreUsedWhenPresent() throws {
    let withIDs = makeDevice(
      abs: [ABS.mtPositionX: 1000, ABS.mtPositionY: 1000, ABS.mtTrackingID: 100], keys: [BTN.touch])
    let feed = Feeder(withIDs)
    _ = feed.frame([axis(ABS.mtTrackingID, 7)] + contact(100, 100) + [axis(ABS.mtTrackingID, 8)] + contact(200, 100))
    // The contacts swap places: ids, not distance, decide.
    let frame = try #require(
      feed.frame([axis(ABS.mtTrackingID, 7)] + contact(200, 100) + [axis(ABS.mtTrackingID, 8)] + contact(100, 100)))
    #expect(frame.contact(1)?.x == cell(200, of: 1000))
    #expect(frame.contact(2)?.x == cell(100, of: 1000))
  }

  @Test func palmAndDropIgnoreTheContactUntilItDisappears() throws {
    var withToolType = device
    withToolType.events[EV.abs]?.insert(ABS.mtToolType)
    withToolType.absInfo[ABS.mtToolType] = AbsInfo(minimum: 0, maximum: 2)
    let feed = Feeder(withToolType)
    _ = feed.frame(contact(100, 100) + contact(900, 900))
    let palm = try #require(
      feed.frame(contact(100, 100) + [axis(ABS.mtToolType, MTTool.palm)] + contact(900, 900)))
    #expect(palm.phases == [1: .stationary, 2: .cancelled])
    #expect(feed.frame(contact(100, 100) + contact(910, 900)) == nil)
    let dropped = try #require(feed.assembler.process(feed.ev(EV.syn, SYN.dropped, 0)))
    #expect(dropped.phases == [1: .cancelled])
    #expect(feed.assembler.process(feed.ev(EV.syn, SYN.report, 0)) == nil)
    #expect(feed.frame(contact(100, 100) + contact(910, 900)) == nil)
    let fresh = try #require(feed.frame(contact(100, 100) + contact(910, 900) + contact(500, 500)))
    #expect(fresh.phases == [3: .began])
  }
}

@Suite struct SingleTouchTests {
  let device = makeDevice(abs: [ABS.x: 100, ABS.y: 200, ABS.pressure: 10], keys: [BTN.touch])

  @Test func aDownFrameMayCarryOnlyOneAxis() throws {
    #expect(device.touchscreenKind() == .singleTouch)
    let feed = Feeder(device)
    let f1 = try #require(feed.frame([axis(ABS.x, 50), axis(ABS.y, 100), key(BTN.touch, 1)]))
    #expect(f1.contacts == [Contact(id: TouchID(rawValue: 1), phase: .began, x: 0.5, y: 0.5, force: 0)])
    #expect(try #require(feed.frame([key(BTN.touch, 0)])).phases == [1: .ended])
    // Only X changes in this down frame: Y keeps its last value.
    let f2 = try #require(feed.frame([axis(ABS.x, 25), key(BTN.touch, 1)]))
    #expect(f2.contacts[0].x == cell(25, of: 100) && f2.contacts[0].y == 0.5)
    let f3 = try #require(feed.frame([axis(ABS.pressure, 5)]))
    #expect(f3.contacts[0].phase == .moved && f3.contacts[0].force == 0.5)
    #expect(feed.assembler.cancelAll(at: Timestamp(microseconds: 0))?.phases == [2: .cancelled])
    // Cancelled: ignored until BTN_TOUCH 0.
    #expect(feed.frame([axis(ABS.x, 30)]) == nil)
    #expect(feed.frame([key(BTN.touch, 0)]) == nil)
    #expect(try #require(feed.frame([key(BTN.touch, 1)])).phases == [3: .began])
  }

  @Test func resyncCancelsAVanishedTouch() throws {
    let feed = Feeder(device)
    _ = feed.frame([key(BTN.touch, 1)])
    feed.assembler.beginSync()
    _ = feed.assembler.process(feed.ev(EV.key, BTN.touch, 0))
    _ = feed.assembler.process(feed.ev(EV.syn, SYN.report, 0))
    #expect(feed.assembler.endSync(at: Timestamp(microseconds: 1))?.phases == [1: .cancelled])
  }
}
