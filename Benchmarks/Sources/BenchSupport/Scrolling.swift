import TouchDelivery
import TouchdInput
import TouchdScene
import TouchdTestKit

extension BenchScenes {
  /// The scrolling scene: a 1920x1080 window (60 Hz) with a vertical list, scroll view `list`
  /// at x 560, 800x1080, holding 200 rows of 800x88 (content 800x17,600), each with a tap
  /// (`tap<i>`, action `open<i>`); every fourth row also handles touches itself (`touches: true`,
  /// 50 rows). The list starts at offset y 8,000, so that flings up and down never reach an edge.
  ///
  /// Built in code: the scene format's validation of `scroll:` is not in every tree yet.
  public static func scrollList(rows: Int = 200) -> Scene {
    var list = Scene.View(
      id: "list", frame: Scene.Frame(x: 560, y: 0, width: 800, height: 1080),
      views: (0..<rows).map { i in
        var row = Scene.View(
          id: "row\(i)", frame: Scene.Frame(x: 0, y: Double(i) * 88, width: 800, height: 88),
          recognizers: [Scene.Recognizer(id: "tap\(i)", type: .tap, action: "open\(i)")])
        row.touches = i % 4 == 0
        return row
      })
    var scroll = Scene.Scroll(contentSize: Scene.Size(width: 800, height: Double(rows) * 88))
    scroll.contentOffset = Scene.Point(x: 0, y: scrollListStartOffset)
    list.scroll = scroll
    return Scene(windows: [Scene.Window(id: "main", size: Scene.Size(width: 1920, height: 1080), views: [list])])
  }

  /// ``scrollList(rows:)``'s starting content offset (y).
  public static let scrollListStartOffset = 8000.0

  /// ``scrollList(rows:)`` as a client pushes it: `{"cmd":"scene","id":1,"scene":{…}}`, the same
  /// window, list and rows written as JSON (about 1.3 MB for 10,000 rows).
  public static func scrollListPushLine(rows: Int) -> [UInt8] {
    let items = (0..<rows).map { i in
      #"{"id":"row\#(i)","frame":{"x":0,"y":\#(i * 88),"width":800,"height":88},"touches":\#(i % 4 == 0),"#
        + #""recognizers":[{"id":"tap\#(i)","type":"tap","action":"open\#(i)"}]}"#
    }
    let list =
      #"{"id":"list","frame":{"x":560,"y":0,"width":800,"height":1080},"scroll":{"contentSize":"#
      + #"{"width":800,"height":\#(rows * 88)},"contentOffset":{"x":0,"y":\#(Int(scrollListStartOffset))}},"#
      + #""views":["# + items.joined(separator: ",") + "]}"
    let scene = #"{"version":1,"windows":[{"id":"main","size":{"width":1920,"height":1080},"views":["# + list + "]}]}"
    return Array((#"{"cmd":"scene","id":1,"scene":"# + scene + "}").utf8)
  }

  /// ``scrollList(rows:)`` as a scene file written plainly, in docs/scene.md's style (about 1.3 MB
  /// for 10,000 rows).
  public static func scrollListYAML(rows: Int) -> String {
    var yaml = "version: 1\nwindows:\n  - id: main\n    size: {width: 1920, height: 1080}\n    views:\n"
    yaml += "      - id: list\n        frame: {x: 560, y: 0, width: 800, height: 1080}\n"
    yaml += "        scroll: {contentSize: {width: 800, height: \(rows * 88)}, "
    yaml += "contentOffset: {x: 0, y: \(Int(scrollListStartOffset))}}\n        views:\n"
    for i in 0..<rows {
      yaml += "          - id: row\(i)\n            frame: {x: 0, y: \(i * 88), width: 800, height: 88}\n"
      if i % 4 == 0 { yaml += "            touches: true\n" }
      yaml += "            recognizers:\n              - {id: tap\(i), type: tap, action: open\(i)}\n"
    }
    return yaml
  }
}

extension BenchRecordings {
  /// `count` flings on ``BenchScenes/scrollList(rows:)``: one finger at x 960 drags 400 pt in
  /// 0.2 s (24 frames at 120 Hz, 2,000 pt/s), alternately up (y 800 to 400) and down, and lifts;
  /// the next fling lands `gap` seconds after the lift (after the ~3.8 s deceleration has ended).
  public static func flings(_ count: Int, gap: Double = 5) -> Recording {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080)
    for i in 0..<count {
      let (from, to) = i % 2 == 0 ? (800.0, 400.0) : (400.0, 800.0)
      script.drag(
        from: FingerScript.Point(x: 960, y: from), to: FingerScript.Point(x: 960, y: to), duration: 0.2)
      script.wait(gap)
    }
    return script.recording
  }
}

/// Flings on the scrolling scene, one step at a time: an input frame (the clock advanced to its
/// time, then mapping, hit-testing, delivery, arbitration, every message's `jsonLine`), or a
/// clock advance to the next timer due before the next frame (while the content decelerates:
/// a display tick, which moves the offset and publishes `didScroll`).
public final class FlingState {
  public let clock: VirtualClock
  public let runtime: SceneRuntime
  public let list: ScrollView
  public let frames: [TouchFrame]
  public let flings: Int
  public private(set) var next = 0
  public private(set) var messages = 0
  public private(set) var bytes = 0
  /// `didScroll` messages so far.
  public private(set) var didScrolls = 0
  public private(set) var frameSteps = 0
  /// Frames by kind: a finger lands, moves, lifts.
  public private(set) var touchDowns = 0
  public private(set) var moves = 0
  public private(set) var lifts = 0
  /// Timer steps that published a `didScroll` (display ticks), and those that did not.
  public private(set) var tickSteps = 0
  public private(set) var otherTimerSteps = 0
  /// Touch-downs that found the content still moving (should stay 0: the gap is long enough).
  public private(set) var caughtMoving = 0

  /// `rows`: the list's rows (``BenchScenes/scrollList(rows:)``).
  public init(flings: Int, warmUpFlings: Int, rows: Int = 200) {
    self.flings = flings + warmUpFlings
    frames = Replay.frames(of: BenchRecordings.flings(self.flings))
    clock = VirtualClock(now: frames[0].time.seconds)
    runtime = SceneRuntime(scene: BenchScenes.scrollList(rows: rows), clock: clock) { _ in }
    list = runtime.scrollView("list")!
    runtime.sink = { [unowned self] message in
      let line = message.jsonLine
      messages += 1
      bytes += line.utf8.count
      if case .scroll(let m) = message, m.phase == ScrollView.Phase.didScroll.rawValue { didScrolls += 1 }
      consume(line)
    }
    // Warm up: whole flings, with their decelerations.
    let warmUpFrames = warmUpFlings * (frames.count / self.flings)
    while next < warmUpFrames { step() }
    while hasTimerBeforeNextFrame { step() }
  }

  /// Whether a timer falls due before the next frame (or any is pending after the last frame).
  public var hasTimerBeforeNextFrame: Bool {
    guard let deadline = clock.nextDeadline else { return false }
    return next >= frames.count || deadline < frames[next].time.seconds
  }

  /// Whether the next step is a display tick of moving content.
  public var nextIsTick: Bool { list.isMoving && hasTimerBeforeNextFrame }

  /// Frames left to deliver.
  public var remainingFrames: Int { frames.count - next }

  /// The next step: the timer due before the next frame, else the next frame. False at the end.
  @discardableResult
  public func step() -> Bool {
    if hasTimerBeforeNextFrame {
      tick()
      return true
    }
    guard next < frames.count else { return false }
    deliverFrame()
    return true
  }

  /// Fires the timers due before the next frame.
  public func runTimers() {
    while hasTimerBeforeNextFrame { tick() }
  }

  /// Steps until the next step is a display tick; false when none is left.
  public func runUntilTick() -> Bool {
    while !nextIsTick {
      guard step() else { return false }
    }
    return true
  }

  /// Advances the clock to the frame's time (firing what falls due) and delivers it. Call when
  /// ``hasTimerBeforeNextFrame`` is false, so that the frame does not carry earlier ticks.
  public func deliverFrame() {
    let frame = frames[next]
    next += 1
    frameSteps += 1
    // One function per kind of frame, so that a profile tells them apart.
    switch frame.contacts.first?.phase {
    case .began?:
      if list.isMoving { caughtMoving += 1 }
      deliverTouchDown(frame)
    case .ended?, .cancelled?: deliverLift(frame)
    default: deliverMove(frame)
    }
  }

  @inline(never) func deliverTouchDown(_ frame: TouchFrame) {
    touchDowns += 1
    clock.advance(to: frame.time.seconds)
    runtime.handle(frame, inWindow: 0)
  }

  @inline(never) func deliverMove(_ frame: TouchFrame) {
    moves += 1
    clock.advance(to: frame.time.seconds)
    runtime.handle(frame, inWindow: 0)
  }

  @inline(never) func deliverLift(_ frame: TouchFrame) {
    lifts += 1
    clock.advance(to: frame.time.seconds)
    runtime.handle(frame, inWindow: 0)
  }

  /// Advances the clock to the next timer's deadline (firing every timer due then).
  @inline(never) public func tick() {
    guard let deadline = clock.nextDeadline else { return }
    let before = didScrolls
    clock.advance(to: deadline)
    if didScrolls > before { tickSteps += 1 } else { otherTimerSteps += 1 }
  }

  /// A one-line account of what ran, for checks and the profile.
  public var summary: String {
    "\(frameSteps) frames (\(touchDowns) down, \(moves) move, \(lifts) lift), \(tickSteps) ticks "
      + "(+\(otherTimerSteps) other timers), \(messages) messages (\(didScrolls) didScroll), \(bytes) bytes, "
      + "offset y \(list.contentOffset.y), \(caughtMoving) touch-downs on moving content"
  }
}
