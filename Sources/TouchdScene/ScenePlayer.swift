import TouchDelivery
import TouchdInput

/// Runs recordings through a ``SceneRuntime`` on a ``VirtualClock``, deterministically.
public enum ScenePlayer {
  /// A command applied at a time of the replay, as if a client sent it then (`touchctl replay --at`).
  public struct TimedCommand: Hashable, Sendable {
    /// Seconds after the recording's first event.
    public var offset: Double
    public var command: SceneCommand
    /// How an error names the command (touchctl: `--at 0.5 '{"cmd":…}'`).
    public var label: String

    public init(at offset: Double, _ command: SceneCommand, label: String? = nil) {
      self.offset = offset
      self.command = command
      self.label = label ?? "command at +\(offset) s \(command.json)"
    }
  }

  /// One step of a replay, in the order it happened.
  public enum Step: Hashable, Sendable {
    /// A message the scene published.
    case message(Message)
    /// A timed command was applied at `time` (the clock's seconds).
    case command(TimedCommand, time: Double)
  }

  /// The time a replay's command offsets (and `touchctl replay --explain`'s `+seconds`) count
  /// from: the recording's first event.
  public static func origin(of recording: Recording) -> Double { recording.events.first?.time.seconds ?? 0 }

  /// Replays `recording` against `scene`: for each frame the clock advances to the frame's time
  /// (firing due timers), the frame is mapped into the first window whose `devices` match the
  /// recording's device and delivered; touches still down at the end are cancelled, then pending
  /// timers run out. Returns the messages in order.
  ///
  /// Each of `commands` is applied when the clock reaches ``origin(of:)`` + its offset: after the
  /// timers due by then, before a frame at the same time; commands at one time in the given
  /// order. With `trace`, the runtime traces (``SceneRuntime/isTracing``) and the trace messages
  /// are among those returned.
  public static func replay(
    _ recording: Recording, scene: Scene, devicePath: String? = nil, commands: [TimedCommand] = [],
    trace: Bool = false
  ) throws(SceneRuntimeError) -> [Message] {
    var messages: [Message] = []
    try run(recording, scene: scene, devicePath: devicePath, commands: commands, trace: trace) { step in
      if case .message(let message) = step { messages.append(message) }
    }
    return messages
  }

  /// ``replay(_:scene:devicePath:commands:trace:)``, handing each step (messages and applied
  /// commands, each just before what it causes) to `body` as it happens. A command that fails (an unknown view, ending an
  /// ignoring never begun) stops the replay with ``SceneRuntimeError/timedCommand(label:error:)``.
  public static func run(
    _ recording: Recording, scene: Scene, devicePath: String? = nil, commands: [TimedCommand] = [],
    trace: Bool = false, _ body: @escaping (Step) -> Void
  ) throws(SceneRuntimeError) {
    let origin = origin(of: recording)
    let clock = VirtualClock(now: origin)
    let runtime = SceneRuntime(scene: scene, clock: clock) { body(.message($0)) }
    let window = try runtime.replayWindow(for: recording, path: devicePath)
    runtime.isTracing = trace
    // Stable: commands at one time keep their order.
    var pending = commands.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
      .map(\.element)[...]
    func applyCommands(upTo time: Double?) throws(SceneRuntimeError) {
      while let next = pending.first, time.map({ origin + next.offset <= $0 }) ?? true {
        pending.removeFirst()
        clock.advance(to: origin + next.offset)
        body(.command(next, time: clock.now))
        do {
          try runtime.apply(next.command)
        } catch {
          throw .timedCommand(label: next.label, error: error)
        }
      }
    }
    var failure: SceneRuntimeError?
    Replay.forEachFrame(of: recording) { frame in
      guard failure == nil else { return }
      do throws(SceneRuntimeError) {
        try applyCommands(upTo: frame.time.seconds)
      } catch {
        failure = error
        return
      }
      clock.advance(to: frame.time.seconds)
      runtime.handle(frame, inWindow: window)
    }
    if let failure { throw failure }
    try applyCommands(upTo: nil)
    clock.runUntilIdle()
  }
}
