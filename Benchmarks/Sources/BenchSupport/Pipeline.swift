import TouchDelivery
import TouchdInput
import TouchdScene

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

  public init(seconds: Double, warmUpFrames: Int) {
    let recording = BenchRecordings.pipelineFingers(seconds: seconds)
    frames = Replay.frames(of: recording)
    clock = VirtualClock(now: frames[0].time.seconds)
    runtime = SceneRuntime(scene: BenchScenes.pipeline(), clock: clock) { _ in }
    runtime.sink = { [unowned self] message in
      let line = message.jsonLine
      messages += 1
      bytes += line.utf8.count
      consume(line)
    }
    for _ in 0..<warmUpFrames { step() }
  }

  /// Delivers the next frame: advances the clock to its time (firing due timers), maps,
  /// hit-tests, delivers, arbitrates and encodes every message.
  @inline(__always) public func step() {
    let frame = frames[next]
    next += 1
    clock.advance(to: frame.time.seconds)
    runtime.handle(frame, inWindow: 0)
  }

  public var remaining: Int { frames.count - 1 - next }
}
