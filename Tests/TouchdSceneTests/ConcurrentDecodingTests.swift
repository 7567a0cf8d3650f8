import Foundation
import Testing
import TouchdProtocol
import TouchdTestKit

@testable import TouchdScene

/// A pushed scene of at least `Scene.concurrentDecodingBytes` is decoded on another thread while
/// it is validated (`Scene.validateAndDecode`): the scene or the errors are the same as one thread
/// gives, for valid scenes and for scenes the validator refuses anywhere.
@Suite struct ConcurrentDecodingTests {
  /// A window with a scroll view of `rows` rows, each with a tap; `row(i)` may rewrite a row.
  static func list(rows: Int, row: (Int, String) -> String = { $1 }) -> String {
    let items = (0..<rows).map { i in
      row(
        i,
        #"{"id":"row\#(i)","frame":{"x":0,"y":\#(i * 88),"width":800,"height":88},"touches":\#(i % 4 == 0),"#
          + #""recognizers":[{"id":"tap\#(i)","type":"tap","action":"open\#(i)"}]}"#)
    }
    return #"{"version":1,"windows":[{"id":"main","size":{"width":1920,"height":1080},"views":[{"id":"list","#
      + #""frame":{"x":560,"y":0,"width":800,"height":1080},"scroll":{"contentSize":{"width":800,"height":"#
      + "\(rows * 88)}},"
      + #""views":["# + items.joined(separator: ",") + "]}]}]}"
  }

  func outcome(_ json: String, concurrently: Bool?) throws -> Result<Scene, SceneError> {
    let value = try StrictJSON.parse(json)
    return Result { () throws(SceneError) in
      try Scene.parse(json: value, name: "scene", decodingConcurrently: concurrently)
    }
  }

  @Test(arguments: exampleScenes) func everyExampleDecodesTheSameOnTwoThreads(name: String) throws {
    let document = try Scene.loadDocument(path: TestPaths.config(name).path)
    let concurrent = try Scene.parse(json: document.json, name: "scene", decodingConcurrently: true)
    #expect(concurrent == document.scene)
  }

  @Test func aLongListIsDecodedConcurrentlyAndEqualsOneThreadsScene() throws {
    let json = Self.list(rows: 2_000)
    #expect(json.utf8.count >= Scene.concurrentDecodingBytes, "large enough to be decoded concurrently by default")
    let byDefault = try outcome(json, concurrently: nil).get()
    #expect(byDefault == (try outcome(json, concurrently: false).get()))
    #expect(byDefault.windows[0].views[0].views.count == 2_000)
    #expect(byDefault.windows[0].views[0].views[1999].recognizers[0].action == "open1999")
  }

  /// Errors in the middle and at the end of the list, a missing required key (which the decoder
  /// cannot read either), an unknown key and a value of the wrong type: the validator's messages
  /// alone, in order, whichever thread finishes first.
  @Test func aRefusedListGivesTheValidatorsMessagesOnEitherPath() throws {
    let json = Self.list(rows: 2_000) { i, row in
      switch i {
      case 700: row.replacingOccurrences(of: #""action":"open700""#, with: #""action":7"#)
      case 1200: row.replacingOccurrences(of: #","action":"open1200""#, with: "")
      case 1500: row.replacingOccurrences(of: #""touches":true"#, with: #""touchez":true"#)
      case 1999: row.replacingOccurrences(of: #""width":800"#, with: #""width":"wide""#)
      default: row
      }
    }
    func messages(_ concurrently: Bool) throws -> [String] {
      guard case .failure(let error) = try outcome(json, concurrently: concurrently) else { return ["accepted"] }
      return error.diagnostics.map { "\($0.path ?? ""): \($0.message)" }
    }
    let sequential = try messages(false)
    #expect(sequential == (try messages(true)))
    #expect(
      sequential == [
        ".windows[0].views[0].views[1200].recognizers[0]: missing required key 'action' in tap recognizer 'tap1200'",
        ".windows[0].views[0].views[1500].touchez: unknown key 'touchez' in view 'row1500' (did you mean 'touches'?)",
        ".windows[0].views[0].views[1999].frame.width: 'width' in frame of view 'row1999' must be a number, found 'wide'",
      ])
  }
}
