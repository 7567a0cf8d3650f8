import Foundation
import Testing
import TouchdTestKit

@testable import TouchdInput

/// Issue #41: pen displays read as libinput's tablet code reads them (PenAssembler), on real
/// recordings of pens (Tests/TouchdSceneTests/Fixtures/pens/SOURCES.md).
@Suite struct PenAssemblerTests {
  static let pens = TestPaths.penRecordings
  static func load(_ name: String) throws -> Recording {
    try RecordingReader.load(path: pens.appendingPathComponent(name).path)
  }
  static let dell = "dell-canvas27-wacom-isdv4-pen-hover-buttons-stroke.evemu"
  static let cintiq = "wacom-cintiq13hd-touch-pen.evemu"

  /// The recording's frames, each with the pen.
  func frames(_ recording: Recording) -> [TouchFrame] { Replay.frames(of: recording) }

  @Test func penDisplaysArePensAndDeskTabletsAreLeftAloneWithTheReason() throws {
    for name in [Self.dell, Self.cintiq] {
      let description = try Self.load(name).description
      #expect(description.isPen)
      #expect(description.touchscreenKind() == .pen, "\(name)")
      // udev says tablet (ID_INPUT_TABLET=1) for a pen display, not touchscreen.
      #expect(description.touchscreenKind(udev: [.tablet]) == .pen)
      #expect(description.udevInputClasses.classes.contains(.tablet))
    }
    let desk = try RecordingReader.load(
      path: Self.pens.appendingPathComponent("wacom-intuos4-6x9-stylus-tap.events").path,
      descriptionPath: Self.pens.appendingPathComponent("wacom-intuos4-6x9-pen.desc").path)
    #expect(desk.description.isPen && !desk.description.has(property: InputProp.direct))
    #expect(
      desk.description.touchscreenKind().reason
        == "a pen tablet without INPUT_PROP_DIRECT (a desk tablet, not on a display): touchd leaves it alone")
    #expect(desk.notTouchscreenMessage?.contains("desk tablet") == true)
  }

  /// The Cintiq's two taps: `ABS_PRESSURE` decides the tip (BTN_TOUCH is ignored, as libinput
  /// does), down from 5 % of the range, up at 1 % or below.
  @Test func theTipFollowsThePressureWithLibinputsThresholds() throws {
    let recording = try Self.load(Self.cintiq)
    let frames = frames(recording)
    let touching = frames.filter { !$0.contacts.isEmpty }
    let first = try #require(touching.first?.contacts.first)
    #expect(first.phase == .began && first.pen != nil)
    #expect(touching.first?.time == Timestamp(microseconds: 27_962))
    // The first tap lifts when the pressure reaches 0 at 0.054888; the second lands at 0.205957
    // (pressure 241 of 2047: 12 %) and lifts at 0.371962.
    let phases = touching.compactMap { f in f.contacts.first.map { ($0.phase, f.time.microseconds) } }
      .filter { $0.0 != .moved }
    #expect(phases.map(\.0) == [.began, .ended, .began, .ended])
    #expect(phases.map(\.1) == [27_962, 54_888, 205_957, 371_962])
    #expect(Set(touching.flatMap(\.contacts).map(\.id)).count == 2)
    // The frame's pressure, as libinput normalizes it: 0 at the 1 % threshold (unit 20 of 0...2047,
    // `axis_range_percentage` truncating), over the 2028 units from it to the maximum inclusive.
    let pressure = try #require(recording.description.absInfo[ABS.pressure])
    #expect(pressure.minimum == 0 && pressure.maximum == 2047)
    let raw = recording.events.last { $0.type == EV.abs && $0.code == ABS.pressure && $0.time <= touching[0].time }
    #expect(abs(try #require(first.force) - (Double(try #require(raw).value) - 20) / 2028) < 1e-9)
    // Hovering: the pen is near, at a distance, and its serial is the tool's.
    let hover = try #require(frames.first)
    #expect(hover.contacts.isEmpty && hover.pen?.inProximity == true)
    #expect(hover.pen?.serial == 897_625_000)
    #expect(hover.pen?.distance.map { $0 > 0 && $0 <= 1 } == true)
  }

  /// The Dell Canvas pen: three proximity ins and outs, two barrel buttons while hovering, and a
  /// stroke whose pressure dips to nothing once (the tip lifts and lands again, as libinput reads it).
  @Test func proximityButtonsAndTheStrokeOfTheDellCanvasPen() throws {
    let frames = frames(try Self.load(Self.dell))
    let outs = frames.filter { $0.pen?.inProximity == false }.map(\.time.microseconds)
    #expect(outs == [1_850_899, 2_939_019, 7_935_973])
    func buttons(at microseconds: Int64) -> PenButtons? {
      frames.last { $0.time.microseconds <= microseconds }?.pen?.buttons
    }
    #expect(buttons(at: 5_100_000) == .barrel)
    #expect(buttons(at: 5_400_000) == [])
    #expect(buttons(at: 6_200_000) == .barrel2)
    let contacts = frames.flatMap(\.contacts)
    let began = contacts.filter { $0.phase == .began }
    #expect(began.count == 2)
    #expect(contacts.filter { $0.phase == .ended }.count == 2)
    #expect(contacts.allSatisfy { $0.pen?.isEraser == false })
    // The tilt while signing: ABS_TILT_X 500 and ABS_TILT_Y -1300 at 5730 units per radian.
    let tilted = try #require(frames.last { $0.time.microseconds <= 6_700_000 && !$0.contacts.isEmpty })
    let expected = PenAngles(tiltX: 500 / 5730 * 180 / Double.pi, tiltY: -1300 / 5730 * 180 / Double.pi)
    #expect(tilted.pen?.properties.altitudeAngle == expected.altitude)
    #expect(tilted.pen?.properties.azimuthAngle == expected.azimuth)
    #expect(tilted.contacts.first?.pen == tilted.pen?.properties)
  }

  @Test func tiltsMakeUIKitsAltitudeAndAzimuthByThePointerEventsConversion() {
    func close(_ a: PenAngles, _ altitude: Double, _ azimuth: Double) -> Bool {
      abs(a.altitude - altitude) < 1e-12 && abs(a.azimuth - azimuth) < 1e-12
    }
    #expect(close(PenAngles(tiltX: 0, tiltY: 0), .pi / 2, 0))
    #expect(close(PenAngles(tiltX: 45, tiltY: 0), .pi / 4, 0))
    #expect(close(PenAngles(tiltX: -20, tiltY: 0), .pi / 2 - 20 * .pi / 180, .pi))
    #expect(close(PenAngles(tiltX: 0, tiltY: -30), .pi / 3, 3 * .pi / 2))
    #expect(close(PenAngles(tiltX: 0, tiltY: 30), .pi / 3, .pi / 2))
    let t = tan(30 * Double.pi / 180)
    #expect(close(PenAngles(tiltX: 30, tiltY: 30), atan(1 / (2 * t * t).squareRoot()), .pi / 4))
    #expect(close(PenAngles(tiltX: -30, tiltY: 30), atan(1 / (2 * t * t).squareRoot()), 3 * .pi / 4))
    #expect(close(PenAngles(tiltX: 90, tiltY: 10), 0, 0))
  }

  @Test func tiltAxesInDegreesFromTheResolutionOrWacomsRange() {
    // Units per radian (linux/input.h), on an axis centred on 0: the Cintiq 13HD's 57.
    let cintiq = AbsInfo(minimum: -64, maximum: 63, resolution: 57)
    #expect(abs(PenAngles.degrees(57, axis: cintiq) - 180 / Double.pi) < 1e-9)
    // No resolution (the DTH2242's 0...127): the range spread over -64...64 degrees.
    let dth = AbsInfo(minimum: 0, maximum: 127)
    #expect(PenAngles.degrees(0, axis: dth) == -64)
    #expect(PenAngles.degrees(127, axis: dth) == 64)
    #expect(abs(PenAngles.degrees(63, axis: dth) - (63.0 / 127 * 2 - 1) * 64) < 1e-12)
  }

  @Test func theEraserEndAndADroppedBufferAndTheEnd() {
    let pen = PenScript()
    pen.near(.init(x: 100, y: 100), eraser: true)
    pen.down(pressure: 0.5)
    pen.move(to: .init(x: 200, y: 100), duration: 0.05)
    let recording = pen.recording
    let assembler = PenAssembler(device: recording.description, ids: TouchIDAllocator())
    var frames: [TouchFrame] = []
    for event in recording.events { if let f = assembler.process(event) { frames.append(f) } }
    #expect(frames.flatMap(\.contacts).allSatisfy { $0.pen?.isEraser == true })
    #expect(frames.flatMap(\.contacts).first?.phase == .began)
    // SYN_DROPPED: the contact is cancelled and the tip ignored until it lifts.
    let t = Timestamp(microseconds: 2_000_000)
    let dropped = assembler.process(InputEvent(time: t, type: EV.syn, code: SYN.dropped, value: 0))
    #expect(dropped?.contacts.map(\.phase) == [.cancelled])
    _ = assembler.process(InputEvent(time: t, type: EV.syn, code: SYN.report, value: 0))
    _ = assembler.process(InputEvent(time: t, type: EV.abs, code: ABS.x, value: 900))
    let still = assembler.process(InputEvent(time: t, type: EV.syn, code: SYN.report, value: 0))
    #expect(still?.contacts.isEmpty == true && still?.pen?.inProximity == true)
    // Lifted and down again: a new contact.
    for (code, value) in [(ABS.pressure, 0), (BTN.touch, 0)] {
      _ = assembler.process(
        InputEvent(time: t, type: code == BTN.touch ? EV.key : EV.abs, code: code, value: Int32(value)))
    }
    _ = assembler.process(InputEvent(time: t, type: EV.syn, code: SYN.report, value: 0))
    _ = assembler.process(InputEvent(time: t, type: EV.abs, code: ABS.pressure, value: 600))
    let again = assembler.process(InputEvent(time: t, type: EV.syn, code: SYN.report, value: 0))
    #expect(again?.contacts.map(\.phase) == [.began])
    #expect(assembler.cancelAll(at: t)?.contacts.map(\.phase) == [.cancelled])
  }

  /// libinput's pressure offset for a worn pen (`detect_pressure_offset`): a pen that comes near,
  /// far enough above the glass (50 % of the distance range or more), already reporting pressure
  /// has that pressure as its offset. The synthetic pen's 0...1023: the default thresholds are
  /// units 10 and 51 (1 % and 5 %, truncated), a gap of 41.
  @Test func aWornPensPressureAtProximityInIsItsOffset() throws {
    let pen = PenScript(start: 1, sampleRate: 100)
    pen.near(.init(x: 300, y: 300), distance: 0.8, pressure: 0.1)  // 102: the offset
    pen.pressure(0.13)  // 133: below 102 + 41, still hovering
    pen.pressure(0.15)  // 153: down, force (153 - 102) / (1023 - 102 + 1)
    pen.pressure(0.1)  // 102: at the offset, lifts
    pen.pressure(0.08)  // 82: below the offset, which follows it down
    pen.pressure(0.125)  // 128: 82 + 41 = 123 or more, down again
    pen.leave()
    let assembler = PenAssembler(device: SyntheticPen.description, ids: TouchIDAllocator())
    var frames: [TouchFrame] = []
    var offsets: [Int32?] = []
    for event in pen.events {
      if let frame = assembler.process(event) {
        frames.append(frame)
        offsets.append(assembler.pressureOffset)
      }
    }
    let phases: [TouchPhase?] = frames.map { $0.contacts.first?.phase }
    let expected: [TouchPhase?] = [nil, nil, .began, .ended, nil, .began, .ended]
    #expect(phases == expected)
    #expect(offsets == [102, 102, 102, 102, 82, 82, nil])
    #expect(frames[2].contacts.first?.force == 51.0 / 922)
    #expect(frames[5].contacts.first?.force == 46.0 / 942)
  }

  /// No offset when the pen comes near close to the glass (under 50 % of the distance range: too
  /// likely a pen already pressing), or with more than half the pressure range: the default
  /// thresholds decide, and the pressure touches down at once.
  @Test func noOffsetCloseToTheGlassOrPastHalfThePressureRange() throws {
    for (distance, pressure) in [(0.3, 0.1), (0.8, 0.6)] {
      let pen = PenScript(start: 1, sampleRate: 100)
      pen.near(.init(x: 300, y: 300), distance: distance, pressure: pressure)
      pen.leave()
      let assembler = PenAssembler(device: SyntheticPen.description, ids: TouchIDAllocator())
      var first: TouchFrame?
      var offset: Int32? = -1
      for event in pen.events {
        guard let frame = assembler.process(event) else { continue }
        if first == nil {
          first = frame
          offset = assembler.pressureOffset
        }
      }
      #expect(first?.contacts.first?.phase == .began, "distance \(distance), pressure \(pressure)")
      #expect(offset == nil, "distance \(distance), pressure \(pressure)")
    }
  }
}
