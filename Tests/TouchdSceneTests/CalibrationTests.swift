import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

/// The calibration flow (issue #19): the least-squares fit, the session that collects one touch
/// per target instead of delivering it, and the scene-file edit. Recorded taps on known targets
/// with a skewed, rotated and offset panel.
@Suite("Calibration")
struct CalibrationTests {
  /// A panel that is skewed and offset: the device reports `S(u, v)` for a finger at the true
  /// pre-rotation position `(u, v)`. The calibration must find `S⁻¹`.
  static let skew = [0.9, 0.05, 0.03, -0.04, 0.95, 0.02]

  static func apply(_ m: [Double], _ x: Double, _ y: Double) -> (x: Double, y: Double) {
    (m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5])
  }

  /// The inverse of an affine 2 × 3 matrix.
  static func inverse(_ m: [Double]) -> [Double] {
    let det = m[0] * m[4] - m[1] * m[3]
    let (a, b, d, e) = (m[4] / det, -m[1] / det, -m[3] / det, m[0] / det)
    return [a, b, -(a * m[2] + b * m[5]), d, e, -(d * m[2] + e * m[5])]
  }

  /// Five targets on a 1000 × 800 window: corners 10% in and the centre.
  static let targets = [(100.0, 80.0), (900, 80), (900, 720), (100, 720), (500, 400)].map {
    Scene.Point(x: $0.0, y: $0.1)
  }

  /// Taps where the skewed panel reports each target of a window rotated `rotation`, 0.4 s apart
  /// from 1 s; `miss` moves one target's tap by (dx, dy) window-normalized.
  static func taps(rotation: ScreenRotation, miss: (index: Int, dx: Double, dy: Double)? = nil) -> FingerScript {
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    for (i, target) in targets.enumerated() {
      var (u, v) = rotation.inverse(x: target.x / 1000, y: target.y / 800)
      if let miss, miss.index == i { (u, v) = (u + miss.dx, v + miss.dy) }
      let raw = apply(skew, u, v)
      script.tap(at: .init(x: raw.x * 1000, y: raw.y * 800))
      script.wait(0.35)
    }
    return script
  }

  static func scene(rotation: Int) throws -> Scene {
    try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 1000, height: 800}
          rotation: \(rotation)
          views:
            - {id: pad, frame: {x: 0, y: 0, width: 1000, height: 800}, touches: true}
            - {id: centre, frame: {x: 490, y: 390, width: 20, height: 20}, touches: true, recognizers: [{id: c, type: tap, action: centre-tap, cancelsTouchesInView: false}]}
      """)
  }

  /// A runtime calibrating window `main`, and what the calibration reported.
  final class Run {
    let clock = VirtualClock(now: 0)
    var messages: [Message] = []
    var result: Result<CalibrationFit, CalibrationError>?
    var collected: [Int] = []
    var runtime: SceneRuntime!

    func feed(_ script: FingerScript) {
      for frame in Replay.frames(of: script.recording) {
        clock.advance(to: frame.time.seconds)
        runtime.handle(frame, inWindow: 0)
      }
    }
  }

  /// Runs `script` into a runtime calibrating window `main` on `targets`.
  static func calibrate(
    _ script: FingerScript, scene: Scene, targets: [Scene.Point] = targets, timeout: Double = 60
  ) throws -> Run {
    let run = Run()
    run.runtime = SceneRuntime(scene: scene, clock: run.clock) { [unowned run] in run.messages.append($0) }
    try run.runtime.calibrate(
      window: "main", targets: targets, timeout: timeout,
      collected: { [unowned run] index, _ in run.collected.append(index) },
      completion: { [unowned run] in run.result = $0 })
    run.feed(script)
    return run
  }

  @Test(
    "A skewed, offset panel on a window rotated 0, 90, 180 and 270: the fit is the panel's inverse, to a hundredth of a point"
  )
  func skewedRotatedOffsetPanel() throws {
    let expected = Self.inverse(Self.skew)
    for rotation in ScreenRotation.allCases {
      let run = try Self.calibrate(Self.taps(rotation: rotation), scene: Self.scene(rotation: rotation.rawValue))
      let fit = try #require(try run.result?.get(), "\(rotation)")
      for (got, want) in zip(fit.matrix, expected) { #expect(abs(got - want) < 2e-3, "\(rotation): \(fit.matrix)") }
      // The device's 4096 units per axis quantize each tap by up to 0.12 pt.
      #expect(fit.maxError < 0.3, "\(rotation): \(fit.errors)")
      #expect(fit.warning == nil)
      #expect(run.collected == [0, 1, 2, 3, 4])
      // Collected touches are not delivered: no view saw them.
      #expect(run.messages.isEmpty, "\(rotation): \(run.messages.map(\.jsonLine))")
      // Applied, a tap where the panel reports the centre lands on the 20-point view there.
      try run.runtime.apply(.setWindow(window: "main", change: WindowChange(calibration: fit.matrix)))
      let (u, v) = rotation.inverse(x: 0.5, y: 0.5)
      let raw = Self.apply(Self.skew, u, v)
      let tap = FingerScript(windowWidth: 1000, windowHeight: 800, start: 10)
      tap.tap(at: .init(x: raw.x * 1000, y: raw.y * 800))
      run.feed(tap)
      let views = run.messages.compactMap { message -> String? in
        if case .touches(let t) = message { return "\(t.view) \(t.phase)" }
        return nil
      }
      #expect(views == ["centre began", "centre ended"], "\(rotation)")
      #expect(run.messages.contains { if case .action(let a) = $0 { a.action == "centre-tap" } else { false } })
    }
  }

  @Test("A missed target shows in the residual and the warning; three targets fit exactly and say so")
  func poorFitAndExactFit() throws {
    // Target 2 touched 5% of the width off: about 50 points before the fit spreads it.
    let missed = try Self.calibrate(
      Self.taps(rotation: .none, miss: (1, 0.05, 0)), scene: Self.scene(rotation: 0))
    let fit = try #require(try missed.result?.get())
    #expect(fit.maxError > CalibrationFit.poorFitPoints)
    // Least squares spreads one miss over the others; the worst landed touch is not always the
    // missed one, but the warning names the worst.
    let worst = try #require(fit.errors.firstIndex(of: fit.maxError))
    #expect(fit.warning?.hasPrefix("poor fit: target \(worst + 1) is off by ") == true, "\(fit.warning ?? "")")
    #expect(fit.errors[1] > 5, "\(fit.errors)")
    let three = try Self.calibrate(
      Self.taps(rotation: .none), scene: Self.scene(rotation: 0), targets: Array(Self.targets.prefix(3)))
    let exact = try #require(try three.result?.get())
    #expect(exact.maxError < 1e-6)
    #expect(exact.warning == "3 targets fit exactly, so a missed target cannot show: use 4 or more to check the fit")
    // The touches after the third went to the views again.
    #expect(three.messages.filter { if case .touches = $0 { true } else { false } }.count == 4)
  }

  @Test("Bad requests are refused before anything changes; a time-out ends the session with what it had")
  func refusalsAndTimeout() throws {
    let runtime = SceneRuntime(scene: try Self.scene(rotation: 0), clock: VirtualClock(now: 0)) { _ in }
    func error(_ window: String, _ targets: [Scene.Point], timeout: Double = 60) -> String? {
      do {
        try runtime.calibrate(
          window: window, targets: targets, timeout: timeout, collected: { _, _ in }, completion: { _ in })
        return nil
      } catch {
        return error.description
      }
    }
    #expect(error("mainn", Self.targets) == "unknown window 'mainn' (did you mean 'main'?)")
    #expect(error("main", Array(Self.targets.prefix(2))) == "a calibration takes 3 to 9 targets, got 2")
    #expect(
      error("main", [.init(x: 10, y: 10), .init(x: 500, y: 400), .init(x: 990, y: 790)])
        == "the targets lie on one line: place at least 3 of them as a triangle (corners)")
    #expect(
      error("main", [.init(x: 10, y: 10), .init(x: 1500, y: 400), .init(x: 990, y: 790)])
        == "target 2 (1500, 400) is outside window 'main' (1000 × 800 points)")
    #expect(runtime.calibratingWindow == nil)
    // Two taps, then nothing: the time-out reports 2 of 5.
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 1)
    script.tap(at: .init(x: 100, y: 80))
    script.wait(0.3)
    script.tap(at: .init(x: 900, y: 80))
    let run = try Self.calibrate(script, scene: Self.scene(rotation: 0), timeout: 5)
    #expect(run.result == nil)
    #expect(run.collected == [0, 1])
    run.clock.advance(to: 10)
    #expect(run.result == .failure(CalibrationError("calibration timed out after 5 s: 2 of 5 targets touched")))
    #expect(run.runtime.calibratingWindow == nil)
  }

  @Test("Points on one line cannot be fitted; matrices compose as libinput multiplies them")
  func fitMath() throws {
    let mapping = ScreenMapping(width: 100, height: 100)
    var line: [CalibrationFit.Sample] = []
    for i in 0..<4 {
      let k = Double(i)
      line.append(
        CalibrationFit.Sample(target: Scene.Point(x: k * 30, y: k * 10), touched: Scene.Point(x: k * 0.3, y: k * 0.1)))
    }
    #expect(throws: CalibrationFit.Failure.self) { try CalibrationFit.fit(line, mapping: mapping) }
    let composed = CalibrationFit.compose(Self.inverse(Self.skew), after: Self.skew)
    for (got, want) in zip(composed, [1.0, 0, 0, 0, 1, 0]) { #expect(abs(got - want) < 1e-12) }
    #expect(CalibrationSession.median([3, 1, 2]) == 2 && CalibrationSession.median([4, 1, 2, 3]) == 2.5)
  }

  @Test("The scene file gets the matrix in place, or a new line under the window's id; layout and comments stay")
  func sceneFileEdit() throws {
    let withLine = """
      # the kiosk
      version: 1
      windows:
        - id: main            # the screen
          size: {width: 1000, height: 800}
          calibration: [1, 0, 0, 0, 1, 0]   # factory
          views: []
      """
    let edited = try SceneCalibrationEdit.setting(
      [1.111, 0, -0.05, 0, 1.0526316, -0.02], window: "main", in: withLine, file: "k.yaml")
    #expect(edited.contains("    calibration: [1.111, 0, -0.05, 0, 1.052632, -0.02]   # factory\n"))
    #expect(edited.hasPrefix("# the kiosk\n"))
    #expect(try Scene.parse(edited).windows[0].calibration == [1.111, 0, -0.05, 0, 1.052632, -0.02])
    let withoutLine = """
      version: 1
      windows:
        - id: side
          size: {width: 10, height: 10}
        - id: main
          size: {width: 1000, height: 800}
      """
    let inserted = try SceneCalibrationEdit.setting(
      [1, 0, 0.5, 0, 1, 0], window: "main", in: withoutLine, file: "k.yaml")
    #expect(
      inserted.contains("  - id: main\n    calibration: [1, 0, 0.5, 0, 1, 0]\n    size: {width: 1000, height: 800}"))
    #expect(try Scene.parse(inserted).windows[0].calibration == [1, 0, 0, 0, 1, 0])
    let flow = "version: 1\nwindows:\n  - {id: main, size: {width: 10, height: 10}}\n"
    #expect(throws: SceneCalibrationEdit.Failure.self) {
      try SceneCalibrationEdit.setting([1, 0, 0, 0, 1, 0], window: "main", in: flow, file: "k.yaml")
    }
    #expect(throws: SceneCalibrationEdit.Failure.self) {
      try SceneCalibrationEdit.setting([1, 0, 0, 0, 1, 0], window: "other", in: withLine, file: "k.yaml")
    }
  }

  @Test("The udev rule names the device and carries the matrix as libinput's property")
  func udevRule() {
    #expect(
      SceneCalibrationEdit.udevRule(deviceName: #"eGalax "USB" Touch"#, matrix: [1.1086664, -0.05, 0, 0, 1, -0.0225])
        == """
        # Written by touchctl calibrate. Install in /etc/udev/rules.d (before touchd's 70-touchd.rules),
        # then: udevadm control --reload && udevadm trigger --subsystem-match=input --action=change
        SUBSYSTEM=="input", KERNEL=="event*", ATTRS{name}=="eGalax \\"USB\\" Touch", ENV{LIBINPUT_CALIBRATION_MATRIX}="1.108666 -0.05 0 0 1 -0.0225"

        """)
  }
}
