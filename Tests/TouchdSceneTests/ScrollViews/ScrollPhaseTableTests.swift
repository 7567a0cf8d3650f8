import Testing
import TouchDelivery
import TouchdTestKit

@testable import TouchdScene

/// docs/protocol.md's table of scroll phases against the pipeline: its phases are UIScrollView's
/// delegate callbacks as ``ScrollView/Phase`` names them, in order, and a real fling, an animated
/// `set` and an animated zoom write each phase with exactly the extra keys the table gives it.
@Suite struct ScrollPhaseTableTests {
  /// The keys every scroll message has (docs/protocol.md, `scroll`).
  static let common = ["type", "seq", "phase", "view", "window", "time", "contentOffset"]

  @Test func theTableNamesEveryPhaseAndTheKeysEachIsWrittenWith() throws {
    let rows = try DocTables("docs/protocol.md").table("| `phase` | when | extra keys |")
    let phases = try rows.map { try #require(DocTables.codeSpans($0[0]).first) }
    #expect(phases == ScrollView.Phase.allCases.map(\.rawValue))
    var documented: [String: [String]] = [:]
    for (phase, row) in zip(phases, rows) {
      documented[phase] = DocTables.codeSpans(row[2]).filter { !$0.contains(" ") }.map {
        String($0.prefix { $0 != "{" })
      }
    }
    // A fling (every phase of a drag and its deceleration, which ends within 10 s), then an
    // animated offset.
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 300), duration: 0.2)
    s.wait(12)
    let command = try SceneCommand.parse(
      json: #"{"cmd":"set","view":"list","contentOffset":{"x":0,"y":1000},"animated":true}"#)
    let messages = try ScenePlayer.replay(
      s.recording, scene: try Scene.parse(listScene()), commands: [.init(at: 10, command)])
    // An animated zoom of a view that zooms, beside the list.
    let map = ruleScene(
      """
      - id: map
        frame: {x: 500, y: 0, width: 400, height: 400}
        scroll: {contentSize: {width: 400, height: 400}, maximumZoomScale: 3, zoomView: photo}
        views:
          - {id: photo, frame: {x: 0, y: 0, width: 400, height: 400}}
      """)
    let zoom = try SceneCommand.parse(json: #"{"cmd":"set","view":"map","zoomScale":2,"animated":true}"#)
    let zoomMessages = try ScenePlayer.replay(
      s.recording, scene: try Scene.parse(map), commands: [.init(at: 10, zoom)])
    var written: [String: Set<[String]>] = [:]
    for case .scroll(let message) in messages + zoomMessages {
      let line = try StrictJSON.parse(message.jsonLine)
      guard case .object(let members) = line else { throw ProtocolError("not an object: \(message.jsonLine)") }
      var keys = members.map(\.key)
      #expect(Array(keys.prefix(Self.common.count)) == Self.common)
      // Every message of a view that zooms ends with zoomScale; the table lists it once, at
      // didEndZooming, where it is the scale the zoom ended at.
      if message.view == "map" {
        #expect(keys.last == "zoomScale", "\(message.jsonLine)")
        if message.scrollPhase != .didEndZooming { keys.removeLast() }
      }
      written[message.phase, default: []].insert(Array(keys.dropFirst(Self.common.count)))
    }
    #expect(Set(written.keys) == Set(phases), "\(written.keys.sorted())")
    for (phase, keys) in written {
      #expect(keys == [documented[phase] ?? ["not in the table"]], "\(phase)")
    }
  }
}
