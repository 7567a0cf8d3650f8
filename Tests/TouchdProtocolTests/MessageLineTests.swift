import Testing
import TouchdProtocol

/// A pipeline message's line as the protocol's writer spells it (the writer's numbers and strings
/// are checked against a reference in JSONFormatTests.swift).
@Suite("JSON lines of pipeline messages")
struct MessageLineTests {
  @Test("a touches message with several touches and escaped ids")
  func touchesLine() {
    let m = TouchesMessage(
      seq: 9, phase: "moved", view: "pad \"1\"", window: "main", time: 12.000001,
      touches: [
        .init(id: 8, view: "pad", phase: "moved", x: 1.25, y: -3, tapCount: 1),
        .init(id: 7, view: "p\\ad", phase: "stationary", x: 0, y: 1e-7, tapCount: 2),
      ])
    #expect(
      m.jsonLine
        == #"{"type":"touches","seq":9,"phase":"moved","view":"pad \"1\"","window":"main","time":12.000001,"touches":[{"id":7,"view":"p\\ad","phase":"stationary","x":0,"y":0,"tapCount":2},{"id":8,"view":"pad","phase":"moved","x":1.25,"y":-3,"tapCount":1}]}"#
    )
    let empty = TouchesMessage(seq: 1, phase: "ended", view: "v", window: "w", time: 0, touches: [])
    #expect(
      empty.jsonLine == #"{"type":"touches","seq":1,"phase":"ended","view":"v","window":"w","time":0,"touches":[]}"#)
  }
}
