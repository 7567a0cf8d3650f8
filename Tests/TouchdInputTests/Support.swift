import Foundation
import Testing
import TouchdTestKit

@testable import TouchdInput

/// The recordings shipped with the tests.
let fixturesDirectory = TestPaths.carriedRecordings

func fixture(_ name: String) -> String { fixturesDirectory + "/" + name }

/// A synthetic device with the given axes (min 0, max as given) and keys.
func makeDevice(
  abs: [UInt16: Int32], keys: [UInt16] = [], properties: Set<UInt16> = [InputProp.direct]
) -> DeviceDescription {
  var events: [UInt16: Set<UInt16>] = [EV.syn: [SYN.report, SYN.dropped], EV.abs: Set(abs.keys)]
  if !keys.isEmpty { events[EV.key] = Set(keys) }
  return DeviceDescription(
    name: "test", id: InputID(bustype: 3, vendor: 1, product: 2, version: 0), properties: properties,
    events: events, absInfo: abs.mapValues { AbsInfo(minimum: 0, maximum: $0) })
}

/// A protocol B touchscreen: 1000×500 units, `slots` slots, optional extra axes.
func slotDevice(slots: Int32 = 10, extra: [UInt16: Int32] = [:]) -> DeviceDescription {
  var axes: [UInt16: Int32] = [
    ABS.x: 1000, ABS.y: 500, ABS.mtSlot: slots - 1, ABS.mtPositionX: 1000, ABS.mtPositionY: 500,
    ABS.mtTrackingID: 65535,
  ]
  axes.merge(extra) { $1 }
  return makeDevice(abs: axes, keys: [BTN.touch])
}

/// Feeds events one frame at a time.
final class Feeder {
  let assembler: FrameAssembler
  var time: Int64 = 0

  init(_ device: DeviceDescription, ids: TouchIDAllocator = TouchIDAllocator()) {
    assembler = FrameAssembler(device: device, ids: ids)
  }

  /// Feeds `events` (type, code, value) then a SYN_REPORT 10 ms later than the previous frame.
  func frame(_ events: [(UInt16, UInt16, Int32)]) -> TouchFrame? {
    time += 10_000
    for (type, code, value) in events {
      #expect(assembler.process(ev(type, code, value)) == nil)
    }
    return assembler.process(ev(EV.syn, SYN.report, 0))
  }

  func ev(_ type: UInt16, _ code: UInt16, _ value: Int32) -> InputEvent {
    InputEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value)
  }
}

func axis(_ code: UInt16, _ value: Int32) -> (UInt16, UInt16, Int32) { (EV.abs, code, value) }
func key(_ code: UInt16, _ value: Int32) -> (UInt16, UInt16, Int32) { (EV.key, code, value) }
let mtReport: (UInt16, UInt16, Int32) = (EV.syn, SYN.mtReport, 0)

extension TouchFrame {
  /// `[id: phase]` for quick assertions.
  var phases: [UInt64: TouchPhase] {
    Dictionary(uniqueKeysWithValues: contacts.map { ($0.id.rawValue, $0.phase) })
  }

  func contact(_ id: UInt64) -> Contact? { contacts.first { $0.id.rawValue == id } }
}

/// Checks the frame-stream invariants; returns the distinct touch ids.
@discardableResult
func checkInvariants(_ frames: [TouchFrame], _ name: String) -> Set<UInt64> {
  var live = Set<UInt64>()
  var finished = Set<UInt64>()
  var all = Set<UInt64>()
  for frame in frames {
    let ids = frame.contacts.map(\.id.rawValue)
    #expect(Set(ids).count == ids.count, "\(name): duplicate id in a frame at \(frame.time)")
    #expect(frame.contacts.contains { $0.phase != .stationary }, "\(name): frame without change")
    for contact in frame.contacts {
      let id = contact.id.rawValue
      all.insert(id)
      #expect(!finished.contains(id), "\(name): touch \(id) appears after its end at \(frame.time)")
      #expect((0...1).contains(contact.x) && (0...1).contains(contact.y), "\(name): position out of range")
      switch contact.phase {
      case .began:
        #expect(!live.contains(id), "\(name): touch \(id) began twice")
        live.insert(id)
      case .moved, .stationary:
        #expect(live.contains(id), "\(name): touch \(id) \(contact.phase) before it began")
      case .ended, .cancelled:
        #expect(live.contains(id), "\(name): touch \(id) ended before it began")
        live.remove(id)
        finished.insert(id)
      }
    }
    let listed = Set(frame.contacts.filter { !$0.phase.isTerminal && $0.phase != .began }.map(\.id.rawValue))
    let expectedLive = live.subtracting(frame.contacts.filter { $0.phase == .began }.map(\.id.rawValue))
    #expect(listed == expectedLive, "\(name): a live touch is missing from the frame at \(frame.time)")
  }
  #expect(live.isEmpty, "\(name): touches \(live.sorted()) never ended")
  return all
}

/// Where device unit `value` of an axis from 0 to `maximum` lands, as a fraction of the axis: the
/// centre of its cell, `(value + 1/2) / (maximum + 1)` (``AbsInfo/fraction(of:)``, computed here
/// with the same operations so a test can compare for equality).
func cell(_ value: Double, of maximum: Double) -> Double { (value + 0.5) / (maximum + 1) }
