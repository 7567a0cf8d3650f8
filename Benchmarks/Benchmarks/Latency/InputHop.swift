import BenchSupport
import Benchmark
import Dispatch
import Foundation
import TouchdDaemon
import TouchdDevices

#if canImport(Glibc)
  import Glibc
#endif

// "Input hop" (docs/performance.md, "Input thread or Dispatch read source: the hop, on the host"):
// how long from an event's stamp to the handler running on the pipeline queue, through the
// daemon's `InputThread` (poll(2) on the devices' epoll set, then `queue.sync`) and through one
// `DispatchSourceRead` on the same kind of epoll set, targeting the queue.
//
// The host has no /dev/uinput, so a pipe stands in for an evdev node: its read end is the one
// "device" in a real `DevicePoll` (the daemon's epoll set), and the benchmark's thread, the
// writer, reads CLOCK_MONOTONIC just before each write(2) of a 24-byte record carrying that stamp,
// as the kernel stamps an input event when it queues it. The handler reads the clock first, then
// drains the set as the daemon does (`DevicePoll.ready()`, then read(2) to EAGAIN), and records
// handler-entry minus stamp. Both receivers run in the same process, each with its own pipe, set
// and serial queue, fed in turn, so load from the rest of the machine falls on both alike.

/// CLOCK_MONOTONIC in nanoseconds (the kernel's input stamps are this clock, in µs).
@inline(__always) func monotonicNanoseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Sleeps until CLOCK_MONOTONIC reads `deadline` (ns).
func sleep(untilNanoseconds deadline: Int64) {
  var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
  while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
}

/// One stand-in device (a pipe in a `DevicePoll`) and one way of getting its input to a serial
/// pipeline queue.
final class HopReceiver: @unchecked Sendable {
  enum Kind: String {
    case inputThread = "input thread"
    case readSource = "read source"
  }

  let kind: Kind
  /// The harness's metric for this receiver (ns).
  let metric: BenchmarkMetric
  let queue = DispatchQueue(label: "bench.pipeline")
  private let poll: DevicePoll
  private let device: (read: Int32, write: Int32)
  private var thread: InputThread?
  private var source: DispatchSourceRead?
  private let handled = DispatchSemaphore(value: 0)
  private var buffer = [UInt8](repeating: 0, count: 24 * 64)
  /// Set on the queue by the handler, read by the writer after `handled`.
  private var latest: Int64 = 0
  /// Every measured latency (ns), in order; warm-up events are not kept.
  private(set) var samples: [Int64] = []

  init(_ kind: Kind) throws {
    self.kind = kind
    metric = .custom("\(kind.rawValue) (ns)", useScalingFactor: false)
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0, "pipe: errno \(errno)")
    precondition(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0)
    device = (fds[0], fds[1])
    poll = try DevicePoll()
    _ = try poll.add(device.read, path: "bench-pipe")
    switch kind {
    case .inputThread:
      // As `Daemon` does: the thread sleeps in poll(2) on the set and runs the reads with `queue.sync`.
      let thread = InputThread(fileDescriptor: poll.fileDescriptor, queue: queue, name: "bench.input") {
        [unowned self] _ in handle()
      }
      thread.start()
      self.thread = thread
    case .readSource:
      // The alternative: libdispatch watches the set's fd and runs the handler on the queue.
      let source = DispatchSource.makeReadSource(fileDescriptor: poll.fileDescriptor, queue: queue)
      source.setEventHandler { [unowned self] in handle() }
      source.activate()
      self.source = source
    }
  }

  /// The pipeline's handler: the clock first, then the set drained as the daemon drains it.
  private func handle() {
    let entry = monotonicNanoseconds()
    var stamp: Int64 = -1
    for _ in poll.ready() {
      while true {
        let n = buffer.withUnsafeMutableBytes { read(device.read, $0.baseAddress, $0.count) }
        guard n > 0 else { break }
        for offset in stride(from: 0, to: n, by: 24) {
          stamp = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int64.self) }
        }
      }
    }
    guard stamp >= 0 else { return }  // woken with nothing to read: no sample, the writer still waits
    latest = entry - stamp
    handled.signal()
  }

  /// Writes one event stamped now and waits until the handler has run; keeps the latency when
  /// `record`, and returns it (ns).
  @discardableResult
  func event(record: Bool = true) -> Int64 {
    var bytes = [UInt8](repeating: 0, count: 24)
    let stamp = monotonicNanoseconds()
    withUnsafeBytes(of: stamp) { bytes.replaceSubrange(0..<8, with: $0) }
    let written = bytes.withUnsafeBytes { write(device.write, $0.baseAddress, $0.count) }
    precondition(written == 24, "write: \(written) errno \(errno)")
    handled.wait()
    if record { samples.append(latest) }
    return latest
  }

  /// Stops the receiver; the queue runs no handler afterwards. A read source is cancelled and its
  /// cancel handler waited for, so libdispatch has let go of the set's fd before it is closed.
  func stop() {
    thread?.stop()
    if let source {
      let cancelled = DispatchSemaphore(value: 0)
      source.setCancelHandler { cancelled.signal() }
      source.cancel()
      cancelled.wait()
    }
    queue.sync {}
  }

  deinit {
    close(device.read)
    close(device.write)
  }

  /// p50, p90, p99 and max in µs, and the count, as one line.
  func summary() -> String {
    guard !samples.isEmpty else { return "\(kind.rawValue): no samples" }
    let sorted = samples.sorted()
    func at(_ p: Double) -> String {
      let index = min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)
      return String(format: "%.1f", Double(sorted[max(0, index)]) / 1000)
    }
    return "\(kind.rawValue): p50 \(at(0.50)) µs, p90 \(at(0.90)) µs, p99 \(at(0.99)) µs, max \(at(1.0)) µs"
      + " (\(sorted.count) events)"
  }
}

/// Both receivers, fed in turn, either paced (one event every `period` ns, so every wake-up is
/// from idle) or back-to-back (the next write as soon as the handler ran).
final class HopRig: @unchecked Sendable {
  let name: String
  let receivers: [HopReceiver]
  let block: Int
  let period: Int64?
  private var next: Int64 = 0

  init(name: String, block: Int, period: Int64?) throws {
    self.name = name
    self.block = block
    self.period = period
    receivers = [try HopReceiver(.inputThread), try HopReceiver(.readSource)]
    // Warm-up, not kept: thread creation, libdispatch's first registration, first-touch faults.
    for _ in 0..<50 { for receiver in receivers { pace(); receiver.event(record: false) } }
  }

  /// With pacing, sleeps until the next tick (and, when late, starts the ticks again from now).
  private func pace() {
    guard let period else { return }
    let now = monotonicNanoseconds()
    next = max(next + period, now + period / 2)
    sleep(untilNanoseconds: next)
  }

  /// One harness iteration: `block` events to each receiver, each latency also given to the
  /// harness as its receiver's custom metric. Paced, the receivers take turns event by event (each
  /// still wakes from idle); back-to-back, block by block (each keeps its own hot loop).
  func run(_ benchmark: Benchmark) {
    if period != nil {
      for _ in 0..<block {
        for receiver in receivers {
          pace()
          benchmark.measurement(receiver.metric, Int(receiver.event()))
        }
      }
    } else {
      for receiver in receivers {
        for _ in 0..<block { benchmark.measurement(receiver.metric, Int(receiver.event())) }
      }
    }
  }

  func finish() {
    for receiver in receivers { receiver.stop() }
    var report = "\(name), stamp to handler on the pipeline queue:\n"
    for receiver in receivers { report += "  \(receiver.summary())\n" }
    FileHandle.standardError.write(Data(report.utf8))
  }
}

/// Holds a benchmark's rig between its setup and teardown.
final class HopRigSlot: @unchecked Sendable {
  var rig: HopRig?
}

func inputHopBenchmarks() {
  let metrics: [BenchmarkMetric] = [
    .custom("input thread (ns)", useScalingFactor: false), .custom("read source (ns)", useScalingFactor: false),
  ]
  // Nanoseconds as they are, not in thousands.
  let units = Dictionary(uniqueKeysWithValues: metrics.map { ($0, BenchmarkUnits.count) })
  // Paced as a touchscreen reports, 120 Hz: every wake-up is from idle. 50 iterations of 50
  // events to each receiver, in turn (2,500 each, 5,000 events 8.33 ms apart: ~42 s).
  let paced = HopRigSlot()
  Benchmark(
    "Input hop: paced 120 Hz",
    configuration: .init(
      metrics: metrics, units: units, warmupIterations: 0, maxDuration: BenchMode.duration(120),
      maxIterations: BenchMode.iterations(50))
  ) { benchmark in
    paced.rig!.run(benchmark)
  } setup: {
    paced.rig = try HopRig(name: "Input hop: paced 120 Hz", block: 50, period: 1_000_000_000 / 120)
  } teardown: {
    paced.rig?.finish()
    paced.rig = nil
  }
  // Back-to-back: the next event is written as soon as the handler has run. 40 blocks of 500
  // events to each receiver (20,000 each).
  let hot = HopRigSlot()
  Benchmark(
    "Input hop: back-to-back",
    configuration: .init(
      metrics: metrics, units: units, warmupIterations: 0, maxDuration: BenchMode.duration(60),
      maxIterations: BenchMode.iterations(40))
  ) { benchmark in
    hot.rig!.run(benchmark)
  } setup: {
    hot.rig = try HopRig(name: "Input hop: back-to-back", block: 500, period: nil)
  } teardown: {
    hot.rig?.finish()
    hot.rig = nil
  }
}
