import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Controls inside a scroll view: `touchesShouldCancel(in:)` is false for a control (Apple's
/// documentation of UIScrollView.touchesShouldCancel(in:)), and `set` changes a control's state.
@Suite struct ControlsInScrollViewTests {
  /// A list 400 x 800 (content 400 x 4000) with a button `add` (0, 0, 400, 100) and a plain view
  /// `row` (0, 100, 400, 100) that handles touches.
  let scene = ruleScene(
    """
    - id: list
      frame: {x: 0, y: 0, width: 400, height: 800}
      scroll: {contentSize: {width: 400, height: 4000}}
      views:
        - id: add
          frame: {x: 0, y: 0, width: 400, height: 100}
          control: {type: button, actions: \(everyEvent("add"))}
        - id: row
          frame: {x: 0, y: 100, width: 400, height: 100}
          touches: true
    """)

  /// Holds a finger still 0.2 s at `start` (past the 150 ms content delay), then drags it 300 pt
  /// down (pulling the list past its top edge, which a drag would rubber-band).
  func holdThenDrag(from start: FingerScript.Point) -> FingerScript {
    let s = ruleScript()
    let f = s.down([start])
    s.wait(0.2)
    s.animate(f, duration: 0.3) { _, t in .init(x: start.x, y: start.y + 300 * t) }
    s.wait(0.01)
    s.up(f)
    return s
  }

  @Test func aDragThatBeginsAfterAControlHasTheTouchDoesNotScroll() throws {
    let onButton = try RuleRun(scene, holdThenDrag(from: .init(x: 200, y: 50)))
    #expect(onButton.scrollPhases(of: "list").isEmpty)
    let events = onButton.events(of: "add")
    #expect(events.first == "touchDown")
    #expect(events.contains("touchDragExit"))
    #expect(events.last == "touchUpOutside")
  }

  @Test func theSameDragOnAPlainViewCancelsItsTouchAndScrolls() throws {
    let run = try RuleRun(scene, holdThenDrag(from: .init(x: 200, y: 150)))
    #expect(run.scrollPhases(of: "list").first == "willBeginDragging")
    let phases = run.touches.map(\.touchPhase)
    #expect(phases.first == .began && phases.last == .cancelled && !phases.contains(.ended))
  }

  @Test func aQuickDragOnTheButtonScrollsAndTheButtonHearsNothing() throws {
    let s = ruleScript()
    s.drag(from: .init(x: 200, y: 50), to: .init(x: 200, y: 350), duration: 0.1)
    let run = try RuleRun(scene, s)
    #expect(run.scrollPhases(of: "list").first == "willBeginDragging")
    #expect(run.events(of: "add").isEmpty)
  }

  @Test func setChangesAControlsStateAndPublishesItWithoutEvents() throws {
    let s = ruleScript()
    s.wait(0.1)
    s.tap(at: .init(x: 200, y: 50))
    s.wait(0.5)
    s.tap(at: .init(x: 200, y: 50))
    let commands: [ScenePlayer.TimedCommand] = [
      .init(at: 0.05, try SceneCommand.parse(json: #"{"cmd":"set","view":"add","enabled":false,"selected":true}"#)),
      .init(at: 0.5, try SceneCommand.parse(json: #"{"cmd":"set","view":"add","enabled":true}"#)),
    ]
    let messages = try ScenePlayer.replay(s.recording, scene: try Scene.parse(scene), commands: commands)
    let states = messages.compactMap { if case .control(let c) = $0 { c } else { nil } }
    let events = messages.compactMap { if case .action(let a) = $0 { a.event } else { nil } }
    // One message per command; the first tap (disabled) sends nothing, the second the usual events.
    #expect(
      states.map { "\($0.enabled),\($0.selected),\($0.highlighted)" }.prefix(2) == [
        "false,true,false", "true,true,false",
      ])
    #expect(events == ["touchDown", "touchUpInside", "primaryActionTriggered"])
  }

  @Test func setRejectsKeysTheControlDoesNotHave() throws {
    let runtime = SceneRuntime(scene: try Scene.parse(scene), clock: VirtualClock()) { _ in }
    #expect(throws: SceneRuntimeError.invalidValue("'on' is a switch property; view 'add' is a button")) {
      try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"set","view":"add","on":true}"#))
    }
    #expect(throws: SceneRuntimeError.invalidValue("view 'row' is not a control (it has no control:)")) {
      try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"set","view":"row","value":1}"#))
    }
  }
}
