/// Touches with no human shape (docs/operations.md, "Touchscreen health"), counted by kind.
public enum GhostKind: String, CaseIterable, Hashable, Sendable {
  /// One of a burst of sub-frame touches (``HealthSettings/ghostBurstTouches`` within
  /// ``HealthSettings/ghostBurstInterval``): electrical noise, water, a failing controller.
  case burst
  /// A touch the stuck-touch rule cancelled (the scene's `stuckTouchTimeout`): pinned to one point.
  case pinned
  /// A touch that woke the idle scene (or came in the wake it started) when the wake led to no
  /// action or control event before the scene was idle again: nobody was there.
  case idle
}

/// Counts ghost touches of one window's touchscreen; the burst detector keeps the start times of
/// the last few sub-frame touches in a fixed ring (nothing allocated per touch).
struct GhostTouches {
  private(set) var counts: [GhostKind: Int] = [.burst: 0, .pinned: 0, .idle: 0]
  private let burstTouches: Int
  private let burstInterval: Double
  private var recent: [Double]
  private var next = 0
  private var stored = 0
  private var inBurst = false

  init(_ settings: HealthSettings) {
    burstTouches = max(settings.ghostBurstTouches, 1)
    burstInterval = settings.ghostBurstInterval
    recent = Array(repeating: 0, count: burstTouches)
  }

  /// A sub-frame touch that began at `time`: once ``burstTouches`` of them fall within the
  /// interval, each counts as a ghost (those before it too, when the burst starts).
  mutating func subFrameTouch(beganAt time: Double) {
    recent[next] = time
    next = (next + 1) % burstTouches
    stored = min(stored + 1, burstTouches)
    // The oldest of the last `burstTouches`, this one included.
    let oldest = stored == burstTouches ? recent[next] : nil
    guard let oldest, time - oldest <= burstInterval else {
      inBurst = false
      return
    }
    counts[.burst, default: 0] += inBurst ? 1 : burstTouches
    inBurst = true
  }

  mutating func count(_ kind: GhostKind, _ touches: Int = 1) {
    counts[kind, default: 0] += touches
  }
}
