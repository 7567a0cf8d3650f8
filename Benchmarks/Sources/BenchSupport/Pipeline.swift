import CForwardPath
import CForwardShortcut
import Glibc
import TouchDelivery
import TouchdDevices
import TouchdInput
import TouchdScene
import TouchdTestKit

/// Keeps a value alive so that the optimizer cannot drop the work that made it.
@inline(never) public func consume<T>(_ value: T) { _ = value }

/// The pipeline of case 4 in a steady state: ten fingers down and moving, one frame per call.
public final class PipelineState {
  public let clock: VirtualClock
  public let runtime: SceneRuntime
  public let frames: [TouchFrame]
  public var next = 0
  public var messages = 0
  public var bytes = 0
  /// With `forwarding`: the window forwards (`forward: {}`) to a virtual touchscreen whose events
  /// are written as the daemon writes them to uinput, one write(2) of `struct input_event`s per
  /// batch, here to /dev/null (docs/forward.md; the kernel's uinput work is not touchd's).
  public let forwarding: Bool
  public var forwardedEvents = 0
  private let sink: Int32
  /// The write buffer, kept between frames as UinputDevice keeps its own.
  private var raw: [UInt8] = []

  /// `keepTouches`: the pans and pinches keep their touches (``BenchScenes/pipeline(forward:keepTouches:)``);
  /// with `forwarding`, every moving finger is forwarded in every frame, and without it the same
  /// scene is the control that tells forwarding's own cost from the scene's.
  /// With `health`, the runtime's touches are judged for touchscreen health (``TouchHealth``), as
  /// the daemon's are.
  public init(
    seconds: Double, warmUpFrames: Int, forwarding: Bool = false, keepTouches: Bool = false, health: Bool = false
  ) {
    let recording = BenchRecordings.pipelineFingers(seconds: seconds)
    frames = Replay.frames(of: recording)
    clock = VirtualClock(now: frames[0].time.seconds)
    runtime = SceneRuntime(scene: BenchScenes.pipeline(forward: forwarding, keepTouches: keepTouches), clock: clock) {
      _ in
    }
    self.forwarding = forwarding
    if health { runtime.health = TouchHealth() }
    sink = forwarding ? open("/dev/null", O_WRONLY | O_CLOEXEC) : -1
    runtime.sink = { [unowned self] message in
      let line = message.jsonLine
      messages += 1
      bytes += line.utf8.count
      consume(line)
    }
    if forwarding {
      runtime.addForwarding(of: recording.description, source: 0, inWindow: 0) { [unowned self] events in
        forwardedEvents += events.count
        write(events)
      }
    }
    for _ in 0..<warmUpFrames { step() }
    // A forwarding run that forwarded nothing in its steady state would measure nothing of it.
    if forwarding && keepTouches && warmUpFrames > 1 {
      let before = forwardedEvents
      step()
      precondition(forwardedEvents > before, "the benchmark's steady state forwards nothing")
    }
  }

  deinit { if sink >= 0 { close(sink) } }

  /// The daemon's uinput write (LinuxInput.writeEvents): the events as `struct input_event`s
  /// (24 bytes on 64-bit Linux: a zero timeval, type, code, value) in a kept buffer, one write(2).
  private func write(_ events: [InputEvent]) {
    raw.removeAll(keepingCapacity: true)
    raw.append(contentsOf: repeatElement(0, count: events.count * 24))
    raw.withUnsafeMutableBytes { bytes in
      for (i, event) in events.enumerated() {
        bytes.storeBytes(of: event.type, toByteOffset: i * 24 + 16, as: UInt16.self)
        bytes.storeBytes(of: event.code, toByteOffset: i * 24 + 18, as: UInt16.self)
        bytes.storeBytes(of: event.value, toByteOffset: i * 24 + 20, as: Int32.self)
      }
      _ = Glibc.write(sink, bytes.baseAddress, bytes.count)
    }
  }

  /// Delivers the next frame: advances the clock to its time (firing due timers), maps,
  /// hit-tests, delivers, arbitrates and encodes every message (and, forwarding, writes the
  /// virtual touchscreen's events).
  @inline(__always) public func step() {
    let frame = frames[next]
    next += 1
    clock.advance(to: frame.time.seconds)
    runtime.handle(frame, inWindow: 0, source: forwarding ? 0 : nil)
  }

  public var remaining: Int { frames.count - 1 - next }
}

/// One finger moving on a one-view scene that forwards it in every frame: the VM's forward-latency
/// scene (scripts/vm/scenes/forward.yaml, a three-finger long press that never claims it), per
/// frame, the write to /dev/null included.
public final class ForwardOneFingerState {
  public let clock: VirtualClock
  public let runtime: SceneRuntime
  public var frames: [TouchFrame] = []
  public var next = 0
  public var forwardedEvents = 0
  /// Called after each batch is written (the "to its write" benchmark stops its clock there).
  public var written: (() -> Void)?
  private let sink = open("/dev/null", O_WRONLY | O_CLOEXEC)

  /// The scene of the VM's forward-latency check: one forwarding view whose long press needs three
  /// fingers, so it never claims one.
  public static let yaml = """
    version: 1
    windows:
      - id: main
        size: {width: 1920, height: 1080}
        forward: {}
        views:
          - id: overlay
            frame: {x: 0, y: 0, width: 1920, height: 1080}
            multipleTouchEnabled: true
            recognizers:
              - {id: admin, type: longPress, action: open-admin, numberOfTouchesRequired: 3, minimumPressDuration: 2}
    """

  public init(frames count: Int) {
    let id = TouchID(rawValue: 1)
    frames.append(
      TouchFrame(time: Timestamp(microseconds: 1_000_000), contacts: [Contact(id: id, phase: .began, x: 0.1, y: 0.5)]))
    for i in 1..<count {
      frames.append(
        TouchFrame(
          time: Timestamp(microseconds: 1_000_000 + Int64(i) * 20_000),
          contacts: [Contact(id: id, phase: .moved, x: 0.1 + Double(i % 1000) / 2000, y: 0.5 + Double(i % 2) / 1000)]))
    }
    clock = VirtualClock(now: 1)
    runtime = SceneRuntime(scene: try! Scene.parse(Self.yaml), clock: clock) { _ in }
    let description = BenchRecordings.pipelineFingers(seconds: 0.1).description
    runtime.addForwarding(of: description, source: 0, inWindow: 0) { [unowned self] events in
      forwardedEvents += events.count
      _ = events.withUnsafeBytes { Glibc.write(sink, $0.baseAddress, $0.count) }
      written?()
    }
  }

  deinit { close(sink) }

  @inline(__always) public func step() {
    let frame = frames[next]
    next += 1
    clock.advance(to: frame.time.seconds)
    runtime.handle(frame, inWindow: 0, source: 0)
  }

  public var remaining: Int { frames.count - 1 - next }
}

/// The forwarding shortcut's frame (docs/forward.md, "Frames and time"): the VM forward-latency
/// scene's one finger moving on a protocol B panel, taken as the daemon's input thread takes it:
/// the forwarding path (``ForwardPath``, C) reads the frame's raw events one by one (from a reader
/// in place of libevdev), composes it and writes it (to /dev/null). ``feedFrame()`` is that, what
/// the daemon does before the virtual touchscreen has the frame; ``deliverFrame()`` the rest, the
/// buffered events through the assembler and the pipeline; ``arm()`` the arming for the next frame
/// and the path's publishing at the end of the input turn.
public final class ForwardShortcutState {
  public let clock: VirtualClock
  public let runtime: SceneRuntime
  public let shortcut: ForwardShortcut
  public let assembler: FrameAssembler
  /// The raw events of each frame, `SYN_REPORT` last.
  public var frames: [[InputEvent]] = []
  public var next = 0
  public var composed = 0
  private let sink = open("/dev/null", O_WRONLY | O_CLOEXEC)
  private let path = ForwardPath()
  private var entry: OpaquePointer!
  /// The events the path's reader hands over: those of `frames[next]`, from `read`.
  private var read = 0

  public init(frames count: Int) {
    let script = FingerScript()
    let finger = script.down([.init(x: 200, y: 540)])
    for i in 1..<count {
      script.wait(0.02)
      script.move(finger, to: [.init(x: 200 + Double(i % 1000) * 1.5, y: 540 + Double(i % 2))])
    }
    let recording = script.recording
    var frame: [InputEvent] = []
    for event in recording.events {
      frame.append(event)
      if event.type == EV.syn && event.code == SYN.report {
        frames.append(frame)
        frame = []
      }
    }
    clock = VirtualClock(now: 0)
    runtime = SceneRuntime(scene: try! Scene.parse(ForwardOneFingerState.yaml), clock: clock) { _ in }
    shortcut = ForwardShortcut(physical: recording.description)!
    assembler = FrameAssembler(device: recording.description, ids: TouchIDAllocator())
    runtime.addForwarding(of: recording.description, source: 0, inWindow: 0) { [unowned self] events in
      _ = events.withUnsafeBytes { Glibc.write(sink, $0.baseAddress, $0.count) }
    }
    entry = path.attach(
      reader: { context, out in
        let state = Unmanaged<ForwardShortcutState>.fromOpaque(context!).takeUnretainedValue()
        guard state.next < state.frames.count, state.read < state.frames[state.next].count else { return -EAGAIN }
        let e = state.frames[state.next][state.read]
        state.read += 1
        out!.pointee = touchd_shortcut_event(
          microseconds: e.time.microseconds, type: e.type, code: e.code, value: e.value)
        return 0
      }, context: Unmanaged.passUnretained(self).toOpaque(), output: sink, shortcut: shortcut, token: 0)
  }

  deinit {
    path.detach(entry: entry)
    close(sink)
  }

  /// The input thread's turn: the next frame read, composed and written by the path.
  @inline(__always) public func feedFrame() {
    composed += path.run()
  }

  /// The same frame through the assembler and the pipeline, its events as the path buffered them
  /// (or from the reader, when the path did not take the frame); then ``arm()``.
  @inline(__always) public func deliverFrame() {
    while true {
      let event: InputEvent
      if case .success(let buffered) = ForwardPath.next(entry) {
        event = buffered
      } else if read < frames[next].count {
        event = frames[next][read]
        read += 1
      } else {
        break
      }
      guard let frame = assembler.process(event) else { continue }
      clock.advance(to: frame.time.seconds)
      runtime.handle(frame, inWindow: 0, source: 0)
    }
    next += 1
    read = 0
  }

  /// The shortcut armed for the next frame, as the daemon arms it after each frame, and the path
  /// published, as at the end of each input turn.
  @inline(__always) public func arm() {
    runtime.armShortcut(shortcut, source: 0, window: 0, assembler: assembler, calibration: nil)
    path.publish()
  }

  public var remaining: Int { frames.count - next }

  /// A state of `frames` frames whose first `warmUp` have gone through.
  public static func warmed(frames: Int, warmUp: Int) -> ForwardShortcutState {
    let state = ForwardShortcutState(frames: frames)
    for _ in 0..<warmUp {
      state.feedFrame()
      state.deliverFrame()
      state.arm()
    }
    // Every frame after the touch-down is a motion frame the path takes: else this measures nothing.
    precondition(state.composed == warmUp - 1, "the forwarding path composed \(state.composed) of \(warmUp - 1) frames")
    return state
  }
}
