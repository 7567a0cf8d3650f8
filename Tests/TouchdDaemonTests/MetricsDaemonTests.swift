import Foundation
import Testing
import TouchdProtocol
import TouchdTestKit

@testable import TouchdDaemon

/// The `metrics` command and `touchctl metrics` against the real daemon (issue #42, docs/operations.md
/// "Metrics"): after a replayed recording the counters are the recording's and `status`'s, the
/// exposition passes `promtool check metrics`, and `--textfile` writes the same atomically.
@Suite(.serialized)
struct MetricsDaemonTests {
  /// Three taps on the kiosk's ticket button and one on its map, then the daemon idles.
  private func replayed(name: String = #function) throws -> (DaemonProcess, URL) {
    let script = Kiosk.script()
    for point in [Kiosk.buyTicket, Kiosk.buyTicket, Kiosk.buyTicket, Kiosk.showMap] {
      script.tap(at: point)
      script.wait(0.6)
    }
    let directory = scratchDirectory(name)
    return (try DaemonProcess.replaying(script, in: directory, delay: 0.2, options: []), directory)
  }

  /// The samples of an exposition, `name{labels}` → value (comments left out).
  static func samples(_ text: String) -> [String: Double] {
    var out: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
      out[String(line[..<space])] = value
    }
    return out
  }

  @Test func afterAReplayTheMetricsAreTheRecordingsAndStatussAndPromtoolAcceptsThem() throws {
    let (daemon, directory) = try replayed()
    let (client, _) = try daemon.connect()
    #expect(client.waitForActions(4))
    let status = try #require(client.command(#"{"cmd":"status","id":1}"#, id: 1).reply)
    let counters = try #require(status["counters"] as? [String: Any])
    let result = try runTouchctl(["metrics", "--socket", daemon.socket])
    #expect(result.status == 0, "\(result.stderr)")
    let samples = Self.samples(result.stdout)
    // The recording's: four taps, three of them on the ticket button.
    #expect(samples[#"touchd_actions_total{action="buy-ticket",gesture="tap"}"#] == 3)
    #expect(samples[#"touchd_actions_total{action="show-map",gesture="tap"}"#] == 1)
    // Each tap also fails the window's admin recognizer (config/kiosk.yaml).
    #expect(
      samples.filter { $0.key.hasPrefix("touchd_recognizer_outcomes_total") } == [
        #"touchd_recognizer_outcomes_total{recognizer="buy-ticket-tap",result="recognized"}"#: 3,
        #"touchd_recognizer_outcomes_total{recognizer="show-map-tap",result="recognized"}"#: 1,
        #"touchd_recognizer_outcomes_total{recognizer="admin",result="failed"}"#: 4,
      ])
    let device = SyntheticTouchscreen.name
    #expect(samples[#"touchd_device_touches_began_total{device="\#(device)"}"#] == 4)
    #expect(samples[#"touchd_device_touches_ended_total{device="\#(device)"}"#] == 4)
    #expect(samples[#"touchd_device_touches_cancelled_total{device="\#(device)"}"#] == 0)
    // status's, the same numbers.
    let frames = try #require(counters["frames"] as? Int)
    #expect(frames == 8, "a down and an up frame per tap")
    #expect(samples["touchd_frames_total"] == Double(frames))
    #expect(samples[#"touchd_device_frames_total{device="\#(device)"}"#] == Double(frames))
    #expect(samples["touchd_touches_began_total"] == 4)
    #expect(samples["touchd_messages_total"] == Double(try #require(counters["messages"] as? Int)))
    // touchctl's connection came after the status.
    #expect(samples["touchd_clients_accepted_total"] == Double(try #require(counters["clientsAccepted"] as? Int) + 1))
    #expect(samples[#"touchd_scene_reloads_total{result="ok"}"#] == 0)
    // The touchctl client and the subscriber.
    #expect(samples["touchd_clients"] == 2)
    #expect((samples["process_resident_memory_bytes"] ?? 0) > 1_000_000)
    #expect((samples["process_open_fds"] ?? 0) >= 3)
    #expect(samples["process_cpu_seconds_total"] != nil)
    #expect(result.stdout.contains("# HELP touchd_actions_total Action messages by action and gesture"))
    #expect(result.stdout.contains("# TYPE touchd_latency_seconds histogram"))
    // Prometheus' own checker accepts the exposition.
    let file = directory.appendingPathComponent("metrics.txt")
    try result.stdout.write(to: file, atomically: true, encoding: .utf8)
    let check = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "promtool check metrics < '\(file.path)'"])
    #expect(check.status == 0, "promtool: \(check.stdout)\(check.stderr)")
  }

  @Test func textfileWritesTheSameMetricsAtomicallyForNodeExporter() throws {
    let (daemon, scratch) = try replayed()
    let (client, _) = try daemon.connect()
    #expect(client.waitForActions(4))
    let directory = scratch.appendingPathComponent("textfile")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("touchd.prom").path
    // Twice: the second replaces the first.
    for _ in 0..<2 {
      let result = try runTouchctl(["metrics", "--socket", daemon.socket, "--textfile", path])
      #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["touchd.prom"])
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let written = Self.samples(text)
    #expect(written[#"touchd_actions_total{action="buy-ticket",gesture="tap"}"#] == 3)
    #expect(written["touchd_touches_began_total"] == 4)
    // node_exporter's own process_* families would clash: the textfile leaves them out, the
    // command's printed exposition keeps them.
    #expect(!text.contains("process_") && text.hasSuffix("\n"), "\(text.suffix(300))")
    let printed = try runTouchctl(["metrics", "--socket", daemon.socket])
    #expect(printed.stdout.contains("\n# TYPE process_resident_memory_bytes gauge\n"))
    // Not a .prom file: refused before connecting, saying why.
    let wrong = try runTouchctl(["metrics", "--socket", daemon.socket, "--textfile", directory.path + "/touchd.txt"])
    #expect(wrong.status != 0)
    #expect(wrong.stderr.contains("node_exporter's textfile collector reads only *.prom files"), "\(wrong.stderr)")
    // A directory that is not there: an error naming the file.
    let missing = try runTouchctl(["metrics", "--socket", daemon.socket, "--textfile", "/nonexistent/dir/touchd.prom"])
    #expect(
      missing.status != 0 && missing.stderr.contains("--textfile /nonexistent/dir/touchd.prom"), "\(missing.stderr)")
  }

  @Test func theMetricsCommandTakesNoFields() throws {
    let (daemon, _) = try replayed()
    let (client, _) = try daemon.connect()
    let reply = client.command(#"{"cmd":"metrics","id":2,"format":"json"}"#, id: 2)
    #expect(reply.reply?["message"] as? String == "unknown field 'format' (metrics takes no fields besides cmd and id)")
    let text = try #require(client.command(#"{"cmd":"metrics","id":3}"#, id: 3).reply?["text"] as? String)
    #expect(text.contains("# TYPE touchd_frames_total counter"))
  }
}
