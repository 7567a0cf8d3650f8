import Foundation
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// A replay of a hostile device's recording through the whole pipeline (`ScenePlayer`, as
/// `touchctl replay --scene`), traced, with the messages as compact lines for exact assertions.
struct HostileRun {
  let messages: [Message]
  /// The replay's origin (the recording's first event), which ``log`` times count from.
  let origin: Double

  init(_ sceneYAML: String, _ recording: Recording) throws {
    let scene = try Scene.parse(sceneYAML)
    messages = try ScenePlayer.replay(recording, scene: scene, trace: true)
    origin = ScenePlayer.origin(of: recording)
  }

  /// Milliseconds after the origin, rounded.
  func ms(_ time: Double) -> Int { Int(((time - origin) * 1000).rounded()) }

  /// One line per message, in order (didScroll and trace events other than recognizer state
  /// changes left out):
  /// - `action <recognizer> <state> @<ms>`; a control's `action <view> <event> @<ms>`;
  /// - `touches <view> <phase> <ids>`; `control <view> highlighted|normal`;
  /// - `scroll <view> <phase>`;
  /// - `<recognizer>: <from> → <to>: <cause>`.
  var log: [String] {
    messages.compactMap { message -> String? in
      switch message {
      case .action(let a):
        if let event = a.event { return "action \(a.view) \(event) @\(ms(a.time))" }
        return "action \(a.recognizer ?? "") \(a.state ?? "") @\(ms(a.time))"
      case .touches(let t):
        return "touches \(t.view) \(t.phase) \(t.touches.map { String($0.id) }.joined(separator: ","))"
      case .control(let c): return "control \(c.view) \(c.highlighted ? "highlighted" : "normal")"
      case .scroll(let s): return s.scrollPhase == .didScroll ? nil : "scroll \(s.view) \(s.phase)"
      case .presses, .idle, .accessibility, .stroke, .signature: return nil
      case .trace(let t):
        guard case .recognizer(let r, let from, let to, let cause) = t.detail else { return nil }
        return "\(r.id): \(from) → \(to): \(cause)"
      }
    }
  }

  /// The action messages (recognizers' and controls'), in order.
  var actionLog: [String] { log.filter { $0.hasPrefix("action ") } }
}

/// A scene of one 1000 x 800 window `w` (any device) whose `views:` YAML is given from column 0,
/// with the top-level keys `top` (e.g. `stuckTouchTimeout: 2`) before `windows:`.
func hostileScene(_ views: String, top: String = "") -> String {
  let indented = views.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
    .joined(separator: "\n")
  return """
    version: 1
    \(top)
    windows:
      - id: w
        size: {width: 1000, height: 800}
        views:
    \(indented)
    """
}

/// One frame of a hand-made recording: its time in seconds and its events (type, code, value); a
/// `SYN_REPORT` closes it unless `report` is false.
struct RawFrame {
  var time: Double
  var events: [(UInt16, UInt16, Int32)]
  var report = true

  init(_ time: Double, _ events: [(UInt16, UInt16, Int32)], report: Bool = true) {
    self.time = time
    self.events = events
    self.report = report
  }
}

/// A recording of `device` made of `frames`, in order.
func rawRecording(_ device: DeviceDescription, _ frames: [RawFrame]) -> Recording {
  var events: [InputEvent] = []
  for frame in frames {
    let t = Timestamp(microseconds: Int64((frame.time * 1_000_000).rounded()))
    for (type, code, value) in frame.events { events.append(InputEvent(time: t, type: type, code: code, value: value)) }
    if frame.report { events.append(InputEvent(time: t, type: EV.syn, code: SYN.report, value: 0)) }
  }
  return Recording(description: device, events: events, source: "hostile.evemu")
}

func axis(_ code: UInt16, _ value: Int32) -> (UInt16, UInt16, Int32) { (EV.abs, code, value) }
func btn(_ value: Int32) -> (UInt16, UInt16, Int32) { (EV.key, BTN.touch, value) }
let mtReport: (UInt16, UInt16, Int32) = (EV.syn, SYN.mtReport, 0)

/// ``SyntheticTouchscreen`` (0...4095 on both axes) with `slots` slots.
func touchscreen(slots: Int) -> DeviceDescription {
  var device = SyntheticTouchscreen.description
  device.absInfo[ABS.mtSlot] = AbsInfo(minimum: 0, maximum: Int32(slots - 1))
  return device
}

/// Device units of window points on the 1000 x 800 window of ``hostileScene(_:top:)``: the unit
/// whose cell holds the point (``SyntheticTouchscreen/units(_:)``).
func ux(_ x: Double) -> Int32 { SyntheticTouchscreen.units(x / 1000) }
func uy(_ y: Double) -> Int32 { SyntheticTouchscreen.units(y / 800) }
