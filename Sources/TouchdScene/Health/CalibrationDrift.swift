/// Calibration drift: the offsets of the last recognized single-finger taps from the centre of
/// their view, in a fixed ring (``HealthSettings/driftTaps``). Taps spread around a button's
/// centre; their mean moves off it when the panel's calibration drifts.
struct CalibrationDrift {
  private var dx: [Double]
  private var dy: [Double]
  private var next = 0
  private(set) var taps = 0

  init(_ settings: HealthSettings) {
    dx = Array(repeating: 0, count: max(settings.driftTaps, 1))
    dy = dx
  }

  /// A tap at `offset` points from its view's centre (x to the right, y down).
  mutating func tap(dx x: Double, dy y: Double) {
    dx[next] = x
    dy[next] = y
    next = (next + 1) % dx.count
    taps = min(taps + 1, dx.count)
  }

  /// The mean offset over the taps kept, nil before the first.
  var mean: (x: Double, y: Double)? {
    guard taps > 0 else { return nil }
    let n = Double(taps)
    return (dx.prefix(taps).reduce(0, +) / n, dy.prefix(taps).reduce(0, +) / n)
  }
}
