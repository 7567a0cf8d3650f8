import TouchdInput
import TouchdScene

/// Feeds recordings to the pipeline on the daemon's clock, which runs on the recordings' time
/// line: each event is processed once the clock reaches its time, the recordings merged by time
/// as ``ScenePlayer`` merges them (``MultiReplay``), each routed to its windows. Looping replays
/// shift every later pass by the replay's length plus one second, so time never goes backwards.
///
/// Owned by the pipeline queue.
final class ReplayFeeder {
  let recordings: [Recording]
  private let loop: Bool
  private let replay: MultiReplay
  /// Where each recording's frames go (``ScenePlayer/route(_:in:path:)``); a scene reload
  /// changes them.
  var routes: [ScenePlayer.Route] {
    didSet { replay.setReadings(routes.map(\.reading)) }
  }
  private var finished = false

  init(recordings: [Recording], routes: [ScenePlayer.Route], ids: TouchIDAllocator, loop: Bool) {
    self.recordings = recordings
    self.routes = routes
    self.loop = loop
    replay = MultiReplay(recordings, readings: routes.map(\.reading), ids: ids)
  }

  /// The recordings' sources, for logs and status.
  var source: String { recordings.map(\.source).joined(separator: ", ") }

  /// The clock time of the next event, nil when the replay is over.
  var nextTime: Double? {
    guard !finished else { return nil }
    return (replay.nextTime ?? replay.endTime ?? Timestamp(microseconds: 0)).seconds
  }

  /// Cancels the keys down at `time` (a scene reload), handing the frames to `deliver`.
  func cancelKeys(at time: Double, _ deliver: (Int, DeviceFrame) -> Void) {
    replay.cancelKeys(at: Timestamp(microseconds: Int64((time * 1_000_000).rounded())), deliver)
  }

  /// Processes every event due by `time`, handing each frame with its recording's index to
  /// `deliver`; at the end of the recordings, cancels touches and keys still down and starts again
  /// when looping.
  func feed(until time: Double, _ deliver: (Int, DeviceFrame) -> Void) {
    // Event times are whole microseconds; the clock's reading is rounded to them.
    replay.feed(until: Timestamp(microseconds: Int64((time * 1_000_000).rounded())), deliver)
    guard replay.nextTime == nil else { return }
    replay.cancelAll(at: replay.endTime ?? Timestamp(microseconds: 0), deliver)
    if loop, let first = replay.startTime, let last = replay.endTime {
      replay.restart(shiftingBy: last.microseconds - first.microseconds + 1_000_000)
    } else {
      finished = true
    }
  }
}
