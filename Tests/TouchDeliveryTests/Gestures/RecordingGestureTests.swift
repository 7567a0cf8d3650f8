import Testing
import TouchdInput
import TouchdTestKit

@testable import TouchDelivery

/// Real recordings from `../shared/recordings` (next to the package), replayed through the frame
/// assembler and `Application.handle(_:in:)`. They fail when the recordings are absent.
@Suite struct RecordingGestureTests {
  static func load(_ name: String, description: String? = nil) throws -> Recording {
    let directory = try TestPaths.sharedRecordings()
    return try RecordingReader.load(
      path: directory + "/" + name, descriptionPath: description.map { directory + "/" + $0 })
  }

  /// Replays `recording` into a window of `size` points, advancing the clock to each frame.
  static func replay(_ recording: Recording, into f: Fingers) {
    let mapping = ScreenMapping(width: f.window.bounds.width, height: f.window.bounds.height)
    for frame in Replay.frames(of: recording) {
      let contacts = frame.contacts.map { c -> Contact in
        let p = mapping.map(c)
        return Contact(id: c.id, phase: c.phase, x: p.x, y: p.y)
      }
      f.advance(to: frame.time.seconds)
      f.app.handle(TouchFrame(time: frame.time, contacts: contacts), in: f.window)
    }
    f.advance(to: (recording.events.last?.time.seconds ?? 0) + 2)
  }

  @Test
  func theWeTabsElevenTapsAreElevenTaps() throws {
    let recording = try Self.load("egalax-wetab-1finger-11taps.evemu")
    let f = Fingers(window: Size(width: 1280, height: 800))
    f.add(TapGestureRecognizer(), "tap")
    Self.replay(recording, into: f)
    #expect(f.log.filter { $0 == "tap:ended" }.count == 11, "\(f.log)")
  }

  @Test
  func theWacomDoubleTapIsOneDoubleTap() throws {
    let recording = try Self.load(
      "wacom-isdv4-e6-finger-1finger-double-tap.events", description: "wacom-isdv4-e6-finger.desc")
    let f = Fingers(window: Size(width: 1366, height: 768))
    let single = f.add(TapGestureRecognizer(), "single")
    let double = f.add(TapGestureRecognizer(numberOfTapsRequired: 2), "double")
    single.require(toFail: double)
    Self.replay(recording, into: f)
    #expect(f.log.filter { !$0.hasSuffix("failed") } == ["double:ended"], "\(f.log)")
  }
}
