/// The stages of a live frame's latency the pipeline records, in path order (docs/performance.md,
/// "Latency"; ``PipelineLatency`` keeps each one's window for `status`, ``DaemonMetrics`` its
/// histogram). The server's `handed` follows them.
public enum LatencyStage: String, Sendable, CaseIterable {
  case wake, assembled, encoded, forwarded, delivered
}
