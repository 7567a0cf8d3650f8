// VoiceOver's one-finger gestures, told apart from a window's frames while VoiceOver is on:
// exploring, a tap, a double tap, a split tap and flicks.
import TouchDelivery
import TouchdInput

/// Turns the contacts of a VoiceOver window into VoiceOver's gestures (Apple's "Learn VoiceOver
/// gestures on iPhone"): a finger held or moving explores, a tap selects what is under it, a double
/// tap anywhere activates the focus, a second finger tapping while the first explores activates
/// (split tap), and a flick steps or adjusts. Apple publishes no thresholds for them; touchd takes
/// UIKit's own where one fits and names its choices:
///
/// - A finger **explores** once it has been down for ``exploreDelay`` (0.25 s, touchd's choice: a
///   flick of 50 pt at the speed VoiceOver users flick takes well under it, and a tap is shorter),
///   and from then on at every move; lifting it does nothing.
/// - A **tap**: a finger that lifts before exploring, having moved less than UIKit's tap movement
///   (``GestureConstants/tapAllowableMovement``). A second tap that lands within UIKit's multiple-tap
///   interval (``GestureConstants/multiTapMaximumInterval``) of the first one's lift makes a
///   **double tap**; a tap with none after it selects, once the interval has passed.
/// - A **flick**: a finger that lifts before exploring, having moved at least the swipe's primary
///   movement (``GestureConstants/swipeMinimumPrimaryMovement``) along its main axis and at most
///   its secondary movement across it, as `UISwipeGestureRecognizer` measures a swipe.
/// - A **split tap**: while a finger explores, a second finger's tap.
/// - **Double tap and hold**: a double tap's second finger kept down for UIKit's long-press duration
///   (``GestureConstants/longPressMinimumDuration``), having moved less than a tap may, passes
///   through: from then on it is an ordinary touch of the window until it lifts (its frames are
///   no longer VoiceOver's). The second finger of a double tap does not explore.
/// - A **three-finger flick**: three fingers down together (none exploring) that lift having
///   moved, on average, as a flick moves; it scrolls by a page.
///
/// Other gestures of several fingers are not told apart yet: their fingers do nothing, and none of
/// them counts as a one-finger gesture.
final class VoiceOverGestures {
  enum Direction: String { case left, right, up, down }

  enum Event {
    /// The exploring finger `touch` is at `point` (window points): at its start and each move.
    case explore(touch: TouchID, at: Point)
    /// A tap with no second one: select what is at `point`.
    case tap(at: Point)
    case doubleTap
    case splitTap
    case flick(Direction)
    /// Three fingers flicked; `at`: where they started, their centroid.
    case threeFingerFlick(Direction, at: Point)
    /// A double tap's second finger held: `touch` passes through, at `at` now.
    case passthrough(touch: TouchID, at: Point)
  }

  /// How long a finger stays down before it explores (touchd's choice, above).
  static let exploreDelay = 0.25

  private struct Track {
    var start: Point
    var startTime: Double
    var last: Point
    /// The farthest the finger got from its start.
    var moved = 0.0
    var exploring = false
    /// Down while another finger explored: a split tap if it lifts as a tap.
    var isSplit = false
    /// The second tap of a double tap, if it lifts as a tap.
    var isSecondTap = false
    var exploreTimer: ScheduledTimer?
  }

  private let clock: TouchClock
  private let handler: (Event) -> Void
  private var tracks: [TouchID: Track] = [:]
  /// The lift of a tap that may still get its second one.
  private var pendingTap: (time: Double, point: Point, timer: ScheduledTimer)?
  /// The fingers down together since the first of them (none explored): the most at once, and
  /// each lifted one's start and end.
  private var group: (fingers: Int, lifted: [(start: Point, end: Point)])?

  init(clock: TouchClock, handler: @escaping (Event) -> Void) {
    self.clock = clock
    self.handler = handler
  }

  /// The fingers down that VoiceOver follows.
  var fingers: Set<TouchID> { Set(tracks.keys) }

  /// Stops every timer and forgets every finger (VoiceOver turned off, the scene replaced).
  func reset() {
    for track in tracks.values { track.exploreTimer?.cancel() }
    tracks = [:]
    pendingTap?.timer.cancel()
    pendingTap = nil
    group = nil
  }

  /// One frame of the window's contacts, in window points, at `time`.
  func handle(_ contacts: [Contact], at time: Double) {
    for contact in contacts {
      let point = Point(x: contact.x, y: contact.y)
      switch contact.phase {
      case .began: began(contact.id, at: point, time: time)
      case .moved, .stationary: moved(contact.id, to: point)
      case .ended: ended(contact.id, at: point, time: time)
      case .cancelled:
        tracks[contact.id]?.exploreTimer?.cancel()
        tracks[contact.id] = nil
      }
    }
  }

  private func began(_ id: TouchID, at point: Point, time: Double) {
    var track = Track(start: point, startTime: time, last: point)
    track.isSplit = tracks.values.contains { $0.exploring }
    if let pending = pendingTap, tracks.isEmpty, time - pending.time <= GestureConstants.multiTapMaximumInterval {
      track.isSecondTap = true
      pending.timer.cancel()
      pendingTap = nil
    }
    if tracks.isEmpty {
      track.exploreTimer =
        track.isSecondTap
        ? clock.schedule(at: time + GestureConstants.longPressMinimumDuration) { [weak self] in self?.hold(id) }
        : clock.schedule(at: time + Self.exploreDelay) { [weak self] in self?.startExploring(id) }
      group = (1, [])
    } else if !track.isSplit {
      // A second finger before the first explores: a gesture of several fingers, which none does.
      for key in tracks.keys {
        tracks[key]?.exploreTimer?.cancel()
        tracks[key]?.exploreTimer = nil
      }
      let fingers = max(group?.fingers ?? 0, tracks.count + 1)
      group?.fingers = fingers
    }
    tracks[id] = track
  }

  /// A double tap's second finger still down: it passes through unless it moved like no tap.
  private func hold(_ id: TouchID) {
    guard let track = tracks[id], track.moved < GestureConstants.tapAllowableMovement else { return }
    tracks[id] = nil
    group = nil
    handler(.passthrough(touch: id, at: track.last))
  }

  private func startExploring(_ id: TouchID) {
    guard var track = tracks[id] else { return }
    track.exploring = true
    track.exploreTimer = nil
    tracks[id] = track
    handler(.explore(touch: id, at: track.last))
  }

  private func moved(_ id: TouchID, to point: Point) {
    guard var track = tracks[id], point != track.last else { return }
    track.last = point
    track.moved = max(track.moved, distance(track.start, point))
    tracks[id] = track
    if track.exploring { handler(.explore(touch: id, at: point)) }
  }

  private func ended(_ id: TouchID, at point: Point, time: Double) {
    guard var track = tracks.removeValue(forKey: id) else { return }
    track.exploreTimer?.cancel()
    track.last = point
    track.moved = max(track.moved, distance(track.start, point))
    guard !track.exploring else { return }
    let isTap = track.moved < GestureConstants.tapAllowableMovement
    if track.isSplit {
      if isTap { handler(.splitTap) }
      return
    }
    if let fingers = group?.fingers, fingers > 1 {
      group?.lifted.append((track.start, point))
      guard tracks.isEmpty, let lifted = group?.lifted else { return }
      group = nil
      if fingers == 3, lifted.count == 3 { threeFingerLift(lifted) }
      return
    }
    group = nil
    if isTap {
      if track.isSecondTap {
        handler(.doubleTap)
      } else {
        let timer = clock.schedule(at: time + GestureConstants.multiTapMaximumInterval) { [weak self] in
          guard let self, let pending = self.pendingTap else { return }
          self.pendingTap = nil
          self.handler(.tap(at: pending.point))
        }
        pendingTap = (time, track.start, timer)
      }
      return
    }
    if let direction = flickDirection(from: track.start, to: point) { handler(.flick(direction)) }
  }

  /// Three fingers lifted: a flick when their mean movement is one.
  private func threeFingerLift(_ lifted: [(start: Point, end: Point)]) {
    let n = Double(lifted.count)
    let start = Point(x: lifted.map(\.start.x).reduce(0, +) / n, y: lifted.map(\.start.y).reduce(0, +) / n)
    let end = Point(x: lifted.map(\.end.x).reduce(0, +) / n, y: lifted.map(\.end.y).reduce(0, +) / n)
    if let direction = flickDirection(from: start, to: end) { handler(.threeFingerFlick(direction, at: start)) }
  }

  /// The direction of a flick from `start` to `end`, as `UISwipeGestureRecognizer` measures one;
  /// nil when the movement is none.
  private func flickDirection(from start: Point, to end: Point) -> Direction? {
    let dx = end.x - start.x
    let dy = end.y - start.y
    let horizontal = abs(dx) >= abs(dy)
    let primary = horizontal ? abs(dx) : abs(dy)
    let secondary = horizontal ? abs(dy) : abs(dx)
    guard primary >= GestureConstants.swipeMinimumPrimaryMovement,
      secondary <= GestureConstants.swipeMaximumSecondaryMovement
    else { return nil }
    return horizontal ? (dx > 0 ? .right : .left) : (dy > 0 ? .down : .up)
  }

  private func distance(_ a: Point, _ b: Point) -> Double {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
  }
}
