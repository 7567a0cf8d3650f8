import Testing
import TouchdTestKit

@testable import TouchdDaemon

/// docs/operations.md's table of metrics against ``MetricFamily``: every family, with its type, its
/// labels and its help, and only those; and Prometheus' naming rules on each name.
@Suite struct MetricFamilyDocTests {
  @Test func theTableListsEveryMetricAsDeclared() throws {
    let rows = try DocTables("docs/operations.md").table("| metric | type | labels | what it counts |")
    #expect(rows.count == MetricFamily.all.count)
    for (row, family) in zip(rows, MetricFamily.all) {
      #expect(DocTables.codeSpans(row[0]) == [family.name])
      #expect(row[1] == "\(family.kind)")
      #expect(DocTables.codeSpans(row[2]) == family.labels, "\(family.name)")
      #expect(row[3] == family.help, "\(family.name)")
    }
  }

  @Test func namesFollowPrometheusRules() {
    // https://prometheus.io/docs/practices/naming/: counters end in _total, base units in the name.
    for family in MetricFamily.all {
      #expect(family.name.hasPrefix("touchd_") || family.name.hasPrefix("process_"), "\(family.name)")
      #expect((family.kind == .counter) == family.name.hasSuffix("_total"), "\(family.name)")
      #expect(family.name.allSatisfy { $0.isLowercase || $0 == "_" }, "\(family.name)")
      #expect(!family.name.contains("milliseconds") && !family.name.contains("microseconds"))
    }
    #expect(Set(MetricFamily.all.map(\.name)).count == MetricFamily.all.count)
  }
}
