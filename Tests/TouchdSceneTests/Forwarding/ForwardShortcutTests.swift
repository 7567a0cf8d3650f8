import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The forwarding shortcut (``ForwardShortcut``): a frame it composes from the raw events must be,
/// event for event, what the pipeline then forwards for that frame (live equals replay), and it must
/// take the frames that only move forwarded touches.
/// One raw event: type, code, value.
typealias Raw = (UInt16, UInt16, Int32)
func raw(_ type: UInt16, _ code: UInt16, _ value: Int32) -> Raw { (type, code, value) }

@Suite("Forwarding shortcut")
struct ForwardShortcutTests {
  /// What a run found.
  struct Tally: CustomStringConvertible {
    var frames = 0
    var composed = 0
    var mismatches: [String] = []
    var description: String { "\(frames) frames, \(composed) composed, \(mismatches.count) mismatches" }
  }

  /// Plays `recording`'s raw events as the daemon reads a live device: each event goes to the
  /// shortcut first, then to the assembler; a frame is delivered at its time (the device
  /// `calibration` applied first, as the daemon does), then the shortcut is armed for the next one.
  /// A frame the shortcut composed must be the first batch the runtime forwards for it.
  static func play(_ recording: Recording, _ yaml: String, calibration: CalibrationMatrix? = nil) throws -> Tally {
    let scene = try Scene.parse(yaml)
    let clock = VirtualClock(now: recording.events.first?.time.seconds ?? 0)
    let runtime = SceneRuntime(scene: scene, clock: clock) { _ in }
    var batches: [[InputEvent]] = []
    guard
      runtime.addForwarding(of: recording.description, source: 0, inWindow: 0, output: { batches.append($0) }) != nil,
      let shortcut = ForwardShortcut(physical: recording.description)
    else { throw ShortcutTestError.notForwarded }
    let assembler = FrameAssembler(device: recording.description, ids: TouchIDAllocator())
    var tally = Tally()
    var composed: [InputEvent]?
    var last = Timestamp(microseconds: 0)
    for var event in recording.events {
      // As replay does: an event stamped before its predecessor is taken at the predecessor's time.
      if event.time < last { event.time = last }
      last = event.time
      if shortcut.feed(event) { composed = shortcut.events }
      guard var frame = assembler.process(event) else { continue }
      if let calibration {
        for i in frame.contacts.indices {
          (frame.contacts[i].x, frame.contacts[i].y) = calibration.apply(x: frame.contacts[i].x, y: frame.contacts[i].y)
        }
      }
      tally.frames += 1
      batches = []
      clock.advance(to: frame.time.seconds)
      runtime.handle(frame, inWindow: 0, source: 0)
      if let expected = composed {
        tally.composed += 1
        if batches.first != expected {
          tally.mismatches.append(
            "\(frame.time): composed \(forwardLines(expected)), forwarded \(batches.map(forwardLines))")
        }
        composed = nil
      }
      runtime.armShortcut(shortcut, source: 0, window: 0, assembler: assembler, calibration: calibration)
    }
    return tally
  }

  enum ShortcutTestError: Error { case notForwarded }

  /// Every touch forwarded and kept: pans recognize without claiming, so every motion frame of a
  /// forwarded touch may take the shortcut.
  static let keepAll = forwardScene([
    "{id: pan, type: pan, action: p, cancelsTouchesInView: false}",
    "{id: pinch, type: pinch, action: z, cancelsTouchesInView: false}",
  ])
  /// Recognizers that claim (a pan's recognition cancels its touches on the virtual device), hold
  /// (the screen-edge pan delays touches began) and time out (a long press, a double tap).
  static let claiming = forwardScene([
    "{id: pan, type: pan, action: p, minimumNumberOfTouches: 2}",
    "{id: edge, type: screenEdgePan, action: e, edges: left}",
    "{id: hold, type: longPress, action: h, minimumPressDuration: 0.3, allowableMovement: 40}",
    "{id: double, type: tap, action: d, numberOfTapsRequired: 2}",
  ])
  /// A rotated, calibrated window: the shortcut maps through the same matrix and rotation.
  static let rotated = rotatedScene(90)
  /// A window at `degrees` of rotation with a calibration matrix of its own (the scene's
  /// `calibration:`); the C composer has a branch per rotation.
  static func rotatedScene(_ degrees: Int) -> String {
    forwardScene(
      ["{id: pan, type: pan, action: p, cancelsTouchesInView: false}"],
      extra: "    rotation: \(degrees)\n    calibration: [1.02, 0.01, -0.01, -0.02, 0.98, 0.015]")
  }
  /// The device's own matrix (udev's `LIBINPUT_CALIBRATION_MATRIX`), applied before the window's.
  static let deviceCalibration = CalibrationMatrix(a: 0.97, b: 0.02, c: 0.01, d: 0.015, e: 1.01, f: -0.012)

  /// The protocol B recordings in `directory`'s evemu files.
  static func protocolB(in directory: String) throws -> [Recording] {
    var recordings: [Recording] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() where name.hasSuffix(".evemu") {
      for recording in try RecordingReader.loadAll(path: directory + "/" + name) {
        if case .slots = recording.description.touchProtocol { recordings.append(recording) }
      }
    }
    return recordings
  }

  /// Ten fingers down on TouchdTestKit's protocol B panel, moving for a second at 120 Hz, lifted.
  static func synthetic() -> Recording {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    let fingers = script.down(FingerScript.row(10, around: .init(x: 500, y: 300), spacing: 60))
    script.animate(fingers, duration: 1) { i, p in
      .init(x: 500 + (Double(i) - 4.5) * 60 + 150 * sin(p * 6), y: 300 + 200 * p)
    }
    script.up(fingers)
    return script.recording
  }

  @Test("at every rotation, with the window's and the device's calibration, the C composer's frames are the pipeline's")
  func everyRotationAndCalibration() throws {
    // The real protocol B recordings the repository carries (Atmel maXTouch, EDT FT5x06): this
    // test never depends on ../shared.
    let recordings = try Self.protocolB(in: TestPaths.carriedRecordings)
    #expect(recordings.count == 6, "the carried protocol B recordings: \(recordings.map(\.source))")
    for degrees in [0, 90, 180, 270] {
      for calibration in [nil, Self.deviceCalibration] {
        var total = Tally()
        for recording in recordings {
          let tally = try Self.play(recording, Self.rotatedScene(degrees), calibration: calibration)
          #expect(
            tally.mismatches.isEmpty,
            "\(recording.source) at \(degrees)°, device calibration \(calibration != nil): \(tally.mismatches.prefix(3))"
          )
          total.frames += tally.frames
          total.composed += tally.composed
        }
        // Most frames of these recordings move fingers already down: the composer must take them,
        // or the comparison above would compare nothing.
        #expect(total.composed * 2 > total.frames, "\(degrees)°, device calibration \(calibration != nil): \(total)")
      }
    }
  }

  @Test("a composed frame is the pipeline's own forwarded frame, for every shared protocol B recording")
  func sharedRecordingsMatch() throws {
    let recordings = try Self.protocolB(in: try TestPaths.sharedRecordings())
    #expect(recordings.count == 19, "the shared protocol B recordings")
    var total = Tally()
    for recording in recordings {
      for (name, yaml) in [("keepAll", Self.keepAll), ("claiming", Self.claiming), ("rotated", Self.rotated)] {
        let tally = try Self.play(recording, yaml)
        #expect(tally.mismatches.isEmpty, "\(recording.source) \(name): \(tally.mismatches.prefix(3))")
        total.frames += tally.frames
        total.composed += tally.composed
        total.mismatches += tally.mismatches
      }
      // With a device calibration (udev's matrix) on top of the window's.
      let tally = try Self.play(recording, Self.rotated, calibration: Self.deviceCalibration)
      #expect(tally.mismatches.isEmpty, "\(recording.source) calibrated: \(tally.mismatches.prefix(3))")
    }
    print("forwarding shortcut over \(recordings.count) recordings: \(total)")
    // Most frames of these recordings are motion of fingers already down.
    #expect(total.composed * 2 > total.frames, "\(total)")
  }

  @Test("ten fingers: every motion frame after the touch-downs is composed, and matches")
  func tenFingers() throws {
    let tally = try Self.play(Self.synthetic(), Self.keepAll)
    #expect(tally.mismatches.isEmpty, "\(tally.mismatches.prefix(3))")
    // The first frame puts the fingers down and the last lifts them; every frame between moves.
    #expect(tally.composed == tally.frames - 2, "\(tally)")
  }

  // MARK: - Which frames it takes

  /// A runtime of `yaml` forwarding SyntheticTouchscreen (10 slots, 0...4095 on a 1000 x 800
  /// window), its assembler and shortcut; `frame` feeds one frame of raw events at `time` as the
  /// daemon does (shortcut, assembler, delivery, arming) and says whether the shortcut composed it.
  final class Rig {
    let clock = VirtualClock(now: 0)
    let runtime: SceneRuntime
    let assembler = FrameAssembler(device: SyntheticTouchscreen.description, ids: TouchIDAllocator())
    let shortcut = ForwardShortcut(physical: SyntheticTouchscreen.description)!
    var batches: [[InputEvent]] = []
    /// Whether to arm after each frame (the daemon always does).
    var arming = true

    init(_ yaml: String) throws {
      runtime = SceneRuntime(scene: try Scene.parse(yaml), clock: clock) { _ in }
      runtime.addForwarding(of: SyntheticTouchscreen.description, source: 0, inWindow: 0) { [unowned self] in
        batches.append($0)
      }
    }

    /// Feeds `events` (type, code, value), then `SYN_REPORT`, at `time`; true when the shortcut
    /// composed the frame, which must then be the first batch forwarded for it.
    @discardableResult
    func frame(_ time: Double, _ events: [Raw]) -> Bool {
      let stamp = Timestamp(microseconds: Int64((time * 1_000_000).rounded()))
      var composed: [InputEvent]?
      batches = []
      for (type, code, value) in events + [raw(EV.syn, SYN.report, 0)] {
        let event = InputEvent(time: stamp, type: type, code: code, value: value)
        if shortcut.feed(event) { composed = shortcut.events }
        if let frame = assembler.process(event) {
          clock.advance(to: frame.time.seconds)
          runtime.handle(frame, inWindow: 0, source: 0)
          if arming { runtime.armShortcut(shortcut, source: 0, window: 0, assembler: assembler, calibration: nil) }
        }
      }
      if let composed { #expect(batches.first == composed) }
      return composed != nil
    }
  }

  static func down(_ slot: Int32, id: Int32, x: Int32, y: Int32) -> [Raw] {
    [
      (EV.abs, ABS.mtSlot, slot), (EV.abs, ABS.mtTrackingID, id), (EV.abs, ABS.mtPositionX, x),
      (EV.abs, ABS.mtPositionY, y),
    ]
  }
  static func move(_ slot: Int32, x: Int32, y: Int32) -> [Raw] {
    [(EV.abs, ABS.mtSlot, slot), (EV.abs, ABS.mtPositionX, x), (EV.abs, ABS.mtPositionY, y)]
  }

  @Test(
    "at the axis extremes the C composer and the Swift encoder agree at every rotation: a unit goes out at its rotated unit",
    arguments: ScreenRotation.allCases)
  func extremes(rotation: ScreenRotation) throws {
    let rig = try Rig(
      forwardScene(
        ["{id: pan, type: pan, action: p, cancelsTouchesInView: false}"], extra: "    rotation: \(rotation.rawValue)"))
    let m = SyntheticTouchscreen.axisMaximum
    // Each unit is its cell's centre, so a rotation (1 - x) takes it to the centre of the mirrored
    // cell: the virtual touchscreen (the same 0...4095 axes) gets the mirrored unit exactly.
    func rotated(_ x: Int32, _ y: Int32) -> [Int32] {
      switch rotation {
      case .none: [x, y]
      case .clockwise90: [m - y, x]
      case .clockwise180: [m - x, m - y]
      case .clockwise270: [y, m - x]
      }
    }
    // The virtual device's axes start at 0, and an unchanged value is not written again.
    var virtual: [Int32] = [0, 0]
    func follow() {
      for event in rig.batches.joined() where event.type == EV.abs {
        if event.code == ABS.mtPositionX { virtual[0] = event.value }
        if event.code == ABS.mtPositionY { virtual[1] = event.value }
      }
    }
    #expect(!rig.frame(1, Self.down(0, id: 1, x: 0, y: 0) + [raw(EV.key, BTN.touch, 1)]))
    follow()
    #expect(virtual == rotated(0, 0))
    // The corners and edge midpoints, each a move the composer takes and must write as the
    // pipeline does (Rig.frame compares them).
    let points: [(Int32, Int32)] = [(2048, 0), (m, 0), (m, 2048), (m, m), (2048, m), (0, m), (0, 2048), (0, 0)]
    for (i, (x, y)) in points.enumerated() {
      #expect(rig.frame(1.01 + Double(i) * 0.01, Self.move(0, x: x, y: y)), "\(rotation) (\(x), \(y)) not composed")
      follow()
      #expect(virtual == rotated(x, y), "\(rotation): (\(x), \(y)) went out at \(virtual)")
    }
    #expect(rig.shortcut.composed == points.count)
  }

  @Test("a touch-down and a lift go through the pipeline; the moves between are composed")
  func beginsAndEndsTakeThePipeline() throws {
    let rig = try Rig(Self.keepAll)
    #expect(!rig.frame(1.00, Self.down(0, id: 5, x: 1000, y: 1000) + [raw(EV.key, BTN.touch, 1)]))
    #expect(rig.frame(1.01, Self.move(0, x: 1100, y: 1000)))
    #expect(rig.frame(1.02, Self.move(0, x: 1200, y: 1050)))
    // A second finger down while the first moves: the pipeline's.
    #expect(!rig.frame(1.03, Self.move(0, x: 1300, y: 1050) + Self.down(1, id: 6, x: 3000, y: 2000)))
    #expect(rig.frame(1.04, Self.move(0, x: 1400, y: 1050) + Self.move(1, x: 3100, y: 2000)))
    #expect(!rig.frame(1.05, [raw(EV.abs, ABS.mtSlot, 1), raw(EV.abs, ABS.mtTrackingID, -1)]))
    #expect(rig.frame(1.06, Self.move(0, x: 1500, y: 1050)))
    #expect(
      !rig.frame(1.07, [raw(EV.abs, ABS.mtSlot, 0), raw(EV.abs, ABS.mtTrackingID, -1), raw(EV.key, BTN.touch, 0)]))
    #expect(rig.shortcut.composed == 4)
  }

  @Test("with VoiceOver on in the window nothing is composed: a finger passing through, forwarded, takes the pipeline")
  func voiceOverTakesThePipeline() throws {
    let rig = try Rig(Self.keepAll.replacingOccurrences(of: "forward: {}", with: "forward: {}\n    voiceOver: true"))
    let lift = [(EV.abs, ABS.mtSlot, Int32(0)), (EV.abs, ABS.mtTrackingID, Int32(-1)), (EV.key, BTN.touch, Int32(0))]
    // A tap, then a second finger down within the double tap's interval, held past 0.5 s: it
    // passes through (at 1.7 s) and is forwarded from there.
    rig.frame(1.00, Self.down(0, id: 5, x: 2000, y: 2000) + [raw(EV.key, BTN.touch, 1)])
    rig.frame(1.05, lift)
    rig.frame(1.20, Self.down(0, id: 6, x: 2000, y: 2000) + [raw(EV.key, BTN.touch, 1)])
    rig.frame(1.80, Self.move(0, x: 2010, y: 2000))
    #expect(rig.batches.count == 2, "the passing-through finger's touch-down and move are forwarded: \(rig.batches)")
    // Its moves are forwarded by the pipeline, never by the shortcut.
    #expect(!rig.frame(1.81, Self.move(0, x: 2100, y: 2000)))
    #expect(!rig.frame(1.82, Self.move(0, x: 2200, y: 2000)))
    #expect(rig.batches.count == 1 && rig.shortcut.composed == 0, "\(rig.batches)")
  }

  @Test("what the assembler ignores does not stop a frame: MSC_TIMESTAMP, ABS_X/ABS_Y, a slot out of range; a key does")
  func ignoredEvents() throws {
    let rig = try Rig(Self.keepAll)
    rig.frame(1.00, Self.down(0, id: 5, x: 1000, y: 1000) + [raw(EV.key, BTN.touch, 1)])
    #expect(rig.frame(1.01, Self.move(0, x: 1100, y: 1000) + [raw(EV.abs, ABS.x, 1100), raw(EV.msc, 0x05, 12345)]))
    // Slot 42 does not exist: the kernel and the assembler keep slot 0.
    #expect(rig.frame(1.02, [raw(EV.abs, ABS.mtSlot, 42), raw(EV.abs, ABS.mtPositionX, 1200)]))
    #expect(!rig.frame(1.03, Self.move(0, x: 1300, y: 1000) + [raw(EV.key, BTN.left, 1)]))
    // A frame that changes nothing the virtual device shows writes nothing, there or here.
    #expect(!rig.frame(1.04, Self.move(0, x: 1300, y: 1000)))
  }

  @Test("a touch a recognizer holds is not armed: a frame moving it goes through the pipeline")
  func heldTouchesAreNotArmed() throws {
    // The screen-edge pan delays touches began (UIKit's default): a touch in its edge zone is held,
    // not on the virtual device, and never will be once the pan recognizes.
    let rig = try Rig(forwardScene(["{id: edge, type: screenEdgePan, action: e, edges: left}"]))
    rig.frame(1.00, Self.down(0, id: 5, x: 20, y: 2000) + [raw(EV.key, BTN.touch, 1)])
    #expect(!rig.shortcut.isArmed, "no forwarded touch")
    #expect(!rig.frame(1.01, Self.move(0, x: 30, y: 2000)))
    #expect(!rig.frame(1.05, Self.move(0, x: 900, y: 2000)), "the edge pan recognizes")
    #expect(!rig.frame(1.10, Self.move(0, x: 1200, y: 2000)))
    #expect(rig.batches.isEmpty)
    rig.frame(1.20, [raw(EV.abs, ABS.mtSlot, 0), raw(EV.abs, ABS.mtTrackingID, -1), raw(EV.key, BTN.touch, 0)])
    // Away from the edge a touch is forwarded at once, and its moves are composed.
    rig.frame(2.00, Self.down(1, id: 6, x: 2000, y: 2000) + [raw(EV.key, BTN.touch, 1)])
    #expect(rig.shortcut.isArmed)
    #expect(rig.frame(2.01, Self.move(1, x: 2100, y: 2000)))
  }

  @Test("a frame at or after a timer's deadline goes through the pipeline, where the timer fires first")
  func timersComeFirst() throws {
    // The long press fires 0.5 s after the touch-down and claims the touch: cancelled on the
    // virtual device. A move stamped after the deadline must not reach it before the cancel.
    let rig = try Rig(forwardScene(["{id: hold, type: longPress, action: h, allowableMovement: 400}"]))
    rig.frame(1.00, Self.down(0, id: 5, x: 2000, y: 2000) + [raw(EV.key, BTN.touch, 1)])
    #expect(rig.frame(1.40, Self.move(0, x: 2010, y: 2000)))
    #expect(!rig.frame(1.50, Self.move(0, x: 2020, y: 2000)), "stamped at the deadline")
    #expect(forwardLines(rig.batches.flatMap { $0 }) == ["1.500000 palm", "1.500001 up touch=0"])
    // Claimed: no longer forwarded, never armed again.
    #expect(!rig.frame(1.60, Self.move(0, x: 2030, y: 2000)))
  }

  @Test("arming lasts one frame: without the pipeline's arming after a frame, the next is not composed")
  func armingLastsOneFrame() throws {
    let rig = try Rig(Self.keepAll)
    rig.frame(1.00, Self.down(0, id: 5, x: 1000, y: 1000) + [raw(EV.key, BTN.touch, 1)])
    #expect(rig.shortcut.isArmed)
    rig.arming = false
    #expect(rig.frame(1.01, Self.move(0, x: 1100, y: 1000)))
    #expect(!rig.shortcut.isArmed)
    #expect(!rig.frame(1.02, Self.move(0, x: 1200, y: 1000)))
    rig.shortcut.disarm()
    rig.arming = true
    rig.frame(1.03, Self.move(0, x: 1300, y: 1000))
    #expect(rig.frame(1.04, Self.move(0, x: 1400, y: 1000)))
  }
}
