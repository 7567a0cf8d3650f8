import ArgumentParser
import Foundation
import TouchdConnection
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
      reads /var/lib/prometheus/node-exporter/*.prom. The file must end in .prom.
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
    let line = try connection.connect().answer(.metrics)
    guard BlockingConnection.type(of: line) == "reply",
      let reply = try? StrictJSONDecoder.decode(MetricsReply.self, line: line)
    else {
      let message = (try? StrictJSON.parse(line))?["message"]?.stringValue ?? line
      throw ValidationError("metrics: \(message)")
    }
    guard let textfile else { return print(reply.text, terminator: "") }
    try Self.writeAtomically(reply.text, to: textfile)
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
