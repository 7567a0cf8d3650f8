import Testing
import TouchDelivery
import TouchdInput

@testable import TouchdScene

/// Inputs the fuzz target FuzzScene found (scripts/fuzz.sh, docs/reliability.md "Fuzzing"),
/// minimized, each with the answer it must get now.
@Suite("Fuzz regressions: scenes")
struct SceneFuzzRegressionTests {
  /// The diagnostics of parsing `yaml` as `fuzz.yaml`, [] when it is valid.
  func diagnostics(_ yaml: String) -> [String] { sceneDiagnostics(yaml, file: "fuzz.yaml") }

  /// FuzzScene: a syntax error at the end of a file without a final newline was placed on the line
  /// after the last (libyaml's end-of-stream mark), a line no editor shows; it is placed at the end
  /// of the last line now. With the final newline the next line exists and keeps the error.
  /// FuzzScene (CI's 20 s run, 2026-11-24): a window 19,292,233,720,368,547,758,080 points wide is
  /// a valid number, so a drag across it moves 10^22 points, and the long press's trace cause
  /// ("moved … pt > allowableMovement 10") converted that to an Int: "Double value cannot be
  /// converted to Int because the result would be greater than Int.max". Numbers too large for an
  /// Int are written as Swift writes a Double now; a segmented control clamps such a point too.
  @Test("A window 10^22 points wide takes a traced drag that fails a long press")
  func hugeWindowTracedDrag() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 19292233720368547758080, height: 1080}
          views:
            - id: canvas
              frame: {x: 0, y: 0, width: 1920, height: 1080}
              multipleTouchEnabled: true
              touches: true
              recognizers:
                - {id: hold, type: longPress, action: hold, cancelsTouchesInView: false}
                - {id: pan, type: pan, action: pan, cancelsTouchesInView: false}
      """, file: "fuzz.yaml")
    let clock = VirtualClock(now: 0)
    var traces: [String] = []
    let runtime = SceneRuntime(scene: scene, clock: clock) { message in
      if case .trace(let t) = message, case .recognizer(_, _, _, let cause) = t.detail { traces.append(cause) }
    }
    runtime.isTracing = true
    let ids = TouchIDAllocator()
    let finger = ids.next()
    for (step, x) in [0.0, 0.0001, 0.0002].enumerated() {
      clock.advance(to: Double(step) * 0.016)
      runtime.handle(
        TouchFrame(
          time: Timestamp(microseconds: Int64(step) * 16_000),
          contacts: [Contact(id: finger, phase: step == 0 ? .began : .moved, x: x, y: 0.5)]),
        inWindow: 0)
    }
    #expect(
      traces.contains { $0.hasPrefix("moved 1.929") && $0.contains("e+18 pt > allowableMovement 10") }, "\(traces)")
    #expect(traceNumber(1e22) == "1e+22")
    #expect(traceNumber(-9.5e18, decimals: 0) == "-9.5e+18")
    let segments = SegmentedControl(frame: Rect(x: 0, y: 0, width: 300, height: 40))
    segments.segments = ["a", "b", "c"]
    #expect(segments.segmentIndex(at: 1e300) == 2)
    #expect(segments.segmentIndex(at: -1e300) == 0)
    #expect(segments.segmentIndex(at: .nan) == 0)
  }

  @Test("A syntax error at the end of a file without a final newline is at the end of its last line")
  func syntaxErrorAtEnd() {
    #expect(
      diagnostics("version: 1\nwindows: [{id: main")
        == ["fuzz.yaml:2:20: error: YAML syntax error: did not find expected ',' or '}' while parsing a flow mapping"])
    #expect(
      diagnostics("version: 1\nwindows: [{id: main\n")
        == ["fuzz.yaml:3:1: error: YAML syntax error: did not find expected ',' or '}' while parsing a flow mapping"])
  }

  /// Found with FuzzLibinputRecord (`version: +476666666660368547:5808`): the scene loader read
  /// integers with the same Yams call, which trapped on a sexagesimal integer out of range.
  @Test("A scene's sexagesimal integer out of range is an error at its place; in range it is read")
  func sexagesimalIntegerOutOfRange() {
    let scene = { (rotation: String) in
      "version: 1\nwindows:\n  - id: main\n    size: {width: 100, height: 100}\n    rotation: \(rotation)\n    views: []\n"
    }
    #expect(
      diagnostics(scene("+476666666660368547:5808")) == [
        "fuzz.yaml:5:15: error: 'rotation' in window 'main' must be 0, 90, 180 or 270, found '+476666666660368547:5808'"
      ])
    #expect(diagnostics(scene("1:30")) == [])
  }

  /// Found with FuzzLibinputRecord's `---` (the libinput-record parser had the same fault): an
  /// empty document's null is on the line after a last line without a line break in libyaml's
  /// marks, so a scene of `---` alone was an error at line 2 of a one-line file.
  @Test("A scene that is only `---` is an error at the end of its line 1")
  func emptyDocumentWithoutNewline() {
    #expect(diagnostics("---") == ["fuzz.yaml:1:4: error: expected a mapping for the scene, found nothing"])
    #expect(diagnostics("---\n") == ["fuzz.yaml:2:1: error: expected a mapping for the scene, found nothing"])
  }

  /// FuzzScene (the validator passed a scene the decoder refused): a key with a tag of its own,
  /// `!!float x`, was the key `x` to the validator, but the decoder, which looks keys up as Yams
  /// does, did not find it: `cannot decode the scene: DecodingError.keyNotFound …` at line 1. Quoted
  /// `"on"` of a switch was worse: valid, and ignored (plain `on` was a YAML boolean to Yams'
  /// resolver, so the quoted string was another key), the switch off. Keys are checked as the
  /// decoder finds them now. Since touchd resolves scalar tags itself (`YAMLTags`, with Yams'
  /// `Resolver.basic` under the tree), a key is looked up as the string it spells: quoted `"on"` is
  /// the key `on`, and the switch is on; a key with a tag of its own is still an error.
  @Test("A key with a tag is an error at the key; a quoted key is its name")
  func taggedAndQuotedKeys() throws {
    let yaml = """
      version: 1
      windows:
        - id: main
          size: {width: 1920, height: 1080}
          views:
            - id: canvas
              frame: {!!float x: 0, y: 0, width: 1920, height: 1080}
            - id: receipt
              frame: {x: 0, y: 0, width: 100, height: 50}
              control: {type: switch, "on": true}
            - {id: plain, "frame": {x: 0, y: 0, width: 100, height: 50}, control: {type: switch, on: true}}

      """
    #expect(
      diagnostics(yaml) == [
        "fuzz.yaml:7:16: error: missing required key 'x' in frame of view 'canvas'",
        "fuzz.yaml:7:17: error: key 'x' in the frame of view 'canvas' is not the name x to YAML: write it plain, "
          + "without quotes or a tag",
      ])
    let quoted = try Scene.parse(yaml.replacingOccurrences(of: "!!float x", with: "x"), file: "fuzz.yaml")
    let receipt = quoted.windows[0].views.first { $0.id == "receipt" }
    #expect(receipt?.control?.on == true, "quoted \"on\" is the key on")
  }

  /// FuzzScene, in the 10⁷ campaign's third series (2026-11-27, after about 1.6 million inputs):
  /// `map: {KEY_ENTER: select,!!float  KEY_F1: help}`, "the validator passed a scene the decoder
  /// refused". The keys of a window's `keys.map`, and of a control's `actions`, are decoded as a
  /// dictionary, looked up by name as the keys of an object are, but the validator checked only
  /// the latter for a tag of their own. Both are checked now.
  @Test("A key with a tag in keys.map or in a control's actions is an error at the key")
  func taggedDictionaryKeys() throws {
    let yaml = """
      version: 1
      windows:
        - id: main
          size: {width: 1920, height: 1080}
          keys:
            devices: ["Kiosk Keypad"]
            map: {KEY_ENTER: select,!!float  KEY_F1: help}
          views:
            - id: buy
              frame: {x: 0, y: 0, width: 100, height: 50}
              control: {type: button, actions: {!!float touchUpInside: buy}}

      """
    #expect(
      diagnostics(yaml) == [
        "fuzz.yaml:7:31: error: key 'KEY_F1' in map of keys of window 'main' is not the name KEY_F1 to YAML: "
          + "write it plain, without quotes or a tag",
        "fuzz.yaml:11:43: error: key 'touchUpInside' in actions of control of view 'buy' is not the name "
          + "touchUpInside to YAML: write it plain, without quotes or a tag",
      ])
    let plain = yaml.replacingOccurrences(of: "!!float  ", with: "").replacingOccurrences(of: "!!float ", with: "")
    let scene = try Scene.parse(plain, file: "fuzz.yaml")
    #expect(scene.windows[0].keys?.map.count == 2)
  }

  /// FuzzScene, in the same series (2026-11-27 02:08 UTC, after about 5.6 million more inputs):
  /// `frame: {x: 880, y: 0o640, …}`, "the validator passed a scene the decoder refused"
  /// (`DecodingError.typeMismatch: expected value of type Double`). The validator read a number
  /// that is no Double to Yams as an Int (YAML 1.2's octal `0o640`); the decoder reads a `Double`
  /// field with `Double.construct` alone. The validator reads it so now too.
  @Test("An integer only Int reads (0o640) is not a number where the scene wants a Double")
  func octalIsNoDouble() throws {
    let yaml = """
      version: 1
      windows:
        - id: main
          size: {width: 1280, height: 800}
          views:
            - id: volume
              frame: {x: 880, y: 0o640, width: 368, height: 56}

      """
    #expect(diagnostics(yaml) == ["fuzz.yaml:7:28: error: 'y' in frame of view 'volume' must be a number, found 0o640"])
    // The spellings the decoder does read as a Double stay numbers, with its values.
    let spelled = yaml.replacingOccurrences(of: "y: 0o640, width: 368", with: "y: 0640, width: 3_68")
    let frame = try Scene.parse(spelled, file: "fuzz.yaml").windows[0].views[0].frame
    #expect(frame.y == 640 && frame.width == 368)
  }

  /// A YAML reader error (a control character) counted lines with `"\n"` as a `Character`, so a
  /// CRLF file's error was on line 1; lines are counted as libyaml counts them now.
  @Test("A reader error in a CRLF file names the line and column of the bad character")
  func readerErrorInCRLFFile() {
    #expect(
      diagnostics("version: 1\r\nwindows:\r\n  - id: \u{7}\r\n")
        == ["fuzz.yaml:3:9: error: YAML reader error: control characters are not allowed"])
  }
}

/// Scenes that took time out of proportion to their size.
@Suite("Fuzz regressions: scene validation time")
struct SceneValidationTimeFuzzRegressionTests {
  /// The diagnostics of parsing `yaml` as `fuzz.yaml`, [] when it is valid.
  func diagnostics(_ yaml: String) -> [String] { sceneDiagnostics(yaml, file: "fuzz.yaml") }

  /// Long names: the suggestion of a diagnostic (`did you mean`) worked out the whole edit distance
  /// between the name and every candidate, quadratic in their lengths: ten unknown keys of 780
  /// characters took 1.8 s under the fuzzer's sanitizers, and these thirty references to missing
  /// ids of 3,000 characters among thirty such ids took minutes. Only the band of the distance a
  /// suggestion can have (3 edits) is worked out now, after the common start and end.
  @Test("Unknown long keys and references to long ids are reported in time linear in their length")
  func longNames() throws {
    let id = String(repeating: "v", count: 3000)
    var yaml = "version: 1\nwindows:\n  - id: main\n    size: {width: 10, height: 10}\n"
    // An explicit key (`? key`): libyaml refuses an implicit key longer than 1024 characters.
    yaml += "    ? \(id)\n    : 1\n"
    // A long key that starts with a known one is still a misspelling of it.
    yaml += "    calibrationMatrix: [1, 0, 0, 0, 1, 0]\n    views:\n"
    for i in 100..<130 {
      yaml += "      - id: v\(i)\n        frame: {x: 0, y: 0, width: 1, height: 1}\n"
      yaml += "        recognizers: [{id: \(id)\(i), type: tap, action: a, requireToFail: [\(id)\(i + 100)]}]\n"
    }
    let start = ContinuousClock.now
    let error = try #require(throws: SceneError.self) { try Scene.parse(yaml, file: "fuzz.yaml") }
    #expect(ContinuousClock.now - start < .seconds(10))
    // The messages, the long id written as ID.
    let messages = error.diagnostics.map { $0.description.replacingOccurrences(of: id, with: "ID") }
    #expect(messages.count == 32)
    #expect(messages[0] == "fuzz.yaml:5:7: error: unknown key 'ID' in window 'main'")
    #expect(
      messages[1]
        == "fuzz.yaml:7:5: error: unknown key 'calibrationMatrix' in window 'main' (did you mean 'calibration'?)")
    #expect(
      messages[2]
        == "fuzz.yaml:11:3071: error: 'requireToFail' in recognizer 'ID100' names unknown recognizer 'ID200' (did you mean 'ID100'?)"
    )
  }

  /// Many misspelt names: each suggestion compares the name with every candidate, so a scene of
  /// thousands of references to missing ids among thousands of ids took time quadratic in its size.
  /// The first 100 diagnostics get a suggestion, the others go without.
  @Test("Only the first 100 diagnostics get a suggestion")
  func suggestionBudget() throws {
    var yaml = "version: 1\nwindows:\n  - id: main\n    size: {width: 10, height: 10}\n    views:\n"
    for i in 1000..<1150 {
      yaml += "      - {id: v\(i), frame: {x: 0, y: 0, width: 1, height: 1}, "
      yaml += "recognizers: [{id: r\(i), type: tap, action: a, requireToFail: [x\(i)]}]}\n"
    }
    let error = try #require(throws: SceneError.self) { try Scene.parse(yaml, file: "fuzz.yaml") }
    let messages = error.diagnostics.map(\.description)
    #expect(messages.count == 150)
    #expect(messages.filter { $0.hasSuffix("?)") }.count == SceneValidator.maximumSuggestions)
    #expect(
      messages[99]
        == "fuzz.yaml:105:127: error: 'requireToFail' in recognizer 'r1099' names unknown recognizer 'x1099' (did you mean 'r1099'?)"
    )
    #expect(
      messages[100]
        == "fuzz.yaml:106:127: error: 'requireToFail' in recognizer 'r1100' names unknown recognizer 'x1100'")
  }

  /// FuzzScene (a timeout): a `keys.map` key name of 120 characters (mostly U+FFFD, from bytes that
  /// are not UTF-8) was compared with each of the 700 evdev key names, the whole edit distance each
  /// time: over 1 s under the sanitizers for one name, and a map of hundreds of such names took
  /// minutes.
  @Test("Long unknown key names in keys.map are reported in bounded time")
  func longKeyNames() throws {
    let junk = String(repeating: "\u{FFFD}", count: 114)
    var yaml = """
      version: 1
      windows:
        - id: main
          size: {width: 1280, height: 800}
          keys:
            devices: ["Kiosk Keypad"]
            map:

      """
    for i in 0..<300 { yaml += "        KEY_\(junk)F\(i): help\n" }
    let start = ContinuousClock.now
    let error = try #require(throws: SceneError.self) { try Scene.parse(yaml, file: "fuzz.yaml") }
    #expect(ContinuousClock.now - start < .seconds(10))
    #expect(error.diagnostics.count == 300)
    #expect(
      error.diagnostics[0].description
        == "fuzz.yaml:8:9: error: unknown evdev key name 'KEY_\(junk)F0' in map of keys of window 'main'")
  }

  /// Anchors and aliases that multiply ("billion laughs"): eight lines stand for 10⁸ nodes. As a
  /// mapping key the alias kept Yams busy hashing keys for minutes, before any of touchd's code ran;
  /// as views, the validator walked every copy. Aliases may add no more nodes than the file writes
  /// out (and 10,000 more); the alias that passes that is the error.
  @Test("Aliases that multiply the scene are refused at the alias, in bounded time")
  func billionLaughs() throws {
    var keys = "version: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for i in 1..<8 {
      keys += "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
    }
    keys += "? *a7\n: 1\n"
    var views = "version: 1\nwindows:\n  - id: main\n    size: {width: 100, height: 100}\n    views:\n"
    views += "      - &v0 {id: a, frame: {x: 0, y: 0, width: 1, height: 1}}\n"
    for i in 1..<8 {
      views += "      - &v\(i) {id: v\(i), frame: {x: 0, y: 0, width: 1, height: 1}, views: ["
      views += Array(repeating: "*v\(i - 1)", count: 10).joined(separator: ", ") + "]}\n"
    }
    let start = ContinuousClock.now
    #expect(
      diagnostics(keys) == [
        "fuzz.yaml:5:45: error: aliases expand the scene to 10129 YAML nodes at this one, more than twice those "
          + "written out: anchors and aliases must not multiply the file"
      ])
    #expect(
      diagnostics(views) == [
        "fuzz.yaml:9:97: error: aliases expand the scene to 10444 YAML nodes at this one, more than twice those "
          + "written out: anchors and aliases must not multiply the file"
      ])
    #expect(ContinuousClock.now - start < .seconds(10))
  }

  /// Aliases that only reuse (a frame on a hundred views) stay well within the allowance.
  @Test("A scene that reuses an anchored frame on many views is valid")
  func aliasesThatReuse() throws {
    var yaml = "version: 1\nwindows:\n  - id: main\n    size: {width: 100, height: 100}\n    views:\n"
    yaml += "      - {id: v0, frame: &cell {x: 0, y: 0, width: 10, height: 10}}\n"
    for i in 1..<1500 { yaml += "      - {id: v\(i), frame: *cell}\n" }
    let scene = try Scene.parse(yaml, file: "fuzz.yaml")
    #expect(scene.windows[0].views.count == 1500)
    #expect(scene.windows[0].views[1499].frame == Scene.Frame(x: 0, y: 0, width: 10, height: 10))
  }

  /// Views nested hundreds deep: the validator (and everything after it) walks the view tree
  /// recursively, and 300 levels overflowed the stack of the fuzz build (AddressSanitizer's frames
  /// are large; a scene of 15 kB). Views may nest 32 deep; the first view deeper is the error.
  @Test("Views nested more than 32 deep are an error at the first one too deep")
  func deepViews() throws {
    func scene(depth: Int) -> String {
      var views = "[]"
      for level in (1...depth).reversed() {
        views = "[{id: v\(level), frame: {x: 0, y: 0, width: 1, height: 1}, views: \(views)}]"
      }
      return "version: 1\nwindows:\n  - id: main\n    size: {width: 1, height: 1}\n    views: \(views)\n"
    }
    #expect(diagnostics(scene(depth: 32)) == [])
    // The 33rd view's mapping starts at column 1924 of line 5.
    #expect(
      diagnostics(scene(depth: 300)) == [
        "fuzz.yaml:5:1924: error: views nested more than 32 deep (a view within a view within …)"
      ])
  }
}
