import TouchdProtocol
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// CLOCK_MONOTONIC, the clock the kernel stamps input events with (evdev's default clock).
public enum MonotonicClock {
  /// Now, in microseconds. A vDSO call: about 20 ns, no system call.
  @inlinable
  public static func microseconds() -> Int64 { SystemCalls.live.monotonicMicroseconds() }
}

/// The last ``capacity`` latencies of one stage of the live path, in microseconds from the frame's
/// kernel timestamp: a fixed ring, so recording allocates nothing once it is full and costs one
/// store. Sorted only when `status` asks (docs/performance.md, "Latency").
public struct LatencyWindow: Sendable, Equatable {
  /// Frames kept: the summary is over the last this many.
  public static let capacity = 1024
  private var samples: [Int32] = []
  private var next = 0
  /// Frames recorded since start (the ring keeps the last ``capacity``).
  public private(set) var recorded = 0

  public init() {}

  /// Records one frame's latency at this stage.
  public mutating func record(_ microseconds: Int64) {
    let value = Int32(clamping: microseconds)
    if samples.count < Self.capacity {
      if samples.isEmpty { samples.reserveCapacity(Self.capacity) }
      samples.append(value)
    } else {
      samples[next] = value
    }
    next = (next + 1) % Self.capacity
    recorded += 1
  }

  /// Percentiles of the kept samples (nearest rank), in microseconds.
  public struct Summary: Sendable, Equatable {
    public var samples: Int
    public var p50: Int
    public var p90: Int
    public var p99: Int
    public var max: Int
  }

  /// The summary of the kept samples, or nil before the first.
  public var summary: Summary? {
    guard !samples.isEmpty else { return nil }
    let sorted = samples.sorted()
    func rank(_ p: Double) -> Int {
      let index = Int((p * Double(sorted.count)).rounded(.up)) - 1
      return Int(sorted[Swift.max(0, Swift.min(sorted.count - 1, index))])
    }
    return Summary(samples: sorted.count, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: Int(sorted.last!))
  }

  /// The summary as `status` reports it, in microseconds; nil before the first sample.
  public var stage: StatusReply.StageSummary? {
    summary.map { StatusReply.StageSummary(samples: $0.samples, p50: $0.p50, p90: $0.p90, p99: $0.p99, max: $0.max) }
  }
}

/// Where a live frame is, stage by stage, each as its latency from the kernel's timestamp of the
/// frame's `SYN_REPORT`. Recorded on the pipeline queue (all but ``handed``) and on the server's
/// event loop (``handed``, kept in `ServerCounters`).
public struct PipelineLatency: Sendable, Equatable {
  /// The input thread woke (the devices' epoll set was readable), before the pipeline queue ran the read.
  public var wake = LatencyWindow()
  /// libevdev read the frame and the frame assembler handed it out.
  public var assembled = LatencyWindow()
  /// The frame's last message was encoded as its JSON line (during delivery; frames without a
  /// message are not counted).
  public var encoded = LatencyWindow()
  /// The frame's first forwarded batch was written to its virtual touchscreen (docs/forward.md;
  /// frames forwarding nothing are not counted). Motion of touches already forwarded is written
  /// before delivery, so this comes before ``delivered`` for them.
  public var forwarded = LatencyWindow()
  /// Delivery (hit-testing, the responder chain, recognizers) returned.
  public var delivered = LatencyWindow()

  public init() {}

  /// Records one frame's `stage`, `microseconds` from the kernel's timestamp.
  public mutating func record(_ stage: LatencyStage, _ microseconds: Int64) {
    switch stage {
    case .wake: wake.record(microseconds)
    case .assembled: assembled.record(microseconds)
    case .encoded: encoded.record(microseconds)
    case .forwarded: forwarded.record(microseconds)
    case .delivered: delivered.record(microseconds)
    }
  }

  /// The stages in path order, with the server's ``handed`` window last.
  public func status(handed: LatencyWindow) -> StatusReply.LatencyStatus {
    StatusReply.LatencyStatus(
      frames: wake.recorded, window: LatencyWindow.capacity, wake: wake.stage, assembled: assembled.stage,
      encoded: encoded.stage, forwarded: forwarded.stage, delivered: delivered.stage, handed: handed.stage)
  }
}
