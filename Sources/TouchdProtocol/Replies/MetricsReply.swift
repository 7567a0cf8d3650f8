/// The fields of the reply to `metrics`: the daemon's metrics as Prometheus' text exposition format
/// (version 0.0.4), whole, in one string: what `touchctl metrics` prints, writes for
/// node_exporter's textfile collector, and the HTTP endpoint serves (docs/operations.md,
/// "Metrics").
public struct MetricsReply: Decodable, Hashable, Sendable {
  /// `# HELP`, `# TYPE` and sample lines, each ending in `\n`.
  public var text: String

  public init(text: String) { self.text = text }

  /// The reply's members, encoded, for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String {
    var w = JSONLineWriter(#"{"text":"#)
    w.string(text)
    return w.finishMembers()
  }
}
