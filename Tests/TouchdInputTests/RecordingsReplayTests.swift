import Foundation
import Testing
import TouchdTestKit

@testable import TouchdInput

/// Distinct touches per touchscreen recording. From SOURCES.md's `ids` column where it has one; the
/// rest were read from the files: `wetab` (11 taps, "11 single-finger taps" in SOURCES.md),
/// `ts-verify` (one contact held 18.5 s), and the two protocol-A N-Trig files, for which SOURCES.md
/// says n/a: `ntrig-multitouch-…` goes 1 → 2 → 1 → 0 contacts per frame without ever reaching 0 in
/// between (2 touches), `ntrig-dell-…` goes 3,3,3,4,4,4,1,0 (3 touches, a 4th joins: 4).
let expectedTouches: [String: Int] = [
  "asus-0486-0185-multitouch-drag-2finger.evemu": 4,
  "atmel-03eb-201c-cdt10-2finger-taps-pinch-in-out.evemu": 27,
  "atmel-maxtouch-i2c-800x480-1finger-18s-continuous-ts-verify.evemu": 1,
  "atmel-maxtouch-i2c-800x480-1finger-drag-up-down.evemu": 1,
  "atmel-maxtouch-i2c-800x480-1finger-fast-taps.evemu": 9,
  "atmel-maxtouch-i2c-800x480-2finger-touch-release.evemu": 2,
  "atmel-maxtouch-i2c-800x480-4finger-drag-down.evemu": 4,
  "dell-canvas27-advanced-silicon-cooltouch-5finger.evemu": 12,
  "edt-ft5x06-EP0430M09-2finger-scroll-down.evemu": 2,
  "edt-ft5x06-EP0430M09-4finger-drag-down.evemu": 4,
  "egalax-0eef-790a-exc7903-drag-tap-pinch-10finger.evemu": 15,
  "egalax-wetab-1finger-11taps.evemu": 11,
  "elan-04f3-010c-touchscreen-drag-pinch-10finger.evemu": 13,
  "elan-04f3-200a-i2c-hid-drag-pinch-10finger.evemu": 13,
  "flatfrog-25b5-0002-12finger-swipe.evemu": 17,
  "focaltech-10c4-81b9-ftxxxx-drag-2finger-5finger.evemu": 8,
  "ilitek-222a-001c-drag-2finger-10finger.evemu": 15,
  "lge-nexus4-touch_dev-1to4finger-noABSX.events": 12,
  "ntrig-dell-latitude-xt2-protocolA-4finger.evemu": 4,
  "ntrig-multitouch-protocolA-2finger-touch-release.events": 2,
  "sharp-04dd-9681-tpc-ic-fast-multifinger-taps-10finger.evemu": 80,
  "wacom-dth2242-finger-taps-to-10finger.evemu": 66,
  "wacom-isdv4-e6-finger-1finger-double-tap.events": 2,
  "wacom-isdv4-e6-finger-2finger-rotate-circle.events": 2,
  "wacom-isdv4-e6-finger-2finger-tap.events": 2,
]

/// Replays one recording and checks ids and invariants; returns the frames.
@discardableResult
func replayAndCheck(_ directory: String, _ name: String) throws -> [TouchFrame] {
  let recording = try RecordingReader.load(
    path: directory + "/" + name, descriptionPath: companionDescription(directory, name))
  #expect(recording.description.touchscreenKind().isTouchscreen, "\(name)")
  let frames = Replay.frames(of: recording)
  let ids = checkInvariants(frames, name)
  #expect(ids.count == expectedTouches[name], "\(name): \(ids.count) touches")
  return frames
}

@Suite struct RecordingsReplayTests {
  @Test func fixtureRecordings() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory)
      .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".events") }
    #expect(names.count == 10)
    for name in names { try replayAndCheck(fixturesDirectory, name) }
  }

  @Test func fastTapsFramesInDetail() throws {
    let frames = try replayAndCheck(fixturesDirectory, "atmel-maxtouch-i2c-800x480-1finger-fast-taps.evemu")
    // 9 taps: a began and an ended frame each, nothing in between moves.
    #expect(frames.count == 18)
    #expect(
      frames.first?.contacts == [
        Contact(id: TouchID(rawValue: 1), phase: .began, x: cell(340, of: 799), y: cell(242, of: 479))
      ])
    #expect(frames.filter { $0.contacts.first?.phase == .ended }.count == 9)
    #expect(
      FrameJSON.line(frames[0]) == #"{"time":0.000001,"touches":[{"id":1,"phase":"began","x":0.4256,"y":0.5052}]}"#)
  }

  @Test func allSharedTouchscreenRecordings() throws {
    let shared = try TestPaths.sharedRecordings()
    let names = try FileManager.default.contentsOfDirectory(atPath: shared)
      .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".events") }
    #expect(Set(names) == Set(expectedTouches.keys))
    for name in names.sorted() { try replayAndCheck(shared, name) }
  }

  @Test func sameFrameSlotReuseInTheSharpRecording() throws {
    let shared = try TestPaths.sharedRecordings()
    let frames = try replayAndCheck(shared, "sharp-04dd-9681-tpc-ic-fast-multifinger-taps-10finger.evemu")
    let both = frames.filter { frame in
      frame.contacts.contains { $0.phase == .ended } && frame.contacts.contains { $0.phase == .began }
    }
    #expect(both.count >= 2)
  }
}
