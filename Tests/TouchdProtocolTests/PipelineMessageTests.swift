import Foundation
import Testing
import TouchdProtocol

/// The pipeline's messages both ways (Sources/TouchdProtocol/Messages/Pipeline): each value encodes
/// (the daemon's hand-written encoder), decodes back through the strict reader and compares equal;
/// lines with keys a message does not know still decode; a field of the wrong type is refused.
/// (The bytes themselves are pinned by TouchdSceneTests' goldens and MessageTests.)
@Suite("Pipeline messages: encode, decode, compare")
struct PipelineMessageTests {
  static let origin = WirePoint(x: 412.5, y: -3)

  /// One message of every kind and variant the daemon writes.
  static let actions: [ActionMessage] = [
    ActionMessage(
      seq: 3, action: "open-door", view: "door", window: "main", time: 12.5,
      detail: .recognizer(
        gesture: "tap", state: "ended", recognizer: "door-tap", location: origin, numberOfTouches: 1, press: nil,
        values: .none)),
    ActionMessage(
      seq: 4, action: "drag", view: "v", window: "w", time: 1,
      detail: .recognizer(
        gesture: "pan", state: "changed", recognizer: "p", location: origin, numberOfTouches: 2, press: nil,
        values: .pan(translation: WirePoint(x: 10, y: -4.5), velocity: WirePoint(x: 100, y: 0)))),
    ActionMessage(
      seq: 5, action: "zoom", view: "v", window: "w", time: 1,
      detail: .recognizer(
        gesture: "pinch", state: "began", recognizer: "z", location: origin, numberOfTouches: 2, press: nil,
        values: .pinch(scale: 1.5, velocity: -0.25))),
    ActionMessage(
      seq: 6, action: "turn", view: "v", window: "w", time: 1,
      detail: .recognizer(
        gesture: "rotation", state: "cancelled", recognizer: "r", location: origin, numberOfTouches: 2, press: nil,
        values: .rotation(rotation: 0.5, velocity: 1))),
    ActionMessage(
      seq: 7, action: "next", view: "v", window: "w", time: 1,
      detail: .recognizer(
        gesture: "swipe", state: "ended", recognizer: "s", location: origin, numberOfTouches: 1, press: nil,
        values: .swipe(direction: "left"))),
    ActionMessage(
      seq: 8, action: "pick", view: "v", window: "w", time: 1,
      detail: .recognizer(
        gesture: "tap", state: "ended", recognizer: "t", location: origin, numberOfTouches: 0, press: "select",
        values: .none)),
    ActionMessage(
      seq: 9, action: "buy", event: "touchUpInside", control: "button", view: "buy", window: "w", time: 2,
      value: .none),
    ActionMessage(
      seq: 10, action: "lang", event: "valueChanged", control: "switch", view: "l", window: "w", time: 2,
      value: .on(false)),
    ActionMessage(
      seq: 11, action: "volume", event: "valueChanged", control: "slider", view: "vol", window: "w", time: 2,
      value: .value(2)),
    ActionMessage(
      seq: 12, action: "tab", event: "valueChanged", control: "segmented", view: "tabs", window: "w", time: 2,
      value: .selectedSegmentIndex(2)),
    ActionMessage(
      seq: 13, action: "page", event: "valueChanged", control: "pageControl", view: "dots", window: "w", time: 2,
      value: .currentPage(3)),
  ]

  static let controls: [ControlMessage] = [
    ControlMessage(
      seq: 1, control: "button", view: "b", window: "w", time: 1, enabled: true, highlighted: true, selected: false,
      value: .none),
    ControlMessage(
      seq: 2, control: "switch", view: "s", window: "w", time: 1, enabled: false, highlighted: false, selected: true,
      value: .on(true)),
    ControlMessage(
      seq: 3, control: "slider", view: "v", window: "w", time: 1, enabled: true, highlighted: false, selected: false,
      value: .value(0.42)),
    ControlMessage(
      seq: 4, control: "segmented", view: "g", window: "w", time: 1, enabled: true, highlighted: false,
      selected: false, value: .selectedSegmentIndex(-1)),
    ControlMessage(
      seq: 5, control: "pageControl", view: "dots", window: "w", time: 1, enabled: true, highlighted: true,
      selected: false, value: .currentPage(2)),
  ]

  static let touches = TouchesMessage(
    seq: 9, phase: "moved", view: "pad \"1\"", window: "main", time: 12.000001,
    touches: [
      .init(id: 8, view: "pad", phase: "moved", x: 1.25, y: -3, tapCount: 1),
      .init(id: 7, view: "p\\ad", phase: "stationary", x: 0, y: 0, tapCount: 2),
    ])

  static let scrolls: [ScrollMessage] = [
    ScrollMessage(
      seq: 1, phase: "didScroll", view: "list", window: "w", time: 1, contentOffset: WirePoint(x: 0, y: 300)),
    ScrollMessage(
      seq: 2, phase: "willEndDragging", view: "list", window: "w", time: 1, contentOffset: WirePoint(x: 0, y: 300),
      velocity: WirePoint(x: 0, y: 1.5), targetContentOffset: WirePoint(x: 0, y: 1049.2)),
    ScrollMessage(
      seq: 3, phase: "didEndDragging", view: "list", window: "w", time: 1, contentOffset: WirePoint(x: 0, y: 300),
      willDecelerate: true),
  ]

  static let presses = PressesMessage(
    seq: 70, phase: "began", view: "help-panel", window: "main", time: 1236.1,
    presses: [
      .init(id: 4, type: "select", key: "KEY_ENTER", phase: "began"),
      .init(id: 3, type: "help", key: "KEY_F1", phase: "began"),
    ])

  static let idles: [IdleMessage] = [
    IdleMessage(seq: 80, isIdle: true, time: 1356.3, lastInput: nil, swallowed: false),
    IdleMessage(seq: 81, isIdle: false, time: 1357, lastInput: 1357, swallowed: true),
  ]

  static let recognizer = TraceMessage.RecognizerInfo(id: "door-tap", gesture: "tap", view: "door", window: "main")
  static let touch = TraceMessage.TouchInfo(id: 3, view: "x", window: "w")
  static let traces: [TraceMessage] = [
    .init(time: 1, event: .recognizer(recognizer, from: "possible", to: "failed", cause: "moved 46.2 pt")),
    .init(
      time: 1,
      event: .recognizer(
        .init(id: "TapGestureRecognizer", gesture: nil, view: "v", window: "w"), from: "ended", to: "possible",
        cause: "reset")),
    .init(time: 1, event: .waiting(recognizer, to: "ended", requirement: "door-double")),
    .init(
      time: 1, event: .touchBegan(touch, location: origin, tapCount: 2, recognizers: ["a", "b"], notes: ["'c' off"])),
    .init(time: 1, event: .touchSwallowed(touch: 4, window: nil, location: origin, reason: "no window")),
    .init(time: 1, event: .touchSwallowed(touch: 4, window: "w", location: origin, reason: "no view was hit")),
    .init(time: 1, event: .held(touch, phase: "began", by: ["door-double"])),
    .init(time: 1, event: .held(touch, phase: "moved", by: [])),
    .init(time: 1, event: .released(touch, phase: "ended", location: origin)),
    .init(time: 1, event: .cancelledInView(touch, by: "door-pan")),
    .init(time: 1, event: .voiceOverGesture(gesture: "flick", fingers: 3, direction: "left", window: "w")),
    .init(time: 1, event: .voiceOverGesture(gesture: "doubleTapAndHold", fingers: 1, direction: nil, window: "w")),
  ]

  /// Encodes `message`, decodes the line back (by `init(jsonLine:)` and by `JSONDecoder`), and
  /// expects the same value; re-encoding gives the same line.
  func roundTrip<M: WireMessage>(_ message: M) throws {
    let line = message.jsonLine
    let decoded = try M(jsonLine: line)
    #expect(decoded == message, "\(line)")
    #expect(decoded.jsonLine == line)
    let viaCodable = try JSONDecoder().decode(M.self, from: Data(line.utf8))
    #expect(viaCodable == message, "JSONDecoder: \(line)")
  }

  @Test("Every kind and variant round-trips") func everyMessageRoundTrips() throws {
    for m in Self.actions { try roundTrip(m) }
    for m in Self.controls { try roundTrip(m) }
    for m in Self.scrolls { try roundTrip(m) }
    for m in Self.idles { try roundTrip(m) }
    for m in Self.traces { try roundTrip(m) }
    try roundTrip(Self.touches)
    try roundTrip(Self.touchesWithEntries)
    try roundTrip(Self.presses)
  }

  static let touchesWithEntries = TouchesMessage(
    seq: 9, phase: "moved", view: "pad", window: "main", time: 12.5,
    touches: [.init(id: 8, view: "pad", phase: "moved", x: 1.25, y: -3, tapCount: 1)],
    coalesced: [.init(id: 8, x: 1, y: -3, time: 12.49), .init(id: 8, x: 1.25, y: -3, time: 12.5)],
    predicted: [.init(id: 8, x: 1.5, y: -3, time: 12.508)])

  @Test("Touches' coalesced and predicted entries: after touches, their places in the line, decoded back")
  func touchesEntries() throws {
    let plain =
      #"{"type":"touches","seq":9,"phase":"moved","view":"pad","window":"main","time":12.5,"touches":[{"id":8,"view":"pad","phase":"moved","x":1.25,"y":-3,"tapCount":1}]"#
    let coalesced = #","coalesced":[{"id":8,"x":1,"y":-3,"time":12.49},{"id":8,"x":1.25,"y":-3,"time":12.5}]"#
    let predicted = #","predicted":[{"id":8,"x":1.5,"y":-3,"time":12.508}]"#
    let message = Self.touchesWithEntries
    #expect(message.jsonLine == plain + coalesced + predicted + "}")
    let (line, c, p) = message.jsonLineWithEntries
    #expect(line == message.jsonLine)
    let bytes = Array(line.utf8)
    #expect(c == plain.utf8.count..<(plain.utf8.count + coalesced.utf8.count))
    #expect(p == (c?.upperBound ?? 0)..<(bytes.count - 1))
    var only = message
    only.coalesced = nil
    #expect(only.jsonLine == plain + predicted + "}")
    #expect(only.jsonLineWithEntries.coalesced == nil)
    only.predicted = []
    #expect(only.jsonLine == plain + #","predicted":[]}"#)
    // Without entries, the line it always was.
    var none = message
    (none.coalesced, none.predicted) = (nil, nil)
    #expect(none.jsonLine == plain + "}")
    #expect(try TouchesMessage(jsonLine: none.jsonLine).coalesced == nil)
    #expect(
      error(plain + #","coalesced":[{"id":8,"x":1,"y":-3}]}"#, TouchesMessage.self)
        == "missing field 'coalesced[0].time' (a number)")
    #expect(
      error(plain + #","predicted":{"id":8}}"#, TouchesMessage.self)
        == "'predicted' must be an array of {id, x, y, time}, found an object")
  }

  @Test("The two key orders of action") func actionKeyOrders() {
    #expect(
      Self.actions[5].jsonLine
        == #"{"type":"action","seq":8,"action":"pick","gesture":"tap","state":"ended","view":"v","window":"w","recognizer":"t","time":1,"location":{"x":412.5,"y":-3},"numberOfTouches":0,"press":"select"}"#
    )
    #expect(
      Self.actions[7].jsonLine
        == #"{"type":"action","seq":10,"action":"lang","gesture":"control","event":"valueChanged","control":"switch","view":"l","window":"w","time":2,"value":false}"#
    )
    #expect(Self.actions[6].gesture == "control" && Self.actions[6].state == nil && Self.actions[6].location == nil)
    #expect(Self.actions[1].gesture == "pan" && Self.actions[1].translation == WirePoint(x: 10, y: -4.5))
  }

  @Test("A page control's page: `currentPage` in its control message, a bare integer `value` in its action")
  func pageControlValue() throws {
    #expect(
      Self.controls[4].jsonLine
        == #"{"type":"control","seq":5,"control":"pageControl","view":"dots","window":"w","time":1,"enabled":true,"highlighted":true,"selected":false,"currentPage":2}"#
    )
    #expect(
      Self.actions[10].jsonLine
        == #"{"type":"action","seq":13,"action":"page","gesture":"control","event":"valueChanged","control":"pageControl","view":"dots","window":"w","time":2,"value":3}"#
    )
    // The action's bare number is the page only for a page control: a slider's is its value.
    let slider = Self.actions[10].jsonLine.replacingOccurrences(of: "pageControl", with: "slider")
    #expect(try ActionMessage(jsonLine: slider).controlValue == .value(3))
    let fraction = Self.actions[10].jsonLine.replacingOccurrences(of: #""value":3"#, with: #""value":2.5"#)
    #expect(
      error(fraction, ActionMessage.self) == "'value' must be an integer, found 2.5")
  }

  @Test("Keys a message does not know are ignored") func unknownKeysIgnored() throws {
    let action = try ActionMessage(
      jsonLine:
        #"{"type":"action","seq":17,"action":"open-door","gesture":"tap","state":"ended","view":"door","window":"main","recognizer":"door-tap","time":1234.567891,"location":{"x":250,"y":180,"z":0},"numberOfTouches":1,"later":{"a":[1]}}"#
    )
    #expect(action.seq == 17 && action.location == WirePoint(x: 250, y: 180) && action.values == .none)
    let idle = try IdleMessage(
      jsonLine: #"{"type":"idle","seq":80,"state":"idle","time":1356.3,"lastInput":null,"swallowed":false,"why":"x"}"#)
    #expect(idle == IdleMessage(seq: 80, state: "idle", time: 1356.3, lastInput: nil, swallowed: false))
    let touches = try TouchesMessage(
      jsonLine:
        #"{"type":"touches","seq":1,"phase":"began","view":"v","window":"w","time":1,"touches":[{"id":1,"view":"v","phase":"began","x":1,"y":2,"force":0.5}],"extra":true}"#
    )
    #expect(touches.touches == [.init(id: 1, view: "v", phase: "began", x: 1, y: 2, tapCount: nil)])
    // A word this version does not know is kept: vocabularies are strings.
    let scroll = try ScrollMessage(
      jsonLine:
        #"{"type":"scroll","seq":2,"phase":"didZoom","view":"v","window":"w","time":1,"contentOffset":{"x":0,"y":0}}"#)
    #expect(scroll.phase == "didZoom")
    // A trace event this version does not know is read, and written back as it came.
    let later = #"{"type":"trace","time":1,"event":"stroke","view":"pad","points":[1,2],"done":true}"#
    let trace = try TraceMessage(jsonLine: later)
    #expect(trace.event == "stroke" && trace.view == "pad")
    #expect(trace.jsonLine == later)
  }

  @Test("A field of the wrong type, or a missing one, is refused") func wrongTypesRefused() {
    #expect(
      error(#"{"type":"idle","seq":"1","state":"idle","time":1,"lastInput":null}"#, IdleMessage.self)
        == #"'seq' must be an integer, found "1""#)
    #expect(
      error(#"{"type":"idle","seq":1,"state":"idle","time":1,"lastInput":null,"swallowed":1}"#, IdleMessage.self)
        == "'swallowed' must be true or false, found 1")
    #expect(
      error(#"{"type":"scroll","seq":1,"phase":"didScroll","view":"v","window":"w","time":1}"#, ScrollMessage.self)
        == #"missing field 'contentOffset' (an object {"x":..,"y":..})"#)
    #expect(
      error(
        #"{"type":"touches","seq":1,"phase":"began","view":"v","window":"w","time":1,"touches":[{"id":1.5}]}"#,
        TouchesMessage.self) == "'touches[0].id' must be an integer, found 1.5")
    #expect(
      error(
        #"{"type":"action","seq":1,"action":"a","gesture":"control","event":"e","control":"segmented","view":"v","window":"w","time":1,"value":true}"#,
        ActionMessage.self) == "'value' must be an integer, found true")
    #expect(error(#"{"type":"control","seq":1}"#, IdleMessage.self) == #"'type' must be "idle", found "control""#)
    #expect(error("[1]", IdleMessage.self) == "a message must be a JSON object, found an array")
    #expect(throws: (any Error).self) {
      try JSONDecoder().decode(IdleMessage.self, from: Data(#"{"type":"idle","seq":"1","state":"idle","time":1}"#.utf8))
    }
  }
}

/// The message reading `line` as `type` refuses it with; nil when it reads it.
private func error(_ line: String, _ type: (some WireMessage).Type) -> String? {
  do {
    _ = try type.init(jsonLine: line)
    return nil
  } catch {
    return error.message
  }
}
