import TouchDelivery

/// The health of one window's touchscreen, kept by window id across scene reloads.
struct WindowHealth {
  var heatmap = true
  var touchDowns = 0
  var grid: TouchGrid
  var ghosts: GhostTouches
  var jitter: StationaryJitter
  var drift: CalibrationDrift
  var misses = NearMisses()
  /// Touches that began while the scene was idle, or since, in a wake that has made no action or
  /// control event yet (``GhostKind/idle``).
  var wakeTouches = 0

  init(_ settings: HealthSettings) {
    grid = TouchGrid(
      columns: settings.columns, rows: settings.rows, window: settings.gridWindow, periods: settings.gridPeriods)
    ghosts = GhostTouches(settings)
    jitter = StationaryJitter(settings)
    drift = CalibrationDrift(settings)
  }
}

/// One finger followed from touch-down to lift, in its window's points.
struct TouchTrack {
  /// The running scene's window (tracks are forgotten when another scene is attached).
  var window: Int
  var began: Double
  var start: Point
  var last: Point
  /// The position before `last`, once the finger has moved twice.
  var beforeLast: Point?
  /// Where the finger settled, and when: reset when it moves past the stationary radius.
  var anchor: Point
  var anchorTime: Double
  /// The farthest it went from `start`.
  var farthest: Double = 0
  /// Whether a recognizer recognized with it.
  var taken = false
  /// Whether it lifted in the frame being delivered (judged once the frame is delivered).
  var liftedAt: Double?

  init(window: Int, at point: Point, time: Double) {
    self.window = window
    began = time
    start = point
    last = point
    anchor = point
    anchorTime = time
  }
}

extension TouchTrack {
  /// The finger at `point` at `time` (`moved`: its phase is moved, not stationary). Returns the
  /// jitter of this move when the finger is held still (``HealthSettings/stationaryRadius`` for
  /// ``HealthSettings/stationaryHold``): the last position's distance from the midpoint of its
  /// neighbours. Noise moves a finger back and forth; a slow roll or drift moves it along a line
  /// (distance 0).
  mutating func move(to point: Point, at time: Double, moved: Bool, _ settings: HealthSettings) -> Double? {
    farthest = max(farthest, start.distance(to: point))
    var jitter: Double?
    if anchor.distance(to: point) > settings.stationaryRadius {
      anchor = point
      anchorTime = time
    } else if moved, let before = beforeLast, time - anchorTime >= settings.stationaryHold {
      jitter = last.distance(to: Point(x: (before.x + point.x) / 2, y: (before.y + point.y) / 2))
    }
    if moved { beforeLast = last }
    last = point
    return jitter
  }
}
