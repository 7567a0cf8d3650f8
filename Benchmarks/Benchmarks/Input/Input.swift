import BenchSupport
import Benchmark
import Foundation
import TouchdInput

/// Events per second over each iteration (larger is better); allocations are per iteration.
let eventsPerSecond = BenchmarkMetric.custom("events/s", polarity: .prefersLarger, useScalingFactor: false)

let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, eventsPerSecond]

/// Runs `body` once per iteration and records events/s (`events` per call). Only `body` is
/// measured: the harness's own bookkeeping for the custom metric stays outside.
func measureEvents(_ benchmark: Benchmark, events: Int, _ body: () throws -> Void) rethrows {
  for _ in benchmark.scaledIterations {
    benchmark.startMeasurement()
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    let nanoseconds = max(1, DispatchTime.now().uptimeNanoseconds - start)
    benchmark.stopMeasurement()
    benchmark.measurement(eventsPerSecond, Int(Double(events) * 1e9 / Double(nanoseconds)))
  }
}

/// Parses and assembles: every event through `FrameAssembler`, counting frames.
func parseAndAssemble(_ bytes: [UInt8]) throws -> Int {
  let recording = try RecordingReader.parse(bytes, source: "bench")
  var frames = 0
  Replay.forEachFrame(of: recording) { frame in
    frames += 1
    blackHole(frame)
  }
  return frames
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: metrics, warmupIterations: BenchMode.warmup(2), maxDuration: BenchMode.duration(5),
    maxIterations: BenchMode.iterations(200))

  // 1. Parsing recordings.
  if let bytes = BenchRecordings.shared(BenchRecordings.largeRecordingName) {
    let events = (try! EvemuParser.parse(bytes, source: "bench")).events.count
    Benchmark("Parse evemu wacom-dth2242 1.2 MB (\(events) events)") { benchmark in
      try measureEvents(benchmark, events: events) {
        blackHole(try EvemuParser.parse(bytes, source: "bench"))
      }
    }
    // The budget: parse plus frame assembly, one core.
    Benchmark("Parse+assemble evemu wacom-dth2242 (\(events) events)") { benchmark in
      try measureEvents(benchmark, events: events) { blackHole(try parseAndAssemble(bytes)) }
    }
  }

  let synthetic = BenchRecordings.evemuBytes(BenchRecordings.tenFingers(seconds: BenchMode.smoke ? 1 : 20))
  let syntheticEvents = (try! EvemuParser.parse(synthetic, source: "bench")).events.count
  Benchmark("Parse evemu synthetic 10 fingers (\(syntheticEvents) events)") { benchmark in
    try measureEvents(benchmark, events: syntheticEvents) {
      blackHole(try EvemuParser.parse(synthetic, source: "bench"))
    }
  }
  Benchmark("Parse+assemble evemu synthetic 10 fingers (\(syntheticEvents) events)") { benchmark in
    try measureEvents(benchmark, events: syntheticEvents) { blackHole(try parseAndAssemble(synthetic)) }
  }

  let libinput = BenchRecordings.fixture("atmel-maxtouch-i2c-800x480-2finger-touch-release.libinput.yml")
  let libinputEvents = (try! LibinputRecordParser.parse(libinput, source: "bench")).events.count
  Benchmark("Parse libinput-record fixture (\(libinputEvents) events)") { benchmark in
    try measureEvents(benchmark, events: libinputEvents) {
      blackHole(try LibinputRecordParser.parse(libinput, source: "bench"))
    }
  }

  // 2. Frame assembly in the steady state: ten fingers moving on protocol B, the assembler
  // already warm (every slot live), so every frame is ten `moved` contacts.
  let moving = BenchRecordings.tenFingers(seconds: BenchMode.smoke ? 1 : 20)
  let downEvents = moving.events.prefix { $0.type != EV.syn }.count + 1
  let moveEvents = Array(moving.events[downEvents..<(moving.events.count - 1)].prefix { $0.code != ABS.mtTrackingID })
  Benchmark(
    "Assemble 10 fingers protocol B (\(moveEvents.count) events)",
    configuration: .init(
      metrics: metrics, warmupIterations: BenchMode.warmup(0), maxDuration: BenchMode.duration(5),
      maxIterations: BenchMode.iterations(200))
  ) { benchmark in
    let assembler = FrameAssembler(device: moving.description, ids: TouchIDAllocator())
    for event in moving.events[..<downEvents] { _ = assembler.process(event) }
    // Measures only the moves (the warm-up frame above allocates the frame buffer once).
    var offset: Int64 = 0
    let span = moveEvents.last!.time.microseconds - moveEvents.first!.time.microseconds + 10_000
    measureEvents(benchmark, events: moveEvents.count) {
      for var event in moveEvents {
        event.time.microseconds += offset
        if let frame = assembler.process(event) { blackHole(frame) }
      }
      offset += span
    }
  }
}
