import Foundation
import Testing
import TouchDelivery
import TouchdScene

@Suite("Messages")
struct MessageTests {
  @Test("An action message has the documented keys in order")
  func actionLine() {
    let m = Message.action(
      ActionMessage(
        seq: 3, action: "open-door", gesture: .tap, state: .ended, view: "door", window: "main",
        recognizer: "door-tap", time: 12.5, location: Point(x: 250, y: 200.25), numberOfTouches: 1))
    #expect(
      m.jsonLine
        == #"{"type":"action","seq":3,"action":"open-door","gesture":"tap","state":"ended","view":"door","window":"main","recognizer":"door-tap","time":12.5,"location":{"x":250,"y":200.25},"numberOfTouches":1}"#
    )
  }

  @Test("Per-gesture values follow numberOfTouches")
  func gestureValues() {
    func line(_ gesture: RecognizerType, _ values: GestureValues) -> String {
      ActionMessage(
        seq: 1, action: "a", gesture: gesture, state: .changed, view: "v", window: "w", recognizer: "r", time: 1,
        location: .zero, numberOfTouches: 2, values: values
      ).jsonLine
    }
    #expect(
      line(.pan, .pan(translation: Point(x: 10, y: -0.0), velocity: Point(x: 100.1234567, y: 0))).hasSuffix(
        #""numberOfTouches":2,"translation":{"x":10,"y":0},"velocity":{"x":100.123457,"y":0}}"#))
    #expect(line(.pinch, .pinch(scale: 1.5, velocity: -0.25)).hasSuffix(#""scale":1.5,"velocity":-0.25}"#))
    #expect(line(.rotation, .rotation(rotation: 0.5, velocity: 1)).hasSuffix(#""rotation":0.5,"velocity":1}"#))
    #expect(line(.swipe, .swipe(direction: "left")).hasSuffix(#""direction":"left"}"#))
  }

  @Test("A touches message lists exactly its touches, sorted by id")
  func touchesLine() {
    let m = Message.touches(
      TouchesMessage(
        seq: 9, phase: .moved, view: "canvas", window: "main", time: 2.000001,
        touches: [
          .init(id: 8, view: "canvas", phase: .moved, x: 1, y: 2, tapCount: 1),
          .init(id: 7, view: "canvas-child", phase: .moved, x: 3.5, y: 4, tapCount: 2),
        ]))
    #expect(m.seq == 9)
    #expect(
      m.jsonLine
        == #"{"type":"touches","seq":9,"phase":"moved","view":"canvas","window":"main","time":2.000001,"touches":[{"id":7,"view":"canvas-child","phase":"moved","type":"direct","x":3.5,"y":4,"tapCount":2},{"id":8,"view":"canvas","phase":"moved","type":"direct","x":1,"y":2,"tapCount":1}]}"#
    )
  }

  @Test("Numbers: six decimals at most, no exponent, no negative zero")
  func numbers() {
    #expect(JSONFormat.number(0) == "0")
    #expect(JSONFormat.number(-0.0) == "0")
    #expect(JSONFormat.number(-0.0000001) == "0")
    #expect(JSONFormat.number(1e-7) == "0")
    #expect(JSONFormat.number(0.1 + 0.2) == "0.3")
    #expect(JSONFormat.number(-1.5) == "-1.5")
    #expect(JSONFormat.number(123456.0000004) == "123456")
    #expect(JSONFormat.number(1e20) == "100000000000000000000")
    #expect(JSONFormat.number(.nan) == "null")
  }

  @Test("Strings are escaped and every line parses as JSON")
  func escaping() throws {
    let m = ActionMessage(
      seq: 1, action: "say \"hi\"\n\\", gesture: .tap, state: .ended, view: "v\u{1}", window: "w", recognizer: "r",
      time: 0, location: .zero, numberOfTouches: 1)
    #expect(m.jsonLine.contains(#""action":"say \"hi\"\n\\""#))
    #expect(m.jsonLine.contains(#""view":"v\u0001""#))
    let object = try JSONSerialization.jsonObject(with: Data(m.jsonLine.utf8)) as? [String: Any]
    #expect(object?["action"] as? String == "say \"hi\"\n\\")
  }
}
