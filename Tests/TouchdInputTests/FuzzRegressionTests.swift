import Testing

@testable import TouchdInput

/// Inputs the fuzz targets FuzzEvemu and FuzzLibinputRecord found (scripts/fuzz.sh,
/// docs/reliability.md "Fuzzing"), minimized, each with the answer it must get now.
@Suite("Fuzz regressions: recordings")
struct RecordingFuzzRegressionTests {
  let header = """
    N: fuzz
    I: 0003 0eef 0001 0100
    P: 02 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 03 03 00 00 01 00 80 f3 02
    A: 00 0 4095 0 0 0
    A: 01 0 4095 0 0 0
    A: 2f 0 9 0 0 0
    A: 35 0 4095 0 0 0
    A: 36 0 4095 0 0 0
    A: 39 0 65535 0 0 0

    """

  func evemuError(_ text: String) -> String? {
    do {
      _ = try EvemuParser.parse(Array(text.utf8), source: "fuzz.evemu")
      return nil
    } catch {
      return error.description
    }
  }

  func libinputError(_ text: String) -> String? {
    do {
      _ = try LibinputRecordParser.parseAll(Array(text.utf8), source: "fuzz.yml")
      return nil
    } catch {
      return error.description
    }
  }

  /// FuzzEvemu: an event time of 14 digits of seconds overflowed `Timestamp`'s microseconds (an
  /// arithmetic-overflow trap in `Timestamp(seconds:microseconds:)`), on the first event line (the
  /// full parser) and on a later one (the fast path).
  @Test("An evemu event time beyond 10 digits of seconds is an error naming its line")
  func evemuTimeOutOfRange() {
    #expect(
      evemuError(header + "E: 13571437143784.501227 0003 0036 2793\n")
        == "fuzz.evemu:12: E: time 13571437143784 s is out of range (at most 9999999999 s)")
    #expect(
      evemuError(header + "E: 0.000000 0003 0039 1\nE: 13571437143784.501227 0003 0036 2793\n")
        == "fuzz.evemu:13: E: time 13571437143784 s is out of range (at most 9999999999 s)")
    // 18 digits, the most the parser reads as a number.
    #expect(
      evemuError(header + "E: 0.000000 0003 0039 1\nE: 999999999999999999.0 0003 0036 2793\n")
        == "fuzz.evemu:13: E: time 999999999999999999 s is out of range (at most 9999999999 s)")
    // The largest time allowed still parses, on both paths.
    let largest = try? EvemuParser.parse(
      Array((header + "E: 9999999999.999999 0000 0000 0000\nE: 9999999999.999999 0000 0000 0000\n").utf8),
      source: "fuzz.evemu")
    #expect(largest?.events.map(\.time.microseconds) == [9_999_999_999_999_999, 9_999_999_999_999_999])
  }

  /// The same overflow in `libinput record`'s `[sec, usec, type, code, value]` events.
  @Test("A libinput record event time beyond 10 digits of seconds is an error naming its line")
  func libinputTimeOutOfRange() {
    let file = """
      version: 1
      devices:
      - evdev:
          name: fuzz
          id: [3, 1, 2, 3]
        events:
        - evdev:
          - [9223372036855, 0, 3, 57, 1]

      """
    #expect(libinputError(file) == "fuzz.yml:8: event time 9223372036855 s is out of range (0 to 9999999999 s)")
    #expect(
      libinputError(file.replacingOccurrences(of: "9223372036855, 0,", with: "1, 1000000,"))
        == "fuzz.yml:8: event time: 1000000 is not a number of microseconds (0 to 999999)")
  }

  /// FuzzLibinputRecord: a YAML error at the end of a file without a final newline named the line
  /// after the last (libyaml's end-of-stream mark); it names the last line now.
  @Test("A YAML error at the end of a file without a final newline names the last line")
  func yamlErrorAtEnd() {
    #expect(
      libinputError("version: 1\ndevices:\n- evdev: [")
        == "fuzz.yml:3: invalid YAML: did not find expected node content")
    #expect(
      libinputError("version: 1\ndevices:\n- evdev: [\n")
        == "fuzz.yml:4: invalid YAML: did not find expected node content")
  }

  /// FuzzLibinputRecord (the 10^7 campaign, input `---`): an empty document's null is placed by
  /// libyaml on the line after a last line without a line break; the error names the last line.
  @Test("A file that is only `---` is an error on its line 1, not line 2")
  func emptyDocumentWithoutNewline() {
    #expect(libinputError("---") == "fuzz.yml:1: expected a mapping at the top level")
    #expect(libinputError("---\n") == "fuzz.yml:2: expected a mapping at the top level")
    #expect(libinputError("# a comment\n---") == "fuzz.yml:2: expected a mapping at the top level")
  }

  /// FuzzLibinputRecord (the 10^7 campaign, input `version: +476666666660368547:5808`): Yams reads
  /// a YAML 1.1 sexagesimal integer with unchecked arithmetic, so one out of `Int`'s range trapped
  /// (`YAMLInt` reads it with checked arithmetic). In range, `1:0` is still 60.
  @Test("A sexagesimal integer out of range is an error, not a crash")
  func sexagesimalIntegerOutOfRange() {
    #expect(
      libinputError("version: +476666666660368547:5808")
        == "fuzz.yml:1: unsupported libinput record version +476666666660368547:5808 (1 is read)")
    #expect(libinputError("version: 1:0") == "fuzz.yml:1: unsupported libinput record version 1:0 (1 is read)")
    #expect(YAMLInt.value(of: .scalar(.init("1:30"))) == 90)
    #expect(YAMLInt.value(of: .scalar(.init("-1:0:0"))) == -3600)
    #expect(YAMLInt.value(of: .scalar(.init("+476666666660368547:5808"))) == nil)
    #expect(YAMLInt.value(of: .scalar(.init("1:0:0:0:0:0:0:0:0:0:0:0"))) == nil)
    #expect(YAMLInt.value(of: .scalar(.init("0x1F"))) == 31)
    #expect(YAMLInt.value(of: .scalar(.init("1_000"))) == 1000)
  }

  /// A control character is a YAML reader error: its line is counted as libyaml counts lines
  /// (`\r\n` is one line end), not from 1.
  @Test("A YAML reader error names the line of the bad character, CRLF lines counted once")
  func yamlReaderErrorLine() {
    #expect(
      libinputError("version: 1\r\ndevices:\r\n- \u{1}\r\n")
        == "fuzz.yml:3: invalid YAML: control characters are not allowed")
  }

  /// FuzzLibinputRecord's round trip: a name holding characters YAML takes only escaped (here from
  /// the escapes `\\L \\N \\P \\x80 \\uFFFE \\x01`) was written as it is, in the quoted name and
  /// in the `# Name:` comment: U+2028, NEL and U+2029 folded into spaces on reading, and the
  /// controls made the file unreadable ("control characters are not allowed").
  @Test("A libinput record name with line separators and controls survives a round trip")
  func libinputNameRoundTrip() throws {
    let file = #"""
      version: 1
      devices:
      - evdev:
          name: "a\Lb\Nc\Pd\x80e\uFFFEf\x01g\th"
          id: [3, 1, 2, 3]

      """#
    let recording = try LibinputRecordParser.parse(Array(file.utf8), source: "fuzz.yml")
    #expect(recording.description.name == "a\u{2028}b\u{85}c\u{2029}d\u{80}e\u{FFFE}f\u{1}g\th")
    let written = LibinputRecordWriter.write([(recording, "/dev/input/event0")])
    #expect(written.contains(#"    name: "a\Lb\Nc\Pd\x80e\ufffef\x01g\th""#))
    #expect(written.contains("    # Name: abcdefg\th\n"))
    let again = try LibinputRecordParser.parse(Array(written.utf8), source: "again.yml")
    #expect(again.description.name == recording.description.name)
  }

  /// A device name with a newline (a USB descriptor may say anything) split evemu's `N:` line, and
  /// what followed it became a line of its own: here an event injected into the recording. The
  /// writer writes the newline as a space.
  @Test("An evemu recording of a device whose name holds a newline reads back with one N: line")
  func evemuNameWithNewline() throws {
    let name = "evil\nE: 0.000001 0001 014a 0001"
    let device = DeviceDescription(
      name: name, id: InputID(bustype: 3, vendor: 1, product: 2, version: 3), properties: [],
      events: [EV.syn: [SYN.report], EV.key: [BTN.touch]], absInfo: [:])
    let text = EvemuWriter.write(Recording(description: device, events: [], source: "live"))
    let recording = try EvemuParser.parse(Array(text.utf8), source: "fuzz.evemu")
    #expect(recording.description.name == "evil E: 0.000001 0001 014a 0001")
    #expect(recording.events.isEmpty)
  }

  /// Anchors and aliases that multiply ("billion laughs") in a libinput record file: Yams hashes
  /// every mapping key, so one key that is an alias of 10⁸ nodes kept `touchctl replay` busy for
  /// minutes. Aliases may add no more nodes than the file writes out (and 10,000 more).
  @Test("A libinput record file whose aliases multiply it is refused at the alias")
  func billionLaughs() {
    var file = "version: 1\na0: &a0 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]\n"
    for i in 1..<8 {
      file += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    file += "? *a7\n: 1\ndevices: []\n"
    let start = ContinuousClock.now
    #expect(
      libinputError(file)
        == "fuzz.yml:5: aliases expand the file to 10129 YAML nodes at this one, more than twice those written out")
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  /// FuzzEvemu (in its release run: "a second round trip changed the recording"): a description
  /// whose EV_SYN codes were all beyond the first `B: 00` line (here 65, from a second one) was
  /// written with an empty EV_SYN bitmap, read back as no EV_SYN codes at all, and written the
  /// second time as a description without any: `0b`. The first write says `0b` now.
  @Test("EV_SYN codes only beyond the first B: 00 line are written as none, the same each time")
  func evemuSynCodesBeyondTheFirstLine() throws {
    let input = "B:0 0 0 0 0 0 0 0 0\nN:\nI:0 1 7 0\nB:0 2 0 0 0 0 0 0 0\n"
    let first = try EvemuParser.parse(Array(input.utf8), source: "fuzz.evemu")
    #expect(first.description.events[EV.syn] == [65])
    let written = EvemuWriter.write(first)
    #expect(written.contains("\nB: 00 0b 00 00 00 00 00 00 00\n"))
    let second = try EvemuParser.parse(Array(written.utf8), source: "fuzz.evemu")
    #expect(second.description.events[EV.syn] == [SYN.report, SYN.config, SYN.dropped])
    let third = try EvemuParser.parse(Array(EvemuWriter.write(second).utf8), source: "fuzz.evemu")
    #expect(third == second)
  }
}
