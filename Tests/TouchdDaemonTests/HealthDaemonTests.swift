import Foundation
import Testing
import TouchdProtocol
import TouchdTestKit

@testable import TouchdDaemon

/// Touchscreen health through the real daemon's public interface (issue #42, docs/operations.md
/// "Touchscreen health"): `touchctl health` (text and --json), the `touchd_health_*` metrics and
/// `touchctl render --heatmap`, after a replayed recording on the kiosk scene.
@Suite(.serialized)
struct HealthDaemonTests {
  /// Three taps 20 pt right of the ticket button and two 20 pt below it (outside its 12 pt hit
  /// outset, so the root's admin gesture alone gets them, and fails), then three on its centre.
  private func replayed(name: String = #function) throws -> (DaemonProcess, URL) {
    let script = Kiosk.script()
    let points: [FingerScript.Point] =
      Array(repeating: .init(x: 660, y: 480), count: 3) + Array(repeating: .init(x: 400, y: 680), count: 2)
      + Array(repeating: Kiosk.buyTicket, count: 3)
    for point in points {
      script.tap(at: point)
      script.wait(0.6)
    }
    let directory = scratchDirectory(name)
    return (try DaemonProcess.replaying(script, in: directory, delay: 0.2, options: []), directory)
  }

  @Test func healthMetricsAndHeatmapFromTheDaemon() throws {
    let (daemon, directory) = try replayed()
    #expect(try daemon.connect().0.waitForActions(3))

    let json = try runTouchctl(["health", "--socket", daemon.socket, "--json"])
    #expect(json.status == 0, "\(json.stderr)")
    let reply = try StrictJSONDecoder.decode(HealthReply.self, line: json.stdout.trimmingCharacters(in: .newlines))
    let window = try #require(reply.windows.first)
    #expect(reply.windows.map(\.id) == ["main"])
    #expect(window.touchDowns == 8 && window.heatmap)
    #expect(window.nearMisses == [HealthReply.NearMiss(view: "buy-ticket", left: 0, right: 3, above: 0, below: 2)])
    #expect(window.ghosts == .init(burst: 0, pinned: 0, idle: 0))
    #expect(window.drift.taps == 3 && !window.drift.drifted)
    #expect(abs(window.drift.x ?? 99) < 0.5 && abs(window.drift.y ?? 99) < 0.5, "\(window.drift)")
    // 120 pt cells on the 1920x1080 window: (660, 480) is cell (5, 4), (400, 680) (3, 5), the
    // button's centre (3, 4).
    let grid = try #require(window.grid)
    var expected = Array(repeating: 0, count: 144)
    expected[4 * 16 + 5] = 3
    expected[5 * 16 + 3] = 2
    expected[4 * 16 + 3] = 3
    #expect(grid.counts == expected)
    #expect(window.deadCells == [])

    let text = try runTouchctl(["health", "--socket", daemon.socket])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.hasPrefix("window main: 8 touch-downs\n"), "\(text.stdout)")
    #expect(text.stdout.contains("\n    buy-ticket: 5 (right 3, below 2)\n"), "\(text.stdout)")
    #expect(text.stdout.contains("\n  ghost touches: 0 (burst 0, pinned 0, idle 0)\n"), "\(text.stdout)")

    let metrics = MetricsDaemonTests.samples(try runTouchctl(["metrics", "--socket", daemon.socket]).stdout)
    #expect(metrics[#"touchd_health_touch_downs_total{window="main"}"#] == 8)
    #expect(metrics[#"touchd_health_near_misses_total{window="main",view="buy-ticket"}"#] == 5, "\(metrics.keys)")
    #expect(metrics[#"touchd_health_dead_cells{window="main"}"#] == 0)
    #expect(metrics[#"touchd_health_calibration_drifted{window="main"}"#] == 0)
    #expect(metrics[#"touchd_health_ghost_touches_total{window="main",kind="burst"}"#] == 0)

    let svg = directory.appendingPathComponent("heat.svg").path
    let render = try runTouchctl([
      "render", "--scene", TestPaths.config("kiosk.yaml").path, "--heatmap", "--socket", daemon.socket, "-o", svg,
    ])
    #expect(render.status == 0, "\(render.stderr)")
    let picture = try String(contentsOfFile: svg, encoding: .utf8)
    #expect(picture.components(separatedBy: #"class="heat-cell""#).count - 1 == 3)
    #expect(picture.contains(#"data-column="5" data-row="4" data-count="3""#), "\(picture.prefix(400))")
    #expect(picture.contains(#"data-column="3" data-row="5" data-count="2""#))
  }

  @Test func healthOnAStoppedDaemonNamesTheSocket() throws {
    let socket = scratchDirectory(#function).appendingPathComponent("none.sock").path
    let result = try runTouchctl(["health", "--socket", socket])
    #expect(result.status != 0 && result.stderr.contains("\(socket): no such socket"), "\(result.stderr)")
  }
}
