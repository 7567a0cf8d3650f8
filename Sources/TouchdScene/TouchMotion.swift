// Coalesced and predicted touches (issue #43; docs/protocol.md, "Coalesced and predicted
// touches"): UIEvent's `coalescedTouches(for:)` and `predictedTouches(for:)` for touchd's
// subscribers. The runtime records each touch's position at every kernel frame it moved in (in
// window points, as its touches messages carry it) while some subscriber asks for either entry, and
// a touches message takes the frames since the touch's last message and the predictions from them.
import TouchDelivery
import TouchdInput

/// One position of a touch at a kernel frame's time.
public struct MotionSample: Hashable, Sendable {
  /// Seconds (the frame's kernel timestamp).
  public var time: Double
  public var x: Double
  public var y: Double

  public init(time: Double, x: Double, y: Double) {
    self.time = time
    self.x = x
    self.y = y
  }
}

/// The prediction model of `predicted` entries. UIKit publishes none for its
/// `predictedTouches(for:)`, so touchd names its own: a **constant-velocity least-squares fit**.
/// The velocity is the slope of a least-squares line through the touch's positions against time
/// over its frames of the last ``window`` (a fit over the recent motion history, as libinput's
/// touchpad code estimates a touch's speed from its recent history rather than from the last two
/// events alone; Android's Jetpack `androidx.input.motionprediction` runs a Kalman filter over the
/// same history), and the position ahead is the latest one plus that velocity times the horizon.
/// The window is measured, not derived: on the bundled real recordings (../shared/recordings,
/// 60-140 Hz panels) the shorter the window the smaller the error, down to 20 ms; 50 ms keeps two
/// frames of a 40 Hz panel in the fit, at 0.2 points more mean error at 8 ms than 30 ms, and a fit
/// damped below the full velocity (gain 0.5 or 0.75) did worse at every window tried
/// (docs/performance.md, "Touch prediction"; `touchctl replay --prediction-error` measures it
/// again).
public enum TouchPrediction {
  /// The horizons of the predictions a touches message carries, in seconds: 8 ms and 16 ms, one
  /// and two frames of a 120 Hz display, about a half and a whole 60 Hz frame (the latency
  /// prediction hides; issue #43 asks the error at these two).
  public static let horizons: [Double] = [0.008, 0.016]
  /// The span of the fit: the touch's frames of the last 50 ms (measured, see above).
  public static let window = 0.050

  /// The position `horizon` seconds after `now`, from the touch's samples (in time order, the
  /// latest at or before `now`); nil without a sample. With fewer than two samples in the window the
  /// touch is at rest (the kernel sends no frame for a finger that does not move): the prediction is
  /// its latest position.
  public static func predict(_ samples: ArraySlice<MotionSample>, now: Double, horizon: Double) -> MotionSample? {
    guard let latest = samples.last else { return nil }
    let ahead = now + horizon
    guard let (vx, vy) = velocity(samples, now: now) else { return MotionSample(time: ahead, x: latest.x, y: latest.y) }
    let step = ahead - latest.time
    return MotionSample(time: ahead, x: latest.x + vx * step, y: latest.y + vy * step)
  }

  /// The least-squares velocity (units per second) of the samples within ``window`` before `now`;
  /// nil with fewer than two or no spread in time.
  static func velocity(_ samples: ArraySlice<MotionSample>, now: Double) -> (Double, Double)? {
    var first = samples.endIndex
    while first > samples.startIndex, samples[first - 1].time >= now - window { first -= 1 }
    let fit = samples[first...]
    guard fit.count >= 2 else { return nil }
    let n = Double(fit.count)
    var (st, sx, sy) = (0.0, 0.0, 0.0)
    for s in fit {
      st += s.time - now
      sx += s.x
      sy += s.y
    }
    let (mt, mx, my) = (st / n, sx / n, sy / n)
    var (stt, stx, sty) = (0.0, 0.0, 0.0)
    for s in fit {
      let dt = s.time - now - mt
      stt += dt * dt
      stx += dt * (s.x - mx)
      sty += dt * (s.y - my)
    }
    guard stt > 0 else { return nil }
    return (stx / stt, sty / stt)
  }
}

/// The touches' recorded frames, and how far each touch's touches messages have carried them.
final class TouchMotion {
  /// A touch's frames, the latest last.
  struct Track {
    var samples: [MotionSample] = []
    /// The time of the last frame a touches message carried in `coalesced`.
    var published = -Double.infinity
  }

  /// At most this many frames per touch are kept: a touches message lists at most the last 128
  /// frames of a touch (a second at 128 Hz; more only for a delivery held longer than that).
  static let capacity = 128
  /// A track with no frame for 2 s is dropped (an ended touch, a held delivery released later
  /// within that time still finds its frames; a finger at rest that moves again starts a new track,
  /// having no frame to list since its last message anyway).
  static let keep = 2.0

  /// The entries the runtime makes.
  let entries: TouchesMessage.Entries
  private var tracks: [Int: Track] = [:]
  /// When stale tracks were last looked for (once a ``keep`` at most: no work per frame).
  private var lastPurge = -Double.infinity

  init(entries: TouchesMessage.Entries) { self.entries = entries }

  /// Records the frame's contacts (in window points) that moved or began; drops stale tracks.
  func record(_ frame: TouchFrame) {
    let time = frame.time.seconds
    if time - lastPurge > Self.keep {
      lastPurge = time
      for (id, track) in tracks where time - (track.samples.last?.time ?? time) > Self.keep { tracks[id] = nil }
    }
    for contact in frame.contacts where contact.phase != .cancelled && contact.phase != .stationary {
      let id = Int(clamping: contact.id.rawValue)
      var track = tracks[id] ?? Track()
      if let last = track.samples.last, last.x == contact.x, last.y == contact.y { continue }
      if track.samples.count >= 2 * Self.capacity { track.samples.removeFirst(Self.capacity) }
      track.samples.append(MotionSample(time: time, x: contact.x, y: contact.y))
      tracks[id] = track
    }
  }

  /// Adds the entries asked for to a touches message: for each touch, its frames after those its
  /// last message carried, up to the touch's time as the message shows it (`time(id)`: the frame's,
  /// or for a delivery held back and released later the time it was held at, whose catch-up
  /// `moved` then carries the frames between), as `coalesced`; and for each touch still down its
  /// predictions ahead of that time, as `predicted`.
  func addEntries(to message: inout TouchesMessage, time: (Int) -> Double?) {
    var coalesced: [TouchesMessage.Sample] = []
    var predicted: [TouchesMessage.Sample] = []
    for touch in message.touches {
      guard var track = tracks[touch.id] else { continue }
      let now = time(touch.id) ?? message.time
      // The frames up to the touch's time: `end` is past the last of them.
      var end = track.samples.endIndex
      while end > track.samples.startIndex, track.samples[end - 1].time > now { end -= 1 }
      if entries.contains(.coalesced) {
        // The frames after the last one published, the latest `capacity` of them.
        var start = end
        while start > track.samples.startIndex, track.samples[start - 1].time > track.published { start -= 1 }
        for s in track.samples[max(start, end - Self.capacity)..<end] {
          coalesced.append(.init(id: touch.id, x: s.x, y: s.y, time: s.time))
        }
        if end > start {
          track.published = track.samples[end - 1].time
          tracks[touch.id] = track
        }
      }
      // Never past the touch's end: an ended or cancelled touch has no prediction.
      if entries.contains(.predicted), touch.phase != TouchPhase.ended.rawValue,
        touch.phase != TouchPhase.cancelled.rawValue
      {
        for horizon in TouchPrediction.horizons {
          guard let p = TouchPrediction.predict(track.samples[..<end], now: now, horizon: horizon) else { break }
          predicted.append(.init(id: touch.id, x: p.x, y: p.y, time: p.time))
        }
      }
    }
    if entries.contains(.coalesced) { message.coalesced = coalesced }
    if entries.contains(.predicted) { message.predicted = predicted }
  }
}
