import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit
import Yams

@testable import TouchdScene

/// A scene handed over as JSON (issue #18, the `scene` command): the same scene as its YAML, the
/// same validation with each problem placed by its JSON path, the size bound; and hiding a view
/// with fingers on it.
@Suite("Scene push: JSON scenes and hiding")
struct ScenePushTests {
  func parse(_ json: String) throws -> Scene {
    try Scene.parse(json: try StrictJSON.parse(json))
  }

  /// The errors of a JSON scene, one string each.
  func errors(_ json: String) -> [String] {
    do {
      _ = try parse(json)
      return []
    } catch let error as SceneError {
      return error.diagnostics.map(\.description)
    } catch {
      return ["not a scene error: \(error)"]
    }
  }

  @Test("Every example scene as JSON is the scene its YAML is", arguments: exampleScenes)
  func examplesAsJSON(name: String) throws {
    let yaml = try readText(TestPaths.config(name))
    let fromYAML = try Scene.parse(yaml, file: name)
    let node = try #require(try Yams.compose(yaml: yaml))
    let json = jsonValue(node).compact
    let fromJSON = try parse(json)
    #expect(fromJSON == fromYAML)
    #expect(fromJSON.counts.views > 0)
  }

  @Test("Problems are placed by their path from the scene object, with the file's messages")
  func errorsByPath() {
    let window = #"{"id":"main","size":{"width":800,"height":600},"views":VIEWS}"#
    func scene(_ views: String) -> String {
      #"{"version":1,"windows":["# + window.replacingOccurrences(of: "VIEWS", with: views) + "]}"
    }
    #expect(
      errors(scene(#"[{"id":"buy","fram":{"x":0,"y":0,"width":10,"height":10}}]"#)) == [
        "scene.windows[0].views[0]: error: missing required key 'frame' in view 'buy'",
        "scene.windows[0].views[0].fram: error: unknown key 'fram' in view 'buy' (did you mean 'frame'?)",
      ])
    #expect(
      errors(
        scene(
          #"[{"id":"a","frame":{"x":0,"y":0,"width":10,"height":10}},{"id":"b","frame":{"x":0,"y":0,"width":"wide","height":10},"#
            + #""recognizers":[{"id":"t","type":"tapp","action":"x"}]}]"#))
        == [
          "scene.windows[0].views[1].frame.width: error: 'width' in frame of view 'b' must be a number, found 'wide'",
          "scene.windows[0].views[1].recognizers[0].type: error: unknown recognizer type 'tapp' in recognizer 't' (did you mean 'tap'?)",
        ])
    #expect(errors(#"{"windows":[]}"#).first == "scene: error: missing required key 'version' in scene")
    #expect(errors(#"[1,2]"#) == ["scene: error: expected the scene as a JSON object, found an array"])
    // A key that is no name is quoted in the path.
    #expect(
      errors(scene(#"[{"id":"a","frame":{"x":0,"y":0,"width":10,"height":10},"my key":1}]"#))
        == [#"scene.windows[0].views[0]["my key"]: error: unknown key 'my key' in view 'a'"#])
  }

  @Test("A scene over the size bound is refused before it is validated")
  func sizeBound() {
    let padding = String(repeating: "x", count: Scene.maximumFileBytes)
    let message = errors(#"{"version":1,"windows":[],"note":""# + padding + #""}"#)
    #expect(message.count == 1)
    #expect(message.first?.hasPrefix("scene: error: the scene is 2097") == true)
    #expect(message.first?.hasSuffix("bytes of JSON, more than the limit of 2097152 bytes for a scene") == true)
  }

  @Test("JSON's numbers, escapes and non-ASCII text read as JSON means them")
  func jsonValues() throws {
    let scene = try parse(
      #"{"version":1,"windows":[{"id":"m\u00e4in","size":{"width":8e2,"height":6.0E2},"views":[{"id":"\ud83d\ude00","#
        + #""frame":{"x":-0.5,"y":0,"width":1e1,"height":10},"recognizers":[{"id":"t","type":"tap","action":"a\/b"}]}]}]}"#
    )
    #expect(scene.windows[0].id == "mäin")
    #expect(scene.windows[0].size == Scene.Size(width: 800, height: 600))
    #expect(scene.windows[0].views[0].id == "😀")
    #expect(scene.windows[0].views[0].frame.x == -0.5 && scene.windows[0].views[0].frame.width == 10)
    #expect(scene.windows[0].views[0].recognizers[0].action == "a/b")
  }

  @Test("The validator's fast path reads plain decimals as Yams does, and leaves YAML's other spellings to it")
  func plainDecimals() {
    let plain = ["0", "12", "-3", "+7", "0.5", "-0.25", "10.", "1e3", "2.5E-2", "-1e+2", "1920", "0e0"]
    let other = ["017", "-017", "0x1F", "1_000", ".5", ".inf", "-.inf", ".nan", "1:30", "1e", "e3", "", "-", "1.2.3"]
    for text in plain {
      #expect(SceneNode.isPlainDecimal(text), "\(text)")
      let yams = Node(text).float ?? Node(text).int.map(Double.init)
      #expect(
        Double(text) == yams, "\(text): Swift \(String(describing: Double(text))), Yams \(String(describing: yams))")
    }
    for text in other { #expect(!SceneNode.isPlainDecimal(text), "\(text)") }
    // Through the validator and the decoder: underscores go, and `017` is 17 (Yams decodes a
    // Double with Double.construct, which does not read YAML 1.1's octal), as before the fast path.
    let scene = try? Scene.parse(
      "version: 1\nwindows: [{id: w, size: {width: 1_000, height: 017}, views: []}]")
    #expect(scene?.windows.first?.size == Scene.Size(width: 1000, height: 17))
  }

  /// A window with two views that publish their touches, `a` with a pan.
  static let twoViews = try! Scene.parse(
    """
    version: 1
    windows:
      - id: w
        size: {width: 1000, height: 800}
        views:
          - id: a
            frame: {x: 0, y: 0, width: 500, height: 800}
            touches: true
            recognizers: [{id: pan, type: pan, action: moved, cancelsTouchesInView: false}]
          - {id: b, frame: {x: 500, y: 0, width: 500, height: 800}, touches: true}
    """)

  @Test("Hiding a view with a finger on it cancels that touch and its pan; a finger elsewhere goes on")
  func hidingCancels() throws {
    let h = RuntimeHarness(scene: Self.twoViews)
    let onA = TouchID(rawValue: 1)
    let onB = TouchID(rawValue: 2)
    h.frame(0.1, [Contact(id: onA, phase: .began, x: 0.2, y: 0.5), Contact(id: onB, phase: .began, x: 0.8, y: 0.5)])
    for step in 1...5 {
      h.frame(0.1 + Double(step) * 0.02, [Contact(id: onA, phase: .moved, x: 0.2 + Double(step) * 0.01, y: 0.5)])
    }
    #expect(h.log.contains("moved began"))
    h.log.removeAll()
    _ = try h.runtime.apply(.set(view: "a", hidden: true))
    #expect(h.log == ["moved cancelled", "a cancelled"])
    h.log.removeAll()
    // The hidden view's finger is ignored until it lifts; the other finger is untouched.
    h.frame(0.3, [Contact(id: onA, phase: .moved, x: 0.3, y: 0.5), Contact(id: onB, phase: .moved, x: 0.85, y: 0.5)])
    h.frame(0.35, [Contact(id: onA, phase: .ended, x: 0.3, y: 0.5), Contact(id: onB, phase: .ended, x: 0.85, y: 0.5)])
    #expect(h.log == ["b moved", "b ended"])
    // Hiding an already hidden view, or a view without touches, cancels nothing.
    h.log.removeAll()
    _ = try h.runtime.apply(.set(view: "a", hidden: true))
    _ = try h.runtime.apply(.set(view: "b", hidden: true))
    #expect(h.log.isEmpty)
  }
}
