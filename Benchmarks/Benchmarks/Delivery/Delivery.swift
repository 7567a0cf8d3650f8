import BenchSupport
import Benchmark
import CHeap
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

  // 4. The full pipeline per frame: frame in, JSON lines out; then its forwarding variants (issue
  // #25, docs/forward.md). One frame per iteration through a PipelineState.
  let pipelineSeconds = BenchMode.smoke ? 5.0 : 120.0
  let warmUpFrames = BenchMode.smoke ? 10 : 240
  func pipelineBenchmark(_ name: String, _ makeState: @escaping () -> PipelineState) {
    Benchmark(
      name,
      configuration: .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .mallocCountSmall, .mallocCountLarge],
        warmupIterations: BenchMode.warmup(100), maxDuration: BenchMode.duration(10),
        maxIterations: BenchMode.iterations(10_000))
    ) { (benchmark: Benchmark, state: PipelineState) in
      guard state.remaining > 0 else { return }
      for _ in benchmark.scaledIterations { state.step() }
    } setup: {
      makeState()
    }
  }
  pipelineBenchmark("Pipeline frame: 200 views 50 recognizers 10 fingers moving") {
    PipelineState(seconds: pipelineSeconds, warmUpFrames: warmUpFrames)
  }
  // Case 4 with touchscreen health kept, as the daemon keeps it (issue #42: "health adds no
  // allocation per frame and keeps the pipeline's p99 budget").
  pipelineBenchmark("Pipeline frame with touchscreen health: 200 views 50 recognizers 10 fingers moving") {
    PipelineState(seconds: pipelineSeconds, warmUpFrames: warmUpFrames, health: true)
  }
  // A pen signing at 200 Hz (issue #41): on a signature pad (each frame a point of the stroke),
  // and the same pen on a plain view, the control: the pad must add no allocation per frame.
  func penBenchmark(_ name: String, signature: Bool) {
    Benchmark(
      name,
      configuration: .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: BenchMode.warmup(100),
        maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(10_000))
    ) { (benchmark: Benchmark, state: PenSigningState) in
      guard state.remaining > 0 else { return }
      for _ in benchmark.scaledIterations { state.step() }
    } setup: {
      PenSigningState(seconds: pipelineSeconds, warmUpFrames: warmUpFrames, signature: signature)
    }
  }
  penBenchmark("Pipeline frame: a pen signing at 200 Hz on a signature pad", signature: true)
  penBenchmark("Pipeline frame: a pen moving at 200 Hz on a plain view", signature: false)
  // Case 4's scene and frames, the window forwarding to a virtual touchscreen (the budget: p99 <=
  // 50 us with forwarding on).
  pipelineBenchmark("Pipeline frame forwarding: 200 views 50 recognizers 10 fingers moving") {
    PipelineState(seconds: pipelineSeconds, warmUpFrames: warmUpFrames, forwarding: true)
  }
  // Forwarding's worst case: the pans and pinches keep their touches, so every moving finger is
  // encoded and written to the virtual touchscreen in every frame.
  pipelineBenchmark("Pipeline frame forwarding every finger: 200 views 50 recognizers 10 fingers moving") {
    PipelineState(seconds: pipelineSeconds, warmUpFrames: warmUpFrames, forwarding: true, keepTouches: true)
  }
  // Its control: the same scene and frames, nothing forwarded (forwarding's own cost is the
  // difference).
  pipelineBenchmark("Pipeline frame keeping touches, not forwarding: 200 views 50 recognizers 10 fingers moving") {
    PipelineState(seconds: pipelineSeconds, warmUpFrames: warmUpFrames, keepTouches: true)
  }

  // The VM forward-latency scene's frame: one finger forwarded on a one-view scene.
  Benchmark(
    "Forward frame: one finger, one view",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
      warmupIterations: BenchMode.warmup(100), maxDuration: BenchMode.duration(10),
      maxIterations: BenchMode.iterations(10_000))
  ) { (benchmark: Benchmark, state: ForwardOneFingerState) in
    guard state.remaining > 0 else { return }
    for _ in benchmark.scaledIterations { state.step() }
  } setup: {
    let state = ForwardOneFingerState(frames: BenchMode.smoke ? 20 : 10_200)
    for _ in 0..<(BenchMode.smoke ? 2 : 100) { state.step() }
    return state
  }

  // The same frames timed only up to their write: the motion of a forwarded touch leaves before
  // delivery (SceneForwarding.forwardAhead), so this is the forwarder's share of the frame, what
  // the VM's forward-latency check compares with a minimal C forwarder.
  Benchmark(
    "Forward frame to its write: one finger, one view",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], warmupIterations: BenchMode.warmup(100),
      maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(10_000))
  ) { (benchmark: Benchmark, state: ForwardOneFingerState) in
    guard state.remaining > 0 else { return }
    var measuring = true
    state.written = {
      if measuring {
        benchmark.stopMeasurement()
        measuring = false
      }
    }
    benchmark.startMeasurement()
    state.step()
    if measuring { benchmark.stopMeasurement() }
  } setup: {
    let state = ForwardOneFingerState(frames: BenchMode.smoke ? 20 : 10_200)
    for _ in 0..<(BenchMode.smoke ? 2 : 100) { state.step() }
    return state
  }

  // The forwarding shortcut (docs/forward.md, "Frames and time"): the same scene's motion frames
  // from their raw events, read, composed and written (to /dev/null) by the forwarding path (C),
  // as the daemon's input thread does before it enters the queue; the pipeline's share, and the
  // arming for the next frame, run unmeasured after each.
  Benchmark(
    "Forward shortcut frame to its write: one finger, one view",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, .instructions], warmupIterations: BenchMode.warmup(100),
      maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(10_000))
  ) { (benchmark: Benchmark, state: ForwardShortcutState) in
    guard state.remaining > 0 else { return }
    benchmark.startMeasurement()
    state.feedFrame()
    benchmark.stopMeasurement()
    state.deliverFrame()
    state.arm()
  } setup: {
    ForwardShortcutState.warmed(frames: BenchMode.smoke ? 20 : 10_200, warmUp: BenchMode.smoke ? 2 : 100)
  }
  // What the daemon adds to each such frame after its delivery: arming the shortcut for the next,
  // and publishing it to the path.
  Benchmark(
    "Forward shortcut arming: one finger, one view",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, .instructions], warmupIterations: BenchMode.warmup(100),
      maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(10_000))
  ) { (benchmark: Benchmark, state: ForwardShortcutState) in
    guard state.remaining > 0 else { return }
    state.feedFrame()
    state.deliverFrame()
    benchmark.startMeasurement()
    state.arm()
    benchmark.stopMeasurement()
  } setup: {
    ForwardShortcutState.warmed(frames: BenchMode.smoke ? 20 : 10_200, warmUp: BenchMode.smoke ? 2 : 100)
  }

  // 7. Scrolling: flings on a 200-row list (BenchScenes.scrollList): per input frame, and per
  // display tick of the deceleration that follows each lift. Only the measured step is timed:
  // the other kind of step runs between measurements (startMeasurement/stopMeasurement).
  // 26 frames (touch-down, 24 moves at 120 Hz, lift) and ~230 ticks at 60 Hz per fling.
  func flingFrameBenchmark(rows: Int) {
    Benchmark(
      "Scroll fling frame: \(rows) rows 400 pt in 0.2 s at 120 Hz",
      configuration: .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: BenchMode.warmup(100),
        maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(10_000))
    ) { (benchmark: Benchmark, state: FlingState) in
      state.runTimers()
      guard state.remainingFrames > 0 else { return }
      benchmark.startMeasurement()
      state.deliverFrame()
      benchmark.stopMeasurement()
    } setup: {
      // 10,100 frames need 389 flings; smoke: 3 frames.
      FlingState(flings: BenchMode.smoke ? 2 : 400, warmUpFlings: BenchMode.smoke ? 1 : 2, rows: rows)
    }
  }
  flingFrameBenchmark(rows: 200)
  // 7l. The same flings on a catalogue's list of 10,000 rows (issue #43, "Lists of thousands of
  // rows": p99 <= 50 us per frame while flinging).
  flingFrameBenchmark(rows: 10_000)

  Benchmark(
    "Scroll deceleration tick: 200 rows at 60 Hz",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: BenchMode.warmup(100),
      maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(10_000))
  ) { (benchmark: Benchmark, state: FlingState) in
    guard state.runUntilTick() else { return }
    benchmark.startMeasurement()
    state.tick()
    benchmark.stopMeasurement()
  } setup: {
    // 10,100 ticks need ~45 flings; smoke: 3 ticks.
    FlingState(flings: BenchMode.smoke ? 1 : 60, warmUpFlings: 1)
  }

  // 8. A scene pushed by a client (`scene` command, issue #18): the command line of 1,000 views
  // parsed (strict JSON), the scene validated and decoded, its objects built. What the daemon
  // adds on its queue (cancelling touches, matching devices) is not in it.
  let pushLine = BenchScenes.pushLine(views: 1000)
  Benchmark(
    "Scene push: 1000 views (parse, validate, build)",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], warmupIterations: BenchMode.warmup(2),
      maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(200))
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      do {
        let command = try CommandObject.parse(pushLine)
        guard let value = command.fields["scene"] else { fatalError("the push line has no scene") }
        let scene = try Scene.parse(json: value)
        blackHole(SceneRuntime(scene: scene, clock: VirtualClock()) { _ in })
      } catch {
        fatalError("the benchmark's scene is refused: \(error)")
      }
    }
  }

  // 9l. The push of a catalogue's list (issue #43): `BenchScenes.scrollListPushLine`, 10,000 rows
  // with a tap each (1.3 MB), parsed and validated as the server does off its event loop, then
  // built as the pipeline's queue does; each part timed on its own.
  let listPushLine = BenchScenes.scrollListPushLine(rows: 10_000)
  // What `WireProtocol.parseCommand` does with the line (TouchdDaemon): the command's strict JSON,
  // then the scene validated and decoded.
  func parseListPush() -> SceneDocument {
    do {
      let command = try CommandObject.parse(listPushLine)
      guard let value = command.fields["scene"] else { fatalError("the push line has no scene") }
      return try Scene.parseDocument(json: value, name: "scene")
    } catch {
      fatalError("the benchmark's scene is refused: \(error)")
    }
  }
  Benchmark(
    "Scene push: 10000 rows (parse, validate, build)",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], warmupIterations: BenchMode.warmup(2),
      maxDuration: BenchMode.duration(20), maxIterations: BenchMode.iterations(200))
  ) { benchmark in
    // The push, from the line to the scene's objects built: not the freeing of what it made
    // afterwards, which the daemon does off the pipeline when a scene replaces it
    // (`Daemon.install`'s `Retired`).
    for _ in benchmark.scaledIterations {
      benchmark.startMeasurement()
      let document = parseListPush()
      let runtime = SceneRuntime(scene: document.scene, clock: VirtualClock()) { _ in }
      benchmark.stopMeasurement()
      blackHole((document, runtime))
    }
  }
  Benchmark(
    "Scene push parse: 10000 rows (off the loop and the pipeline)",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: BenchMode.warmup(2),
      maxDuration: BenchMode.duration(20), maxIterations: BenchMode.iterations(200))
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      benchmark.startMeasurement()
      let document = parseListPush()
      benchmark.stopMeasurement()
      blackHole(document)
    }
  }
  Benchmark(
    "Scene push build: 10000 rows (on the pipeline's queue)",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: BenchMode.warmup(2),
      maxDuration: BenchMode.duration(20), maxIterations: BenchMode.iterations(200))
  ) { benchmark, scene in
    for _ in benchmark.scaledIterations {
      benchmark.startMeasurement()
      let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
      benchmark.stopMeasurement()
      blackHole(runtime)
    }
  } setup: {
    parseListPush().scene
  }
  // A reload of the same list as a scene file (`touchd --scene`, `reload`, SIGHUP): the YAML
  // parsed and validated, which the daemon does on the pipeline's queue (docs/operations.md).
  let listYAML = BenchScenes.scrollListYAML(rows: 10_000)
  Benchmark(
    "Scene file: 10000 rows YAML (parse, validate)",
    configuration: .init(
      metrics: [.wallClock, .cpuTotal, .mallocCountTotal], warmupIterations: BenchMode.warmup(1),
      maxDuration: BenchMode.duration(20), maxIterations: BenchMode.iterations(50))
  ) { benchmark in
    for _ in benchmark.scaledIterations {
      do {
        blackHole(try Scene.parseDocument(listYAML, file: "list.yaml"))
      } catch {
        fatalError("the benchmark's scene file is refused: \(error)")
      }
    }
  }
  // Memory per view: what the daemon keeps of a pushed scene (its document, scene and JSON, and
  // the runtime's objects), as the heap's growth (glibc's `mallinfo2`, bytes in use: CHeap) per view.
  Benchmark(
    "Scene memory: 10000 rows (heap bytes per view kept)",
    configuration: .init(
      metrics: [heapBytesPerView, runtimeBytesPerView], warmupIterations: BenchMode.warmup(1),
      maxDuration: BenchMode.duration(10), maxIterations: BenchMode.iterations(10))
  ) { benchmark in
    let before = cheap_bytes_in_use()
    let document = parseListPush()
    let parsed = cheap_bytes_in_use()
    let runtime = SceneRuntime(scene: document.scene, clock: VirtualClock()) { _ in }
    let built = cheap_bytes_in_use()
    let views = document.scene.counts.views
    benchmark.measurement(heapBytesPerView, (built - before) / views)
    benchmark.measurement(runtimeBytesPerView, (built - parsed) / views)
    withExtendedLifetime((document, runtime)) {}
  }
}

let heapBytesPerView = BenchmarkMetric.custom("kept bytes/view", polarity: .prefersSmaller, useScalingFactor: false)
let runtimeBytesPerView = BenchmarkMetric.custom(
  "runtime bytes/view", polarity: .prefersSmaller, useScalingFactor: false)
