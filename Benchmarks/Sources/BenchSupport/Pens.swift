import TouchDelivery
import TouchdInput
import TouchdScene
import TouchdTestKit

/// A pen signing at a pen display's 200 Hz, frame by frame through the runtime (issue #41: "a
/// signature view at a 200 Hz pen adds no allocation per frame and keeps the pipeline's p99
/// budget"): with `signature`, on a signature pad (every frame a point of its stroke); without,
/// the same pen on a plain view, the control.
public final class PenSigningState {
  public let clock: VirtualClock
  public let runtime: SceneRuntime
  public let frames: [TouchFrame]
  public var next = 0
  public var messages = 0

  public static func yaml(signature: Bool) -> String {
    """
    version: 1
    windows:
      - id: main
        size: {width: 1920, height: 1080}
        views:
          - id: page
            frame: {x: 0, y: 0, width: 1920, height: 1080}
            recognizers: [{id: next-page, type: swipe, action: next, direction: [left, right]}]
            views:
              - {id: pad, frame: {x: 160, y: 120, width: 1600, height: 600}\(signature ? ", signature: {ink: pen}" : "")}
    """
  }

  /// One stroke `seconds` long, zigzagging across the pad, then the warm-up frames delivered.
  public init(seconds: Double, warmUpFrames: Int, signature: Bool) {
    let pen = PenScript(start: 1, sampleRate: 200)
    pen.near(.init(x: 300, y: 300), tiltX: 10, tiltY: -20)
    pen.down(pressure: 0.6)
    var x = 300.0
    for _ in 0..<max(1, Int(seconds / 0.5)) {
      x = x == 300 ? 1500 : 300
      pen.move(to: .init(x: x, y: 400), duration: 0.5)
    }
    pen.up()
    pen.leave()
    frames = Replay.frames(of: pen.recording)
    clock = VirtualClock(now: frames[0].time.seconds)
    do {
      runtime = SceneRuntime(scene: try Scene.parse(Self.yaml(signature: signature)), clock: clock) { _ in }
    } catch {
      fatalError("the benchmark's scene is refused: \(error)")
    }
    runtime.addInputDevice(source: 0, description: pen.recording.description)
    runtime.sink = { [unowned self] message in
      messages += 1
      consume(message.jsonLine)
    }
    for _ in 0..<warmUpFrames { step() }
  }

  /// Delivers the next frame at its time.
  @inline(__always) public func step() {
    let frame = frames[next]
    next += 1
    clock.advance(to: frame.time.seconds)
    runtime.handle(frame, inWindow: 0, source: 0)
  }

  /// Frames left before the stroke's lift (the steady state is the stroke).
  public var remaining: Int { frames.count - 3 - next }
}
