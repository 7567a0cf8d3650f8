import Foundation
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// A 1000 x 800 window that forwards, its root view `root` (multiple touch, so every finger
/// reaches it and is forwarded) with `recognizers` (YAML flow mappings, one per line).
func forwardScene(_ recognizers: [String], forward: String = "{}", extra: String = "") -> String {
  """
  version: 1
  windows:
    - id: w
      size: {width: 1000, height: 800}
      forward: \(forward)
      views:
        - id: root
          frame: {x: 0, y: 0, width: 1000, height: 800}
          multipleTouchEnabled: true
          recognizers:
  \(recognizers.map { "          - " + $0 }.joined(separator: "\n"))
  \(extra)
  """
}

/// What the virtual touchscreen got, one line per frame: its time, then its events in order:
/// `slot=N`, `id=N` (tracking id), `up` (tracking id -1), `palm`/`finger` (tool type), `x=`/`y=`
/// (ABS_MT_POSITION), `touch=0|1` (BTN_TOUCH), `ax=`/`ay=` (ABS_X/ABS_Y).
func forwardLines(_ events: [InputEvent]) -> [String] {
  var lines: [String] = []
  var tokens: [String] = []
  for event in events {
    switch (event.type, event.code) {
    case (EV.syn, SYN.report):
      lines.append("\(event.time) " + tokens.joined(separator: " "))
      tokens = []
    case (EV.abs, ABS.mtSlot): tokens.append("slot=\(event.value)")
    case (EV.abs, ABS.mtTrackingID): tokens.append(event.value < 0 ? "up" : "id=\(event.value)")
    case (EV.abs, ABS.mtToolType): tokens.append(event.value == MTTool.palm ? "palm" : "finger")
    case (EV.abs, ABS.mtPositionX): tokens.append("x=\(event.value)")
    case (EV.abs, ABS.mtPositionY): tokens.append("y=\(event.value)")
    case (EV.key, BTN.touch): tokens.append("touch=\(event.value)")
    case (EV.abs, ABS.x): tokens.append("ax=\(event.value)")
    case (EV.abs, ABS.y): tokens.append("ay=\(event.value)")
    default: tokens.append("?\(event.type):\(event.code)=\(event.value)")
    }
  }
  if !tokens.isEmpty { lines.append("(no SYN_REPORT) " + tokens.joined(separator: " ")) }
  return lines
}

/// Replays `recording` against `yaml` and returns the forwarded frames of its one virtual device
/// (``forwardLines(_:)``) and the actions fired.
func forwarded(_ recording: Recording, _ yaml: String) throws -> (
  frames: [String], actions: [String], counters: String
) {
  let scene = try Scene.parse(yaml)
  let devices = try ScenePlayer.forwarded([recording], scene: scene)
  guard devices.count == 1 else { return (["\(devices.count) devices"], [], "") }
  var actions: [String] = []
  for message in try ScenePlayer.replay(recording, scene: scene) {
    if case .action(let a) = message { actions.append("\(a.action) \(a.state ?? "")") }
  }
  let c = devices[0].counters
  let counters =
    "forwarded \(c.forwarded) held \(c.held) released \(c.released) cancelled \(c.cancelled) noSlot \(c.noSlot)"
  return (forwardLines(devices[0].recording.events), actions, counters)
}

/// Device units of window points on the 1000 x 800 window (``SyntheticTouchscreen``'s 0...4095):
/// the unit whose cell holds the point, what the synthetic panel reports and the virtual
/// touchscreen gives back.
func fx(_ x: Double) -> Int32 { SyntheticTouchscreen.units(x / 1000) }
func fy(_ y: Double) -> Int32 { SyntheticTouchscreen.units(y / 800) }

/// The time of a script's events, as evemu writes it (six decimals).
func stamp(_ seconds: Double) -> String { Timestamp(microseconds: Int64((seconds * 1_000_000).rounded())).description }

/// Drives `runtime` frame by frame with one touch `id` from `source` on window 0: each step (time
/// in seconds, phase, device-normalized x) advances `clock` to its time first; y stays at `y`.
func drive(
  _ runtime: SceneRuntime, clock: VirtualClock, touch id: TouchID, source: Int,
  steps: [(time: Double, phase: TouchPhase, x: Double)], y: Double = 0.4
) {
  for (time, phase, x) in steps {
    clock.advance(to: time)
    runtime.handle(
      TouchFrame(
        time: Timestamp(microseconds: Int64((time * 1_000_000).rounded())),
        contacts: [Contact(id: id, phase: phase, x: x, y: y)]), inWindow: 0, source: source)
  }
}
