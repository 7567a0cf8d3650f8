import Foundation
import Testing
import TouchDelivery
import TouchdInput
import TouchdProtocol
import TouchdTestKit

@testable import TouchdScene

/// Issue #41: signature capture. A view with `signature:` turns the touches that begin in it into
/// strokes with a point per kernel frame, published when they end; its superviews' recognizers
/// never take them; `{"cmd":"signature",…}` gives and clears the signature.
@Suite struct SignatureTests {
  /// A page that swipes, a pad on it, a button under the hand.
  static let views = """
    - id: page
      frame: {x: 0, y: 0, width: 1920, height: 1080}
      recognizers: [{id: next-page, type: swipe, action: next, direction: [left, right]}]
      views:
        - {id: pad, frame: {x: 200, y: 100, width: 1200, height: 500}, signature: {ink: INK, minimumLength: 5}}
        - id: done
          frame: {x: 0, y: 700, width: 1920, height: 380}
          recognizers: [{id: done-tap, type: tap, action: done}]
    """

  static func scene(ink: String = "any") throws -> Scene {
    try Scene.parse(PenTouchTests.scene(views.replacingOccurrences(of: "INK", with: ink)))
  }

  /// A pen signing across the pad, fast enough to be a swipe: 1.0–1.3 s, 60 frames, then a dot.
  static func pen() -> PenScript {
    let pen = PenScript(start: 0.9)
    pen.near(.init(x: 300, y: 300), tiltX: 20)
    pen.wait(0.1)
    pen.down(pressure: 0.5)
    pen.move(to: .init(x: 900, y: 320), duration: 0.3)
    pen.up()
    pen.wait(0.2)
    pen.down(pressure: 0.3)  // a dot: shorter than minimumLength
    pen.up()
    pen.wait(0.1)
    pen.leave()
    return pen
  }

  func strokes(_ messages: [Message]) -> [StrokeMessage] {
    messages.compactMap { if case .stroke(let s) = $0 { s } else { nil } }
  }

  @Test func aPenStrokeHasAPointPerKernelFrameInThePadsPointsAndNoSwipeTakesIt() throws {
    let pen = Self.pen()
    let messages = try ScenePlayer.replay(pen.recording, scene: try Self.scene())
    let strokes = strokes(messages)
    #expect(strokes.count == 1, "the dot is dropped: \(strokes.count)")
    let stroke = try #require(strokes.first)
    #expect(stroke.view == "pad" && stroke.window == "main" && stroke.touchType == "pencil")
    // Every frame of the tip's contact: down, 60 moves, up.
    let frames = Replay.frames(of: pen.recording).filter { $0.contacts.contains { $0.pen != nil } }
    let firstStroke = frames.prefix { $0.time.seconds <= 1.31 }
    #expect(stroke.points.count == firstStroke.count, "\(stroke.points.count) of \(firstStroke.count)")
    #expect(stroke.points.map(\.time) == firstStroke.map(\.time.seconds))
    // In the pad's points: the window's less its origin (200, 100).
    let first = try #require(stroke.points.first)
    #expect(abs(first.x - 100) < 0.5 && abs(first.y - 200) < 0.5, "\(first)")
    // Pressure 512 of 0...1023, libinput's normalization (0 at unit 10, the 1 % threshold, over
    // the 1014 units to the maximum inclusive), times a pencil's maximum force.
    #expect(first.force.map { abs($0 - 502.0 / 1014 * 4.166667) < 1e-6 } == true, "\(first)")
    #expect(first.altitudeAngle.map { $0 < Double.pi / 2 } == true)
    #expect(stroke.time == stroke.points.last?.time)
    // The page's swipe never had the stroke.
    #expect(!messages.contains { if case .action(let a) = $0 { a.action == "next" } else { false } })
    // Without the pad's signature the same pen swipes the page: the isolation is the pad's.
    let plain = try Scene.parse(
      PenTouchTests.scene(Self.views.replacingOccurrences(of: ", signature: {ink: INK, minimumLength: 5}", with: "")))
    let swiped = try ScenePlayer.replay(pen.recording, scene: plain)
    #expect(swiped.contains { if case .action(let a) = $0 { a.action == "next" } else { false } })
  }

  @Test func inkPenTakesNoFingerStrokesAndAnyDoes() throws {
    let hand = FingerScript(windowWidth: 1920, windowHeight: 1080)
    hand.drag(from: .init(x: 400, y: 300), to: .init(x: 700, y: 300), duration: 0.2)
    #expect(strokes(try ScenePlayer.replay(hand.recording, scene: try Self.scene(ink: "pen"))).isEmpty)
    let any = strokes(try ScenePlayer.replay(hand.recording, scene: try Self.scene(ink: "any")))
    #expect(any.count == 1 && any.first?.touchType == "direct")
    #expect(any.first?.points.allSatisfy { $0.force == nil && $0.altitudeAngle == nil } == true)
  }

  /// The kiosk's case: the hand rests on the glass (on the done button) while the pen signs; the
  /// signature has the pen's stroke alone and done is not pressed; the client gets the signature.
  @Test func aHandRestingWhileThePenSignsPressesNothingAndTheSignatureIsThePens() throws {
    let hand = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 1.05)
    hand.tap(at: .init(x: 900, y: 900), duration: 0.15)
    hand.wait(0.1)
    let palm = hand.down([.init(x: 1200, y: 950)])
    hand.wait(0.3)
    hand.up(palm)
    let commands = [
      ScenePlayer.TimedCommand(at: 1.1, try SceneCommand.parse(json: #"{"cmd":"signature","view":"pad","do":"get"}"#)),
      ScenePlayer.TimedCommand(
        at: 1.2, try SceneCommand.parse(json: #"{"cmd":"signature","view":"pad","do":"clear"}"#)),
      ScenePlayer.TimedCommand(at: 1.3, try SceneCommand.parse(json: #"{"cmd":"signature","view":"pad","do":"get"}"#)),
    ]
    let messages = try ScenePlayer.replay(
      [Self.pen().recording, hand.recording], scene: try Self.scene(), commands: commands)
    #expect(!messages.contains { if case .action(let a) = $0 { a.action == "done" } else { false } })
    let signatures = messages.compactMap { if case .signature(let s) = $0 { s } else { nil } }
    #expect(signatures.count == 2)
    let signature = try #require(signatures.first)
    #expect(signature.strokes.count == 1 && signature.strokes.first?.touchType == "pencil")
    let points = signature.strokes.flatMap(\.points)
    let bounds = try #require(signature.bounds)
    #expect(bounds.x == points.map(\.x).min() && bounds.width == (points.map(\.x).max() ?? 0) - bounds.x)
    #expect(abs(signature.duration - ((points.last?.time ?? 0) - (points.first?.time ?? 0))) < 1e-9)
    #expect(signature.duration > 0.29 && signature.duration < 0.31)
    // Cleared: an empty signature, no bounds.
    #expect(signatures.last?.strokes.isEmpty == true && signatures.last?.bounds == nil)
    #expect(signatures.last?.jsonLine.contains(#""strokes":[],"bounds":null,"duration":0}"#) == true)
  }

  @Test func theSignatureCommandNamesAViewThatIsNoPadOrNone() throws {
    let runtime = SceneRuntime(scene: try Self.scene(), clock: VirtualClock()) { _ in }
    #expect(throws: SceneRuntimeError.invalidValue("view 'done' is not a signature view (it has no signature:)")) {
      try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"signature","view":"done","do":"get"}"#))
    }
    #expect(throws: SceneRuntimeError.unknownView("pda", suggestion: "pad")) {
      try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"signature","view":"pda","do":"get"}"#))
    }
    let reply = try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"signature","view":"pad","do":"clear"}"#))
    #expect(reply.fieldsJSON == #""view":"pad","cleared":0"#)
    let got = try runtime.apply(try SceneCommand.parse(json: #"{"cmd":"signature","view":"pad","do":"get"}"#))
    #expect(got.fieldsJSON.hasPrefix(#""view":"pad","window":"main","time":"#))
  }

  /// config/pos-signature.yaml: the pen signs on the pad while the hand rests on Done; the
  /// signature is the pen's, Done is not pressed until the hand taps it after the pen has gone.
  @Test func thePointOfSaleSceneTakesASignatureWithAHandRestingOnTheGlass() throws {
    let scene = try Scene.load(path: TestPaths.config("pos-signature.yaml").path)
    let pen = PenScript(start: 1)
    pen.near(.init(x: 400, y: 400))
    pen.down(pressure: 0.7)
    pen.move(to: .init(x: 1400, y: 450), duration: 0.5)
    pen.up()
    pen.leave()
    let hand = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 1.1)
    let palm = hand.down([.init(x: 1400, y: 900)])  // on Done, the pen near
    hand.wait(0.3)
    hand.up(palm)
    hand.wait(0.5)
    hand.tap(at: .init(x: 1400, y: 900))  // Done, the pen gone
    let messages = try ScenePlayer.replay([pen.recording, hand.recording], scene: scene)
    let log = messages.compactMap { m -> String? in
      switch m {
      case .stroke(let s): "stroke \(s.view) \(s.touchType) \(s.points.count)"
      case .action(let a): "action \(a.action)"
      default: nil
      }
    }
    // The stroke: the touch-down, 100 frames of motion (0.5 s at 200 Hz) and the lift.
    #expect(log == ["stroke pad pencil 102", "action signature-done"], "\(log)")
  }
}
