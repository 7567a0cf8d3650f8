import Foundation
import Testing
import TouchdTestKit

@testable import TouchdDaemon

/// The Prometheus alerting rules the package ships (packaging/prometheus, installed in
/// /usr/share/touchd/prometheus; docs/operations.md, "Alerting rules"): Prometheus' own promtool
/// (Debian's `prometheus`, which scripts/setup.sh installs) checks them and runs their unit tests,
/// and every metric they read is one touchd exports (``MetricFamily/all``).
@Suite struct AlertRulesTests {
  static let rulesPath = TestPaths.repository("packaging/prometheus/touchd-alerts.yml")
  static let testsPath = TestPaths.repository("packaging/prometheus/touchd-alerts.test.yml")

  /// promtool on the PATH or in /usr/bin, nil when it is not installed.
  static func promtool() -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories = path.split(separator: ":").map(String.init) + ["/usr/bin"]
    return directories.map { URL(fileURLWithPath: $0).appendingPathComponent("promtool") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// Runs promtool with `arguments`; a missing promtool fails the test (never a skip).
  private func runPromtool(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let promtool = try #require(
      Self.promtool(), "promtool is not installed: scripts/setup.sh installs Debian's prometheus, which has it")
    return try runProcess(promtool, arguments)
  }

  /// The names of the rules' alerts (`- alert: Name`), in order.
  static func alertNames(_ rules: String) -> [String] {
    rules.split(separator: "\n").compactMap { line -> String? in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("- alert:") else { return nil }
      return trimmed.dropFirst("- alert:".count).trimmingCharacters(in: .whitespaces)
    }
  }

  /// The text of every `expr:`: the rest of its line and the lines indented deeper (a block scalar).
  static func expressions(_ rules: String) -> [String] {
    var expressions: [String] = []
    var indent: Int?
    var text = ""
    for line in rules.split(separator: "\n", omittingEmptySubsequences: false) {
      let depth = line.prefix { $0 == " " }.count
      let trimmed = line.drop { $0 == " " }
      if let open = indent {
        if trimmed.isEmpty || depth > open {
          text += "\n\(trimmed)"
          continue
        }
        expressions.append(text)
        indent = nil
      }
      if trimmed.hasPrefix("expr:") {
        indent = depth
        text = String(trimmed.dropFirst("expr:".count))
      }
    }
    if indent != nil { expressions.append(text) }
    return expressions
  }

  @Test func promtoolChecksTheRules() throws {
    let rules = try String(contentsOfFile: Self.rulesPath, encoding: .utf8)
    let alerts = Self.alertNames(rules)
    let checked = try runPromtool(["check", "rules", Self.rulesPath])
    #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    #expect(checked.stdout.contains("SUCCESS: \(alerts.count) rules found"), "\(checked.stdout)")
  }

  @Test func promtoolRunsTheRulesUnitTests() throws {
    let tested = try runPromtool(["test", "rules", Self.testsPath])
    #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
    #expect(tested.stdout.contains("SUCCESS"), "\(tested.stdout)")
  }

  @Test func everyMetricIsTouchdsAndEveryAlertIsTested() throws {
    let rules = try String(contentsOfFile: Self.rulesPath, encoding: .utf8)
    let tests = try String(contentsOfFile: Self.testsPath, encoding: .utf8)
    let families = Set(MetricFamily.all.map(\.name))
    let histograms = Set(MetricFamily.all.filter { $0.kind == .histogram }.map(\.name))
    let expressions = Self.expressions(rules)
    let alerts = Self.alertNames(rules)
    #expect(!alerts.isEmpty && expressions.count == alerts.count, "\(alerts) \(expressions)")

    // A histogram's series carry _bucket, _sum or _count after the family's name.
    var names: Set<String> = []
    for expression in expressions {
      for match in expression.matches(of: #/\b(?:touchd|process)_[a-z_]+/#) {
        var name = String(match.output)
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
          let family = String(name.dropLast(suffix.count))
          if histograms.contains(family) { name = family }
        }
        names.insert(name)
      }
    }
    #expect(names.contains("touchd_devices") && names.contains("touchd_latency_seconds"), "\(names)")
    for name in names.sorted() {
      #expect(families.contains(name), "\(name): the rules read a metric touchd does not export (MetricFamily.all)")
    }

    // Each alert: a case of the unit tests where it fires, and one where it does not.
    var firing: Set<String> = []
    var quiet: Set<String> = []
    var alertname = ""
    for line in tests.split(separator: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("alertname:") {
        alertname = trimmed.dropFirst("alertname:".count).trimmingCharacters(in: .whitespaces)
      } else if trimmed.hasPrefix("exp_alerts:") {
        if trimmed == "exp_alerts: []" { quiet.insert(alertname) } else { firing.insert(alertname) }
      }
    }
    for alert in alerts {
      #expect(firing.contains(alert), "\(alert): no case of touchd-alerts.test.yml where it fires")
      #expect(quiet.contains(alert), "\(alert): no case of touchd-alerts.test.yml where it does not fire")
    }
    // Each alert: a for:, a severity, a summary and a description (keys at the start of a line).
    for block in rules.components(separatedBy: "- alert: ").dropFirst() {
      let name = block.prefix { !$0.isNewline }
      let keys = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      for key in ["for:", "severity:", "summary:", "description:"] {
        #expect(keys.contains(where: { $0.hasPrefix(key) }), "\(name) has no \(key)")
      }
    }
  }
}
