/// Counts taps per place, for ``Touch/tapCount`` (UIKit's `UITouch.tapCount`).
///
/// UIKit counts taps where they land: a touch-down continues the count of a tap that ended near
/// it, recently enough, whatever other fingers did meanwhile. Two fingers double-tapping two
/// buttons at once each get a tap count of 2, and a tap elsewhere between the two taps of a
/// double tap does not reset it (Apple's `UITouch.tapCount`: "the number of times the finger was
/// tapped for this given touch", a property of the touch, not of the window).
///
/// The counter keeps the taps that ended within the last ``Application/multipleTapInterval``, each
/// with its touch-down point. A touch-down takes the nearest such tap in its window within
/// ``Application/multipleTapDistance`` (UIKit documents no choice between two candidates; the
/// nearest is the finger's own previous tap when two fingers tap close to each other) and
/// continues its count; the tap it took is gone, so the run belongs to that finger. A touch that
/// ends as a drag or a cancellation adds nothing, which ends the run it continued.
struct TapCounter {
  private struct Tap {
    weak var window: Window?
    var location: Point
    var time: Double
    var count: Int
  }

  /// The most taps remembered at once: more fingers than a touchscreen reports (ten on most
  /// panels, libinput's and the kernel's multitouch slots rarely exceed 10); the oldest goes first.
  static let capacity = 16

  private var taps: [Tap] = []

  init() { taps.reserveCapacity(Self.capacity) }

  /// The tap count of a touch-down at `point` (window points) at `time`; 1 unless it continues a
  /// recent tap nearby, which it then takes.
  mutating func touchDown(at point: Point, time: Double, in window: Window, interval: Double, distance: Double)
    -> Int
  {
    taps.removeAll { time - $0.time > interval || $0.window == nil }
    var best: (index: Int, distance: Double)?
    for (i, tap) in taps.enumerated() where tap.window === window {
      let d = point.distance(to: tap.location)
      guard d <= distance else { continue }
      if let b = best, !Self.precedes(tap, d, taps[b.index], b.distance) { continue }
      best = (i, d)
    }
    guard let best else { return 1 }
    return taps.remove(at: best.index).count + 1
  }

  /// Whether `a` at distance `da` is a better candidate than `b` at `db`: nearer, then more
  /// recent, then by place, so that taps lifted in one frame (recorded in the order of a set)
  /// are chosen the same way in every process, live and in replay.
  private static func precedes(_ a: Tap, _ da: Double, _ b: Tap, _ db: Double) -> Bool {
    if da != db { return da < db }
    if a.time != b.time { return a.time > b.time }
    if a.location.x != b.location.x { return a.location.x < b.location.x }
    return a.location.y < b.location.y
  }

  /// Records a touch that ended as a tap: it lifted within `distance` of where it touched down.
  mutating func touchEnded(_ touch: Touch, distance: Double) {
    guard touch.phase == .ended, let window = touch.window,
      touch.locationInWindow.distance(to: touch.initialLocationInWindow) <= distance
    else { return }
    if taps.count >= Self.capacity { taps.removeFirst() }
    taps.append(
      Tap(window: window, location: touch.initialLocationInWindow, time: touch.timestamp, count: touch.tapCount))
  }
}
