import TouchDelivery
import TouchdInput

/// Touchscreen health (docs/operations.md, "Touchscreen health"): what touchd learns from every
/// touch about the panels it reads, as aggregates only (counts per cell and per view, no sequences,
/// no time of a single touch). The daemon keeps one for its life and hands it to each scene it
/// runs; health is kept by window id, so a reload keeps it.
///
/// The runtime feeds it each frame before delivery (``observe(_:window:mapping:isIdle:)``) and
/// after (``frameDelivered()``), the recognizers' outcomes, the stuck-touch rule's cancellations,
/// the actions and the idle transitions. Nothing is allocated per frame once the first touches
/// have been seen: storage is fixed at a window's first frame, and the touches' table keeps its
/// capacity.
///
/// # Thread safety
/// Not thread-safe: the runtime's owner calls it, on the pipeline's queue.
public final class TouchHealth {
  public let settings: HealthSettings
  /// Each window's health, in the order windows were first seen.
  var states: [WindowHealth] = []
  var windowIDs: [String] = []
  /// The running scene's windows, by index: which state each feeds.
  private var stateOfWindow: [Int] = []
  private var tracks: [TouchID: TouchTrack] = [:]
  private var lifted: [TouchID] = []
  /// The time of the last frame seen: where the report's rolling windows end when no time is given.
  private(set) var lastFrameTime: Double = 0

  public init(settings: HealthSettings = HealthSettings()) {
    self.settings = settings
    tracks.reserveCapacity(64)
    lifted.reserveCapacity(64)
  }

  /// Starts following a scene: its windows by id (a window seen before keeps its health) and
  /// whether each keeps a grid (`health: {heatmap: false}` turns it off). Touches in flight are
  /// forgotten: a new scene cancels them.
  func attach(_ windows: [(id: String, heatmap: Bool)]) {
    tracks.removeAll(keepingCapacity: true)
    lifted.removeAll(keepingCapacity: true)
    stateOfWindow = windows.map { window in
      if let index = windowIDs.firstIndex(of: window.id) {
        states[index].heatmap = window.heatmap
        return index
      }
      var state = WindowHealth(settings)
      state.heatmap = window.heatmap
      states.append(state)
      windowIDs.append(window.id)
      return states.count - 1
    }
  }

  /// A frame for scene window `window`, before it is delivered: its contacts in device-normalized
  /// coordinates, mapped here onto the window's points by `mapping`. `isIdle`: the scene was idle
  /// when it arrived.
  func observe(_ frame: TouchFrame, window: Int, mapping: ScreenMapping, isIdle: Bool) {
    guard window < stateOfWindow.count else { return }
    let s = stateOfWindow[window]
    let time = frame.time.seconds
    lastFrameTime = time
    for contact in frame.contacts {
      let (x, y) = mapping.map(contact)
      let point = Point(x: x, y: y)
      switch contact.phase {
      case .began:
        states[s].touchDowns += 1
        if states[s].heatmap {
          states[s].grid.countTouchDown(x: x / mapping.width, y: y / mapping.height, at: time)
        }
        if isIdle || states[s].wakeTouches > 0 { states[s].wakeTouches += 1 }
        tracks[contact.id] = TouchTrack(window: window, at: point, time: time)
      case .moved, .stationary:
        // In place: one hash lookup per contact, no copy of the track.
        guard let i = tracks.index(forKey: contact.id) else { continue }
        if let jitter = tracks.values[i].move(to: point, at: time, moved: contact.phase == .moved, settings) {
          states[s].jitter.record(distance: jitter, at: time)
        }
      case .ended:
        guard let i = tracks.index(forKey: contact.id) else { continue }
        tracks.values[i].last = point
        tracks.values[i].liftedAt = time
        lifted.append(contact.id)
      case .cancelled:
        tracks[contact.id] = nil
      }
    }
  }

  /// After the frame's delivery: each touch that lifted in it is judged, now that the
  /// recognizers have had it (a sub-frame touch, a near miss).
  func frameDelivered(in windows: [TouchDelivery.Window]) {
    for id in lifted {
      guard let track = tracks.removeValue(forKey: id), let lift = track.liftedAt else { continue }
      let s = stateOfWindow[track.window]
      let duration = lift - track.began
      if duration < settings.subFrameDuration { states[s].ghosts.subFrameTouch(beganAt: track.began) }
      guard !track.taken, states[s].heatmap, duration <= settings.tapDuration,
        track.farthest <= settings.tapMovement, track.window < windows.count
      else { continue }
      states[s].misses.tap(at: track.start, in: windows[track.window], distance: settings.nearMissDistance)
    }
    lifted.removeAll(keepingCapacity: true)
  }

  /// A recognizer left `.possible`: a recognized one took its touches (they are no near miss),
  /// and a recognized single-finger tap is a sample of its window's calibration drift.
  func recognizer(_ recognizer: GestureRecognizer, recognized: Bool, window: Int?) {
    guard recognized else { return }
    for touch in recognizer.trackedTouches { tracks[touch.id]?.taken = true }
    guard let tap = recognizer as? TapGestureRecognizer, tap.numberOfTouchesRequired == 1,
      tap.trackedPresses.isEmpty, let view = tap.view, let window, window < stateOfWindow.count
    else { return }
    let location = tap.location(in: nil)
    let centre = view.convertToWindow(Point(x: view.bounds.midX, y: view.bounds.midY))
    states[stateOfWindow[window]].drift.tap(dx: location.x - centre.x, dy: location.y - centre.y)
  }

  /// The stuck-touch rule cancelled a touch of scene window `window` (``GhostKind/pinned``).
  func stuckTouch(window: Int) {
    guard window < stateOfWindow.count else { return }
    states[stateOfWindow[window]].ghosts.count(.pinned)
  }

  /// An action or control event was made: whoever woke the scene was there.
  func actionMade() {
    for s in states.indices { states[s].wakeTouches = 0 }
  }

  /// The scene went idle: the touches of a wake that made nothing were ghosts.
  func wentIdle() {
    for s in states.indices where states[s].wakeTouches > 0 {
      states[s].ghosts.count(.idle, states[s].wakeTouches)
      states[s].wakeTouches = 0
    }
  }
}
