import BenchSupport
import Benchmark
import Foundation
import TouchDelivery
import TouchdInput
import TouchdScene

let pointsPerSecond = BenchmarkMetric.custom("points/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  // 3. Hit-testing a 1,000-view tree 6 levels deep.
  let tree = BenchScenes.deepTree()
  let treeRuntime = SceneRuntime(scene: tree, clock: VirtualClock()) { _ in }
  let window = treeRuntime.windows[0]
  var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
  let points = (0..<1000).map { _ -> Point in
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let x = Double(seed >> 40) / Double(1 << 24) * 1920
    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    let y = Double(seed >> 40) / Double(1 << 24) * 1080
    return Point(x: x, y: y)
  }
  Benchmark(
    "Hit-test 1000 views 6 deep (1000 points)",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal, pointsPerSecond], warmupIterations: BenchMode.warmup(3),
      maxDuration: BenchMode.duration(5), maxIterations: BenchMode.iterations(2000))
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      // Only the hit-tests are measured, not the harness's bookkeeping for the custom metric.
      benchmark.startMeasurement()
      let start = DispatchTime.now().uptimeNanoseconds
      for p in points { blackHole(window.hitTest(p, with: nil)) }
      let nanoseconds = max(1, DispatchTime.now().uptimeNanoseconds - start)
      benchmark.stopMeasurement()
      benchmark.measurement(pointsPerSecond, Int(Double(points.count) * 1e9 / Double(nanoseconds)))
    }
  }

  // 4. The full pipeline per frame: frame in, JSON lines out.
  let pipelineSeconds = BenchMode.smoke ? 5.0 : 120.0
  Benchmark(
    "Pipeline frame: 200 views 50 recognizers 10 fingers moving",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .mallocCountSmall, .mallocCountLarge],
      warmupIterations: BenchMode.warmup(100), maxDuration: BenchMode.duration(10),
      maxIterations: BenchMode.iterations(10_000))
  ) { (benchmark: Benchmark, state: PipelineState) in
    guard state.remaining > 0 else { return }
    for _ in benchmark.scaledIterations { state.step() }
  } setup: {
    PipelineState(seconds: pipelineSeconds, warmUpFrames: BenchMode.smoke ? 10 : 240)
  }
}
