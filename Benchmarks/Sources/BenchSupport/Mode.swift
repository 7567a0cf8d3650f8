import Foundation

/// How long the benchmarks run: fully, or, with `TOUCHD_BENCH_SMOKE` set (CI's
/// `scripts/bench.sh --smoke`), a few iterations each so that they keep building and running.
public enum BenchMode {
  public static let smoke = ProcessInfo.processInfo.environment["TOUCHD_BENCH_SMOKE"].map { !$0.isEmpty } ?? false

  /// `count` iterations, or 3 in smoke mode.
  public static func iterations(_ count: Int) -> Int { smoke ? 3 : count }
  /// `count` warm-up iterations, or none in smoke mode.
  public static func warmup(_ count: Int) -> Int { smoke ? 0 : count }
  /// `seconds` at most, or 1 in smoke mode.
  public static func duration(_ seconds: Int) -> Duration { .seconds(smoke ? 1 : seconds) }
}
