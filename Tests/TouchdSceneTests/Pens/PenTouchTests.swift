import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdProtocol
import TouchdTestKit

@testable import TouchdScene

/// Issue #41: a pen's tip is a touch of type pencil with force and angles; recognizers choose the
/// touch types they take (`allowedTouchTypes`, `requiresExclusiveTouchType`), views the types
/// hit-testing finds them for (`touchTypes`).
@Suite struct PenTouchTests {
  static let dell = TestPaths.penRecordings.appendingPathComponent(
    "dell-canvas27-wacom-isdv4-pen-hover-buttons-stroke.evemu")
  static let cintiq = TestPaths.penRecordings.appendingPathComponent("wacom-cintiq13hd-touch-pen.evemu")

  /// One 1920 x 1080 window of `views` (YAML at column 0), with `extra` window keys.
  static func scene(_ views: String, extra: String = "") -> String {
    let indented = views.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
      .joined(separator: "\n")
    return """
      version: 1
      windows:
        - id: main
          size: {width: 1920, height: 1080}\(extra.isEmpty ? "" : "\n    " + extra)
          views:
      \(indented)
      """
  }

  static let pad = "- {id: pad, frame: {x: 0, y: 0, width: 1920, height: 1080}, touches: true}"

  func touches(_ recordings: [Recording], _ yaml: String) throws -> [TouchesMessage] {
    try ScenePlayer.replay(recordings, scene: try Scene.parse(yaml)).compactMap {
      if case .touches(let t) = $0 { t } else { nil }
    }
  }

  @Test func aPenIsAPencilTouchWithForceAndAnglesAndAFingerADirectOne() throws {
    let pen = try RecordingReader.load(path: Self.dell.path)
    let messages = try touches([pen], Self.scene(Self.pad))
    let pencil = messages.flatMap(\.touches)
    #expect(!pencil.isEmpty && pencil.allSatisfy { $0.type == "pencil" && $0.pen != nil })
    // Force: libinput's normalized pressure times UIKit's maximum for a pencil.
    let frames = Replay.frames(of: pen).filter { !$0.contacts.isEmpty }
    let firstForce = try #require(frames.first?.contacts.first?.force)
    #expect(abs(try #require(pencil.first?.pen?.force) - firstForce * 4.166667) < 1e-6)
    #expect(pencil.allSatisfy { ($0.pen?.force ?? -1) >= 0 && ($0.pen?.force ?? 5) <= 4.166667 })
    // The angles: the pen's, the azimuth in the window (no rotation: as on the panel).
    let tilted = try #require(frames.last { $0.time.microseconds <= 6_700_000 })
    let line = try #require(messages.last { $0.time <= tilted.time.seconds })
    #expect(line.touches.first?.pen?.altitudeAngle == tilted.pen?.properties.altitudeAngle)
    #expect(
      abs((line.touches.first?.pen?.azimuthAngle ?? 0) - (tilted.pen?.properties.azimuthAngle ?? 9)) < 1e-9)
    // The line's keys, in order: type after phase, the pen's after tapCount.
    let json = line.jsonLine
    #expect(json.contains(#""phase":"moved","type":"pencil","x":"#))
    let order = [#""tapCount":"#, #","force":"#, #","altitudeAngle":"#, #","azimuthAngle":"#].compactMap {
      json.range(of: $0)?.lowerBound
    }
    #expect(order.count == 4 && order == order.sorted(), "\(json)")
    #expect(!json.contains("eraser"))
    // A finger: direct, no pen keys.
    let s = FingerScript(windowWidth: 1920, windowHeight: 1080)
    s.tap(at: .init(x: 500, y: 500))
    let finger = try touches([s.recording], Self.scene(Self.pad)).flatMap(\.touches)
    #expect(finger.allSatisfy { $0.type == "direct" && $0.pen == nil })
  }

  @Test func aPanelMountedAQuarterTurnTurnsThePensAzimuthWithIt() throws {
    let pen = PenScript()
    pen.near(.init(x: 500, y: 500), tiltX: 0, tiltY: 32)  // leaning towards the panel's +y (32°): azimuth π/2
    pen.down()
    pen.move(to: .init(x: 520, y: 500), duration: 0.02)
    pen.up()
    let flat = try touches([pen.recording], Self.scene(Self.pad)).flatMap(\.touches)
    #expect(abs((flat.first?.pen?.azimuthAngle ?? 0) - .pi / 2) < 1e-9)
    let turned = try touches([pen.recording], Self.scene(Self.pad, extra: "rotation: 90")).flatMap(\.touches)
    // Mounted 90° clockwise: the panel's +y is the window's -x.
    #expect(abs((turned.first?.pen?.azimuthAngle ?? 0) - .pi) < 1e-9)
    // The eraser end says so.
    let eraser = PenScript()
    eraser.near(.init(x: 500, y: 500), eraser: true)
    eraser.down()
    eraser.up()
    let rubbed = try touches([eraser.recording], Self.scene(Self.pad)).flatMap(\.touches)
    #expect(rubbed.first?.pen?.eraser == true)
    #expect(
      rubbed.first.map { TouchesMessage(seq: 1, phase: "began", view: "v", window: "w", time: 1, touches: [$0]) }?
        .jsonLine.contains(#""eraser":true"#) == true)
  }

  /// `allowedTouchTypes`: a recognizer for pens alone, one for fingers alone.
  @Test func allowedTouchTypesChooseWhoseTapsARecognizerTakes() throws {
    let views = """
      - id: button
        frame: {x: 0, y: 0, width: 1920, height: 1080}
        recognizers:
          - {id: pen-tap, type: tap, action: pen, allowedTouchTypes: pencil}
          - {id: finger-tap, type: tap, action: finger, allowedTouchTypes: [direct]}
      """
    let scene = try Scene.parse(Self.scene(views))
    func actions(_ recording: Recording) throws -> [String] {
      try ScenePlayer.replay(recording, scene: scene).compactMap {
        if case .action(let a) = $0 { a.action } else { nil }
      }
    }
    // The Cintiq's real pen: its first tap; the second touch slides 52 pt, past the tap's 45.
    #expect(try actions(try RecordingReader.load(path: Self.cintiq.path)) == ["pen"])
    let s = FingerScript(windowWidth: 1920, windowHeight: 1080)
    s.tap(at: .init(x: 500, y: 500))
    #expect(try actions(s.recording) == ["finger"])
  }

  /// `requiresExclusiveTouchType` (default true): a pan with a pen's touch ignores a finger that
  /// lands meanwhile; with false it takes the finger too.
  @Test func aRecognizerWithAPenTouchIgnoresFingersUntilItResets() throws {
    func scene(exclusive: Bool) throws -> Scene {
      try Scene.parse(
        Self.scene(
          """
          - id: canvas
            frame: {x: 0, y: 0, width: 1920, height: 1080}
            recognizers:
              - {id: drag, type: pan, action: drag, requiresExclusiveTouchType: \(exclusive)}
          """, extra: "penRejectsTouches: false"))
    }
    let pen = PenScript(start: 1)
    pen.near(.init(x: 400, y: 400))
    pen.down()
    pen.move(to: .init(x: 600, y: 400), duration: 0.2)
    pen.move(to: .init(x: 800, y: 400), duration: 0.3)
    pen.up()
    pen.leave()
    let finger = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 1.25)
    let f = finger.down([.init(x: 1200, y: 700)])
    finger.animate(f, duration: 0.2) { _, t in .init(x: 1200, y: 700 - 200 * t) }
    finger.up(f)
    func touchCounts(_ scene: Scene) throws -> Set<Int> {
      Set(
        try ScenePlayer.replay([pen.recording, finger.recording], scene: scene).compactMap {
          if case .action(let a) = $0, a.state == "changed" { a.numberOfTouches } else { nil }
        })
    }
    #expect(try touchCounts(scene(exclusive: true)) == [1])
    #expect(try touchCounts(scene(exclusive: false)).contains(2))
  }

  /// `touchTypes: pencil`: a view for pens over a button; a finger reaches the button beneath.
  @Test func aViewForPensLetsFingersThroughToTheViewBeneath() throws {
    let views = """
      - id: button
        frame: {x: 0, y: 0, width: 1920, height: 1080}
        recognizers: [{id: press, type: tap, action: pressed}]
        views:
          - {id: ink, frame: {x: 0, y: 0, width: 1920, height: 1080}, touches: true, touchTypes: pencil}
      """
    let scene = try Scene.parse(Self.scene(views))
    let s = FingerScript(windowWidth: 1920, windowHeight: 1080)
    s.tap(at: .init(x: 500, y: 500))
    let fingerMessages = try ScenePlayer.replay(s.recording, scene: scene)
    #expect(fingerMessages.compactMap { if case .action(let a) = $0 { a.view } else { nil } } == ["button"])
    #expect(!fingerMessages.contains { if case .touches = $0 { true } else { false } })
    let pen = try RecordingReader.load(path: Self.cintiq.path)
    let penMessages = try ScenePlayer.replay(pen, scene: scene)
    #expect(penMessages.contains { if case .touches(let t) = $0 { t.view == "ink" } else { false } })
  }

  /// The Dell Canvas pen's barrel buttons (`BTN_STYLUS` 5.02–5.30 s, `BTN_STYLUS2` 6.13–6.24 s,
  /// while hovering) are presses of types `pencilBarrel` and `pencilBarrel2` for the window's
  /// first responder, and a recognizer whose `allowedPressTypes` has one takes it.
  @Test func barrelButtonsArePressesOfTheirOwnTypes() throws {
    let views = """
      - id: panel
        frame: {x: 0, y: 0, width: 1920, height: 1080}
        # The pen's own touches do not tap it (its stroke's first, bounced contact would).
        recognizers: [{id: undo, type: tap, action: undo, allowedPressTypes: pencilBarrel2, allowedTouchTypes: direct}]
        views:
          - {id: canvas, frame: {x: 0, y: 0, width: 1920, height: 1080}, presses: true}
      """
    let scene = try Scene.parse(Self.scene(views, extra: "firstResponder: canvas"))
    let messages = try ScenePlayer.replay(try RecordingReader.load(path: Self.dell.path), scene: scene)
    let log = messages.compactMap { m -> String? in
      switch m {
      case .presses(let p): "\(p.phase) \(p.presses.map { "\($0.type) \($0.key)" }.joined())"
      case .action(let a): "action \(a.action) \(a.press ?? "")"
      default: nil
      }
    }
    #expect(
      log == [
        "began pencilBarrel BTN_STYLUS", "ended pencilBarrel BTN_STYLUS", "began pencilBarrel2 BTN_STYLUS2",
        "cancelled pencilBarrel2 BTN_STYLUS2", "action undo pencilBarrel2",
      ], "\(log)")
    let times = messages.compactMap { m -> Double? in if case .presses(let p) = m { p.time } else { nil } }
    #expect(times.first == 5.015946 && times[1] == 5.295)
  }
}
