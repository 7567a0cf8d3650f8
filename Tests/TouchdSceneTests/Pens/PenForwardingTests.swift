import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// What the virtual pen got, one line per frame: its time, then its events in order: `pen=1|0`,
/// `rubber=1|0` (the tool keys), `touch=`, `x=`, `y=`, `p=` (pressure), `d=` (distance), `tx=`,
/// `ty=` (tilts), `b1=`, `b2=` (barrel buttons), `serial=`.
func penLines(_ events: [InputEvent]) -> [String] {
  var lines: [String] = []
  var tokens: [String] = []
  for event in events {
    let name: String
    switch (event.type, event.code) {
    case (EV.syn, SYN.report):
      lines.append("\(event.time) " + tokens.joined(separator: " "))
      tokens = []
      continue
    case (EV.key, BTN.toolPen): name = "pen"
    case (EV.key, BTN.toolRubber): name = "rubber"
    case (EV.key, BTN.touch): name = "touch"
    case (EV.key, BTN.stylus): name = "b1"
    case (EV.key, BTN.stylus2): name = "b2"
    case (EV.abs, ABS.x): name = "x"
    case (EV.abs, ABS.y): name = "y"
    case (EV.abs, ABS.pressure): name = "p"
    case (EV.abs, ABS.distance): name = "d"
    case (EV.abs, ABS.tiltX): name = "tx"
    case (EV.abs, ABS.tiltY): name = "ty"
    case (EV.msc, MSC.serial): name = "serial"
    default: name = "?\(event.type):\(event.code)"
    }
    tokens.append("\(name)=\(event.value)")
  }
  if !tokens.isEmpty { lines.append("(no SYN_REPORT) " + tokens.joined(separator: " ")) }
  return lines
}

/// Issue #41, forwarded windows: a pen display's virtual device is a pen with the physical pen's
/// axes and buttons; the hovering pen is forwarded live, an unclaimed stroke goes down, moves and
/// lifts on it, a claimed one ends by proximity out.
@Suite struct PenForwardingTests {
  typealias P = FingerScript.Point

  /// A 1000 x 800 forwarding window whose root view has `recognizers`.
  func devices(_ recordings: [Recording], _ recognizers: [String]) throws -> [ScenePlayer.ForwardedDevice] {
    try ScenePlayer.forwarded(recordings, scene: try Scene.parse(forwardScene(recognizers)))
  }

  func pen() -> PenScript { PenScript(windowWidth: 1000, windowHeight: 800, start: 1, sampleRate: 100) }

  @Test func theVirtualPenHasThePhysicalPensAxesAndButtonsAndNoMultitouch() throws {
    let virtual = VirtualPen.description(for: SyntheticPen.description)
    #expect(virtual.name == "touchd synthetic pen (touchd)")
    #expect(virtual.id == InputID(bustype: 0x06, vendor: 0, product: 0, version: 1))
    #expect(virtual.properties == [InputProp.direct])
    #expect(virtual.events[EV.key] == [BTN.toolPen, BTN.toolRubber, BTN.touch, BTN.stylus, BTN.stylus2])
    #expect(virtual.events[EV.abs] == [ABS.x, ABS.y, ABS.pressure, ABS.distance, ABS.tiltX, ABS.tiltY])
    #expect(virtual.events[EV.msc] == nil)
    #expect(virtual.absInfo[ABS.x] == AbsInfo(minimum: 0, maximum: 4095, resolution: 16))
    #expect(virtual.absInfo[ABS.tiltX] == AbsInfo(minimum: -64, maximum: 63, resolution: 57))
    // What touchd itself reads as a pen display, and what udev's rule calls a tablet.
    #expect(virtual.isPenDisplay && virtual.udevInputClasses.classes.contains(.tablet))
    // A Wacom Cintiq's pen serial goes with it.
    let cintiq = try RecordingReader.load(path: PenTouchTests.cintiq.path).description
    #expect(VirtualPen.description(for: cintiq).events[EV.msc] == [MSC.serial])
  }

  @Test func theHoveringPenIsForwardedLiveAndAnUnclaimedStrokeGoesDownMovesAndLifts() throws {
    let s = pen()
    s.near(P(x: 100, y: 100), distance: 0.5, tiltX: 20)
    s.move(to: P(x: 200, y: 100), duration: 0.01)
    s.down(pressure: 0.5)
    s.move(to: P(x: 300, y: 100), duration: 0.01)
    s.up()
    s.leave()
    let devices = try devices([s.recording], ["{id: t, type: tap, action: tap}"])
    try #require(devices.count == 1)
    let virtual = devices[0].recording
    #expect(virtual.description == VirtualPen.description(for: SyntheticPen.description))
    // 100 pt of 1000 on 0...4095: unit 409; distance 32 of 63; pressure 512 of 1023 (its force
    // back in units); 20 units of tilt x at 57 a radian stay 20 units.
    #expect(
      penLines(virtual.events) == [
        "1.000000 x=409 y=512 d=32 tx=20 pen=1", "1.010000 x=819", "1.010000 d=0 p=512 touch=1",
        "1.020000 x=1228", "1.020000 p=0 touch=0 d=5", "1.020000 pen=0",
      ], "\(penLines(virtual.events))")
    #expect(devices[0].counters.forwarded == 1 && devices[0].counters.cancelled == 0)
  }

  @Test func aClaimedStrokeEndsByProximityOutAndThePenComesBackWhenItHoversAgain() throws {
    let s = pen()
    s.near(P(x: 100, y: 100))
    s.down(pressure: 0.5)
    s.move(to: P(x: 400, y: 100), duration: 0.1)  // the pan recognizes: the stroke is claimed
    s.up()
    s.move(to: P(x: 450, y: 100), duration: 0.01)
    s.leave()
    let devices = try devices([s.recording], ["{id: p, type: pan, action: pan}"])
    try #require(devices.count == 1)
    let lines = penLines(devices[0].recording.events)
    let out = try #require(lines.firstIndex { $0.hasSuffix("pen=0") })
    // Down, some motion, then out with the tip lifted first, in one frame.
    #expect(lines[1].hasSuffix("d=0 p=512 touch=1"), "\(lines)")
    #expect(lines[out].hasSuffix("p=0 touch=0 pen=0"), "\(lines)")
    // Nothing while the claimed tip is down; lifted, the pen comes near again where it hovers,
    // with the pressure at its minimum, then moves and leaves.
    #expect(
      Array(lines[(out + 1)...]) == ["1.100000 x=1638 d=5 pen=1", "1.110000 x=1843", "1.110000 pen=0"],
      "\(lines)")
    #expect(devices[0].counters.forwarded == 1 && devices[0].counters.cancelled == 1)
  }

  @Test func barrelButtonsAndTheEraserGoToTheVirtualPen() throws {
    let s = pen()
    s.near(P(x: 100, y: 100))
    s.barrel(true)
    s.barrel(false)
    s.leave()
    s.wait(0.5)
    s.near(P(x: 100, y: 100), eraser: true)
    s.leave(eraser: true)
    let devices = try devices([s.recording], ["{id: t, type: tap, action: tap}"])
    #expect(
      penLines(devices[0].recording.events) == [
        "1.000000 x=409 y=512 d=32 pen=1", "1.000000 b1=1", "1.000000 b1=0", "1.000000 pen=0",
        "1.500000 rubber=1", "1.500000 rubber=0",
      ], "\(penLines(devices[0].recording.events))")
  }

  /// A new scene writes on to the same virtual pen from where the old one left it (the daemon keeps
  /// the virtual device across a reload): a pen hovering through the change is not brought near
  /// again, and its leaving takes it out.
  @Test func aNewScenesEncoderGoesOnFromTheOldOnesState() {
    let device = VirtualPen.description(for: SyntheticPen.description)
    let old = PenForwardEncoder(device: device)
    var sample = PenSample(x: 100, y: 200)
    let first = old.encode([ForwardedPenChange(.hover, sample)], at: Timestamp(microseconds: 1_000_000))
    #expect(penLines(first) == ["1.000000 x=100 y=200 pen=1"])
    let new = PenForwardEncoder(device: device)
    new.continueDevice(of: old)
    sample.x = 110
    let next = new.encode(
      [ForwardedPenChange(.hover, sample), ForwardedPenChange(.leave, sample)], at: Timestamp(microseconds: 2_000_000))
    #expect(penLines(next) == ["2.000000 x=110", "2.000001 pen=0"])
    #expect(new.counters == ForwardCounters())
  }

  /// The Dell Canvas's real pen, forwarded and read back as touchd reads a pen: the same pen,
  /// hovering, touching and leaving where it did, with the same pressure, distance and angles.
  @Test func theDellCanvasPenReadBackFromTheVirtualPenIsTheSamePen() throws {
    let recording = try RecordingReader.load(path: PenTouchTests.dell.path)
    let devices = try ScenePlayer.forwarded(
      [recording],
      scene: try Scene.parse(
        """
        version: 1
        windows:
          - id: w
            size: {width: 1920, height: 1080}
            forward: {}
            views: [{id: root, frame: {x: 0, y: 0, width: 1920, height: 1080}}]
        """))
    try #require(devices.count == 1)
    func states(_ r: Recording) -> [String] {
      var out: [String] = []
      for frame in Replay.frames(of: r) {
        guard let pen = frame.pen else { continue }
        // Out of proximity a pen has no position (the Wacom reports 0, 0 as it leaves).
        guard pen.inProximity else {
          if out.last != "out" { out.append("out") }
          continue
        }
        let force = frame.contacts.first?.force.map { "\(($0 * 1000).rounded())" } ?? "-"
        let line =
          "\(Int((pen.x * 4000).rounded())) \(Int((pen.y * 4000).rounded())) "
          + "touch \(pen.contact != nil) f \(force) d \(((pen.distance ?? -1) * 100).rounded()) "
          + "alt \((pen.properties.altitudeAngle * 100).rounded()) az \((pen.properties.azimuthAngle * 100).rounded())"
          + " b \(pen.buttons.rawValue)"
        if out.last != line { out.append(line) }
      }
      return out
    }
    let original = states(recording)
    let forwarded = states(devices[0].recording)
    #expect(original.count > 50)
    let first = zip(original, forwarded).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      forwarded == original,
      "\(original.count) and \(forwarded.count) states; first difference: \(first.map { "\($0)" } ?? "none")")
  }

  /// The VM suite's fixture for `forward-pen-libinput` (scripts/vm/forward.sh), written and checked
  /// here (TOUCHD_UPDATE_GOLDEN=1 rewrites it), on scripts/vm/scenes/pen-forward.yaml: the pen
  /// hovers in from the right, strokes there (the app's), hovers across, strokes on the left (the
  /// pan claims it), lifts, hovers and leaves. On the virtual pen: in, down, up, down, out (the
  /// claim), in (hovering again), out.
  static let vmFixture = TestPaths.repositoryRoot.appendingPathComponent(
    "Tests/TouchdSceneTests/Fixtures/pen-forward.evemu")
  static let vmScene = TestPaths.repositoryRoot.appendingPathComponent("scripts/vm/scenes/pen-forward.yaml")

  /// A virtual pen's proximity and tip as words: `in`, `out`, `down`, `up`, in order.
  static func toolWords(_ events: [InputEvent]) -> [String] {
    events.compactMap { e in
      guard e.type == EV.key else { return nil }
      switch e.code {
      case BTN.toolPen, BTN.toolRubber: return e.value == 1 ? "in" : "out"
      case BTN.touch: return e.value == 1 ? "down" : "up"
      default: return nil
      }
    }
  }

  @Test func theVMsFixtureStrokesForTheAppThenForAClaimingPan() throws {
    let s = PenScript(start: 1, sampleRate: 100)
    s.near(P(x: 1400, y: 500), tiltX: 15)
    s.move(to: P(x: 1450, y: 520), duration: 0.05)
    s.down(pressure: 0.6)
    s.move(to: P(x: 1600, y: 560), duration: 0.1)
    s.up()
    s.move(to: P(x: 500, y: 500), duration: 0.1)
    s.down(pressure: 0.6)
    s.move(to: P(x: 800, y: 500), duration: 0.15)
    s.up()
    s.move(to: P(x: 520, y: 520), duration: 0.05)
    s.leave()
    if updatingGoldens { try s.evemuText.write(to: Self.vmFixture, atomically: true, encoding: .utf8) }
    #expect(s.evemuText == (try String(contentsOf: Self.vmFixture, encoding: .utf8)))
    let scene = try Scene.parse(String(contentsOf: Self.vmScene, encoding: .utf8))
    let recording = try RecordingReader.load(path: Self.vmFixture.path)
    let devices = try ScenePlayer.forwarded([recording], scene: scene)
    try #require(devices.count == 1)
    #expect(devices[0].recording.description.name == "touchd VM virtual pen")
    #expect(Self.toolWords(devices[0].recording.events) == ["in", "down", "up", "down", "up", "out", "in", "out"])
    #expect(devices[0].counters.forwarded == 2 && devices[0].counters.cancelled == 1)
    let claims = try ScenePlayer.replay([recording], scene: scene).filter {
      if case .action(let a) = $0 { a.action == "claim" && a.state == "began" } else { false }
    }
    #expect(claims.count == 1)
  }

  /// `touchctl replay --forward` with a pen and its panel's touchscreen writes both virtual
  /// devices: the pen's a pen, the touchscreen's a touchscreen; the hand's tap while the pen is
  /// near never reaches either (touch arbitration), the one after it left is forwarded.
  @Test func touchctlReplayForwardWritesTheVirtualPenAndTheVirtualTouchscreen() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-pen-forward-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let scene = dir.appendingPathComponent("pen-forward.yaml")
    try String(contentsOf: PenRejectionTests.vmScene, encoding: .utf8)
      .replacingOccurrences(
        of: "    size: {width: 1920, height: 1080}\n", with: "    size: {width: 1920, height: 1080}\n    forward: {}\n"
      )
      .write(to: scene, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("fwd.evemu")
    let result = try runTouchctl(
      [
        "replay", "--scene", scene.path, PenRejectionTests.vmPen.path, PenRejectionTests.vmHand.path, "--forward",
        out.path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    func read(_ n: Int) throws -> Recording {
      let url = dir.appendingPathComponent("fwd.\(n).evemu")
      return try EvemuParser.parse(Array(try String(contentsOf: url, encoding: .utf8).utf8), source: url.path)
    }
    let pen = try read(0)
    let hand = try read(1)
    #expect(pen.description == VirtualPen.description(for: SyntheticPen.description))
    #expect(hand.description == VirtualTouchscreen.description(for: SyntheticTouchscreen.description))
    #expect(Self.toolWords(pen.events) == ["in", "down", "up", "out"])
    // One tap on the virtual touchscreen: the second, at 4 s.
    let downs = hand.events.filter { $0.type == EV.abs && $0.code == ABS.mtTrackingID && $0.value >= 0 }
    #expect(downs.map(\.time.seconds) == [4])
  }
}
