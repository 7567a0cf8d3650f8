import FuzzSupport
import TouchdInput

/// One input: `libinput record` YAML, read as `touchctl replay` reads it
/// (``LibinputRecordParser/parseAll(_:source:)``: every device). Properties checked:
/// - a rejected input gets a ``RecordingError`` naming the file and a line of the input (as YAML
///   counts lines);
/// - the accepted devices replay together (``replayChecked(_:)``: no crash, frames keep their
///   invariants);
/// - writing them (``LibinputRecordWriter``) and reading them back gives the same devices: every
///   device's events, name, id, properties, axes and event codes exactly (`EV_SYN`'s codes, which
///   the writer spells as libevdev does, rebuilt from the types as the parser always does).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLibinputRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Array(fuzzBytes(data, size))
  let source = "fuzz.yml"
  let recordings: [Recording]
  do {
    recordings = try LibinputRecordParser.parseAll(bytes, source: source)
  } catch {
    checkPlace(error, source: source, text: String(decoding: bytes, as: UTF8.self), breaks: .yaml)
    return 0
  }
  guard !recordings.isEmpty else { fuzzFailure("a file accepted with no device") }
  replayChecked(recordings)
  let again = roundTrip(recordings, source: source)
  guard again.count == recordings.count else {
    fuzzFailure("\(recordings.count) devices written, \(again.count) read back")
  }
  for (before, after) in zip(recordings, again) {
    let (a, b) = (before.description, after.description)
    guard after.events == before.events else { fuzzFailure("events changed in a round trip") }
    guard a.name == b.name, a.id == b.id, a.properties == b.properties else {
      fuzzFailure("name, id or properties changed in a round trip: \(a) -> \(b)")
    }
    let axes = a.absInfo.filter { a.has(type: EV.abs, code: $0.key) }
    guard b.absInfo == axes else { fuzzFailure("axes changed in a round trip: \(a.absInfo) -> \(b.absInfo)") }
    var types = a.events.filter { $0.key != EV.syn }
    types[EV.syn] = Set(types.keys).union([EV.syn])
    guard b.events == types else { fuzzFailure("event codes changed in a round trip: \(a.events) -> \(b.events)") }
  }
  return 0
}

/// The recordings written by ``LibinputRecordWriter`` and read back.
func roundTrip(_ recordings: [Recording], source: String) -> [Recording] {
  let written = LibinputRecordWriter.write(
    recordings.enumerated().map { ($1, "/dev/input/event\($0)") }, kernel: "6.1.0")
  do {
    return try LibinputRecordParser.parseAll(Array(written.utf8), source: source)
  } catch {
    fuzzFailure("LibinputRecordWriter's text does not parse: \(error)\n\(written)")
  }
}

@_cdecl("FuzzLibinputRecord_main")
func fuzzLibinputRecordMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv, fuzzLibinputRecord)
}
