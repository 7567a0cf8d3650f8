/// What one `SYN_REPORT` of a device completed: its touches, or its keys. A device read for both
/// (a touchscreen a window also names in `keys.devices`) completes a touch frame and a key frame
/// at the same `SYN_REPORT`; the touch frame comes first, live and in replay.
public enum DeviceFrame: Hashable, Sendable {
  case touches(TouchFrame)
  case keys(KeyFrame)

  /// The frame's kernel timestamp.
  public var time: Timestamp {
    switch self {
    case .touches(let frame): frame.time
    case .keys(let frame): frame.time
    }
  }
}

/// Replays several recordings at once, as the live daemon reads several devices: the events of all
/// recordings merged by time (equal times in the order of the recordings, each recording's own
/// events in file order), each recording through its own ``ContactReader`` (a touchscreen's or a pen's) and/or
/// ``KeyAssembler``. Touch identities come from one allocator, as live.
///
/// Recordings are merged on their own timestamps: the devices of one `libinput record` file share a
/// clock; evemu files each count from their own first event.
///
/// Time never runs backwards: an event stamped earlier than the one before it in its recording is
/// replayed at that one's time, as playing the recording into a device would deliver it (libinput
/// replay and evemu-play send an event that is already due at once, and the kernel stamps it on
/// CLOCK_MONOTONIC, which never goes back: clock_gettime(2)); a jump forward, by hours or more, is
/// waited out, as live.
///
/// # Thread safety
/// Not thread-safe: one owner (the replay's thread, the daemon's pipeline queue) makes every call.
public final class MultiReplay {
  /// What is read from one recording.
  public struct Reading: Hashable, Sendable {
    /// Touch frames (the recording is of a touchscreen).
    public var touches: Bool
    /// Key frames (a window takes the device's keys, or a replay without a scene prints them).
    public var keys: Bool

    public init(touches: Bool, keys: Bool) {
      self.touches = touches
      self.keys = keys
    }

    /// Without a scene: touches from a touchscreen (touchd's rule, as live), keys from any device
    /// with a key that makes presses (``KeyAssembler/hasKeys(_:)``).
    public static func unscened(_ recording: Recording) -> Reading {
      Reading(
        touches: recording.notTouchscreenMessage == nil, keys: KeyAssembler.hasKeys(recording.description))
    }
  }

  public let recordings: [Recording]
  /// What is read from each recording.
  public private(set) var readings: [Reading]
  private let ids: TouchIDAllocator
  private var touchAssemblers: [ContactReader?] = []
  private var keyAssemblers: [KeyAssembler?] = []
  /// The index of each recording's next event.
  private var cursors: [Int]
  /// Added to every timestamp: looping replays shift each pass.
  private var offset: Int64 = 0
  /// Each recording's time so far (the latest of its events fed), `Int64.min` before the first.
  private var clocks: [Int64]
  /// Each recording's latest event time, nil without events.
  private let latestTimes: [Int64?]

  /// Replays `recordings`, reading from each what `readings` (one per recording) says.
  public init(_ recordings: [Recording], readings: [Reading], ids: TouchIDAllocator = TouchIDAllocator()) {
    precondition(recordings.count == readings.count, "one Reading per recording")
    self.recordings = recordings
    self.readings = readings
    self.ids = ids
    cursors = Array(repeating: 0, count: recordings.count)
    clocks = Array(repeating: .min, count: recordings.count)
    latestTimes = recordings.map { recording in
      var latest: Int64?
      for event in recording.events where latest.map({ event.time.microseconds > $0 }) ?? true {
        latest = event.time.microseconds
      }
      return latest
    }
    makeAssemblers()
  }

  private func makeAssemblers() {
    touchAssemblers = zip(recordings, readings).map { recording, reading in
      reading.touches ? ContactReader(device: recording.description, ids: ids) : nil
    }
    keyAssemblers = zip(recordings, readings).map { recording, reading in
      reading.keys ? KeyAssembler(device: recording.description) : nil
    }
  }

  /// Reads each recording as `readings` says from now on (a scene reload): a recording whose
  /// reading changed gets fresh assemblers, as a live device reopened for a new scene does; the
  /// others keep theirs.
  public func setReadings(_ newReadings: [Reading]) {
    precondition(newReadings.count == recordings.count, "one Reading per recording")
    for index in recordings.indices where newReadings[index] != readings[index] {
      let description = recordings[index].description
      touchAssemblers[index] = newReadings[index].touches ? ContactReader(device: description, ids: ids) : nil
      keyAssemblers[index] = newReadings[index].keys ? KeyAssembler(device: description) : nil
    }
    readings = newReadings
  }

  /// The first event's time over all recordings (shifted for a looping replay); nil without events.
  public var startTime: Timestamp? {
    recordings.compactMap(\.events.first?.time).min().map(shifted)
  }

  /// The last event's time over all recordings (shifted; the latest, should a recording's time run
  /// backwards); nil without events.
  public var endTime: Timestamp? {
    latestTimes.compactMap { $0 }.max().map { shifted(Timestamp(microseconds: $0)) }
  }

  /// The time of the next event to feed (shifted), nil once every event was fed.
  public var nextTime: Timestamp? { nextRecording().map { shifted(time(ofNextIn: $0)) } }

  /// The time recording `index`'s next event is replayed at: its own, or the recording's time so
  /// far when it is stamped earlier.
  private func time(ofNextIn index: Int) -> Timestamp {
    let raw = recordings[index].events[cursors[index]].time.microseconds
    return Timestamp(microseconds: Swift.max(raw, clocks[index]))
  }

  /// Feeds every event due by `time` (every event left when nil), in merged order, handing each
  /// completed frame with its recording's index to `deliver` (a touch frame before the key frame of
  /// the same event).
  public func feed<E: Error>(until time: Timestamp? = nil, _ deliver: (Int, DeviceFrame) throws(E) -> Void) throws(E) {
    while let index = nextRecording() {
      var event = recordings[index].events[cursors[index]]
      let replayed = self.time(ofNextIn: index)
      event.time = shifted(replayed)
      if let time, event.time > time { return }
      clocks[index] = replayed.microseconds
      cursors[index] += 1
      if let assembler = touchAssemblers[index], let frame = assembler.process(event) {
        try deliver(index, .touches(frame))
      }
      if let assembler = keyAssemblers[index], let frame = assembler.process(event) {
        try deliver(index, .keys(frame))
      }
    }
  }

  /// Ends what is still down at `time`: for each recording in order, its touches (cancelled), then
  /// its keys (cancelled).
  public func cancelAll<E: Error>(at time: Timestamp, _ deliver: (Int, DeviceFrame) throws(E) -> Void) throws(E) {
    for index in recordings.indices {
      if let frame = touchAssemblers[index]?.cancelAll(at: time) { try deliver(index, .touches(frame)) }
      if let frame = keyAssemblers[index]?.cancelAll(at: time) { try deliver(index, .keys(frame)) }
    }
  }

  /// Ends the keys still down at `time` (cancelled), recording by recording, leaving the touches
  /// as they are: what a scene reload does to live key devices, which are reopened.
  public func cancelKeys<E: Error>(at time: Timestamp, _ deliver: (Int, DeviceFrame) throws(E) -> Void) throws(E) {
    for index in recordings.indices {
      if let frame = keyAssemblers[index]?.cancelAll(at: time) { try deliver(index, .keys(frame)) }
    }
  }

  /// Starts the replay over with fresh assemblers (new touch identities), every time `microseconds`
  /// later than in the previous pass.
  public func restart(shiftingBy microseconds: Int64) {
    offset += microseconds
    cursors = Array(repeating: 0, count: recordings.count)
    clocks = Array(repeating: .min, count: recordings.count)
    makeAssemblers()
  }

  /// The recording whose next event comes first (the earliest in the list on a tie); nil when done.
  private func nextRecording() -> Int? {
    var best: Int?
    var bestTime = Timestamp(microseconds: .max)
    for index in recordings.indices where cursors[index] < recordings[index].events.count {
      let time = time(ofNextIn: index)
      if best == nil || time < bestTime {
        best = index
        bestTime = time
      }
    }
    return best
  }

  private func shifted(_ time: Timestamp) -> Timestamp { Timestamp(microseconds: time.microseconds + offset) }
}
