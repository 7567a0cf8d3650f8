import ArgumentParser
import Foundation
import TouchdProtocol
import TouchdSystem

/// `touchctl metrics`: the daemon's metrics in Prometheus' text format, printed, or written for
/// node_exporter's textfile collector (docs/operations.md, "Metrics").
struct MetricsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "metrics",
    abstract: "Print touchd's metrics in Prometheus' text format, or write them for node_exporter.",
    discussion: """
      With --textfile the metrics go to that file instead, atomically (written beside it, then \
      renamed over it), for node_exporter's textfile collector: Debian's prometheus-node-exporter \
      reads /var/lib/prometheus/node-exporter/*.prom. The file must end in .prom. It leaves out the \
      process_* families, which node_exporter exports for its own process.
      """)

  @OptionGroup var connection: SocketOptions
  @Option(help: "Write the metrics to this file (ending in .prom), atomically, instead of printing them.")
  var textfile: String?

  func validate() throws {
    if let textfile, !textfile.hasSuffix(".prom") {
      throw ValidationError("--textfile \(textfile): node_exporter's textfile collector reads only *.prom files")
    }
  }

  func run() throws {
    let reply = try connection.reply(to: .metrics, as: MetricsReply.self, context: "metrics")
    guard let textfile else { return print(reply.text, terminator: "") }
    try Self.writeAtomically(Self.withoutProcessFamilies(reply.text), to: textfile)
  }

  /// The exposition without its `process_*` families. node_exporter exports its own process under
  /// those names, and drops a textfile's families that clash with them, logging an error at every
  /// scrape; touchd's process figures are served by `--metrics-address` only.
  static func withoutProcessFamilies(_ text: String) -> String {
    var out = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let name = line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") ? line.dropFirst(7) : line[...]
      if name.hasPrefix("process_") { continue }
      out += line + "\n"
    }
    return out
  }

  /// Writes `text` to a new file beside `path` and renames it over `path`, so that a reader (the
  /// textfile collector) sees the old metrics or the new ones, never half of them. The temporary
  /// name does not end in `.prom`, so the collector never reads it.
  static func writeAtomically(_ text: String, to path: String) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    do {
      try Data(text.utf8).write(to: temporary)
    } catch {
      throw ValidationError("--textfile \(path): cannot write \(temporary.path): \(error.localizedDescription)")
    }
    do {
      try SystemCalls.live.rename(temporary.path, to: url.path)
    } catch {
      try? SystemCalls.live.unlink(temporary.path)
      throw ValidationError("--textfile \(path): \(error)")
    }
  }
}
