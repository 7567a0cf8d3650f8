import Foundation
import Testing

@testable import TouchdInput

/// Recordings of several devices: `libinput record`'s multi-device form, its writer, and the
/// replay that merges devices by time.
@Suite("Recordings of several devices")
struct MultiDeviceRecordingTests {
  let file = fixture("touchscreen-and-keypad.libinput.yml")
  static let keyEnter: UInt16 = 28  // <linux/input-event-codes.h>

  @Test("Every device of a libinput record file is read, each source naming the file and its entry's line")
  func readsEveryDevice() throws {
    let recordings = try RecordingReader.loadAll(path: file)
    #expect(recordings.map(\.description.name) == ["Atmel maXTouch Touchscreen", "Kiosk Keypad", "Power Button"])
    #expect(recordings.map(\.source) == ["\(file):15", "\(file):53", "\(file):73"])
    #expect(recordings.map(\.events.count) == [10, 6, 0])
    let keypad = recordings[1]
    #expect(keypad.description.id == InputID(bustype: 3, vendor: 0x1234, product: 0x5678, version: 1))
    #expect(keypad.description.events[EV.key] == [1, 28, 59, 103, 105, 106, 108])
    // libinput record lists every EV_SYN code; the description keeps the type bitmap.
    #expect(keypad.description.events[EV.syn] == [EV.syn, EV.key, EV.msc, 0x14])
    #expect(
      keypad.events.first
        == InputEvent(time: Timestamp(microseconds: 150_000), type: EV.msc, code: 4, value: 458_792))
    // The one-device API reads the first device, its source the bare path.
    let first = try RecordingReader.load(path: file)
    #expect(first.description == recordings[0].description)
    #expect(first.events == recordings[0].events)
    #expect(first.source == file)
  }

  @Test("An evemu file is one recording; a description goes with a one-device file only")
  func evemuAndDescriptions() throws {
    let evemu = fixture("atmel-maxtouch-i2c-800x480-2finger-touch-release.evemu")
    #expect(try RecordingReader.loadAll(path: evemu) == [try RecordingReader.load(path: evemu)])
    let events = fixture("ntrig-multitouch-protocolA-2finger-touch-release.events")
    let desc = fixture("ntrig-multitouch-protocolA.desc")
    #expect(
      try RecordingReader.loadAll(path: events, descriptionPath: desc)
        == [try RecordingReader.load(path: events, descriptionPath: desc)])
    #expect(throws: RecordingError.self) { try RecordingReader.loadAll(path: file, descriptionPath: desc) }
    do {
      _ = try RecordingReader.loadAll(path: file, descriptionPath: desc)
    } catch {
      #expect(error.description == "\(desc):0: a description replaces one device's, but \(file) holds 3 devices")
    }
    let both = try RecordingReader.loadAll(paths: [evemu, file])
    #expect(both.count == 4)
    #expect(both[0].source == evemu)
  }

  @Test("A device's events: may be empty or absent")
  func emptyEvents() throws {
    let text = """
      version: 1
      ndevices: 2
      devices:
      - node: /dev/input/event1
        evdev:
          name: "a"
          id: [3, 1, 2, 0]
        events:
      - node: /dev/input/event2
        evdev:
          name: "b"
          id: [3, 1, 3, 0]
      """
    let recordings = try LibinputRecordParser.parseAll(Array(text.utf8), source: "r.yml")
    #expect(recordings.map(\.events) == [[], []])
    #expect(recordings.map(\.source) == ["r.yml:4", "r.yml:9"])
  }

  @Test("The writer writes libinput record's multi-device form, which reads back to the same recordings")
  func writerRoundTrip() throws {
    let recordings = try RecordingReader.loadAll(path: file)
    let nodes = ["/dev/input/event5", "/dev/input/event7", "/dev/input/event2"]
    let text = LibinputRecordWriter.write(Array(zip(recordings, nodes)), kernel: "6.1.0")
    let again = try LibinputRecordParser.parseAll(Array(text.utf8), source: "w.yml")
    #expect(again.map(\.description) == recordings.map(\.description))
    #expect(again.map(\.events) == recordings.map(\.events))
    #expect(text.hasPrefix("# libinput record format"))
    #expect(
      text.contains("version: 1\nndevices: 3\nsystem:\n  kernel: \"6.1.0\"\ndevices:\n- node: /dev/input/event5\n"))
    #expect(text.contains("      0: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] # EV_SYN\n"))
    #expect(text.contains("    name: \"Kiosk Keypad\"\n    id: [3, 4660, 22136, 1]\n"))
    #expect(text.contains("      1: [1, 28, 59, 103, 105, 106, 108] # EV_KEY\n"))
    // One `- evdev:` list per frame, as libinput writes them.
    let keypadEvents = """
        events:
        - evdev:
          - [  0, 150000,   4,   4, 458792] # EV_MSC / MSC_SCAN             458792
          - [  0, 150000,   1,  28,     1] # EV_KEY / \(EventNames.code(type: EV.key, code: 28) ?? "(null)")
      """
    #expect(text.contains(keypadEvents), "\(text)")
    #expect(
      text.contains("    - [  0, 150000,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms\n  - evdev:\n"))
    #expect(LibinputRecordWriter.quoted("a \"b\"\\c\u{1}") == #""a \"b\"\\c\x01""#)
  }

  @Test("A recording written as it happens: the first device streamed, the others appended at the end")
  func stream() throws {
    let recordings = try RecordingReader.loadAll(path: file)
    let zero = Timestamp(microseconds: 10_000)
    var stream = LibinputRecordWriter.Stream(
      devices: [(recordings[0].description, "/dev/input/event5"), (recordings[1].description, "/dev/input/event7")],
      zero: zero)
    var text = stream.start()
    #expect(text.hasSuffix("    properties: [1]\n  events:\n"))
    let touch = recordings[0].events
    let keys = recordings[1].events
    #expect(stream.record(Array(keys[..<3]), device: 1) == "")
    text += stream.record(Array(touch[..<7]), device: 0)
    #expect(stream.record(Array(keys[3...]), device: 1) == "")
    text += stream.record(Array(touch[7...]), device: 0)
    text += stream.finish()
    let again = try LibinputRecordParser.parseAll(Array(text.utf8), source: "s.yml")
    func shifted(_ events: [InputEvent]) -> [InputEvent] {
      events.map {
        InputEvent(
          time: Timestamp(microseconds: $0.time.microseconds - 10_000), type: $0.type, code: $0.code, value: $0.value)
      }
    }
    #expect(again.map(\.events) == [shifted(touch), shifted(keys)])
    #expect(again.map(\.description.name) == ["Atmel maXTouch Touchscreen", "Kiosk Keypad"])
    #expect(stream.finish().contains("Kiosk Keypad"))
  }

  @Test("A replay of several devices merges them by time; equal times keep the order of the recordings")
  func mergedReplay() throws {
    let recordings = try RecordingReader.loadAll(path: file)
    let replay = MultiReplay(recordings, readings: recordings.map(MultiReplay.Reading.unscened))
    #expect(replay.readings.map(\.touches) == [true, false, false])
    #expect(replay.readings.map(\.keys) == [false, true, true])
    #expect(replay.startTime == Timestamp(microseconds: 50_000))
    #expect(replay.endTime == Timestamp(microseconds: 300_000))
    var frames: [(Int, DeviceFrame)] = []
    replay.feed { frames.append(($0, $1)) }
    #expect(replay.nextTime == nil)
    #expect(frames.map(\.0) == [0, 0, 1, 1])
    #expect(frames.map(\.1.time.microseconds) == [50_000, 150_000, 150_000, 300_000])
    guard case .touches(let lift) = frames[1].1, case .keys(let enter) = frames[2].1 else {
      Issue.record("unexpected frames \(frames)")
      return
    }
    #expect(lift.contacts.map(\.phase) == [.ended])
    #expect(enter.changes == [KeyChange(code: Self.keyEnter, phase: .down)])
    // The keypad first: its ENTER now comes before the finger lifts.
    let swapped = MultiReplay(
      [recordings[1], recordings[0]], readings: [.init(touches: false, keys: true), .init(touches: true, keys: false)])
    var order: [Int] = []
    swapped.feed { index, _ in order.append(index) }
    #expect(order == [1, 0, 1, 0])
  }

  @Test("feed(until:) stops at a time; cancelAll ends touches then keys, recording by recording")
  func partialFeedAndCancel() throws {
    let recordings = try RecordingReader.loadAll(path: file)
    let replay = MultiReplay(
      recordings,
      readings: [
        .init(touches: true, keys: false), .init(touches: false, keys: true), .init(touches: false, keys: true),
      ])
    var frames: [(Int, DeviceFrame)] = []
    replay.feed(until: Timestamp(microseconds: 100_000)) { frames.append(($0, $1)) }
    #expect(frames.count == 1)
    #expect(replay.nextTime == Timestamp(microseconds: 150_000))
    replay.feed(until: Timestamp(microseconds: 150_000)) { frames.append(($0, $1)) }
    #expect(frames.count == 3)
    var cancelled: [(Int, DeviceFrame)] = []
    replay.cancelAll(at: Timestamp(microseconds: 200_000)) { cancelled.append(($0, $1)) }
    #expect(cancelled.map(\.0) == [1])
    #expect(
      cancelled.first?.1
        == .keys(
          KeyFrame(time: Timestamp(microseconds: 200_000), changes: [KeyChange(code: Self.keyEnter, phase: .cancelled)])
        ))
    // A second pass, shifted: fresh assemblers, every time later by the shift.
    replay.restart(shiftingBy: 1_000_000)
    #expect(replay.startTime == Timestamp(microseconds: 1_050_000))
    var second: [Timestamp] = []
    replay.feed { second.append($1.time) }
    #expect(second.map(\.microseconds) == [1_050_000, 1_150_000, 1_150_000, 1_300_000])
  }

  @Test("cancelKeys ends the keys down and leaves the touches; their later releases are dropped")
  func cancelKeys() throws {
    let recordings = try RecordingReader.loadAll(path: file)
    let replay = MultiReplay(recordings, readings: recordings.map(MultiReplay.Reading.unscened))
    replay.feed(until: Timestamp(microseconds: 150_000)) { _, _ in }
    var frames: [(Int, DeviceFrame)] = []
    replay.cancelKeys(at: Timestamp(microseconds: 200_000)) { frames.append(($0, $1)) }
    #expect(frames.map(\.0) == [1])
    #expect(
      frames.first?.1
        == .keys(
          KeyFrame(
            time: Timestamp(microseconds: 200_000), changes: [KeyChange(code: Self.keyEnter, phase: .cancelled)])))
    frames.removeAll()
    replay.feed { frames.append(($0, $1)) }
    #expect(frames.isEmpty)
  }

  @Test("Changing what is read gives that recording fresh assemblers")
  func setReadings() throws {
    let recordings = try RecordingReader.loadAll(path: file)
    let replay = MultiReplay(recordings, readings: recordings.map { _ in .init(touches: false, keys: false) })
    var frames: [(Int, DeviceFrame)] = []
    replay.feed(until: Timestamp(microseconds: 150_000)) { frames.append(($0, $1)) }
    #expect(frames.isEmpty)
    replay.setReadings([
      .init(touches: true, keys: false), .init(touches: false, keys: true), .init(touches: false, keys: false),
    ])
    replay.feed { frames.append(($0, $1)) }
    // The keypad's ENTER was down before its keys were read: its release is dropped.
    #expect(frames.isEmpty)
  }

  @Test("Key frames print as JSON lines, with the device's index when given")
  func keyFrameJSON() {
    let frame = KeyFrame(
      time: Timestamp(microseconds: 100_000),
      changes: [KeyChange(code: Self.keyEnter, phase: .down), KeyChange(code: 0x2ff, phase: .cancelled)])
    let name = EventNames.code(type: EV.key, code: Self.keyEnter).map { #""name":"\#($0)","# } ?? ""
    let last = EventNames.code(type: EV.key, code: 0x2ff).map { #""name":"\#($0)","# } ?? ""
    #expect(
      FrameJSON.line(frame)
        == #"{"time":0.100000,"keys":[{"code":28,\#(name)"phase":"down"},{"code":767,\#(last)"phase":"cancelled"}]}"#)
    #expect(FrameJSON.line(frame, device: 1).hasPrefix(#"{"time":0.100000,"device":1,"keys":[{"code":28,"#))
    let touches = TouchFrame(
      time: Timestamp(microseconds: 50_000),
      contacts: [Contact(id: TouchID(rawValue: 3), phase: .began, x: 0.5, y: 0.25)])
    #expect(FrameJSON.line(touches, device: nil) == FrameJSON.line(touches))
    #expect(
      FrameJSON.line(touches, device: 0)
        == #"{"time":0.050000,"device":0,"touches":[{"id":3,"phase":"began","x":0.5000,"y":0.2500}]}"#)
  }
}
