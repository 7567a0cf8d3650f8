import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// Scene-replay tests of UIKit's rules: a scene (YAML) and scripted fingers go through the whole
/// pipeline (`ScenePlayer.replay`, as `touchctl replay --scene`); the tests assert the messages.
struct RuleRun {
  let messages: [Message]

  /// Replays `script` against the scene text (a 1000 x 800 window `w` unless the text says
  /// otherwise); with `trace`, trace messages are among the messages.
  init(_ sceneYAML: String, _ script: FingerScript, trace: Bool = false) throws {
    let scene = try Scene.parse(sceneYAML)
    messages = try ScenePlayer.replay(script.recording, scene: scene, trace: trace)
  }

  /// "recognizer: from → to: cause" for every recognizer state change in the trace.
  var causes: [String] {
    messages.compactMap { m -> String? in
      guard case .trace(let t) = m, case .recognizer(let r, let from, let to, let cause) = t.detail else { return nil }
      return "\(r.id): \(from) → \(to): \(cause)"
    }
  }

  /// The recognizers' action messages, in order (controls' are ``controlActions``).
  var actions: [ActionMessage] {
    messages.compactMap { if case .action(let a) = $0, a.control == nil { a } else { nil } }
  }

  /// The touches messages, in order.
  var touches: [TouchesMessage] {
    messages.compactMap { if case .touches(let t) = $0 { t } else { nil } }
  }

  /// "recognizer:state" for every action, in order.
  var actionLog: [String] { actions.map { "\($0.recognizer ?? ""):\($0.state ?? "")" } }

  /// "view.phase(id@x,y)" for every touches message: the touches of each call, rounded to whole points.
  var touchesLog: [String] {
    touches.map { m in
      let list = m.touches.map { "\($0.id)@\(Int($0.x.rounded())),\(Int($0.y.rounded()))" }.joined(separator: " ")
      return "\(m.view).\(m.phase)(\(list))"
    }
  }
}

/// A script on a 1000 x 800 window starting at t = 10 s, sampled at 100 Hz (frames every 10 ms).
func ruleScript() -> FingerScript {
  FingerScript(windowWidth: 1000, windowHeight: 800, start: 10, sampleRate: 100)
}

/// A scene of one 1000 x 800 window `w` whose `views:` list is the given YAML, written from
/// column 0 (`- id: a` …); it is indented into place.
func ruleScene(_ views: String) -> String {
  let indented = views.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
    .joined(separator: "\n")
  return """
    version: 1
    windows:
      - id: w
        size: {width: 1000, height: 800}
        views:
    \(indented)
    """
}

/// Whether `p` is within `tolerance` pt of `q` on both axes (the synthetic touchscreen has 4096
/// steps per axis: 0.24 pt on a 1000 pt wide window).
func near(_ p: Point?, _ q: Point, within tolerance: Double = 0.5) -> Bool {
  guard let p else { return false }
  return abs(p.x - q.x) <= tolerance && abs(p.y - q.y) <= tolerance
}

/// Where the synthetic panel puts scripted coordinate `value` of an axis `extent` pt long: the
/// centre of the cell of the device unit that holds it (``AbsInfo/fraction(of:)``), within half a
/// unit (0.125 pt on 1000 pt) of `value`.
func panelCoordinate(_ value: Double, of extent: Double) -> Double {
  let axis = AbsInfo(minimum: 0, maximum: SyntheticTouchscreen.axisMaximum)
  return axis.fraction(of: axis.units(atFraction: value / extent)) * extent
}

/// ``near(_:_:within:)`` for a point as messages carry it.
func near(_ p: WirePoint?, _ q: Point, within tolerance: Double = 0.5) -> Bool {
  near(p.map(Point.init), q, within: tolerance)
}
