/// Estimates a velocity from recent samples by a least-squares line fit, as Flutter's and
/// Android's trackers do, instead of differencing the last two samples (which on a 120-240 Hz
/// panel turns a few tenths of a point of jitter into hundreds of points per second).
///
/// The fit uses the newest ``history`` samples that lie within ``horizon`` seconds of the newest
/// one, stopping at the first gap longer than ``stopGap`` (the finger had stopped: what came before
/// is stale). Fewer than two usable samples give zero. The value is two-dimensional; pinch and
/// rotation use `x`.
public struct VelocityTracker: Sendable {
  /// How far back samples count (s).
  public var horizon: Double
  /// A gap between samples (s) after which older samples are ignored.
  public var stopGap: Double
  /// How many of the newest samples are kept (``GestureConstants/velocityHistory``).
  public let history: Int = GestureConstants.velocityHistory
  private var samples: [(time: Double, value: Point)] = []

  public init(
    horizon: Double = GestureConstants.velocityHorizon, stopGap: Double = GestureConstants.velocityStopGap
  ) {
    self.horizon = horizon
    self.stopGap = stopGap
  }

  /// Adds a sample; a sample at the time of the newest one replaces it.
  public mutating func add(time: Double, value: Point) {
    if let last = samples.last, last.time == time {
      samples[samples.count - 1].value = value
    } else {
      samples.append((time, value))
    }
    // Only the newest `history` samples can count: the oldest goes (one per frame at most).
    if samples.count > history { samples.removeFirst(samples.count - history) }
  }

  /// Adds a scalar sample (stored in `x`).
  public mutating func add(time: Double, value: Double) {
    add(time: time, value: Point(x: value, y: 0))
  }

  public mutating func reset() { samples.removeAll() }

  /// The velocity in units per second at the newest sample.
  public var velocity: Point {
    guard let newest = samples.last else { return .zero }
    // The samples used: newest first, back to the horizon or the first long gap. Sums run in
    // that order (newest first), over the index range, without collecting the samples.
    var first = samples.count
    var newer = newest.time
    while first > 0 {
      let s = samples[first - 1]
      if newest.time - s.time > horizon || newer - s.time > stopGap { break }
      newer = s.time
      first -= 1
    }
    let count = samples.count - first
    guard count >= 2 else { return .zero }
    let n = Double(count)
    var mt = 0.0
    var mx = 0.0
    var my = 0.0
    for i in (first..<samples.count).reversed() {
      mt += samples[i].time - newest.time
      mx += samples[i].value.x
      my += samples[i].value.y
    }
    mt /= n
    mx /= n
    my /= n
    var stt = 0.0
    var stx = 0.0
    var sty = 0.0
    for i in (first..<samples.count).reversed() {
      let dt = (samples[i].time - newest.time) - mt
      stt += dt * dt
      stx += dt * (samples[i].value.x - mx)
      sty += dt * (samples[i].value.y - my)
    }
    guard stt > 0 else { return .zero }
    return Point(x: stx / stt, y: sty / stt)
  }

  /// The scalar velocity (the `x` component).
  public var scalarVelocity: Double { velocity.x }
}
