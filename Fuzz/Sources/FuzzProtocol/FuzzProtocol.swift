import Foundation
import FuzzSupport
import TouchDelivery
import TouchdDaemon
import TouchdScene

// The socket protocol: client lines in, replies out, through the daemon's own path (a line into
// `ClientSession.receive`, as `ClientHandler` hands it each line; a pipeline command into
// `WireProtocol.execute`, as the daemon runs it on its queue) against a live `SceneRuntime` built
// once from a scene with every kind of view the commands reach: plain views with recognizers, a
// scroll view, each control, a presses view. An input is one line; a newline in it starts another
// (so one input can subscribe, then set, then set again), each answered and checked on its own.
//
// Each reply must be: one line of valid JSON (the strict parser reads it, and so does Foundation's
// unless the echoed id holds a number beyond a Double), an object of type `reply` (with `ok` true) or `error` (with a non-empty message), with the
// line's `id` echoed (the value the line's first `id` member had; null when the line is not a JSON
// object). An error from decoding names its place: a quoted field or command (`'frame.width'`) or
// a column (`not JSON at column 7: …`), and stays short. A line the strict parser takes must be
// JSON to Foundation too, and one Foundation takes must be JSON to the strict parser, but for
// what the strict one refuses on purpose (nesting deeper than 64 levels, other encodings than
// UTF-8, trailing commas, which Foundation takes) and numbers Foundation cannot represent.

/// The scene the commands run against.
let sceneYAML = """
  version: 1
  windows:
    - id: main
      size: {width: 1280, height: 800}
      devices: ["*"]
      keys:
        devices: ["Kiosk Keypad"]
        map: {KEY_ENTER: select, KEY_UP: upArrow, KEY_F1: help}
      firstResponder: panel
      views:
        - id: root
          frame: {x: 0, y: 0, width: 1280, height: 800}
          recognizers:
            - {id: hold, type: longPress, action: open-help, allowedPressTypes: [help]}
            - {id: swipe-left, type: swipe, action: next, direction: left}
          views:
            - id: panel
              frame: {x: 0, y: 0, width: 600, height: 400}
              presses: true
              recognizers:
                - {id: panel-tap, type: tap, action: select, allowedPressTypes: [select]}
                - {id: panel-pan, type: pan, action: drag}
                - {id: panel-pinch, type: pinch, action: zoom}
            - id: list
              frame: {x: 600, y: 0, width: 400, height: 400}
              scroll:
                contentSize: {width: 400, height: 2000}
              views:
                - {id: row-1, frame: {x: 0, y: 0, width: 400, height: 96}, touches: true,
                   recognizers: [{id: row-1-tap, type: tap, action: buy-1}]}
                - {id: row-2, frame: {x: 0, y: 100, width: 400, height: 96}, touches: true}
            - id: language
              frame: {x: 0, y: 420, width: 368, height: 56}
              control: {type: segmented, segments: [en, de, fr], selectedSegmentIndex: 0,
                        actions: {valueChanged: language}}
            - id: count
              frame: {x: 400, y: 420, width: 188, height: 58}
              control: {type: stepper, value: 1, minimumValue: 1, maximumValue: 10,
                        actions: {valueChanged: count}}
            - id: receipt
              frame: {x: 600, y: 420, width: 51, height: 31}
              control: {type: switch, on: true, actions: {valueChanged: receipt}}
            - id: volume
              frame: {x: 700, y: 420, width: 368, height: 56}
              control: {type: slider, value: 0.5, actions: {valueChanged: volume}}
            - id: buy
              frame: {x: 0, y: 500, width: 360, height: 112}
              control: {type: button, actions: {touchUpInside: buy}}
  """

/// The scene, parsed once: a `reload` builds a fresh runtime from it (parsing the YAML again on
/// every fuzzed `reload` would cost milliseconds each and tell nothing about the protocol).
let scene: SceneDocument = {
  do {
    return try Scene.parseDocument(sceneYAML, file: "fuzz-protocol.yaml")
  } catch {
    fuzzFailure("the fuzz scene does not load: \(error)")
  }
}()

/// The live runtime (a `reload` builds it again) and the client's session.
nonisolated(unsafe) var runtime = makeRuntime()
nonisolated(unsafe) var session = ClientSession()

func makeRuntime(_ scene: SceneDocument = scene) -> SceneRuntime {
  SceneRuntime(document: scene, clock: VirtualClock()) { _ in }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocol(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = fuzzBytes(data, size)
  for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
    check(Array(line))
  }
  return 0
}

/// Where a reply came from: the server's decoding (and `ping`, `subscribe`), or the pipeline.
enum Stage {
  case server
  case pipeline
}

/// Answers one line through the daemon's path and checks the reply.
func check(_ line: [UInt8]) {
  let text = line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
  let blank = text.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
  let strict = Result { () throws(StrictJSON.SyntaxError) in try StrictJSON.parse(text) }
  if !blank { compareWithFoundation(text, strict) }
  // The id the reply must carry: the first `id` member of a JSON object; null otherwise.
  var expectedID = StrictJSON.null
  if case .success(.object(let members)) = strict, let id = members.first(where: { $0.key == "id" }) {
    expectedID = id.value
  }
  switch session.receive(line) {
  case .none:
    if !blank { fuzzFailure("a non-blank line got no answer: \(String(decoding: line, as: UTF8.self))") }
  case .reply(let reply):
    if blank { fuzzFailure("a blank line got an answer: \(reply)") }
    checkReply(reply, id: expectedID, stage: .server)
  case .pipeline(let command):
    if blank { fuzzFailure("a blank line became a command") }
    let result: CommandResult
    if case .reload = command.request {
      // The daemon reads the file off its pipeline, then builds it: here, the fuzz target's scene.
      runtime = makeRuntime(scene)
      result = .ok(fieldsJSON: "")
    } else {
      result = WireProtocol.execute(
        command.request, runtime: runtime, status: { #""clients":1"# }, metrics: { "touchd_clients 1\n" },
        pushScene: { pushed in
          runtime = makeRuntime(pushed)
          return .ok(fieldsJSON: "")
        })
    }
    checkReply(WireProtocol.reply(idJSON: command.idJSON, result), id: expectedID, stage: .pipeline)
  }
}

func checkReply(_ reply: String, id expectedID: StrictJSON, stage: Stage) {
  if reply.contains("\n") { fuzzFailure("a reply of more than one line: \(reply)") }
  guard case .success(.object(let members)) = Result(catching: { try StrictJSON.parse(reply) }) else {
    fuzzFailure("a reply the strict parser cannot read as a JSON object: \(reply)")
  }
  // Foundation must read it too, but for an id with a number beyond a Double (echoed as written).
  do {
    _ = try JSONSerialization.jsonObject(with: Data(reply.utf8))
  } catch {
    let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
    if !(reason.contains("not representable") && expectedID.compact.contains(where: \.isNumber)) {
      fuzzFailure("a reply Foundation cannot read (\(reason)): \(reply)")
    }
  }
  let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
  guard members.count == fields.count else { fuzzFailure("a reply with a key twice: \(reply)") }
  guard members.first?.key == "type", members.dropFirst().first?.key == "id" else {
    fuzzFailure("a reply not starting with type and id: \(reply)")
  }
  let id = members[1].value
  if id != expectedID { fuzzFailure("id \(expectedID.compact) came back as \(id.compact): \(reply)") }
  switch fields["type"] {
  case .string("reply"):
    guard fields["ok"] == .bool(true) else { fuzzFailure("a reply without ok true: \(reply)") }
  case .string("error"):
    guard case .string(let message) = fields["message"], !message.isEmpty, members.count == 3 else {
      fuzzFailure("an error without a message: \(reply)")
    }
    guard stage == .server else { return }
    // A quoted name (`''` is the empty name, which is a name too) or a column. Quotes are counted
    // in UTF-8: a name that starts with a combining mark joins the quote before it into one
    // Character.
    let namesItsPlace =
      (message.hasPrefix("not JSON at column ") && message.contains(": "))
      || message.hasPrefix("a command must be a JSON object, found ")
      || message.utf8.count(where: { $0 == UInt8(ascii: "'") }) >= 2
      // A pushed scene's problems are placed by their path from the `scene` field.
      || message.hasPrefix("scene rejected, the old scene stays: scene")
    if !namesItsPlace { fuzzFailure("a decoding error that names no field or column: \(message)") }
    if message.utf8.count > 600 { fuzzFailure("an error message of \(message.utf8.count) bytes: \(message)") }
  default:
    fuzzFailure("a reply of another type: \(reply)")
  }
}

/// The strict parser and Foundation's agree on what is JSON, but for the strict parser's own
/// bounds (nesting) and Foundation's (numbers beyond a Double).
func compareWithFoundation(_ text: [UInt8], _ strict: Result<StrictJSON, StrictJSON.SyntaxError>) {
  let foundation = Result { try JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed]) }
  switch (strict, foundation) {
  case (.success, .failure(let error)):
    let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
    if reason.contains("not representable") { return }
    fuzzFailure("strict JSON accepts what Foundation refuses (\(reason)): \(String(decoding: text, as: UTF8.self))")
  case (.failure(let error), .success):
    if error.problem.hasPrefix("nesting deeper than") { return }
    // Foundation takes a trailing comma (`{"x":0,}`, `[1,]`); JSON does not.
    if error.offset < text.count, text[error.offset] == UInt8(ascii: "}") || text[error.offset] == UInt8(ascii: "]"),
      text[..<error.offset].last(where: { ![0x20, 0x09, 0x0D].contains($0) }) == UInt8(ascii: ",")
    {
      return
    }
    // Foundation guesses UTF-16 and UTF-32 from NUL bytes at the start, and skips byte order
    // marks; the protocol is UTF-8 only.
    let head = Array(text.prefix(4))
    if head.contains(0) || head.starts(with: [0xEF, 0xBB, 0xBF]) || head.starts(with: [0xFE, 0xFF])
      || head.starts(with: [0xFF, 0xFE])
    {
      return
    }
    fuzzFailure("strict JSON refuses what Foundation accepts (\(error)): \(String(decoding: text, as: UTF8.self))")
  default: return
  }
}

@_cdecl("FuzzProtocol_main")
func fuzzProtocolMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv, fuzzProtocol)
}
