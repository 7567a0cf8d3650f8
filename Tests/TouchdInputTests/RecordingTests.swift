import Foundation
import Testing
import TouchdTestKit

@testable import TouchdInput

@Suite struct EvemuParserTests {
  let header = """
    # EVEMU 1.1
    N: touch
    I: 0003 0eef 72a1 0210
    P: 00 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 03 03 00 00 00 00 80 60 02
    A: 00 0 32760 31 0
    A: 01 0 32760 31 0
    A: 2f 0 1 0 0
    A: 35 0 32760 31 0
    A: 36 0 32760 31 0
    A: 39 0 65535 0 0

    """

  func parse(_ text: String, description: DeviceDescription? = nil) throws(RecordingError) -> Recording {
    try EvemuParser.parse(Array(text.utf8), source: "t.evemu", description: description)
  }

  @Test func descriptionLines() throws {
    let recording = try parse(header)
    let d = recording.description
    #expect(d.name == "touch")
    #expect(d.id == InputID(bustype: 3, vendor: 0xeef, product: 0x72a1, version: 0x210))
    #expect(d.properties.isEmpty)
    #expect(d.events[EV.syn] == [SYN.report, SYN.config, SYN.dropped])
    #expect(d.events[EV.abs] == [ABS.x, ABS.y, ABS.mtSlot, ABS.mtPositionX, ABS.mtPositionY, ABS.mtTrackingID])
    #expect(d.absInfo[ABS.x] == AbsInfo(minimum: 0, maximum: 32760, fuzz: 31))
    #expect(d.touchProtocol == .slots(2))
    // No BTN_TOUCH and no INPUT_PROP_DIRECT: udev's rule (and so touchd) does not call it a touchscreen.
    #expect(
      d.touchscreenKind().reason?.hasSuffix(
        "without BTN_TOUCH or INPUT_PROP_DIRECT (an absolute pointer, not a touch device)") == true)
    #expect(recording.events.isEmpty)
  }

  @Test func eventLineStyles() throws {
    let text =
      header + """
        E: 0.000001 0003 0039 0000\t# EV_ABS / ABS_MT_TRACKING_ID   0
        E: 0.000001 0003 0035 -001\t# EV_ABS / ABS_MT_POSITION_X  -1
        E: 1357143775.480341 0003 0039 -1
        E: 75.280046 0001 014a 1   # trailing comment
        # a comment between events
        E: 75.280046 0000 0000 0
        """
    let events = try parse(text).events
    #expect(
      events == [
        InputEvent(time: Timestamp(microseconds: 1), type: 3, code: 0x39, value: 0),
        InputEvent(time: Timestamp(microseconds: 1), type: 3, code: 0x35, value: -1),
        InputEvent(time: Timestamp(seconds: 1_357_143_775, microseconds: 480_341), type: 3, code: 0x39, value: -1),
        InputEvent(time: Timestamp(seconds: 75, microseconds: 280_046), type: 1, code: 0x14a, value: 1),
        InputEvent(time: Timestamp(seconds: 75, microseconds: 280_046), type: 0, code: 0, value: 0),
      ])
  }

  @Test func errorsNameFileAndLine() {
    func error(_ text: String) -> String? {
      do {
        _ = try parse(text)
        return nil
      } catch { return error.description }
    }
    #expect(error(header + "E: 0.000001 0003 zz 1\n") == "t.evemu:13: E: expects a hex event code after the type")
    #expect(error(header + "E: 0.1 0003\n") == "t.evemu:13: E: expects a hex event code after the type")
    #expect(error(header + "E: x 0003 0000 1\n") == "t.evemu:13: E: expects \"sec.usec type code value\"; bad seconds")
    #expect(error(header + "E: 1.000000 3 0 99999999999\n") == "t.evemu:13: E: expects a decimal value after the code")
    #expect(error(header + "E: 1.000000 3 0 1 junk\n") == "t.evemu:13: unexpected text after the E: fields: \"junk\"")
    #expect(error(header + "X: 1\n") == "t.evemu:13: unknown line type \"X:\"")
    #expect(error(header + "hello\n") == "t.evemu:13: unexpected line: \"hello\"")
    #expect(error("# EVEMU 2.0\n") == "t.evemu:1: unsupported evemu file format 2.0 (1.x is read)")
    #expect(
      error(header.replacingOccurrences(of: "A: 2f 0 1 0 0", with: "A: 2f 0 1"))
        == "t.evemu:9: A: expects 4 or 5 numbers after the code (min max fuzz flat [resolution]), found 2")
    #expect(error("E: 0.000001 0000 0000 0\nN: late\n") == "t.evemu:2: device description line after the first E: line")
    #expect(error("N: a\nP: 00\n") == "t.evemu:2: P: expects 8 hex bytes")
    #expect(error("N: only a name\n") == "t.evemu:1: device description without an I: (id) line")
    #expect(
      error("E: 0.000001 0000 0000 0\n")
        == "t.evemu:1: no device description (N:/I:/B:/A: lines); give the matching .desc file")
  }

  @Test func splitFormatNeedsItsDescription() throws {
    let events = fixture("wacom-isdv4-e6-finger-2finger-tap.events")
    #expect(throws: RecordingError.self) { try RecordingReader.load(path: events) }
    do {
      _ = try RecordingReader.load(path: events)
    } catch {
      #expect(error.file == events && error.line == 1)
      #expect(error.description.hasPrefix(events + ":1: no device description"))
    }
    let recording = try RecordingReader.load(path: events, descriptionPath: fixture("wacom-isdv4-e6-finger.desc"))
    #expect(recording.description.name == "Wacom ISDv4 E6 Finger")
    #expect(recording.events.count == 17)
    #expect(throws: RecordingError.self) { try RecordingReader.load(path: fixture("missing.evemu")) }
  }

  /// Event lines after the first take a fast path; the first goes through the full parser. Both
  /// must agree on every line: the same event, or the same error.
  @Test func fastAndFullEventParsingAgree() throws {
    let bytes = try RecordingReader.readFile(fixture("atmel-maxtouch-i2c-800x480-2finger-touch-release.evemu"))
    var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("E:") }.map(
      String.init)
    lines += [
      "E: 1.000000 0003 0035 00000000001", "E: 1.5 3 35 +12", "E:\t2.000001\t0003\t0035\t-2147483648",
      "E: 2.000001 0003 0035 2147483648", "E: 2.000001 0003 0035 -2147483649", "E: 1.000000 0003 0035 7#c",
      "E: 1.000000 00003 0035 7", "E: 1.0000000 0003 0035 7", "E: 1234567890123456789.000000 0003 0035 7",
      "E: 1.000000 0003 0035", "E: 1.000000 0003 0035 7 8", "E: 1.000000 000G 0035 7", "E: 1.000000 0003 0035 7x",
      "E: 1.000000abcd 0035 7", "E: .000001 0003 0035 7", "E: 1. 0003 0035 7", "E: 1.000001 0003 0035 -",
      "E: 1.000001 0003 0035 --1", "E:", "E: ", "E: 1.000001 0003 0035 12345678901", "E: 1.000001 FfFf aBcD 1",
    ]
    var rng = SplitMix(seed: 7)
    let alphabet = Array("0123456789abcdefABCDEFG-+.# \t".utf8)
    for line in lines.prefix(40) {
      for _ in 0..<10 {
        var mutated = Array(line.utf8)
        let position = 2 + Int(rng.next() % UInt64(max(1, mutated.count - 2)))
        if position < mutated.count { mutated[position] = alphabet[Int(rng.next() % UInt64(alphabet.count))] }
        lines.append(String(decoding: mutated, as: UTF8.self))
      }
    }
    let first = "E: 0.000000 0000 0000 0\n"
    var fastPathLines = 0
    for line in lines {
      let full = Result { () throws(RecordingError) in try parse(header + line + "\n").events }
      let fast = Result { () throws(RecordingError) in try parse(header + first + line + "\n").events }
      switch (full, fast) {
      case (.success(let a), .success(let b)):
        #expect(b.count == 2 && a == [b[1]], "\(line)")
        fastPathLines += 1
      case (.failure(let a), .failure(let b)):
        #expect(a.message == b.message && b.line == a.line + 1, "\(line)")
      default:
        Issue.record("the paths disagree on \(line.debugDescription): \(full) vs \(fast)")
      }
    }
    #expect(fastPathLines > 100)
  }

  @Test func mutatedInputNeverCrashes() throws {
    let bytes = try RecordingReader.readFile(fixture("atmel-maxtouch-i2c-800x480-2finger-touch-release.evemu"))
    var rng = SplitMix(seed: 42)
    let alphabet = Array("0123456789abcdefxyz-+.:# \t\nEABNIP".utf8)
    var failures = 0
    for _ in 0..<300 {
      var mutated = bytes
      for _ in 0..<(1 + Int(rng.next() % 8)) {
        let position = Int(rng.next() % UInt64(mutated.count))
        switch rng.next() % 3 {
        case 0: mutated[position] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
        case 1: mutated.remove(at: position)
        default: mutated.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: position)
        }
      }
      do {
        let recording = try RecordingReader.parse(mutated, source: "m.evemu")
        _ = Replay.frames(of: recording)
      } catch {
        failures += 1
        #expect(error.file == "m.evemu" && error.line >= 1 && !error.message.isEmpty)
      }
    }
    #expect(failures > 0)
    // Truncations at every 97th byte parse or fail cleanly too.
    for cut in stride(from: 0, to: bytes.count, by: 97) {
      _ = try? RecordingReader.parse(Array(bytes[..<cut]), source: "cut.evemu")
    }
  }
}

/// A small deterministic random generator for the fuzz test.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite struct LibinputRecordTests {
  let yaml = fixture("atmel-maxtouch-i2c-800x480-2finger-touch-release.libinput.yml")
  let evemu = fixture("atmel-maxtouch-i2c-800x480-2finger-touch-release.evemu")

  @Test func formatIsDetectedByContent() throws {
    #expect(RecordingFormat.detect(try RecordingReader.readFile(yaml)) == .libinputRecord)
    #expect(RecordingFormat.detect(try RecordingReader.readFile(evemu)) == .evemu)
    #expect(RecordingFormat.detect(Array("# comment\n\nversion: 1\n".utf8)) == .libinputRecord)
    #expect(RecordingFormat.detect(Array("E: 0.000001 0000 0000 0\n".utf8)) == .evemu)
  }

  @Test func sameFramesAsTheEvemuOriginal() throws {
    let fromYAML = try RecordingReader.load(path: yaml)
    let fromEvemu = try RecordingReader.load(path: evemu)
    #expect(fromYAML.events == fromEvemu.events)
    #expect(fromYAML.description.properties == [InputProp.direct])
    #expect(fromYAML.description.absInfo == fromEvemu.description.absInfo)
    #expect(fromYAML.description.name == "Atmel maXTouch Touchscreen")
    let frames = Replay.frames(of: fromYAML)
    #expect(frames.count > 2)
    #expect(frames == Replay.frames(of: fromEvemu))
  }

  @Test func errorsCarryLines() {
    func error(_ text: String) -> RecordingError? {
      do {
        _ = try RecordingReader.parse(Array(text.utf8), source: "r.yml")
        return nil
      } catch { return error }
    }
    let device = """
      version: 1
      devices:
      - node: /dev/input/event0
        evdev:
          name: "x"
          id: [3, 1, 2, 0]
          codes:
            3: [0, 1]
          absinfo:
            0: [0, 100, 0, 0, 0]
            1: [0, 100, 0, 0]
      """
    #expect(error(device)?.description == "r.yml:11: absinfo must have 5 integers, found 4")
    #expect(error("version: 1\ndevices: []\n")?.description == "r.yml:2: devices: must be a non-empty list")
    #expect(error("version: 2\ndevices: []\n")?.line == 1)
    #expect(error("version: 1\ndevices: [\n")?.line ?? 0 >= 2)
    let events = """
      version: 1
      devices:
      - evdev:
          name: "x"
          id: [3, 1, 2, 0]
        events:
        - evdev:
          - [0, 1, 3, 0, 5]
          - [0, 2, 3, 0]
      """
    #expect(
      error(events)?.description
        == "r.yml:9: an evdev event [sec, usec, type, code, value] must have 5 integers, found 4")
  }
}

@Suite struct EvemuWriterTests {
  @Test func linesAreWrittenAsEvemuRecordWritesThem() {
    var writer = EvemuWriter()
    let t = Timestamp(microseconds: 1)
    #expect(
      writer.line(for: InputEvent(time: t, type: 3, code: 0x39, value: 0))
        == "E: 0.000001 0003 0039 0000\t# EV_ABS / ABS_MT_TRACKING_ID   0\n")
    #expect(
      writer.line(for: InputEvent(time: t, type: 3, code: 0x39, value: -1))
        == "E: 0.000001 0003 0039 -001\t# EV_ABS / ABS_MT_TRACKING_ID   -1\n")
    #expect(
      writer.line(for: InputEvent(time: Timestamp(microseconds: 12_345), type: 0, code: 0, value: 0))
        == "E: 0.012345 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +12ms\n")
    #expect(
      writer.line(for: InputEvent(time: t, type: 0, code: 2, value: 0))
        == "E: 0.000001 0000 0002 0000\t# ++++++++++++ SYN_MT_REPORT (0) ++++++++++\n")
    #expect(
      writer.line(for: InputEvent(time: t, type: 1, code: BTN.touch, value: 1))
        == "E: 0.000001 0001 014a 0001\t# EV_KEY / BTN_TOUCH            1\n")
  }

  @Test func headerMatchesEvemuLayout() throws {
    let recording = try RecordingReader.load(path: fixture("atmel-maxtouch-i2c-800x480-1finger-fast-taps.evemu"))
    let text = EvemuWriter.header(for: recording.description)
    let original = try String(
      contentsOfFile: fixture("atmel-maxtouch-i2c-800x480-1finger-fast-taps.evemu"), encoding: .utf8)
    // The N: I: P: B: A: lines are exactly the original's.
    func descriptionLines(_ s: String) -> [Substring] {
      s.split(separator: "\n").filter { ["N:", "I:", "P:", "B:", "A:"].contains($0.prefix(2)) }
    }
    #expect(descriptionLines(text) == descriptionLines(original))
    #expect(text.hasPrefix("# EVEMU 1.3\n# Input device name: \"Atmel maXTouch Touchscreen\"\n"))
    #expect(text.contains("# Input device ID: bus 0x18 vendor 0000 product 0000 version 0000\n"))
    #expect(text.contains("#   Property  type 1 (INPUT_PROP_DIRECT)\n"))
  }

  @Test func fixturesRoundTrip() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory)
    var count = 0
    for name in names where name.hasSuffix(".evemu") || name.hasSuffix(".events") {
      try roundTrip(fixturesDirectory, name)
      count += 1
    }
    #expect(count == 10)
  }

  @Test func sharedRecordingsRoundTrip() throws {
    let shared = try TestPaths.sharedRecordings()
    for name in try FileManager.default.contentsOfDirectory(atPath: shared)
    where name.hasSuffix(".evemu") || name.hasSuffix(".events") {
      try roundTrip(shared, name)
    }
  }
}

/// The description file of a split `.events` recording.
func companionDescription(_ directory: String, _ name: String) -> String? {
  guard name.hasSuffix(".events") else { return nil }
  if name.hasPrefix("ntrig") { return directory + "/ntrig-multitouch-protocolA.desc" }
  if name.hasPrefix("wacom-isdv4") { return directory + "/wacom-isdv4-e6-finger.desc" }
  if name.hasPrefix("lge-nexus4") { return directory + "/lge-nexus4-touch_dev-noABSX.desc" }
  return nil
}

func roundTrip(_ directory: String, _ name: String) throws {
  let recording = try RecordingReader.load(
    path: directory + "/" + name, descriptionPath: companionDescription(directory, name))
  let text = EvemuWriter.write(recording)
  let again = try RecordingReader.parse(Array(text.utf8), source: name)
  #expect(again.description == recording.description, "\(name)")
  #expect(again.events == recording.events, "\(name)")
}
