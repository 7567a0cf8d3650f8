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
    // 1,000 frames a sample (.kilo): the figures are per frame, the harness's own per-sample
    // allocations spread over them.
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: BenchMode.warmup(10),
      scalingFactor: .kilo, maxDuration: BenchMode.duration(5), maxIterations: BenchMode.iterations(2_000))
  ) { (benchmark: Benchmark, state: (DaemonMetrics, DeviceMetrics, TouchFrame)) in
    let (metrics, device, frame) = state
    for i in benchmark.scaledIterations {
      device.count(frame)
      // As Daemon.deliver records them: one call per stage.
      let microseconds = Int64(120 + i % 400)
      metrics.recordLatency(.wake, microseconds: microseconds)
      metrics.recordLatency(.assembled, microseconds: microseconds + 20)
      metrics.recordLatency(.encoded, microseconds: microseconds + 40)
      metrics.recordLatency(.forwarded, microseconds: microseconds + 10)
      metrics.recordLatency(.delivered, microseconds: microseconds + 60)
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
