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
/// - Fingers down together (the second before the first explores) are one gesture of several
///   fingers, and none of them counts as a one-finger gesture. Their **tap**: every finger lifts
///   within UIKit's tap duration (``GestureConstants/maximumTapDuration``) having moved less than a
///   tap may. Their **flick**: their mean movement is a flick's.
/// - **Two fingers**: a tap (pause or resume speech), a second two-finger tap within the
///   multiple-tap interval of the first one's lift (a **double tap**: the magic tap), a flick up or
///   down (read all), and a **scrub**: their centre moved back and forth sideways in at least
///   three strokes of ``scrubStrokeLength`` each (Apple's "two-finger scrub: move two fingers back
///   and forth three times quickly, making a z").
/// - **Three fingers**: a flick scrolls by a page, a tap says where the focus is.
///
/// Gestures of four fingers or more do nothing.
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
    case twoFingerTap
    /// Two two-finger taps: VoiceOver's magic tap.
    case twoFingerDoubleTap
    case twoFingerFlick(Direction)
    /// Two fingers scrubbed: VoiceOver's escape.
    case scrub
    case threeFingerTap
    /// A double tap's second finger held: `touch` passes through, at `at` now.
    case passthrough(touch: TouchID, at: Point)
  }

  /// How long a finger stays down before it explores (touchd's choice, above).
  static let exploreDelay = 0.25

  /// The sideways movement of two fingers' centre that makes one stroke of a scrub: touchd's
  /// choice (Apple gives none), the tap's allowable movement, so a two-finger tap's jitter is no
  /// stroke and a Z across a hand's width is three.
  static let scrubStrokeLength = GestureConstants.tapAllowableMovement

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
  /// each lifted one's start, end and whether it lifted as a tap.
  private var group: Group?

  private struct Group {
    var fingers = 1
    var lifted: [(start: Point, end: Point, isTap: Bool)] = []
    /// The group began within the multiple-tap interval of a two-finger tap's lift.
    var followsTwoFingerTap = false
    /// Two fingers' centre, sideways: where the stroke being made turned, its direction (0: none
    /// yet) and the strokes made.
    var scrubTurn: Double?
    var scrubDirection = 0.0
    var strokes = 0
  }

  /// The lift of a two-finger tap that may still get its second one.
  private var pendingTwoFingerTap: (time: Double, timer: ScheduledTimer)?

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
    pendingTwoFingerTap?.timer.cancel()
    pendingTwoFingerTap = nil
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
    if group?.fingers == 2, tracks.count == 2 { scrubbed(to: tracks.values.map(\.last.x).reduce(0, +) / 2) }
  }

  /// Two fingers' centre is at `x`: a stroke turns when the centre has come back
  /// ``scrubStrokeLength`` from where the stroke got farthest.
  private func scrubbed(to x: Double) {
    guard var g = group else { return }
    defer { group = g }
    guard let turn = g.scrubTurn else {
      g.scrubTurn = x
      return
    }
    if g.scrubDirection == 0 {
      if abs(x - turn) >= Self.scrubStrokeLength {
        g.scrubDirection = x > turn ? 1 : -1
        g.strokes = 1
        g.scrubTurn = x
      }
    } else if (x - turn) * g.scrubDirection > 0 {
      g.scrubTurn = x
    } else if (turn - x) * g.scrubDirection >= Self.scrubStrokeLength {
      g.scrubDirection = -g.scrubDirection
      g.strokes += 1
      g.scrubTurn = x
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
      var g = Group()
      if let pending = pendingTwoFingerTap, time - pending.time <= GestureConstants.multiTapMaximumInterval {
        pending.timer.cancel()
        pendingTwoFingerTap = nil
        g.followsTwoFingerTap = true
      }
      group = g
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
    // A two-finger tap just before, which this finger did not make a double one: a tap of its own.
    if group?.followsTwoFingerTap == true {
      group?.followsTwoFingerTap = false
      handler(.twoFingerTap)
    }
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
      group?.lifted.append((track.start, point, isTap && time - track.startTime <= GestureConstants.maximumTapDuration))
      guard tracks.isEmpty, let g = group else { return }
      group = nil
      groupLifted(g, at: time)
      return
    }
    if group?.followsTwoFingerTap == true { handler(.twoFingerTap) }
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

  /// The last finger of a group lifted: its gesture, by the fingers it had (each of them lifted).
  private func groupLifted(_ g: Group, at time: Double) {
    let lifted = g.lifted
    let allTaps = lifted.allSatisfy(\.isTap)
    let n = Double(lifted.count)
    let start = Point(x: lifted.map(\.start.x).reduce(0, +) / n, y: lifted.map(\.start.y).reduce(0, +) / n)
    let end = Point(x: lifted.map(\.end.x).reduce(0, +) / n, y: lifted.map(\.end.y).reduce(0, +) / n)
    let flick = flickDirection(from: start, to: end)
    let isTwoFingerTap = g.fingers == 2 && lifted.count == 2 && allTaps
    // A two-finger tap before this group that got no second one is a tap of its own.
    if g.followsTwoFingerTap && !isTwoFingerTap { handler(.twoFingerTap) }
    switch (g.fingers, lifted.count) {
    case (2, 2):
      if g.strokes >= 3 {
        handler(.scrub)
      } else if isTwoFingerTap {
        if g.followsTwoFingerTap { return handler(.twoFingerDoubleTap) }
        let timer = clock.schedule(at: time + GestureConstants.multiTapMaximumInterval) { [weak self] in
          guard let self, self.pendingTwoFingerTap != nil else { return }
          self.pendingTwoFingerTap = nil
          self.handler(.twoFingerTap)
        }
        pendingTwoFingerTap = (time, timer)
      } else if let flick {
        handler(.twoFingerFlick(flick))
      }
    case (3, 3):
      if allTaps {
        handler(.threeFingerTap)
      } else if let flick {
        handler(.threeFingerFlick(flick, at: start))
      }
    default: break
    }
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

extension VoiceOverGestures.Event {
  /// The gesture as a `voiceOverGesture` trace names it: its name, its fingers and a flick's
  /// direction; nil for an exploring finger's later moves (`exploring` is the finger that explores
  /// already), which are traced once, when the finger starts exploring.
  func traced(exploring: TouchID?) -> (String, Int, VoiceOverGestures.Direction?)? {
    switch self {
    case .explore(let touch, _): touch == exploring ? nil : ("explore", 1, nil)
    case .tap: ("tap", 1, nil)
    case .doubleTap: ("doubleTap", 1, nil)
    case .splitTap: ("splitTap", 2, nil)
    case .flick(let direction): ("flick", 1, direction)
    case .threeFingerFlick(let direction, _): ("flick", 3, direction)
    case .twoFingerTap: ("tap", 2, nil)
    case .twoFingerDoubleTap: ("doubleTap", 2, nil)
    case .twoFingerFlick(let direction): ("flick", 2, direction)
    case .scrub: ("scrub", 2, nil)
    case .threeFingerTap: ("tap", 3, nil)
    case .passthrough: ("doubleTapAndHold", 1, nil)
    }
  }
}
