import TouchdInput

@testable import TouchDelivery

/// One log shared by every recording object of a test, in call order.
final class Log {
  var lines: [String] = []
  func add(_ line: String) { lines.append(line) }
  /// Returns the lines logged so far and clears the log.
  func take() -> [String] {
    defer { lines = [] }
    return lines
  }
}

/// "1" or "1,2": the ids of the touches, ascending.
func ids(_ touches: Set<Touch>) -> String {
  touches.map(\.id.rawValue).sorted().map(String.init).joined(separator: ",")
}

/// A view that handles every touches method by logging "name.phase(ids)"; with `forwards` it also
/// calls super, passing the touches up the responder chain.
final class RecordingView: View {
  let name: String
  let log: Log
  var forwards = false

  init(_ name: String, _ frame: Rect, log: Log) {
    self.name = name
    self.log = log
    super.init(frame: frame)
  }

  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name).began(\(ids(touches)))")
    if forwards { super.touchesBegan(touches, with: event) }
  }
  override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name).moved(\(ids(touches)))")
    if forwards { super.touchesMoved(touches, with: event) }
  }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name).ended(\(ids(touches)))")
    if forwards { super.touchesEnded(touches, with: event) }
  }
  override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name).cancelled(\(ids(touches)))")
    if forwards { super.touchesCancelled(touches, with: event) }
  }
}

/// A recognizer whose touches methods log "name.phase(ids)" and then run a script; its actions log
/// "name:state", and reset logs "name.reset".
final class ScriptedRecognizer: GestureRecognizer {
  let log: Log
  var onBegan: (ScriptedRecognizer, Set<Touch>) -> Void = { _, _ in }
  var onMoved: (ScriptedRecognizer, Set<Touch>) -> Void = { _, _ in }
  var onEnded: (ScriptedRecognizer, Set<Touch>) -> Void = { _, _ in }
  var onCancelled: (ScriptedRecognizer, Set<Touch>) -> Void = { r, _ in r.state = .failed }
  var moves = 0
  var lifts = 0
  var timer: ScheduledTimer?

  init(_ name: String, log: Log) {
    self.log = log
    super.init()
    self.name = name
    addAction { [log] r in log.add("\(r.name!):\(r.state)") }
  }

  override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name!).began(\(ids(touches)))")
    onBegan(self, touches)
  }
  override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name!).moved(\(ids(touches)))")
    moves += 1
    onMoved(self, touches)
  }
  override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name!).ended(\(ids(touches)))")
    onEnded(self, touches)
  }
  override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    log.add("\(name!).cancelled(\(ids(touches)))")
    onCancelled(self, touches)
  }
  override func reset() {
    super.reset()
    log.add("\(name!).reset")
    moves = 0
    lifts = 0
    timer?.cancel()
    timer = nil
  }

  /// Discrete: recognizes when its touches end.
  static func tap(_ name: String, log: Log) -> ScriptedRecognizer {
    let r = ScriptedRecognizer(name, log: log)
    r.onEnded = { r, _ in r.state = .ended }
    return r
  }

  /// Continuous: begins on the second move, changes on later moves, ends with its touches.
  static func pan(_ name: String, log: Log) -> ScriptedRecognizer {
    let r = ScriptedRecognizer(name, log: log)
    r.onMoved = { r, _ in r.state = r.moves >= 2 ? (r.state == .possible ? .began : .changed) : r.state }
    r.onEnded = { r, _ in r.state = r.state == .possible ? .failed : .ended }
    return r
  }

  /// Fails as soon as it sees a touch.
  static func failing(_ name: String, log: Log) -> ScriptedRecognizer {
    let r = ScriptedRecognizer(name, log: log)
    r.onBegan = { r, _ in r.state = .failed }
    return r
  }

  /// A double tap: two lifts, the second touch down within `interval` of the first lift, else
  /// fails by its timer.
  static func doubleTap(_ name: String, log: Log, interval: Double = 0.3) -> ScriptedRecognizer {
    let r = ScriptedRecognizer(name, log: log)
    r.onBegan = { r, _ in r.timer?.cancel() }
    r.onEnded = { r, _ in
      r.lifts += 1
      if r.lifts == 2 {
        r.state = .ended
      } else {
        r.timer = r.schedule(after: interval) {
          r.log.add("\(r.name!).timeout")
          r.state = .failed
        }
      }
    }
    return r
  }
}

/// A delegate whose answers are closures (UIKit's defaults when unset).
final class ScriptedDelegate: GestureRecognizerDelegate {
  var shouldBegin: (GestureRecognizer) -> Bool = { _ in true }
  var shouldReceive: (GestureRecognizer, Touch) -> Bool = { _, _ in true }
  var simultaneously: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
  var requireFailure: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
  var beRequiredToFail: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }

  func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { shouldBegin(recognizer) }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
    shouldReceive(recognizer, touch)
  }
  func gestureRecognizer(
    _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
  ) -> Bool { simultaneously(recognizer, other) }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool {
    requireFailure(recognizer, other)
  }
  func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool {
    beRequiredToFail(recognizer, other)
  }
}

/// An application with one 400×400 window on a virtual clock, fed frames in window points.
final class Harness {
  let log = Log()
  let clock = VirtualClock()
  let app: Application
  let window: Window

  init(app makeApp: (VirtualClock) -> Application = { Application(clock: $0) }, window: Window? = nil) {
    app = makeApp(clock)
    self.window = window ?? Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
    app.addWindow(self.window)
  }

  /// Adds a recording view to `parent` (the window when nil).
  @discardableResult
  func view(_ name: String, _ frame: Rect, in parent: View? = nil) -> RecordingView {
    let v = RecordingView(name, frame, log: log)
    (parent ?? window).addSubview(v)
    return v
  }

  /// Advances the clock to `time` and delivers one frame.
  func frame(_ time: Double, _ contacts: Contact...) {
    clock.advance(to: time)
    app.handle(TouchFrame(time: Timestamp(microseconds: Int64((time * 1_000_000).rounded())), contacts: contacts))
  }

  /// A one-finger tap at (x, y): down at `time`, up 0.1 s later.
  func tap(_ id: UInt64, _ x: Double, _ y: Double, at time: Double) {
    frame(time, c(id, .began, x, y))
    frame(time + 0.1, c(id, .ended, x, y))
  }
}

/// A contact in window points.
func c(
  _ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, radius: Double? = nil, force: Double? = nil
) -> Contact {
  Contact(id: TouchID(rawValue: id), phase: phase, x: x, y: y, majorRadius: radius, force: force)
}
