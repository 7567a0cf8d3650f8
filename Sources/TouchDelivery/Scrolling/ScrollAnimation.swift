/// The motion of one axis of a scroll view's content offset after the finger lifts: deceleration
/// that hands over to the settling spring when it crosses an edge, or a spring to a target
/// (bounce back, a page, an animated offset). Positions are content offsets (pt), times seconds.
struct AxisMotion {
  enum Kind {
    /// Exponential decay from `start` at `velocity` (pt/s) at `rate` per millisecond.
    case decay(start: Double, velocity: Double, rate: Double)
    /// A critically damped spring towards `target`, released `start` at `velocity`.
    case spring(target: Double, start: Double, velocity: Double)
    /// Not moving.
    case rest(Double)
  }

  private(set) var kind: Kind
  /// When the current kind began.
  private(set) var origin: Double
  /// The offsets the content may rest in; decay past them turns into a spring to the edge.
  let lower: Double
  let upper: Double
  /// Whether content may overshoot the edges (`bounces`); else it stops at them.
  let bounces: Bool

  init(_ kind: Kind, at time: Double, lower: Double, upper: Double, bounces: Bool) {
    self.kind = kind
    self.origin = time
    self.lower = lower
    self.upper = max(lower, upper)
    self.bounces = bounces
  }

  var isAtRest: Bool {
    if case .rest = kind { return true }
    return false
  }

  /// Where the motion will end.
  var restingPoint: Double {
    switch kind {
    case .rest(let x): return x
    case .spring(let target, _, _): return target
    case .decay(let start, let velocity, let rate):
      let end = start + ScrollPhysics.projection(velocity: velocity, rate: rate)
      return min(max(end, lower), upper)
    }
  }

  /// The position and velocity at `time`, advancing the motion's kind as it crosses an edge or
  /// comes to rest (call with non-decreasing times).
  mutating func sample(at time: Double) -> (position: Double, velocity: Double) {
    let t = max(0, time - origin)
    switch kind {
    case .rest(let x):
      return (x, 0)
    case .decay(let start, let velocity, let rate):
      let x = start + ScrollPhysics.decayDisplacement(velocity: velocity, rate: rate, time: t)
      let v = ScrollPhysics.decayVelocity(velocity: velocity, rate: rate, time: t)
      if x < lower || x > upper {
        let edge = x < lower ? lower : upper
        guard bounces else {
          kind = .rest(edge)
          return (edge, 0)
        }
        // Past the edge: the spring takes over with the content's velocity (UIKit's bounce).
        kind = .spring(target: edge, start: x, velocity: v)
        origin = time
        return (x, v)
      }
      let remaining = ScrollPhysics.projection(velocity: v, rate: rate)
      if abs(remaining) < ScrollConstants.restThreshold {
        let end = x + remaining
        kind = .rest(end)
        return (end, 0)
      }
      return (x, v)
    case .spring(let target, let start, let velocity):
      let s = ScrollPhysics.spring(
        displacement: start - target, velocity: velocity, omega: ScrollConstants.springFrequency, time: t)
      if abs(s.displacement) < ScrollConstants.restThreshold
        && abs(s.velocity) < ScrollConstants.restThreshold * ScrollConstants.springFrequency
      {
        kind = .rest(target)
        return (target, 0)
      }
      return (target + s.displacement, s.velocity)
    }
  }
}
