// A plain executable running one benchmark's work N times, for profilers that count
// instructions (valgrind --tool=callgrind) and cannot run under the benchmark harness:
//
//   swift build -c release --product Profile
//   valgrind --tool=callgrind .build/release/Profile pipeline 2000
//
// Workloads: pipeline (frames of case 4), hittest (points of case 3), parse (the large shared
// recording, parse and assemble), scroll (flings of case 7: frames and deceleration ticks), push
// (case 9: a client's 1,000-view scene parsed, validated and built), pushlist (case 9l: the
// 10,000-row list a client pushes, parsed, validated and built), forward (one finger forwarded
// on a one-view scene: the VM forward-latency scene's frame).
import BenchSupport
import Foundation
import TouchDelivery
import TouchdInput
import TouchdScene

let arguments = CommandLine.arguments
let workload = arguments.count > 1 ? arguments[1] : "pipeline"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000

switch workload {
case "forward":
  let state = ForwardOneFingerState(frames: count + 1)
  while state.remaining > 0 { state.step() }
  print("forward: \(count) frames, \(state.forwardedEvents) events forwarded")
case "pipeline":
  let state = PipelineState(seconds: Double(count) / 120 + 3, warmUpFrames: 240)
  for _ in 0..<count { state.step() }
  print("pipeline: \(count) frames, \(state.messages) messages, \(state.bytes) bytes")
case "scroll":
  // N flings of case 7 (26 frames and ~230 ticks each). In callgrind, FlingState's
  // deliverTouchDown, deliverMove, deliverLift and tick hold each kind of step (inclusive), to
  // divide by the counts printed; `--toggle-collect='*FlingStateC*tick*'` profiles one kind alone.
  let state = FlingState(flings: count, warmUpFlings: 0)
  while state.step() {}
  print("scroll: \(count) flings, \(state.summary)")
case "push", "pushlist":
  let line =
    workload == "push" ? BenchScenes.pushLine(views: 1000) : BenchScenes.scrollListPushLine(rows: 10_000)
  // Each push timed from the line to the objects built, without freeing them (the daemon frees a
  // replaced scene off the pipeline): the lowest and the mean.
  var times: [Double] = []
  for _ in 0..<count {
    do {
      let start = Date()
      let command = try CommandObject.parse(line)
      guard let value = command.fields["scene"] else { fatalError("no scene") }
      let scene = try Scene.parse(json: value)
      let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
      times.append(Date().timeIntervalSince(start))
      withExtendedLifetime((command, runtime)) {}
    } catch {
      fatalError("\(error)")
    }
  }
  let mean = times.reduce(0, +) / Double(count)
  let sorted = times.sorted()
  func percentile(_ p: Double) -> Int { Int(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1e6) }
  print(
    "\(workload): \(count) scenes, \(Int(mean * 1e6)) us each, lowest \(percentile(0)) us, p50 \(percentile(0.5)) us,"
      + " p90 \(percentile(0.9)) us, p99 \(percentile(0.99)) us")
case "hittest":
  let runtime = SceneRuntime(scene: BenchScenes.deepTree(), clock: VirtualClock()) { _ in }
  var hits = 0
  for i in 0..<count {
    let p = Point(x: Double(i * 7919 % 1920), y: Double(i * 104_729 % 1080))
    if runtime.windows[0].hitTest(p, with: nil) != nil { hits += 1 }
  }
  print("hittest: \(count) points, \(hits) hits")
case "parse":
  guard let bytes = BenchRecordings.shared(BenchRecordings.largeRecordingName) else { exit(0) }
  var frames = 0
  for _ in 0..<count {
    let recording = try RecordingReader.parse(bytes, source: "profile")
    Replay.forEachFrame(of: recording) {
      consume($0); frames += 1
    }
  }
  print("parse: \(count) passes, \(frames) frames")
default:
  print("unknown workload \(workload): pipeline, hittest, parse, scroll, push or pushlist")
  exit(2)
}
