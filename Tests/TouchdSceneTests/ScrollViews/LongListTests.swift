import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// A catalogue's list of 10,000 rows (issue #43, "Lists of thousands of rows"), as a client
/// pushes it: a JSON scene over the old 256 KiB bound, a fling, then a tap on a row far down.
@Suite struct LongListTests {
  /// A 1000 x 800 window `w` with a list `list` (400 x 800 at the top-left) of `rows` rows 88 pt
  /// tall, `row<i>` with a tap `tap<i>` whose action is `open-<i>`, starting at `offset`.
  static func listJSON(rows: Int, offset: Double) -> String {
    let items = (0..<rows).map { i in
      #"{"id":"row\#(i)","frame":{"x":0,"y":\#(i * 88),"width":400,"height":88},"#
        + #""recognizers":[{"id":"tap\#(i)","type":"tap","action":"open-\#(i)"}]}"#
    }
    return #"{"version":1,"windows":[{"id":"w","size":{"width":1000,"height":800},"views":[{"id":"list","#
      + #""frame":{"x":0,"y":0,"width":400,"height":800},"scroll":{"contentSize":{"width":400,"height":\#(rows * 88)},"#
      + #""contentOffset":{"x":0,"y":\#(offset)}},"views":["# + items.joined(separator: ",") + "]}]}]}"
  }

  @Test("10,000 rows: after a fling, a tap hits the row under the finger")
  func aTapAfterAFlingHitsTheRowUnderTheFinger() throws {
    let json = Self.listJSON(rows: 10_000, offset: 440_000)
    // Larger than the bound before issue #43 (256 KiB), within today's.
    #expect(json.utf8.count > 256 * 1024 && json.utf8.count < Scene.maximumFileBytes)
    let scene = try Scene.parse(json: try StrictJSON.parse(json))
    let s = ruleScript()
    // Up 300 pt in 0.1 s: 3,000 pt/s, about 1,500 pt of deceleration (UIKit's 0.998 per ms).
    s.drag(from: .init(x: 200, y: 600), to: .init(x: 200, y: 300), duration: 0.1)
    s.wait(6)
    s.tap(at: .init(x: 200, y: 50))
    let messages = try ScenePlayer.replay(s.recording, scene: scene)
    let scrolls = messages.compactMap { if case .scroll(let m) = $0 { m } else { nil } }
    #expect(scrolls.last?.scrollPhase == .didEndDecelerating)
    let offset = try #require(scrolls.last?.contentOffset.y)
    // The drag and the deceleration carried the list about 1,800 pt: some 20 rows.
    #expect(offset > 440_000 + 1_500 && offset < 440_000 + 2_200)
    // Window y 50 is content y offset + 50.
    let row = Int(((offset + 50) / 88).rounded(.down))
    let actions = messages.compactMap { if case .action(let a) = $0 { a } else { nil } }
    #expect(actions.map(\.action) == ["open-\(row)"])
    #expect(actions.first?.view == "row\(row)")
  }
}
