import Foundation
import Testing

import TouchdProtocol

@testable import TouchdDaemon

@Suite struct LatencyWindowTests {
  @Test("percentiles by nearest rank over the kept samples")
  func percentiles() throws {
    var window = LatencyWindow()
    #expect(window.summary == nil)
    #expect(window.stage == nil)
    for value in (1...100).reversed() { window.record(Int64(value)) }
    let summary = try #require(window.summary)
    #expect(summary == LatencyWindow.Summary(samples: 100, p50: 50, p90: 90, p99: 99, max: 100))
    #expect(window.stage == StatusReply.StageSummary(samples: 100, p50: 50, p90: 90, p99: 99, max: 100))
  }

  @Test("keeps only the last 1024 frames, and counts every one")
  func ringKeepsTheLast() throws {
    var window = LatencyWindow()
    for _ in 0..<LatencyWindow.capacity { window.record(1_000_000) }
    for _ in 0..<LatencyWindow.capacity { window.record(7) }
    #expect(window.recorded == 2 * LatencyWindow.capacity)
    #expect(window.summary == LatencyWindow.Summary(samples: 1024, p50: 7, p90: 7, p99: 7, max: 7))
    window.record(9)
    #expect(window.summary?.max == 9)
    #expect(window.summary?.p99 == 7)
  }

  @Test("values beyond Int32 are clamped, not trapped on")
  func clamps() {
    var window = LatencyWindow()
    window.record(Int64.max)
    window.record(Int64.min)
    #expect(window.summary?.max == Int(Int32.max))
    #expect(window.summary?.p50 == Int(Int32.min))
  }

  @Test("the status object names each stage in path order, the server's last")
  func statusObject() {
    var latency = PipelineLatency()
    latency.wake.record(40)
    latency.assembled.record(50)
    latency.delivered.record(70)
    var handed = LatencyWindow()
    handed.record(90)
    let status = latency.status(handed: handed)
    #expect(status.unit == "us")
    #expect(status.frames == 1)
    #expect(status.window == LatencyWindow.capacity)
    #expect(status.wake?.p50 == 40)
    #expect(status.assembled?.p50 == 50)
    #expect(status.delivered?.max == 70)
    #expect(status.encoded == nil, "no message was encoded")
    #expect(status.forwarded == nil, "nothing was forwarded")
    #expect(status.handed?.p99 == 90)
    // The key order (wake … handed) is pinned byte for byte by SessionLineGoldenTests' status line.
  }

  @Test("the monotonic clock is CLOCK_MONOTONIC in microseconds")
  func monotonicClock() {
    let a = MonotonicClock.microseconds()
    let b = Int64(DispatchTime.now().uptimeNanoseconds / 1000)
    let c = MonotonicClock.microseconds()
    #expect(a <= c)
    #expect(abs(b - a) < 1_000_000, "DispatchTime's uptime is CLOCK_MONOTONIC on Linux")
  }
}

@Suite(.serialized) struct FrameBatchPublishTests {
  @Test("a frame's messages arrive in order, filtered per client, and the handoff is timed")
  func batchInOrder() throws {
    let path = temporarySocketPath()
    let server = try makeServer(path)
    defer { server.shutdown(notice: nil) }
    let actions = try LineClient(path: path)
    let touches = try LineClient(path: path)
    _ = actions.readLine()
    _ = touches.readLine()
    touches.send(#"{"cmd":"subscribe","id":1,"types":["touches"]}"#)
    _ = touches.readLine()
    let frame = [
      OutboundMessage(line: #"{"type":"touches","seq":1}"#, type: "touches", view: "canvas"),
      action("ring-bell", seq: 2),
      OutboundMessage(line: #"{"type":"touches","seq":3}"#, type: "touches", view: "canvas"),
      action("open-door", seq: 4),
    ]
    #expect(server.counters().handedLatency.recorded == 0)
    server.publish(frame, kernelTime: MonotonicClock.microseconds() - 2000)
    #expect(json(actions.readLine())?["seq"] as? Int == 2)
    #expect(json(actions.readLine())?["seq"] as? Int == 4)
    #expect(json(touches.readLine())?["seq"] as? Int == 1)
    #expect(json(touches.readLine())?["seq"] as? Int == 3)
    #expect(touches.readLine(timeout: 0.2) == nil)
    let handed = try #require(server.counters().handedLatency.summary)
    #expect(handed.samples == 1)
    #expect(handed.p50 >= 2000, "measured from the frame's kernel time, 2 ms before it was published")
    server.publish([action("ring-bell", seq: 5)], kernelTime: nil)
    #expect(json(actions.readLine())?["seq"] as? Int == 5)
    #expect(server.counters().handedLatency.recorded == 1, "no kernel time, nothing recorded")
  }
}
