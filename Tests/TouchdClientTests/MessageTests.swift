import Foundation
import Testing

@testable import TouchdClient

/// Decoding the daemon's lines (the examples of docs/protocol.md) and encoding commands, without
/// a daemon.
struct MessageTests {
  private func decode(_ line: String) throws -> TouchdMessage {
    try JSONDecoder().decode(TouchdMessage.self, from: Data(line.utf8))
  }

  @Test func helloAndActions() throws {
    let hello = try decode(
      #"{"type":"hello","version":1,"instance":"5f0c9a3e7d21b486","windows":[{"id":"main","width":1920,"height":1080}],"views":12}"#
    )
    #expect(
      hello
        == .hello(
          .init(
            version: 1, instance: "5f0c9a3e7d21b486", windows: [.init(id: "main", width: 1920, height: 1080)], views: 12
          )))
    let tap = try decode(
      #"{"type":"action","seq":17,"action":"open-door","gesture":"tap","state":"ended","view":"door","window":"main","recognizer":"door-tap","time":1234.567891,"location":{"x":250,"y":180},"numberOfTouches":1,"later":{"a":[1]}}"#
    )
    guard case .action(let action) = tap else {
      Issue.record("\(tap)")
      return
    }
    #expect(tap.seq == 17 && tap.type == "action")
    #expect(action.action == "open-door" && action.gesture == "tap" && action.state == "ended")
    #expect(action.view == "door" && action.window == "main" && action.recognizer == "door-tap")
    #expect(action.time == 1234.567891 && action.location == .init(x: 250, y: 180) && action.numberOfTouches == 1)
    #expect(action.velocity == nil && action.value == nil)

    let pan = try decode(
      #"{"type":"action","seq":3,"action":"drag","gesture":"pan","state":"changed","view":"v","window":"main","recognizer":"p","time":1,"location":{"x":1,"y":2},"numberOfTouches":1,"translation":{"x":10,"y":-4.5},"velocity":{"x":100,"y":-45}}"#
    )
    guard case .action(let panAction) = pan else {
      Issue.record("not .action: \(pan)")
      return
    }
    #expect(panAction.translation == .init(x: 10, y: -4.5))
    #expect(panAction.velocity == .vector(.init(x: 100, y: -45)) && panAction.velocity?.scalar == nil)
    let pinch = try decode(
      #"{"type":"action","seq":4,"action":"zoom","gesture":"pinch","state":"changed","view":"v","window":"main","recognizer":"z","time":1,"location":{"x":1,"y":2},"numberOfTouches":2,"scale":1.5,"velocity":0.25}"#
    )
    guard case .action(let pinchAction) = pinch else {
      Issue.record("not .action: \(pinch)")
      return
    }
    #expect(pinchAction.scale == 1.5 && pinchAction.velocity?.scalar == 0.25)

    let control = try decode(
      #"{"type":"action","seq":52,"action":"volume","gesture":"control","event":"valueChanged","control":"slider","view":"volume","window":"main","time":1234.8,"value":0.42}"#
    )
    guard case .action(let slider) = control else {
      Issue.record("not .action: \(control)")
      return
    }
    #expect(slider.event == "valueChanged" && slider.control == "slider" && slider.value == 0.42)
    #expect(slider.state == nil && slider.location == nil && slider.recognizer == nil)
  }

  @Test func pipelineMessagesOfEveryType() throws {
    let touches = try decode(
      #"{"type":"touches","seq":18,"phase":"began","view":"canvas","window":"main","time":1234.6,"touches":[{"id":7,"view":"canvas-child","phase":"began","x":410,"y":300,"tapCount":1}]}"#
    )
    #expect(
      touches
        == .touches(
          .init(
            seq: 18, phase: "began", view: "canvas", window: "main", time: 1234.6,
            touches: [.init(id: 7, view: "canvas-child", phase: "began", x: 410, y: 300, tapCount: 1)])))
    let entries = try decode(
      #"{"type":"touches","seq":19,"phase":"moved","view":"canvas","window":"main","time":1234.616,"touches":[{"id":7,"view":"canvas","phase":"moved","x":414,"y":300,"tapCount":1}],"coalesced":[{"id":7,"x":412,"y":300,"time":1234.608},{"id":7,"x":414,"y":300,"time":1234.616}],"predicted":[{"id":7,"x":415,"y":300,"time":1234.624}]}"#
    )
    guard case .touches(let m) = entries else { throw TestFailure("not touches: \(entries)") }
    #expect(
      m.coalesced == [.init(id: 7, x: 412, y: 300, time: 1234.608), .init(id: 7, x: 414, y: 300, time: 1234.616)])
    #expect(m.predicted == [.init(id: 7, x: 415, y: 300, time: 1234.624)])
    if case .touches(let plain) = touches { #expect(plain.coalesced == nil && plain.predicted == nil) }
    let scroll = try decode(
      #"{"type":"scroll","seq":41,"phase":"willEndDragging","view":"list","window":"main","time":1234.71,"contentOffset":{"x":0,"y":300},"velocity":{"x":0,"y":1.5},"targetContentOffset":{"x":0,"y":1049.2}}"#
    )
    #expect(
      scroll
        == .scroll(
          .init(
            seq: 41, phase: "willEndDragging", view: "list", window: "main", time: 1234.71,
            contentOffset: .init(x: 0, y: 300), velocity: .init(x: 0, y: 1.5),
            targetContentOffset: .init(x: 0, y: 1049.2), willDecelerate: nil)))
    let control = try decode(
      #"{"type":"control","seq":59,"control":"switch","view":"lang","window":"main","time":1235.0,"enabled":true,"highlighted":false,"selected":false,"on":true}"#
    )
    #expect(
      control
        == .control(
          .init(
            seq: 59, control: "switch", view: "lang", window: "main", time: 1235, enabled: true, highlighted: false,
            selected: false, on: true, value: nil, selectedSegmentIndex: nil)))
    let dots = try decode(
      #"{"type":"control","seq":64,"control":"pageControl","view":"dots","window":"main","time":1235.4,"enabled":true,"highlighted":false,"selected":false,"currentPage":2}"#
    )
    guard case .control(let page) = dots else { return #expect(Bool(false), "not a control message") }
    #expect(page.currentPage == 2 && page.value == nil && page.selectedSegmentIndex == nil && page.on == nil)
    let presses = try decode(
      #"{"type":"presses","seq":70,"phase":"began","view":"help-panel","window":"main","time":1236.1,"presses":[{"id":3,"type":"help","key":"KEY_F1","phase":"began"}]}"#
    )
    #expect(
      presses
        == .presses(
          .init(
            seq: 70, phase: "began", view: "help-panel", window: "main", time: 1236.1,
            presses: [.init(id: 3, type: "help", key: "KEY_F1", phase: "began")])))
    let idle = try decode(
      #"{"type":"idle","seq":80,"state":"idle","time":1356.3,"lastInput":null,"swallowed":false}"#)
    #expect(idle == .idle(.init(seq: 80, state: "idle", time: 1356.3, lastInput: nil, swallowed: false)))
    #expect(idle.seq == 80)
  }

  @Test func traceAndNotices() throws {
    let held = try decode(
      #"{"type":"trace","time":1234.8,"event":"held","touch":3,"view":"door","window":"main","phase":"began","by":["door-double"]}"#
    )
    guard case .trace(let trace) = held else {
      Issue.record("not .trace: \(held)")
      return
    }
    #expect(trace.event == "held" && trace.touch == 3 && trace.by == ["door-double"] && held.seq == nil)
    let cancelled = try decode(
      #"{"type":"trace","time":1,"event":"cancelledInView","touch":3,"view":"door","window":"main","by":"door-pan"}"#)
    guard case .trace(let byOne) = cancelled else {
      Issue.record("not .trace: \(cancelled)")
      return
    }
    #expect(byOne.by == ["door-pan"])
    let recognizer = try decode(
      #"{"type":"trace","time":1234.612,"event":"recognizer","recognizer":"door-tap","gesture":"tap","view":"door","window":"main","from":"possible","to":"failed","cause":"moved 46.2 pt > allowableMovement 45"}"#
    )
    guard case .trace(let step) = recognizer else {
      Issue.record("not .trace: \(recognizer)")
      return
    }
    #expect(step.from == "possible" && step.to == "failed" && step.cause?.hasPrefix("moved") == true)

    #expect(try decode(#"{"type":"gap","skipped":12}"#) == .gap(.init(skipped: 12)))
    #expect(
      try decode(#"{"type":"reloaded","source":"file","windows":[],"views":3}"#)
        == .reloaded(.init(source: "file", windows: [], views: 3)))
    #expect(try decode(#"{"type":"shutdown"}"#) == .shutdown)
    #expect(
      try decode(
        #"{"type":"calibration","window":"main","target":1,"targets":3,"at":{"x":100,"y":100},"touched":{"x":0.05,"y":0.09}}"#
      )
        == .calibration(
          .init(window: "main", target: 1, targets: 3, at: .init(x: 100, y: 100), touched: .init(x: 0.05, y: 0.09)))
    )
    #expect(
      try decode(#"{"type":"news","x":[1,"a",null]}"#) == .unknown(type: "news", fields: ["x": [1, "a", .null]]))
    #expect(try decode(#"{"type":"swipes","seq":9}"#).seq == 9)
    let reply = try decode(#"{"type":"reply","id":4,"ok":true,"types":["touches"],"actions":[],"views":[]}"#)
    guard case .reply(let r) = reply else {
      Issue.record("not .reply: \(reply)")
      return
    }
    #expect(r.id == 4 && r.fields == ["types": ["touches"], "actions": [], "views": []] && r["types"]?[0] == "touches")
    guard case .error(let error) = try decode(#"{"type":"error","id":null,"message":"access denied"}"#) else {
      Issue.record("not an error")
      return
    }
    #expect(error.id == .null && error.message == "access denied")
    let value = try decode(#"{"type":"error","message":"x"}"#)
    guard case .error(let noID) = value else {
      Issue.record("not .error: \(value)")
      return
    }
    #expect(noID.id == .null)
  }

  @Test func aLineTheClientCannotReadWhole() {
    let decoder = JSONDecoder()
    // A known type without a field this version requires: unknown, its seq still counted.
    #expect(
      TouchdClient.parse(Data(#"{"type":"action","seq":5,"action":"x"}"#.utf8), decoder: decoder)
        == .unknown(type: "action", fields: ["seq": 5, "action": "x"]))
    #expect(TouchdClient.parse(Data(#"{"seq":5}"#.utf8), decoder: decoder) == .unknown(type: "", fields: ["seq": 5]))
    #expect(TouchdClient.parse(Data("[1]".utf8), decoder: decoder) == nil)
    #expect(TouchdClient.parse(Data("{".utf8), decoder: decoder) == nil)
    #expect(TouchdClient.parse(Data(), decoder: decoder) == nil)
  }

  @Test func jsonValuesKeepTheirKinds() throws {
    let value = try TouchdJSON(parsing: #"{"a":true,"b":1,"c":1.5,"d":"x","e":[null],"f":{}}"#)
    #expect(value["a"] == .bool(true) && value["a"]?.intValue == nil)
    #expect(value["b"] == .number(1) && value["b"]?.boolValue == nil && value["b"]?.intValue == 1)
    #expect(value["c"]?.intValue == nil && value["c"]?.doubleValue == 1.5)
    #expect(value["d"]?.stringValue == "x" && value["e"]?[0]?.isNull == true && value["e"]?[1] == nil)
    #expect(value["f"] == .object([:]))
    #expect(try value.jsonText() == #"{"a":true,"b":1,"c":1.5,"d":"x","e":[null],"f":{}}"#)
    #expect(try TouchdJSON.string("a\"b\\\n\u{1}é").jsonText() == #""a\"b\\\n\u0001é""#)
    #expect(throws: EncodingError.self) { try TouchdJSON.number(.infinity).jsonText() }
    struct Scene: Encodable { var version = 1 }
    #expect(try TouchdJSON(encoding: Scene()) == ["version": 1])
  }

  @Test func commandLines() throws {
    let fields = try TouchdClient.encode(["view": "door", "frame": ["x": 0, "y": 0.5, "width": 10, "height": 1e20]])
    #expect(
      TouchdClient.line("set", id: 7, encodedFields: fields)
        == #"{"cmd":"set","id":7,"frame":{"height":1e+20,"width":10,"x":0,"y":0.5},"view":"door"}"# + "\n")
    #expect(
      TouchdClient.line("ping", id: 1, encodedFields: try TouchdClient.encode(["id": 5, "cmd": "x"]))
        == "{\"cmd\":\"ping\",\"id\":1}\n")
  }

  @Test func backoffDoublesUpToItsMaximumWithJitter() {
    let policy = TouchdClient.ReconnectPolicy.default
    #expect(policy.delay(afterFailures: 0) == .zero)
    for (failures, base) in [(1, 0.05), (2, 0.1), (3, 0.2), (6, 1.6), (7, 2.0), (50, 2.0)] {
      for _ in 0..<20 {
        let delay = policy.delay(afterFailures: failures).seconds
        #expect(delay >= base * 0.8 - 1e-9 && delay <= min(2, base * 1.2) + 1e-9, "\(failures): \(delay)")
      }
    }
  }
}
