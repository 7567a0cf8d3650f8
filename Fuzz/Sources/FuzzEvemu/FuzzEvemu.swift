import FuzzSupport
import TouchdInput

/// One input: evemu recording text, read as `touchctl replay` reads a `.evemu` file
/// (``EvemuParser/parse(_:source:description:)``). Properties checked:
/// - a rejected input gets a ``RecordingError`` naming the file and a line of the input;
/// - an events-only input (no description) replays against a touchscreen's description, as with
///   `--desc`; the same text read as a description file (``EvemuParser/parseDescription(_:source:)``)
///   is accepted or rejected with its place too;
/// - an accepted recording replays (``replayChecked(_:)``: no crash, frames keep their invariants);
/// - writing it (``EvemuWriter``) and reading it back keeps its events, name and id exactly, and a
///   second write and read changes nothing (the writer keeps what the format holds of a
///   description: event types up to `EV_MAX`, properties below 64).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvemu(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(fuzzBytes(data, size))
  let source = "fuzz.evemu"
  let text = String(decoding: bytes, as: UTF8.self)
  do {
    _ = try EvemuParser.parseDescription(bytes, source: source)
  } catch {
    checkPlace(error, source: source, text: text, breaks: .newline)
  }
  let recording: Recording
  do {
    recording = try EvemuParser.parse(bytes, source: source)
  } catch {
    checkPlace(error, source: source, text: text, breaks: .newline)
    guard error.message.hasPrefix("no device description") else { return 0 }
    // An events-only file: replay it against one of the three kinds of touchscreen.
    let description = eventsOnlyDescriptions[bytes.count % eventsOnlyDescriptions.count]
    do {
      replayChecked([try EvemuParser.parse(bytes, source: source, description: description)])
    } catch {
      fuzzFailure("an events-only file parsed without its description fails with it: \(error)")
    }
    return 0
  }
  replayChecked([recording])
  checkRoundTrip(recording)
  return 0
}

/// Writes `recording` and reads it back twice (see ``fuzzEvemu(_:_:)``).
func checkRoundTrip(_ recording: Recording) {
  let written = EvemuWriter.write(recording)
  let again: Recording
  do {
    again = try EvemuParser.parse(Array(written.utf8), source: recording.source)
  } catch {
    fuzzFailure("EvemuWriter's text does not parse: \(error)\n\(written)")
  }
  guard again.events == recording.events else { fuzzFailure("events changed in a round trip:\n\(written)") }
  // A carriage return that ends a name is lost: the parser takes a CR before the newline as part
  // of the line end (`N: name\r\r\n` names "name\r").
  func trimmed(_ name: String) -> Substring.UnicodeScalarView {
    var scalars = Substring(name).unicodeScalars
    while scalars.last == "\r" { scalars.removeLast() }
    return scalars
  }
  guard trimmed(again.description.name).elementsEqual(trimmed(recording.description.name)),
    again.description.id == recording.description.id
  else {
    fuzzFailure(
      "name or id changed in a round trip: \(recording.description) -> \(again.description)\n\(written)")
  }
  let rewritten = EvemuWriter.write(again)
  do {
    let third = try EvemuParser.parse(Array(rewritten.utf8), source: recording.source)
    guard third == again else { fuzzFailure("a second round trip changed the recording:\n\(written)\n\(rewritten)") }
  } catch {
    fuzzFailure("EvemuWriter's text does not parse the second time: \(error)\n\(rewritten)")
  }
}

/// Touchscreen descriptions for events-only input: protocol B, protocol A and single touch (the
/// three `FrameAssembler` modes), from `evemu-describe` text.
let eventsOnlyDescriptions: [DeviceDescription] = [
  """
  N: fuzz protocol B
  I: 0003 0eef 0001 0100
  P: 02 00 00 00 00 00 00 00
  B: 00 0b 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 04 00 00 00 00 00 00
  B: 03 03 00 00 01 00 80 f3 02
  A: 00 0 4095 0 0 0
  A: 01 0 4095 0 0 0
  A: 18 0 255 0 0 0
  A: 2f 0 9 0 0 0
  A: 30 0 255 0 0 0
  A: 35 0 4095 0 0 0
  A: 36 0 4095 0 0 0
  A: 37 0 2 0 0 0
  A: 39 0 65535 0 0 0
  A: 3a 0 255 0 0 0
  """,
  """
  N: fuzz protocol A
  I: 0003 1b96 0001 0100
  P: 02 00 00 00 00 00 00 00
  B: 00 0b 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 04 00 00 00 00 00 00
  B: 03 03 00 00 00 00 00 63 02
  A: 00 0 9600 0 0 0
  A: 01 0 7200 0 0 0
  A: 30 0 9600 0 0 0
  A: 31 0 7200 0 0 0
  A: 35 0 9600 0 0 0
  A: 36 0 7200 0 0 0
  A: 39 0 255 0 0 0
  """,
  """
  N: fuzz single touch
  I: 0018 056a 00e6 0000
  P: 02 00 00 00 00 00 00 00
  B: 00 0b 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 00 00 00 00 00 00 00
  B: 01 00 04 00 00 00 00 00 00
  B: 03 03 00 00 01 00 00 00 00
  A: 00 0 26202 0 0 0
  A: 01 0 16325 0 0 0
  A: 18 0 255 0 0 0
  """,
].map { text in
  do {
    return try EvemuParser.parseDescription(Array(text.utf8), source: "fuzz.desc")
  } catch {
    fatalError("fuzz target's own description: \(error)")
  }
}

@_cdecl("FuzzEvemu_main")
func fuzzEvemuMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv, fuzzEvemu)
}
