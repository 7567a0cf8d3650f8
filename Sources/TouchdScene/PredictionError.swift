// The error of touchd's touch prediction (TouchPrediction, TouchMotion.swift) on recordings:
// `touchctl replay --prediction-error`, and the figures of docs/performance.md "Touch prediction".
import TouchdInput

/// How far ``TouchPrediction`` lands from where the touch really was.
///
/// For every frame a touch moved in (its sample, as ``TouchMotion`` records them), the position
/// predicted from its frames up to then is compared, at each horizon, with where the touch was that
/// much later: linearly interpolated between its frames, its last position after its last move, and
/// no comparison past the touch's end (its lift or cancellation: there is no later position). The
/// frames are the device's own, normalized, in points of a ``windowSize`` window the axes span (a
/// full-HD kiosk panel), before any scene's calibration or rotation.
public struct PredictionError: Hashable, Sendable {
  /// The window the device's axes span, in points: a 1920x1080 panel, the examples' size.
  public static let windowSize = (width: 1920.0, height: 1080.0)

  /// The error at one horizon.
  public struct Figures: Hashable, Sendable {
    /// Seconds ahead.
    public var horizon: Double
    /// The predictions compared.
    public var samples: Int
    /// Mean and 95th percentile (nearest rank) distance, points.
    public var mean: Double
    public var p95: Double
    /// The same for not predicting (the latest position as the later one): what prediction is
    /// measured against.
    public var unpredictedMean: Double
    public var unpredictedP95: Double
  }

  /// The distances at each horizon, in the order of ``TouchPrediction/horizons``: predicted, then
  /// unpredicted.
  public private(set) var distances: [(predicted: [Double], unpredicted: [Double])] =
    TouchPrediction.horizons.map { _ in ([], []) }

  public static func == (a: Self, b: Self) -> Bool { a.figures == b.figures }
  public func hash(into hasher: inout Hasher) { hasher.combine(figures) }

  public init() {}

  /// Measures the touch frames of `frames` (one device's, in time order, normalized).
  public init(frames: [TouchFrame]) {
    var tracks: [TouchID: (samples: [MotionSample], end: Double?)] = [:]
    for frame in frames {
      let time = frame.time.seconds
      for contact in frame.contacts {
        var track = tracks[contact.id] ?? ([], nil)
        guard track.end == nil else { continue }
        if contact.phase.isTerminal { track.end = time }
        let point = MotionSample(
          time: time, x: contact.x * Self.windowSize.width, y: contact.y * Self.windowSize.height)
        // The rule of TouchMotion.record: a sample where the touch began or moved.
        if contact.phase != .cancelled, contact.phase != .stationary,
          track.samples.last.map({ $0.x != point.x || $0.y != point.y }) ?? true
        {
          track.samples.append(point)
        }
        tracks[contact.id] = track
      }
    }
    for id in tracks.keys.sorted() {
      guard let track = tracks[id], let end = track.end ?? track.samples.last?.time else { continue }
      add(track.samples, end: end)
    }
  }

  /// Adds one touch's samples, the touch ending (lifting) at `end`.
  mutating func add(_ samples: [MotionSample], end: Double) {
    for k in samples.indices {
      let now = samples[k].time
      for (h, horizon) in TouchPrediction.horizons.enumerated() where now + horizon <= end {
        guard let predicted = TouchPrediction.predict(samples[...k], now: now, horizon: horizon) else { continue }
        let actual = Self.position(samples, at: now + horizon)
        distances[h].predicted.append(Self.distance(predicted, actual))
        distances[h].unpredicted.append(Self.distance(samples[k], actual))
      }
    }
  }

  /// Adds another measurement's distances (all recordings together).
  public mutating func add(_ other: PredictionError) {
    for h in distances.indices {
      distances[h].predicted += other.distances[h].predicted
      distances[h].unpredicted += other.distances[h].unpredicted
    }
  }

  /// The figures at each horizon; nil where nothing was compared.
  public var figures: [Figures?] {
    zip(TouchPrediction.horizons, distances).map { horizon, d in
      guard !d.predicted.isEmpty else { return nil }
      return Figures(
        horizon: horizon, samples: d.predicted.count, mean: Self.mean(d.predicted), p95: Self.p95(d.predicted),
        unpredictedMean: Self.mean(d.unpredicted), unpredictedP95: Self.p95(d.unpredicted))
    }
  }

  /// Where the touch was at `time`: linear between the samples around it, the last one after it.
  static func position(_ samples: [MotionSample], at time: Double) -> MotionSample {
    guard let next = samples.firstIndex(where: { $0.time >= time }) else { return samples[samples.count - 1] }
    guard next > 0 else { return samples[next] }
    let (a, b) = (samples[next - 1], samples[next])
    let f = (time - a.time) / (b.time - a.time)
    return MotionSample(time: time, x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f)
  }

  static func distance(_ a: MotionSample, _ b: MotionSample) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
  }

  static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

  /// The nearest-rank 95th percentile.
  static func p95(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let rank = Int((0.95 * Double(sorted.count)).rounded(.up))
    return sorted[max(rank, 1) - 1]
  }
}
