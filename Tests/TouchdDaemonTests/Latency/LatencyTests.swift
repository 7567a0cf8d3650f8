import Foundation
import Testing

@testable import TouchdDaemon

@Suite struct LatencyWindowTests {
  @Test("percentiles by nearest rank over the kept samples")
  func percentiles() throws {
    var window = LatencyWindow()
    #expect(window.summary == nil)
    #expect(window.json == "null")
    for value in (1...100).reversed() { window.record(Int64(value)) }
    let summary = try #require(window.summary)
    #expect(summary == LatencyWindow.Summary(samples: 100, p50: 50, p90: 90, p99: 99, max: 100))
    #expect(window.json == #"{"samples":100,"p50":50,"p90":90,"p99":99,"max":100}"#)
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
    let json = latency.json(handed: handed)
    let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    #expect(object?["unit"] as? String == "us")
    #expect(object?["frames"] as? Int == 1)
    #expect((object?["wake"] as? [String: Int])?["p50"] == 40)
    #expect((object?["delivered"] as? [String: Int])?["max"] == 70)
    #expect(object?["encoded"] is NSNull, "no message was encoded")
    #expect(object?["forwarded"] is NSNull, "nothing was forwarded")
    #expect((object?["handed"] as? [String: Int])?["p99"] == 90)
    let order = ["wake", "assembled", "encoded", "forwarded", "delivered", "handed"].map {
      json.range(of: "\"\($0)\"")!.lowerBound
    }
    #expect(order == order.sorted())
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
