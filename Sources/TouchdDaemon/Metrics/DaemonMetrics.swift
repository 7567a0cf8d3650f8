import CoreMetrics
import Prometheus

/// touchd's metrics (issue #42, docs/operations.md "Metrics"), through swift-metrics' API with
/// swift-prometheus as the backend: each family of ``MetricFamily`` is registered once, with its
/// help, in this daemon's own ``PrometheusCollectorRegistry``, and used as a swift-metrics
/// `Counter`, `Meter` or `Timer`.
///
/// Two ways in, neither of which blocks the pipeline or allocates per frame once a label set is
/// known: what only this object sees is counted as it happens on the pipeline's queue (a device's
/// frames and touches, actions, idle transitions, each stage's latency: an atomic add, or a
/// histogram's uncontended lock, which a scrape holds only to copy the buckets); what `status`
/// counts is brought in at each scrape from the same ``StatusReply`` (`Daemon.metricsText`), so
/// the two agree. Public for the benchmarks (MetricsPerFrame).
public final class DaemonMetrics {
  /// Where the metrics are kept and written from.
  let registry = PrometheusCollectorRegistry()
  /// The swift-metrics factory over ``registry`` (the handles' factory).
  private let factory: PrometheusMetricsFactory
  /// Counters handed a running total each scrape, with the total they were last handed.
  private var totals: [SeriesKey: (counter: CoreMetrics.Counter, last: Int)] = [:]
  private var secondsTotals: [String: (counter: FloatingPointCounter, last: Double)] = [:]
  private var meters: [SeriesKey: Meter] = [:]
  private var actions: [ActionKey: CoreMetrics.Counter] = [:]
  private var latencyTimers: [LatencyStage: CoreMetrics.Timer] = [:]
  private var idleTransitions: [Bool: CoreMetrics.Counter] = [:]
  private var outcomes: [OutcomeKey: CoreMetrics.Counter] = [:]

  /// One series: a family and its label values.
  private struct SeriesKey: Hashable {
    let name: String
    let labels: [String]
  }
  private struct ActionKey: Hashable {
    let action: String
    let gesture: String
  }
  private struct OutcomeKey: Hashable {
    let recognizer: String
    let recognized: Bool
  }

  /// The latency histograms' buckets: from 50 µs, the host's typical delivery, to 100 ms, far past
  /// the pipeline's budget (docs/performance.md).
  static let latencyBuckets: [Duration] = [
    .microseconds(50), .microseconds(100), .microseconds(200), .microseconds(500), .milliseconds(1),
    .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20), .milliseconds(50),
    .milliseconds(100),
  ]

  public init() {
    factory = PrometheusMetricsFactory(registry: registry)
    for stage in LatencyStage.allCases {
      let family = MetricFamily.latency
      let labels = [(family.labels[0], stage.rawValue)]
      let histogram = registry.makeDurationHistogram(
        descriptor: family.descriptor, labels: labels, buckets: Self.latencyBuckets)
      latencyTimers[stage] = CoreMetrics.Timer(
        label: family.name, dimensions: labels, handler: histogram, factory: factory)
    }
  }

  // MARK: Counted as it happens (on the pipeline's queue)

  /// A counter of `family` with `values` for its labels, registered on first use.
  func counter(_ family: MetricFamily, _ values: String...) -> CoreMetrics.Counter { counter(family, values) }

  private func counter(_ family: MetricFamily, _ values: [String]) -> CoreMetrics.Counter {
    precondition(family.kind == .counter && values.count == family.labels.count, "\(family.name) \(values)")
    let labels = Array(zip(family.labels, values))
    let handler = registry.makeCounter(descriptor: family.descriptor, labels: labels)
    return CoreMetrics.Counter(label: family.name, dimensions: labels, handler: handler, factory: factory)
  }

  /// Increments the counter `cache` holds for `key`, made by `make` the first time. Each cache has a
  /// key type of its own, so a lookup builds no array (no allocation per frame).
  private func increment<Key: Hashable>(
    _ cache: inout [Key: CoreMetrics.Counter], _ key: Key, make: () -> CoreMetrics.Counter
  ) {
    if let counter = cache[key] { return counter.increment() }
    let counter = make()
    cache[key] = counter
    counter.increment()
  }

  /// An action message went out: its action and gesture (`control` for a control's event).
  public func countAction(_ action: String, gesture: String) {
    increment(&actions, ActionKey(action: action, gesture: gesture)) { counter(.actions, action, gesture) }
  }

  /// A recognizer left `.possible`: recognized, or failed.
  func countOutcome(_ recognizer: String, recognized: Bool) {
    increment(&outcomes, OutcomeKey(recognizer: recognizer, recognized: recognized)) {
      counter(.recognizerOutcomes, recognizer, recognized ? "recognized" : "failed")
    }
  }

  /// The scene went idle, or woke.
  func countIdle(_ isIdle: Bool) {
    increment(&idleTransitions, isIdle) { counter(.idleTransitions, isIdle ? "idle" : "active") }
  }

  /// One live frame's stage took `microseconds` from the kernel's timestamp.
  public func recordLatency(_ stage: LatencyStage, microseconds: Int64) {
    latencyTimers[stage]?.recordMicroseconds(max(0, microseconds))
  }

  // MARK: Brought in at a scrape

  /// Hands counter `family` (with `values` for its labels) the running total `value`: it grows by
  /// what the total grew since the last scrape (by all of it when the total started again, a
  /// device's forwarding after a replug).
  func total(_ family: MetricFamily, _ value: Int, _ values: String...) {
    let key = SeriesKey(name: family.name, labels: values)
    guard let (counter, last) = totals[key] else {
      let counter = self.counter(family, values)
      counter.increment(by: Int64(value))
      totals[key] = (counter, value)
      return
    }
    counter.increment(by: Int64(value >= last ? value - last : value))
    totals[key] = (counter, value)
  }

  /// Sets gauge `family` (with `values` for its labels) to `value`.
  func gauge(_ family: MetricFamily, _ value: Double, _ values: String...) {
    let key = SeriesKey(name: family.name, labels: values)
    if let meter = meters[key] { return meter.set(value) }
    let labels = Array(zip(family.labels, values))
    let handler = registry.makeGauge(descriptor: family.descriptor, labels: labels)
    let meter = Meter(label: family.name, dimensions: labels, handler: handler, factory: factory)
    meters[key] = meter
    meter.set(value)
  }

  /// Hands counter `family`, in seconds, its running total `seconds` (the process's CPU time).
  func totalSeconds(_ family: MetricFamily, _ seconds: Double) {
    if let (counter, last) = secondsTotals[family.name] {
      counter.increment(by: max(0, seconds - last))
      secondsTotals[family.name] = (counter, max(seconds, last))
      return
    }
    let handler = registry.makeCounter(descriptor: family.descriptor, labels: [])
    let counter = FloatingPointCounter(label: family.name, dimensions: [], handler: handler, factory: factory)
    counter.increment(by: seconds)
    secondsTotals[family.name] = (counter, seconds)
  }

  /// The exposition text of every metric (Prometheus' text format 0.0.4).
  func exposition() -> String { registry.emitToString() }
}
