import TouchdInput

/// Hostile-device recordings (issue #20) shared by the pipeline tests and the process tests.
public enum FloodRecording {
  /// How many events ``recording`` holds.
  public static let eventCount = 1_000_000

  /// Frames the flood has: ten fingers, 31 events a frame (the last frame is cut short).
  public static let frameCount = (eventCount + 30) / 31

  /// Touches the flood begins: ten fingers land every 100 frames (323 rounds).
  public static let touchCount = (frameCount + 99) / 100 * 10

  /// 10^6 events on ``SyntheticTouchscreen``'s 10 slots, stamped within one second (10 s to 11 s):
  /// ten fingers move every frame (31 events), lift and land again every 100 frames; the last
  /// frame is cut short with its fingers down.
  public static let recording: Recording = {
    let total = eventCount
    var events: [InputEvent] = []
    events.reserveCapacity(total)
    let framesInASecond = total / 31
    var frame = 0
    var trackingID: Int32 = 1
    func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
      guard events.count < total else { return }
      // Frame i at 10 s + i/32258 s: the last event is before 11 s.
      let t = Timestamp(microseconds: 10_000_000 + Int64(frame) * 1_000_000 / Int64(framesInASecond + 1))
      events.append(InputEvent(time: t, type: type, code: code, value: value))
    }
    while events.count < total {
      let cycle = frame % 100
      for slot in 0..<10 {
        add(EV.abs, ABS.mtSlot, Int32(slot))
        if cycle == 0 {
          add(EV.abs, ABS.mtTrackingID, trackingID)
          trackingID += 1
        }
        if cycle == 99 {
          add(EV.abs, ABS.mtTrackingID, -1)
        } else {
          add(EV.abs, ABS.mtPositionX, Int32(200 + slot * 300 + cycle * 7))
          add(EV.abs, ABS.mtPositionY, Int32(1000 + cycle * 13))
        }
      }
      add(EV.syn, SYN.report, 0)
      frame += 1
    }
    return Recording(description: SyntheticTouchscreen.description, events: events, source: "flood.evemu")
  }()
}
