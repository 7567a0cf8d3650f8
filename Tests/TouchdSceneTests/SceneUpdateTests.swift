import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// `{"cmd":"update",…}` (issue #18): one view subtree or one recognizer added, replaced or
/// removed in the running scene; validated whole with the file's rules; touches on a view that
/// leaves are cancelled, others go on.
@Suite("Scene updates")
struct SceneUpdateTests {
  /// A 1000×800 window `w`: `left` (a pan that leaves touches to the view, published touches) and
  /// `right` (a tap that requires its double tap to fail), side by side.
  static let yaml = """
    version: 1
    windows:
      - id: w
        size: {width: 1000, height: 800}
        views:
          - id: left
            frame: {x: 0, y: 0, width: 500, height: 800}
            touches: true
            recognizers: [{id: left-pan, type: pan, action: dragged, cancelsTouchesInView: false}]
          - id: right
            frame: {x: 500, y: 0, width: 500, height: 800}
            touches: true
            recognizers:
              - {id: right-tap, type: tap, action: tapped, requireToFail: [right-double]}
              - {id: right-double, type: tap, action: double-tapped, numberOfTapsRequired: 2}
    """

  @Test("The command decodes strictly: op, one of view or recognizer, parent and index where they belong")
  func decoding() {
    func parse(_ json: String) -> String {
      do {
        return try SceneCommand.parse(json: json).json
      } catch {
        return "error: \(error.message)"
      }
    }
    #expect(
      parse(#"{"cmd":"update","op":"add","parent":"w","index":0,"view":{"id":"x","frame":{}}}"#)
        == #"{"cmd":"update","op":"add","parent":"w","index":0,"view":{"id":"x","frame":{}}}"#)
    #expect(parse(#"{"cmd":"update","op":"remove","view":"left"}"#) == #"{"cmd":"update","op":"remove","view":"left"}"#)
    #expect(parse(#"{"cmd":"update","view":"left"}"#) == "error: missing field 'op' (add, replace or remove)")
    #expect(
      parse(#"{"cmd":"update","op":"delete","view":"left"}"#)
        == #"error: 'op' must be add, replace or remove, found "delete""#)
    #expect(
      parse(#"{"cmd":"update","op":"remove"}"#)
        == "error: missing field 'view' or 'recognizer' (what the update removes)")
    #expect(
      parse(#"{"cmd":"update","op":"remove","view":"a","recognizer":"b"}"#)
        == "error: 'update' takes 'view' or 'recognizer', not both (one update changes one of them)")
    #expect(
      parse(#"{"cmd":"update","op":"remove","view":{"id":"a"}}"#) == #"error: 'view' must be a string, found an object"#
    )
    #expect(
      parse(#"{"cmd":"update","op":"add","view":{"id":"a"}}"#)
        == "error: missing field 'parent' (a string: the view or window to add to)")
    #expect(
      parse(#"{"cmd":"update","op":"replace","view":"a"}"#)
        == #"error: 'view' must be an object: the view as in a scene, found "a""#)
    #expect(
      parse(#"{"cmd":"update","op":"replace","view":{"frame":{}}}"#)
        == "error: 'view.id' must be a string: the view's id")
    #expect(
      parse(#"{"cmd":"update","op":"remove","view":"a","parent":"w"}"#)
        == "error: 'parent' goes with op add only (remove finds the view by its id)")
    #expect(
      parse(#"{"cmd":"update","op":"add","parent":"left","index":1,"recognizer":{"id":"r"}}"#)
        == "error: 'index' goes with adding a view only")
    #expect(
      parse(#"{"cmd":"update","op":"add","parent":"w","index":-1,"view":{"id":"r"}}"#)
        == "error: 'index' must be 0 or more, found -1")
    #expect(
      parse(#"{"cmd":"update","op":"add","parent":"w","views":{"id":"r"}}"#)
        == "error: unknown field 'views' (did you mean 'view'? update takes op, view, recognizer, parent, index)")
  }

  @Test("Adding a view: it takes the next touch, in front or at its index; the scene counts it")
  func addView() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    let reply = try h.update(
      #"{"cmd":"update","op":"add","parent":"w","view":{"id":"banner","frame":{"x":0,"y":0,"width":1000,"height":100},"#
        + #""recognizers":[{"id":"banner-tap","type":"tap","action":"banner"}]}}"#)
    #expect(reply == #""op":"add","view":"banner","parent":"w","index":2,"views":3,"recognizers":4"#)
    h.tapPoint(1, 700, 50)
    h.clock.advance(to: 2)
    #expect(h.log == ["banner ended"], "in front of right, which no longer hears the touch")
    // At index 0, behind the others: a touch where `right` is goes to `right`.
    h.log.removeAll()
    _ = try h.update(
      #"{"cmd":"update","op":"add","parent":"w","index":0,"view":{"id":"back","frame":{"x":0,"y":0,"width":1000,"height":800},"#
        + #""recognizers":[{"id":"back-tap","type":"tap","action":"back"}]}}"#)
    h.tapPoint(3, 700, 400)
    h.clock.advance(to: 4)
    // The tap recognizes once the double tap failed and cancels the view's touch (its lift was
    // held: delaysTouchesEnded).
    #expect(h.log == ["right began", "right cancelled", "tapped ended"])
    // Into a view without subviews.
    _ = try h.update(
      #"{"cmd":"update","op":"add","parent":"left","view":{"id":"knob","frame":{"x":10,"y":10,"width":50,"height":50},"touches":true}}"#
    )
    #expect(h.runtime.view("knob")?.superview === h.runtime.view("left"))
    #expect(h.runtime.scene.counts.views == 5)
    #expect(
      h.refused(
        #"{"cmd":"update","op":"add","parent":"left","index":2,"view":{"id":"k2","frame":{"x":0,"y":0,"width":1,"height":1}}}"#
      )
        == "'index' 2 is past the 1 subview of 'left'")
  }

  @Test("Removing a view with a finger on it cancels the touch and its pan; a finger on another view goes on")
  func removeViewCancels() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    let onLeft = TouchID(rawValue: 1)
    let onRight = TouchID(rawValue: 2)
    h.frame(
      0.1, [Contact(id: onLeft, phase: .began, x: 0.2, y: 0.5), Contact(id: onRight, phase: .began, x: 0.8, y: 0.5)])
    for step in 1...5 {
      h.frame(0.1 + Double(step) * 0.02, [Contact(id: onLeft, phase: .moved, x: 0.2 + Double(step) * 0.01, y: 0.5)])
    }
    #expect(h.log.contains("dragged began"))
    h.log.removeAll()
    let reply = try h.update(#"{"cmd":"update","op":"remove","view":"left"}"#)
    #expect(reply == #""op":"remove","view":"left","parent":"w","index":0,"views":1,"recognizers":2"#)
    #expect(h.log == ["dragged cancelled", "left cancelled"])
    h.log.removeAll()
    h.frame(
      0.3, [Contact(id: onLeft, phase: .moved, x: 0.3, y: 0.5), Contact(id: onRight, phase: .moved, x: 0.8, y: 0.5)])
    h.frame(
      0.35, [Contact(id: onLeft, phase: .ended, x: 0.3, y: 0.5), Contact(id: onRight, phase: .ended, x: 0.8, y: 0.5)])
    h.clock.advance(to: 1)
    #expect(h.log == ["right moved", "right cancelled", "tapped ended"], "the right finger taps (it never moved)")
    #expect(h.runtime.view("left") == nil)
    #expect(h.refused(#"{"cmd":"update","op":"remove","view":"lef"}"#) == "unknown view 'lef'")
  }

  @Test("Replacing a view mid-touch cancels the touch; the new subtree takes the next one")
  func replaceView() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    let finger = TouchID(rawValue: 1)
    h.frame(0.1, [Contact(id: finger, phase: .began, x: 0.8, y: 0.5)])
    h.log.removeAll()
    _ = try h.update(
      #"{"cmd":"update","op":"replace","view":{"id":"right","frame":{"x":500,"y":0,"width":500,"height":800},"#
        + #""recognizers":[{"id":"right-hold","type":"longPress","action":"held"}]}}"#)
    #expect(h.log == ["right cancelled"])
    h.frame(0.2, [Contact(id: finger, phase: .ended, x: 0.8, y: 0.5)])
    h.log.removeAll()
    // The new right view has no `touches: true` and a long press in place of the taps.
    let second = TouchID(rawValue: 2)
    h.frame(1, [Contact(id: second, phase: .began, x: 0.8, y: 0.5)])
    h.clock.advance(to: 1.6)
    h.frame(1.7, [Contact(id: second, phase: .ended, x: 0.8, y: 0.5)])
    #expect(h.log == ["held began", "held ended"])
    #expect(h.runtime.view("right")?.superview === h.runtime.windows[0])
    #expect(h.runtime.windows[0].subviews.map(\.identifier) == ["left", "right"], "in the old one's place")
  }

  @Test("Recognizers: replace keeps a requirement on it, remove of a required one is refused, add works")
  func recognizers() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    // The tap requires the double tap to fail: after the double tap is replaced, a double tap
    // still fires only the new double tap.
    _ = try h.update(
      #"{"cmd":"update","op":"replace","recognizer":{"id":"right-double","type":"tap","action":"zoom","numberOfTapsRequired":2}}"#
    )
    h.tapPoint(1, 700, 400)
    h.tapPoint(1.2, 700, 400)
    h.clock.advance(to: 3)
    #expect(h.log.filter { !$0.hasPrefix("right ") } == ["zoom ended"])
    // Removing it is refused: the tap names it.
    #expect(
      h.refused(#"{"cmd":"update","op":"remove","recognizer":"right-double"}"#)
        == "update rejected, the scene stays: scene.windows[0].views[1].recognizers[0].requireToFail[0]: error: "
        + "'requireToFail' in recognizer 'right-tap' names unknown recognizer 'right-double'")
    // Remove the tap, then the double tap; add a long press to the left view.
    _ = try h.update(#"{"cmd":"update","op":"remove","recognizer":"right-tap"}"#)
    _ = try h.update(#"{"cmd":"update","op":"remove","recognizer":"right-double"}"#)
    let reply = try h.update(
      #"{"cmd":"update","op":"add","parent":"left","recognizer":{"id":"left-hold","type":"longPress","action":"hold"}}"#
    )
    #expect(reply == #""op":"add","recognizer":"left-hold","parent":"left","index":1,"views":2,"recognizers":2"#)
    h.log.removeAll()
    h.tapPoint(4, 700, 400)
    h.clock.advance(to: 5)
    #expect(h.log == ["right began", "right ended"], "no recognizer left on right")
    #expect(h.runtime.view("right")?.gestureRecognizers.isEmpty == true)
    #expect(h.runtime.view("left")?.gestureRecognizers.count == 2)
    #expect(
      h.refused(#"{"cmd":"update","op":"add","parent":"w","recognizer":{"id":"r","type":"tap","action":"a"}}"#)
        == "'w' is a window: a recognizer belongs to a view")
  }

  @Test("A replaced view's recognizer that names none is still linked to a recognizer outside that names it")
  func replacedRecognizerNamedFromOutside() throws {
    let yaml = """
      version: 1
      windows:
        - id: w
          size: {width: 1000, height: 800}
          views:
            - id: left
              frame: {x: 0, y: 0, width: 500, height: 800}
              recognizers: [{id: left-tap, type: tap, action: tapped, requireToFail: [right-double]}]
            - id: right
              frame: {x: 500, y: 0, width: 500, height: 800}
              recognizers: [{id: right-double, type: tap, action: doubled, numberOfTapsRequired: 2}]
      """
    let h = try RuntimeHarness(document: Scene.parseDocument(yaml))
    let before = try #require(h.runtime.view("right")?.gestureRecognizers.first)
    #expect(h.runtime.view("left")?.gestureRecognizers.first?.failureRequirements.first === before)
    _ = try h.update(
      #"{"cmd":"update","op":"replace","view":{"id":"right","frame":{"x":500,"y":0,"width":500,"height":800},"#
        + #""recognizers":[{"id":"right-double","type":"tap","action":"zoomed","numberOfTapsRequired":2}]}}"#)
    let after = try #require(h.runtime.view("right")?.gestureRecognizers.first)
    #expect(after !== before)
    let requirements = h.runtime.view("left")?.gestureRecognizers.first?.failureRequirements ?? []
    #expect(requirements.contains { $0 === after } && !requirements.contains { $0 === before })
  }

  @Test("An update that breaks a rule is refused with the file's message by path; nothing changes")
  func refusedUpdates() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    let before = h.runtime.scene
    #expect(
      h.refused(
        #"{"cmd":"update","op":"add","parent":"w","view":{"id":"left","frame":{"x":0,"y":0,"width":"wide","height":1}}}"#
      )
        == "update rejected, the scene stays: scene.windows[0].views[2].id: error: duplicate view id 'left' (first "
        + "defined at scene.windows[0].views[0].id); scene.windows[0].views[2].frame.width: error: 'width' in frame of "
        + "view 'left' must be a number, found 'wide'")
    #expect(h.runtime.scene == before)
    #expect(h.runtime.windows[0].subviews.count == 2)
    #expect(
      h.refused(#"{"cmd":"update","op":"add","parent":"nowhere","view":{"id":"x"}}"#).hasPrefix(
        "unknown view or window 'nowhere'"))
  }

  @Test("Every example scene's document reads back as the scene itself", arguments: exampleScenes)
  func documents(name: String) throws {
    let document = try Scene.loadDocument(path: TestPaths.config(name).path)
    #expect(try Scene.parse(json: document.json) == document.scene)
  }
}

/// The `scene` and `update` lines of docs/protocol.md's example run as the daemon runs them.
@Suite("Scene push and update: the protocol document's example")
struct ScenePushDocExampleTests {
  @Test func theDocumentedLinesApplyInOrder() throws {
    let text = try readText(TestPaths.repositoryRoot.appendingPathComponent("docs/protocol.md"))
    let lines = text.split(separator: "\n").map(String.init).filter {
      $0.hasPrefix(#"{"cmd":"scene""#) || $0.hasPrefix(#"{"cmd":"update""#)
    }
    #expect(lines.count == 5)
    var runtime: SceneRuntime?
    var replies: [String] = []
    for line in lines {
      let object = try CommandObject.parse(line)
      if object.name == "scene" {
        let document = try Scene.parseDocument(json: try #require(object.fields["scene"]))
        runtime = SceneRuntime(document: document, clock: VirtualClock()) { _ in }
      } else {
        replies.append(try #require(runtime).apply(try SceneCommand.parse(object)).fieldsJSON)
      }
    }
    #expect(
      replies == [
        #""op":"add","view":"help","parent":"main","index":1,"views":2,"recognizers":2"#,
        #""op":"replace","recognizer":"help-tap","parent":"help","index":0,"views":2,"recognizers":2"#,
        #""op":"add","recognizer":"help-swipe","parent":"help","index":1,"views":2,"recognizers":3"#,
        #""op":"remove","view":"help","parent":"main","index":1,"views":1,"recognizers":1"#,
      ])
    #expect(runtime?.view("help") == nil && runtime?.view("buy") != nil)
  }
}

extension RuntimeHarness {
  /// A tap at window point (x, y) of SceneUpdateTests' 1000×800 window.
  func tapPoint(_ time: Double, _ x: Double, _ y: Double) { tap(time, x / 1000, y / 800) }

  /// Applies an `update` command line; its reply's fields.
  func update(_ json: String) throws -> String {
    guard case .update(let update) = try SceneCommand.parse(json: json) else { throw ProtocolError("not update") }
    return try runtime.apply(.update(update)).fieldsJSON
  }

  /// The error message of an update that must fail.
  func refused(_ json: String) -> String {
    do {
      _ = try update(json)
      return "accepted"
    } catch let error as SceneRuntimeError {
      return error.description
    } catch let error as ProtocolError {
      return "decoding: \(error.message)"
    } catch {
      return "\(error)"
    }
  }
}
