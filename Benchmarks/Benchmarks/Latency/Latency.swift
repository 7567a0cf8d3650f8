import BenchSupport
import Benchmark
import CForward
import Dispatch
import Foundation
import Logging
import TouchDelivery
import TouchdDaemon
import TouchdInput
import TouchdScene
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

// Case 8 (docs/performance.md, "Latency (case 8)"): a frame from where device reads enter to a subscriber
// that has read its line, through touchd's pieces and through a minimal C reader, in one run.

/// A frame's events as the kernel hands them to a reader: `struct input_event` (64-bit Linux:
/// seconds, microseconds, type, code, value; 24 bytes each), all stamped `micros`.
func eventBytes(_ events: [(type: UInt16, code: UInt16, value: Int32)], at micros: Int64) -> [UInt8] {
  var bytes: [UInt8] = []
  bytes.reserveCapacity(events.count * 24)
  for event in events {
    withUnsafeBytes(of: (micros / 1_000_000).littleEndian) { bytes += $0 }
    withUnsafeBytes(of: (micros % 1_000_000).littleEndian) { bytes += $0 }
    withUnsafeBytes(of: event.type.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: event.code.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: event.value.littleEndian) { bytes += $0 }
  }
  return bytes
}

/// One move of finger 0 to `x` (device units), then SYN_REPORT.
func moveFrame(x: Int32, at micros: Int64) -> [UInt8] {
  eventBytes(
    [(EV.abs, ABS.mtSlot, 0), (EV.abs, ABS.mtPositionX, x), (EV.abs, ABS.mtPositionY, 2000), (EV.syn, SYN.report, 0)],
    at: micros)
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
  let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  precondition(written == bytes.count, "write: \(written) errno \(errno)")
}

/// Refuses every pipeline command: the benchmark sends none.
final class NoCommands: CommandHandler, Sendable {
  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) { reply(.error("not in the benchmark")) }
}

/// touchd's live path, wired as `Daemon` wires it: an ``InputThread`` reads the events on the
/// pipeline queue (read(2) of a pipe stands in for libevdev's read of the evdev node), the frame
/// assembler makes frames, the scene runtime delivers them (the VM latency scene: one full-window
/// view publishing touches, with a tap, a pan and a pinch), and the frame's messages go to the
/// socket server in one batch; a subscriber to `touches` reads them on the benchmark's thread.
final class TouchdPath: @unchecked Sendable {
  let queue = DispatchQueue(label: "bench.pipeline")
  let path = "/tmp/touchd-bench-latency-\(getpid()).sock"
  let input: (read: Int32, write: Int32)
  let server: SocketServer
  private(set) var subscriber: Client!
  private var reader: InputThread!
  private var assembler: FrameAssembler!
  private var runtime: SceneRuntime!
  private let clock = VirtualClock(now: 0)
  private var outbound: [OutboundMessage] = []
  private var buffer = [UInt8](repeating: 0, count: 24 * 64)
  private var step = 0

  init() throws {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    precondition(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0)
    input = (fds[0], fds[1])
    var logger = Logger(label: "bench")
    logger.logLevel = .critical
    server = try SocketServer(
      configuration: SocketServer.Configuration(path: path), handler: NoCommands(), logger: logger)
    let scenePath = BenchRecordings.repositoryRoot.appendingPathComponent("scripts/vm/scenes/equivalence.yaml").path
    let scene = try Scene.load(path: scenePath)
    queue.sync {
      assembler = FrameAssembler(device: SyntheticTouchscreen.description, ids: TouchIDAllocator())
      // As the daemon does, only the types some client subscribes to are encoded: here the one
      // subscriber takes `touches`, so the pan's and pinch's actions are not.
      runtime = SceneRuntime(scene: scene, clock: clock) { [unowned self] message in
        guard case .touches(let touches) = message else { return }
        outbound.append(OutboundMessage(line: message.jsonLine, type: "touches", view: touches.view))
      }
    }
    // As the daemon waits on its devices' epoll set: a thread of its own, asleep in poll(2), runs
    // the reads on the pipeline queue.
    reader = InputThread(fileDescriptor: input.read, queue: queue, name: "bench.input") { [unowned self] _ in
      readFrames()
    }
    reader.start()
    subscriber = Client(path: path)
    unlink(path)  // the connection stays; no socket file is left behind
    subscriber.readLine()  // hello
    subscriber.send(#"{"cmd":"subscribe","id":1,"types":["touches"]}"#)
    subscriber.readLine()  // the reply
    // Finger 0 lands; its began line is read.
    writeAll(
      input.write,
      eventBytes(
        [
          (EV.abs, ABS.mtSlot, 0), (EV.abs, ABS.mtTrackingID, 1), (EV.abs, ABS.mtPositionX, 500),
          (EV.abs, ABS.mtPositionY, 2000), (EV.key, BTN.touch, 1), (EV.syn, SYN.report, 0),
        ], at: MonotonicClock.microseconds()))
    subscriber.readLine()
  }

  /// The input thread's handler: every event the pipe has, frame by frame to delivery, then the
  /// frame's messages to the server.
  private func readFrames() {
    while true {
      let n = buffer.withUnsafeMutableBytes { read(input.read, $0.baseAddress, $0.count) }
      guard n > 0 else { return }
      for offset in stride(from: 0, to: n, by: 24) {
        let event = buffer.withUnsafeBytes { raw -> InputEvent in
          let seconds = raw.loadUnaligned(fromByteOffset: offset, as: Int64.self)
          let micros = raw.loadUnaligned(fromByteOffset: offset + 8, as: Int64.self)
          return InputEvent(
            time: Timestamp(seconds: seconds, microseconds: micros),
            type: raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt16.self),
            code: raw.loadUnaligned(fromByteOffset: offset + 18, as: UInt16.self),
            value: raw.loadUnaligned(fromByteOffset: offset + 20, as: Int32.self))
        }
        guard let frame = assembler.process(event) else { continue }
        clock.advance(to: frame.time.seconds)
        runtime.handle(frame, inWindow: 0)
        if !outbound.isEmpty {
          server.publish(outbound, kernelTime: frame.time.microseconds)
          outbound.removeAll(keepingCapacity: true)
        }
      }
    }
  }

  /// Writes one move frame stamped now and returns once the subscriber has read its line.
  func roundTrip() {
    step += 1
    writeAll(input.write, moveFrame(x: 500 + Int32(step % 2000), at: MonotonicClock.microseconds()))
    subscriber.readLine()
  }
}

/// The baseline: `cforward_run` on its own thread, blocked in read(2) on a pipe, writing one line
/// per SYN_REPORT to a socket whose other end the benchmark's thread reads.
final class CPath: @unchecked Sendable {
  let input: (read: Int32, write: Int32)
  private(set) var subscriber: Client!
  private let thread: Thread
  private var step = 0

  init() {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    input = (fds[0], fds[1])
    var pair: [Int32] = [0, 0]
    precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    subscriber = Client(fd: pair[1])
    let (read, out) = (fds[0], pair[0])
    thread = Thread {
      cforward_run(read, out)
      close(read)
      close(out)
    }
    thread.start()
  }

  func roundTrip() {
    step += 1
    writeAll(input.write, moveFrame(x: 500 + Int32(step % 2000), at: MonotonicClock.microseconds()))
    subscriber.readLine()
  }
}

let benchmarks: @Sendable () -> Void = {
  let configuration = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .contextSwitches, .syscalls],
    warmupIterations: BenchMode.warmup(200),
    maxDuration: BenchMode.duration(5), maxIterations: BenchMode.iterations(10_000))
  Benchmark("Frame to subscriber: touchd", configuration: configuration) { (benchmark: Benchmark, path: TouchdPath) in
    for _ in benchmark.scaledIterations { path.roundTrip() }
  } setup: {
    try TouchdPath()
  }
  Benchmark("Frame to subscriber: minimal C reader", configuration: configuration) {
    (benchmark: Benchmark, path: CPath) in
    for _ in benchmark.scaledIterations { path.roundTrip() }
  } setup: {
    CPath()
  }
  // What the daemon adds per live frame for `status` → `latency`: four clock reads and four
  // stores into the stage windows (the fifth stage is the server's, once per frame).
  Benchmark(
    "Stage stamps per frame",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], warmupIterations: BenchMode.warmup(10),
      maxDuration: BenchMode.duration(2), maxIterations: BenchMode.iterations(1_000))
  ) { benchmark in
    var latency = PipelineLatency()
    let kernel = MonotonicClock.microseconds()
    benchmark.startMeasurement()
    for _ in 0..<10_000 {
      let wake = MonotonicClock.microseconds()
      let assembled = MonotonicClock.microseconds()
      let encoded = MonotonicClock.microseconds()
      latency.wake.record(wake - kernel)
      latency.assembled.record(assembled - kernel)
      latency.encoded.record(encoded - kernel)
      latency.delivered.record(MonotonicClock.microseconds() - kernel)
    }
    benchmark.stopMeasurement()
    blackHole(latency)
  }
  inputHopBenchmarks()
}
