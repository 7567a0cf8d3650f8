import BenchSupport
import Benchmark
import TouchdDaemon
import TouchdInput

/// What the metrics cost a live frame on the pipeline's queue (issue #42: "metrics add no
/// allocation per frame"): a device's counters for a frame of 10 moving fingers, the five latency
/// stages' histograms, and one action counted, as `Daemon.deliver` and `publish` do.
func metricsPerFrameBenchmark() {
  Benchmark(
    "Metrics per live frame: device counters, 5 latency histograms, 1 action",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
      warmupIterations: BenchMode.warmup(100),
      maxDuration: BenchMode.duration(5), maxIterations: BenchMode.iterations(100_000))
  ) { (benchmark: Benchmark, state: (DaemonMetrics, DeviceMetrics, TouchFrame)) in
    let (metrics, device, frame) = state
    for i in benchmark.scaledIterations {
      device.count(frame)
      for stage in LatencyStage.allCases { metrics.recordLatency(stage, microseconds: Int64(120 + i % 400)) }
      metrics.countAction("move3", gesture: "pan")
    }
  } setup: {
    let metrics = DaemonMetrics()
    let device = DeviceMetrics(device: "bench touchscreen", in: metrics)
    let contacts = (0..<10).map {
      Contact(id: TouchID(rawValue: UInt64($0 + 1)), phase: .moved, x: 0.1 * Double($0), y: 0.5)
    }
    // The action's series exists after the scene's first action, as in the daemon.
    metrics.countAction("move3", gesture: "pan")
    return (metrics, device, TouchFrame(time: Timestamp(microseconds: 1_000_000), contacts: contacts))
  }
}
