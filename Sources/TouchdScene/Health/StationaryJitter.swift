/// The jitter of stationary fingers: for each move of a finger held still
/// (``HealthSettings/stationaryRadius`` for ``HealthSettings/stationaryHold``), how far the
/// position before it lies from the midpoint of its two neighbours (the positions before and
/// after), in a fixed histogram over the last one to two periods. Noise moves a finger back and
/// forth (±d gives 2d); a slow roll of the finger moves it along a line, which this does not count.
/// Its 95th percentile grows as a capacitive panel ages or picks up a noisy supply.
struct StationaryJitter {
  private let bin: Double
  private let period: Double
  private let minimumSamples: Int
  /// Two periods' histograms, the current one and the one before.
  private var histograms: [[UInt32]]
  private var periodOfHistogram = [-1, -1]

  init(_ settings: HealthSettings) {
    bin = settings.jitterBin
    period = settings.jitterPeriod
    minimumSamples = max(settings.jitterMinimumSamples, 1)
    histograms = Array(repeating: Array(repeating: 0, count: max(settings.jitterBins, 1)), count: 2)
  }

  mutating func record(distance: Double, at time: Double) {
    let p = Int((time / period).rounded(.down))
    let h = ((p % 2) + 2) % 2
    if periodOfHistogram[h] != p {
      for i in histograms[h].indices { histograms[h][i] = 0 }
      periodOfHistogram[h] = p
    }
    let index = min(Int(distance / bin), histograms[h].count - 1)
    histograms[h][index] &+= 1
  }

  /// The moves measured in the last one to two periods at `time`, and their 95th percentile
  /// distance (the upper edge of its bin), nil with fewer than the minimum of moves.
  func percentile95(at time: Double) -> (samples: Int, points: Double?) {
    let now = Int((time / period).rounded(.down))
    let live = (0..<2).filter { periodOfHistogram[$0] >= 0 && periodOfHistogram[$0] > now - 2 }
    let total = live.reduce(0) { sum, h in sum + histograms[h].reduce(0) { $0 + Int($1) } }
    guard total >= minimumSamples else { return (total, nil) }
    // The smallest distance at or below which at least 95 % of the moves fall.
    let rank = (total * 95 + 99) / 100
    var seen = 0
    for index in histograms[0].indices {
      seen += live.reduce(0) { $0 + Int(histograms[$1][index]) }
      if seen >= rank { return (total, Double(index + 1) * bin) }
    }
    return (total, Double(histograms[0].count) * bin)
  }
}
