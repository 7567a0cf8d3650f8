import Testing

@testable import TouchDelivery

@Suite struct GestureMathTests {
  @Test func atan2MatchesKnownAnglesInEveryQuadrant() {
    let pi = Double.pi
    let s3 = Double(3).squareRoot()
    let cases: [(y: Double, x: Double, angle: Double)] = [
      (0, 1, 0), (1, 1, pi / 4), (1, s3, pi / 6), (s3, 1, pi / 3), (1, 0, pi / 2),
      (1, -1, 3 * pi / 4), (0, -1, pi), (-1, -1, -3 * pi / 4), (-1, 0, -pi / 2),
      (-1, s3, -pi / 6), (-s3, -1, -2 * pi / 3), (1e-9, 1, 1e-9), (1, 1e-9, pi / 2 - 1e-9),
      (2, 1, 1.107_148_717_794_090_5), (-0.3, 7, -0.042_830_932_668_727_326),
    ]
    for c in cases {
      #expect(approx(GestureMath.atan2(c.y, c.x), c.angle, within: 1e-12), "atan2(\(c.y), \(c.x))")
    }
  }

  @Test func sinCosAgreeWithAtan2AroundTheCircle() {
    for i in -40...40 {
      let a = Double(i) * 0.078_5
      let (s, c) = GestureMath.sinCos(a)
      #expect(approx(s * s + c * c, 1, within: 1e-12))
      #expect(approx(GestureMath.atan2(s, c), GestureMath.wrap(a), within: 1e-12))
    }
    #expect(approx(GestureMath.sinCos(Double.pi / 6).sin, 0.5, within: 1e-14))
    #expect(approx(GestureMath.tan(Double.pi / 6), 1 / Double(3).squareRoot(), within: 1e-14))
  }
}

@Suite struct VelocityTrackerTests {
  /// 500 pt/s sampled at 240 Hz with ±0.5 pt of jitter: the fit stays within 2%; the difference
  /// of the last two samples (the naive estimate) is off by far more.
  @Test func leastSquaresIsStableOnJittered240HzSamples() {
    var tracker = VelocityTracker()
    var rng = Jitter()
    var worstNaive = 0.0
    var previous: (Double, Double)?
    for i in 0..<120 {
      let t = Double(i) / 240
      let x = 500 * t + rng.next() * 0.5
      tracker.add(time: t, value: Point(x: x, y: 20 + rng.next() * 0.5))
      if let (pt, px) = previous { worstNaive = max(worstNaive, abs((x - px) / (t - pt) - 500)) }
      previous = (t, x)
      if i >= 24 {
        #expect(approx(tracker.velocity.x, 500, within: 10), "at \(t)")
        #expect(abs(tracker.velocity.y) < 10)
      }
    }
    #expect(worstNaive > 100)
  }

  @Test func onlyTheLast100msCount() {
    var tracker = VelocityTracker()
    // 1000 pt/s for 0.5 s, then 200 pt/s for 0.2 s: the estimate is the recent speed only.
    var x = 0.0
    for i in 1...120 {
      x += 1000 / 240
      tracker.add(time: Double(i) / 240, value: x)
    }
    for i in 121...168 {
      x += 200 / 240
      tracker.add(time: Double(i) / 240, value: x)
    }
    #expect(approx(tracker.scalarVelocity, 200, within: 0.001))
  }

  @Test func onlyTheNewest20SamplesCountOnAFastDevice() {
    var tracker = VelocityTracker()
    // A device reporting every 0.1 ms: 1000 pt/s for 50 ms, then 200 pt/s for the last 20
    // samples (2 ms). All are within the 100 ms horizon; Flutter's and Android's trackers fit
    // only the newest 20, and so does touchd's.
    var x = 0.0
    var t = 0.0
    for _ in 0..<500 {
      t += 0.0001
      x += 1000 * 0.0001
      tracker.add(time: t, value: x)
    }
    for _ in 0..<20 {
      t += 0.0001
      x += 200 * 0.0001
      tracker.add(time: t, value: x)
    }
    #expect(approx(tracker.scalarVelocity, 200, within: 0.001))
  }

  @Test func aPauseLongerThanTheStopGapMeansZero() {
    var tracker = VelocityTracker()
    for i in 0..<24 { tracker.add(time: Double(i) / 240, value: Double(i) * 4) }
    #expect(tracker.scalarVelocity > 900)
    // The finger rests 50 ms, then lifts where it was.
    tracker.add(time: 23.0 / 240 + 0.05, value: 92)
    #expect(tracker.scalarVelocity == 0)
  }
}
