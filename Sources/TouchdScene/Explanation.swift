import TouchDelivery
import TouchdInput

/// The lines of `touchctl replay --explain`: one per message or applied command, time first as
/// seconds after the recording's first event (`+0.412`), then what happened (docs/explain.md).
public enum Explanation {
  /// The line for one step of a replay; `origin` is ``ScenePlayer/origin(of:)``.
  public static func line(_ step: ScenePlayer.Step, origin: Double) -> String {
    switch step {
    case .message(let message): line(message, origin: origin)
    case .command(let command, let time): "\(offset(time, origin)) command \(command.command.json)"
    case .speech(let request, let time): "\(offset(time, origin)) \(request)"
    }
  }

  /// The line for one message.
  public static func line(_ message: Message, origin: Double) -> String {
    "\(offset(message.time, origin)) \(text(message))"
  }

  /// `+S.mmm`: seconds after `origin`, to the millisecond.
  public static func offset(_ time: Double, _ origin: Double) -> String {
    let scaled = ((time - origin) * 1000).rounded()
    guard scaled.isFinite, scaled.magnitude < 9.0e18 else { return "+\(time - origin)" }
    let millis = Int(scaled)
    let magnitude = millis.magnitude
    let fraction = String(magnitude % 1000)
    return (millis < 0 ? "-" : "+") + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count)
      + fraction
  }

  /// `(412, 300)`: window points, to a tenth.
  static func point(_ p: WirePoint) -> String { "(\(traceNumber(p.x)), \(traceNumber(p.y)))" }

  static func names(_ list: [String]) -> String { list.joined(separator: ", ") }

  /// The line without its time.
  static func text(_ message: Message) -> String {
    switch message {
    case .action(let a):
      switch a.detail {
      case .recognizer(_, let state, let recognizer, let location, _, _, let values):
        var out = "action \(a.action) (\(recognizer) \(state)) at \(point(location))"
        if let inView = a.locationInView { out += " (\(point(inView)) in '\(a.view)')" }
        switch values {
        case .none: break
        case .pan(let translation, let velocity):
          out += ", translation \(point(translation)), velocity \(point(velocity))"
        case .pinch(let scale, let velocity):
          out += ", scale \(JSONFormat.number(scale)), velocity \(traceNumber(velocity))"
        case .rotation(let rotation, let velocity):
          out += ", rotation \(JSONFormat.number(rotation)) rad, velocity \(traceNumber(velocity)) rad/s"
        case .swipe(let direction): out += ", direction \(direction)"
        case .hover(let zOffset, let altitude, let azimuth):
          out +=
            ", zOffset \(traceNumber(zOffset)), altitude \(traceNumber(altitude)) rad, azimuth \(traceNumber(azimuth)) rad"
        }
        return out
      case .control(let event, let control, let value):
        return "action '\(a.action)': \(control) '\(a.view)' \(event)" + valueText(value)
      }
    case .touches(let t):
      let list = t.touches.map { touch in
        "\(touch.id) at \(point(WirePoint(x: touch.x, y: touch.y)))"
          + (touch.view == t.view ? "" : " in '\(touch.view)'")
      }
      return "touches \(t.phase) on view '\(t.view)': \(names(list))"
    case .scroll(let s):
      var out = "scroll \(s.phase) on view '\(s.view)': offset \(point(s.contentOffset))"
      if let scale = s.zoomScale { out += ", zoom \(JSONFormat.number(scale))" }
      if let v = s.velocity { out += ", velocity \(point(v)) pt/ms" }
      if let target = s.targetContentOffset { out += ", target \(point(target))" }
      if let decelerate = s.willDecelerate { out += decelerate ? ", decelerates" : ", stops" }
      return out
    case .control(let c):
      var states: [String] = []
      if !c.enabled { states.append("disabled") }
      if c.highlighted { states.append("highlighted") }
      if c.selected { states.append("selected") }
      return "control \(c.control) '\(c.view)': \(states.isEmpty ? "normal" : states.joined(separator: ", "))"
        + valueText(c.controlValue)
    case .presses(let p):
      let list = p.presses.map { "\($0.id) \($0.type) (\($0.key))" }
      return "presses \(p.phase) on view '\(p.view)': \(names(list))"
    case .idle(let m):
      return m.isIdle
        ? "idle: no touch or press since \(m.lastInput.map { traceNumber($0) + " s" } ?? "the start")"
        : "active" + (m.swallowed == true ? ": the waking input is swallowed" : "")
    case .accessibility(let m):
      // `--explain` shows the focus and the VoiceOver gesture each touch made (issue #40).
      if m.event == "voiceOver" { return "VoiceOver \(m.on == true ? "on" : "off") in window '\(m.window)'" }
      let element = (m.view.map { "'\($0)'" } ?? "nothing") + (m.segment.map { " segment \($0)" } ?? "")
      return "VoiceOver \(m.event) \(element)" + (m.spoken.map { ": \"\($0)\"" } ?? "")
    case .stroke(let m):
      let first = m.points.first.map { point(WirePoint(x: $0.x, y: $0.y)) } ?? "-"
      let last = m.points.last.map { point(WirePoint(x: $0.x, y: $0.y)) } ?? "-"
      return "stroke on '\(m.view)' (\(m.touchType)): \(m.points.count) points from \(first) to \(last)"
    case .signature(let m):
      return
        "signature of '\(m.view)': \(m.strokes.count) strokes, \(m.strokes.reduce(0) { $0 + $1.points.count }) points"
    case .trace(let trace): return text(trace.detail)
    }
  }

  /// A `voiceOverGesture` trace's gesture in words, as `--explain` and `render` write it:
  /// `double tap and hold`, `2-finger flick up`.
  public static func voiceOverGesture(_ gesture: String, fingers: Int, direction: String?) -> String {
    let words = gesture.reduce(into: "") { out, c in out += c.isUppercase ? " " + c.lowercased() : String(c) }
    return (fingers == 1 ? "" : "\(fingers)-finger ") + words + (direction.map { " \($0)" } ?? "")
  }

  private static func valueText(_ value: ControlValue) -> String {
    switch value {
    case .none: ""
    case .on(let on): on ? ", on" : ", off"
    case .value(let v): ", value \(JSONFormat.number(v))"
    case .selectedSegmentIndex(let i): ", segment \(i)"
    case .currentPage(let i): ", page \(i)"
    }
  }

  static func text(_ event: TraceMessage.Event) -> String {
    switch event {
    case .recognizer(let r, let from, let to, let cause):
      return "\(r.id): \(from) → \(to): \(cause)"
    case .waiting(let r, let to, let requirement):
      return "\(r.id): \(to) waits until \(requirement) fails"
    case .touchBegan(let t, let location, let tapCount, let recognizers, let notes):
      var out = "touch \(t.id) began at \(point(location)) in view '\(t.view)'"
      if tapCount > 1 { out += " (tap \(tapCount))" }
      out += recognizers.isEmpty ? " → no recognizer" : " → \(names(recognizers))"
      for note in notes { out += "; \(note)" }
      return out
    case .touchSwallowed(let id, _, let location, let reason):
      return "touch \(id) at \(point(location)) swallowed: \(reason)"
    case .held(let t, let phase, let by):
      return "touch \(t.id) \(phase) held "
        + (by.isEmpty ? "behind an earlier held delivery" : "by \(names(by))")
    case .released(let t, let phase, let location):
      return "touch \(t.id) \(phase) released to view '\(t.view)' at \(point(location))"
    case .cancelledInView(let t, let by):
      return "touch \(t.id) cancelled in view '\(t.view)' by \(by)"
    case .pressBegan(let press, let key, let pressType, let view, _, let recognizers):
      return "press \(press) \(pressType) (\(key)) began"
        + (view.map { " at responder '\($0)'" } ?? " with no responder")
        + (recognizers.isEmpty ? " → no recognizer" : " → \(names(recognizers))")
    case .controlTracking(let t, let phase, let inside, let tracking, let events):
      let call =
        switch phase {
        case "began": "beginTracking"
        case "moved": "continueTracking"
        case "ended": "endTracking"
        default: "cancelTracking"
        }
      return "control '\(t.view)' \(call) touch \(t.id): \(inside ? "inside" : "outside")"
        + (phase == "ended" || phase == "cancelled" ? "" : tracking ? ", tracking" : ", stops tracking")
        + (events.isEmpty ? "" : " → \(events.joined(separator: ", "))")
    case .voiceOverGesture(let gesture, let fingers, let direction, let window):
      return "VoiceOver gesture in window '\(window)': "
        + voiceOverGesture(gesture, fingers: fingers, direction: direction)
    case .other(let name, let members):
      return ([name] + members.map { "\($0.key) \($0.value.compact)" }).joined(separator: ", ")
    }
  }
}
