import TouchdInput

/// Feeds a recording to the pipeline on the daemon's clock, which runs on the recording's time
/// line: each event is processed once the clock reaches its time. Looping replays shift every
/// later pass by the recording's length plus one second, so time never goes backwards.
///
/// Owned by the pipeline queue.
final class ReplayFeeder {
  let recording: Recording
  private let ids: TouchIDAllocator
  private let loop: Bool
  /// The window the recording feeds.
  var window: Int
  private var assembler: FrameAssembler
  private var index = 0
  private var offset: Int64 = 0
  private var finished = false

  init(recording: Recording, ids: TouchIDAllocator, loop: Bool, window: Int) {
    self.recording = recording
    self.ids = ids
    self.loop = loop
    self.window = window
    assembler = FrameAssembler(device: recording.description, ids: ids)
  }

  /// The clock time of the next event, nil when the replay is over.
  var nextTime: Double? {
    guard !finished else { return nil }
    if index < recording.events.count { return shifted(recording.events[index].time).seconds }
    return shifted(recording.events.last?.time ?? Timestamp(microseconds: 0)).seconds
  }

  /// Processes every event due by `time`, handing frames to `deliver`; at the end of the
  /// recording, cancels touches still down and starts again when looping.
  func feed(until time: Double, _ deliver: (TouchFrame) -> Void) {
    while index < recording.events.count, shifted(recording.events[index].time).seconds <= time {
      var event = recording.events[index]
      event.time = shifted(event.time)
      index += 1
      if let frame = assembler.process(event) { deliver(frame) }
    }
    guard index >= recording.events.count else { return }
    let end = shifted(recording.events.last?.time ?? Timestamp(microseconds: 0))
    if let frame = assembler.cancelAll(at: end) { deliver(frame) }
    if loop, let first = recording.events.first?.time, let last = recording.events.last?.time {
      offset += last.microseconds - first.microseconds + 1_000_000
      index = 0
      assembler = FrameAssembler(device: recording.description, ids: ids)
    } else {
      finished = true
    }
  }

  private func shifted(_ t: Timestamp) -> Timestamp { Timestamp(microseconds: t.microseconds + offset) }
}
