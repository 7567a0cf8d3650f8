import TouchdInput

@testable import TouchDelivery

/// Scripted fingers for gesture tests: one window with one full-size view, a virtual clock, and
/// frames of finger changes at given times fed to `Application.handle(_:in:)`, so recognizers see
/// exactly what the delivery pipeline gives them (arbitration, resets, timers included).
///
/// Each frame first advances the clock to the frame's time (so timers due earlier fire first).
/// The log records every action (`"pan:began"`) and every failure (`"tap:failed"`), with times.
/// A failure is seen either as the `.failed` state after a turn or as a recognizer that left the
/// arbitration without an `.ended` or `.cancelled` action (it failed and was reset in one turn).
final class Fingers {
  let clock = VirtualClock()
  let app: Application
  let window: Window
  let view: View
  private var ids: [Int: TouchID] = [:]
  private var positions: [Int: Point] = [:]
  private var nextID: UInt64 = 1
  private var recognizers: [GestureRecognizer] = []
  /// Recognizers whose failure or finishing action is already logged in the current attempt.
  private var finished: Set<ObjectIdentifier> = []
  /// Actions and failures in order: "name:state".
  private(set) var log: [String] = []
  /// The clock's time at each log entry.
  private(set) var logTimes: [Double] = []

  init(window size: Size = Size(width: 1000, height: 800)) {
    app = Application(clock: clock)
    window = Window(frame: Rect(origin: .zero, size: size))
    view = View(frame: Rect(origin: .zero, size: size))
    window.addSubview(view)
    app.addWindow(window)
  }

  /// Attaches `recognizer` to the view under `name` and logs its actions.
  @discardableResult
  func add<R: GestureRecognizer>(_ recognizer: R, _ name: String, to target: View? = nil) -> R {
    recognizer.name = name
    (target ?? view).addGestureRecognizer(recognizer)
    recognizers.append(recognizer)
    recognizer.addAction { [unowned self] r in
      record("\(name):\(r.state)")
      if r.state == .ended || r.state == .cancelled { finished.insert(ObjectIdentifier(r)) }
    }
    return recognizer
  }

  private func record(_ entry: String) {
    log.append(entry)
    logTimes.append(clock.now)
  }

  /// The time of the first log entry equal to `entry`.
  func time(of entry: String) -> Double? {
    log.firstIndex(of: entry).map { logTimes[$0] }
  }

  enum Change {
    case down(Int, Point)
    case move(Int, Point)
    case up(Int)
    case cancel(Int)
  }

  // MARK: Frames

  /// One frame at `t` (seconds, rounded to the frame's microseconds) with these changes.
  func frame(at t: Double, _ changes: [Change]) {
    let time = Timestamp(microseconds: Int64((t * 1_000_000).rounded()))
    advance(to: time.seconds)
    var contacts: [Contact] = []
    for change in changes {
      switch change {
      case .down(let finger, let p):
        let id = TouchID(rawValue: nextID)
        nextID += 1
        ids[finger] = id
        positions[finger] = p
        contacts.append(Contact(id: id, phase: .began, x: p.x, y: p.y))
      case .move(let finger, let p):
        guard let id = ids[finger] else { continue }
        positions[finger] = p
        contacts.append(Contact(id: id, phase: .moved, x: p.x, y: p.y))
      case .up(let finger), .cancel(let finger):
        guard let id = ids.removeValue(forKey: finger), let p = positions.removeValue(forKey: finger) else { continue }
        if case .up = change {
          contacts.append(Contact(id: id, phase: .ended, x: p.x, y: p.y))
        } else {
          contacts.append(Contact(id: id, phase: .cancelled, x: p.x, y: p.y))
        }
      }
    }
    observe { app.handle(TouchFrame(time: time, contacts: contacts), in: window) }
  }

  /// Moves the clock to `t`, firing due timers one deadline at a time.
  func advance(to t: Double) {
    while let next = clock.nextDeadline, next <= t {
      observe { clock.advance(to: next) }
    }
    clock.advance(to: t)
  }

  /// Runs one turn and logs the failures it caused.
  private func observe(_ turn: () -> Void) {
    let participants = app.gestureArbiter.participants
    let before = Set(participants.map(ObjectIdentifier.init))
    turn()
    let after = Set(app.gestureArbiter.participants.map(ObjectIdentifier.init))
    for r in recognizers {
      let id = ObjectIdentifier(r)
      if r.state == .failed || (before.contains(id) && !after.contains(id) && r.state == .possible) {
        if !finished.contains(id) {
          finished.insert(id)
          record("\(r.name ?? "?"):failed")
        }
      }
      if !after.contains(id) && r.state == .possible { finished.remove(id) }
    }
  }

  func down(_ finger: Int, _ p: Point, at t: Double) { frame(at: t, [.down(finger, p)]) }
  func move(_ finger: Int, _ p: Point, at t: Double) { frame(at: t, [.move(finger, p)]) }
  func up(_ finger: Int, at t: Double) { frame(at: t, [.up(finger)]) }
  func cancel(_ finger: Int, at t: Double) { frame(at: t, [.cancel(finger)]) }

  // MARK: Scripts

  /// `fingers` fingers (30 pt apart in x around `p`) touch down at `t` and lift `duration` later.
  func tap(at p: Point, t: Double, fingers: Int = 1, duration: Double = 0.06) {
    let ids = (0..<fingers).map { 100 + $0 }
    let points = ids.indices.map { Point(x: p.x + Double($0) * 30 - Double(fingers - 1) * 15, y: p.y) }
    frame(at: t, zip(ids, points).map { .down($0, $1) })
    frame(at: t + duration, ids.map { .up($0) })
  }

  /// Fingers `ids` (already down, or put down at `t0` at `from` offsets when `press` is true) move
  /// by `delta` over `duration` at `hz` frames per second, each sample displaced by up to
  /// `jitter` pt (a fixed pseudo-random sequence); they lift at the end when `lift` is true.
  func drag(
    _ ids: [Int] = [1], from starts: [Point], by delta: Point, t0: Double, duration: Double,
    hz: Double = 240, jitter: Double = 0, press: Bool = true, lift: Bool = true
  ) {
    if press { frame(at: t0, zip(ids, starts).map { .down($0, $1) }) }
    let steps = Int((duration * hz).rounded())
    var rng = Jitter()
    for i in 1...steps {
      let f = Double(i) / Double(steps)
      let t = t0 + duration * f
      frame(
        at: t,
        zip(ids, starts).map { id, s in
          .move(id, Point(x: s.x + delta.x * f + rng.next() * jitter, y: s.y + delta.y * f + rng.next() * jitter))
        })
    }
    if lift { frame(at: t0 + duration, ids.map { .up($0) }) }
  }

  /// Two fingers (1 and 2) on a horizontal line through `center`, `from` pt apart, spread to `to`
  /// pt apart over `duration`; they lift at the end when `lift` is true.
  func pinch(
    center c: Point, from: Double, to: Double, t0: Double, duration: Double, hz: Double = 240,
    lift: Bool = true
  ) {
    frame(at: t0, [.down(1, Point(x: c.x - from / 2, y: c.y)), .down(2, Point(x: c.x + from / 2, y: c.y))])
    let steps = Int((duration * hz).rounded())
    for i in 1...steps {
      let d = from + (to - from) * Double(i) / Double(steps)
      frame(
        at: t0 + duration * Double(i) / Double(steps),
        [.move(1, Point(x: c.x - d / 2, y: c.y)), .move(2, Point(x: c.x + d / 2, y: c.y))])
    }
    if lift { frame(at: t0 + duration, [.up(1), .up(2)]) }
  }

  /// Two fingers (1 and 2) `radius` pt from `center` on opposite sides, starting on a horizontal
  /// line, turning by `angle` radians (clockwise on screen when positive) over `duration`.
  func rotate(
    center c: Point, radius r: Double, by angle: Double, t0: Double, duration: Double, hz: Double = 240,
    lift: Bool = true
  ) {
    func points(_ a: Double) -> [Change] {
      let (s, co) = GestureMath.sinCos(a)
      return [
        .move(1, Point(x: c.x - r * co, y: c.y - r * s)), .move(2, Point(x: c.x + r * co, y: c.y + r * s)),
      ]
    }
    frame(at: t0, [.down(1, Point(x: c.x - r, y: c.y)), .down(2, Point(x: c.x + r, y: c.y))])
    let steps = Int((duration * hz).rounded())
    for i in 1...steps {
      frame(at: t0 + duration * Double(i) / Double(steps), points(angle * Double(i) / Double(steps)))
    }
    if lift { frame(at: t0 + duration, [.up(1), .up(2)]) }
  }
}

/// A fixed pseudo-random sequence in -1...1 (a 64-bit LCG), so jittered tests are reproducible.
struct Jitter {
  private var state: UInt64 = 0x2545_F491_4F6C_DD1D
  mutating func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53) * 2 - 1
  }
}

func approx(_ a: Double, _ b: Double, within tolerance: Double) -> Bool { abs(a - b) <= tolerance }
