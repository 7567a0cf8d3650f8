/// Replays a recording through its ``ContactReader``, as a live device would feed it.
public enum Replay {
  /// Every frame of `recording`, ending with a frame that cancels the touches still down (if any),
  /// timed at the last event. Time never runs backwards: an event stamped earlier than the one
  /// before it is taken at that one's time (``MultiReplay`` says why).
  public static func frames(of recording: Recording, ids: TouchIDAllocator = TouchIDAllocator()) -> [TouchFrame] {
    var frames: [TouchFrame] = []
    forEachFrame(of: recording, ids: ids) { frames.append($0) }
    return frames
  }

  /// Streams the frames of `recording` to `body` without collecting them.
  public static func forEachFrame(
    of recording: Recording, ids: TouchIDAllocator = TouchIDAllocator(), _ body: (TouchFrame) throws -> Void
  ) rethrows {
    let assembler = ContactReader(device: recording.description, ids: ids)
    var now = Timestamp(microseconds: .min)
    for var event in recording.events {
      now = Swift.max(now, event.time)
      event.time = now
      if let frame = assembler.process(event) { try body(frame) }
    }
    if recording.events.isEmpty { now = Timestamp(microseconds: 0) }
    if let frame = assembler.cancelAll(at: now) { try body(frame) }
  }
}
