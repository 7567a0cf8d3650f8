import ArgumentParser
import Foundation
import TouchdProtocol

/// `touchctl health`: each window's touchscreen health from the daemon (docs/operations.md,
/// "Touchscreen health"), as text or as the reply's JSON.
struct HealthCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "health",
    abstract: "Show each touchscreen's health: dead zones, ghost touches, jitter, calibration drift, near misses.",
    discussion: """
      Asks the daemon ({"cmd":"health"}) and prints, per window: its touch-downs, the dead cells of its \
      touch-down grid, ghost touches by kind, the jitter of stationary fingers (95th percentile, points), \
      the calibration drift (mean offset of taps from their view's centre, with a suggestion to run \
      touchctl calibrate once it passes its threshold), and the views people miss most, with the side \
      they miss on. Only aggregates: no sequence or time of a single touch. --json prints the reply.
      """)

  @OptionGroup var connection: SocketOptions
  @Flag(help: "Print the daemon's reply as one JSON line.") var json = false

  func run() throws {
    let reply = try connection.reply(to: .health, as: HealthReply.self, context: "health")
    if json { return print("{\(reply.fieldsJSON)}") }
    print(Self.text(reply), terminator: "")
  }

  /// The report as `touchctl health` prints it.
  static func text(_ reply: HealthReply) -> String {
    guard !reply.windows.isEmpty else { return "no window has had a touch yet\n" }
    var out = ""
    for window in reply.windows {
      out += "window \(window.id): \(window.touchDowns) touch-downs\n"
      if let grid = window.grid {
        let dead = window.deadCells.map { "(\($0.column),\($0.row))" }.joined(separator: " ")
        out +=
          window.deadCells.isEmpty
          ? "  dead zones: none (\(grid.columns)x\(grid.rows) grid)\n"
          : "  dead zones: \(window.deadCells.count) of \(grid.columns)x\(grid.rows) cells (column,row): \(dead)\n"
      } else {
        out += "  dead zones, near misses: off (health: {heatmap: false})\n"
      }
      let g = window.ghosts
      out += "  ghost touches: \(g.burst + g.pinned + g.idle) (burst \(g.burst), pinned \(g.pinned), idle \(g.idle))\n"
      if let p95 = window.jitter.p95 {
        out += "  jitter of stationary fingers: p95 \(Self.number(p95)) pt over \(window.jitter.samples) moves\n"
      } else {
        out += "  jitter of stationary fingers: no finger held still yet\n"
      }
      let d = window.drift
      if let x = d.x, let y = d.y {
        out +=
          "  calibration drift: x \(Self.signed(x)) pt, y \(Self.signed(y)) pt over \(d.taps) taps"
          + " (threshold \(Self.number(d.threshold)) pt, from \(d.minimumTaps) taps)\n"
        if d.drifted {
          out += "  DRIFTED: taps land off their targets; recalibrate: touchctl calibrate --window \(window.id)\n"
        }
      } else {
        out += "  calibration drift: no tap recognized yet\n"
      }
      if window.grid != nil {
        if window.nearMisses.isEmpty { out += "  near misses: none\n" }
        for (i, miss) in window.nearMisses.enumerated() {
          if i == 0 { out += "  near misses, most missed first:\n" }
          let sides = [("left", miss.left), ("right", miss.right), ("above", miss.above), ("below", miss.below)]
            .filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
          out += "    \(miss.view): \(miss.count) (\(sides))\n"
        }
      }
    }
    return out
  }

  private static func number(_ value: Double) -> String { String(format: "%.2f", value) }
  private static func signed(_ value: Double) -> String { String(format: "%+.2f", value) }
}
