import Testing
import TouchDelivery
import TouchdInput
import TouchdTestKit

@testable import TouchdScene

@Suite("Scene runtime")
struct SceneRuntimeTests {
  /// A recognizer of `type` with `parameters` and, for every other parameter of its type, the
  /// scene format's default given explicitly (``Scene/Recognizer/parameter(_:)``): the runtime
  /// applies only what a scene gives, so the format's defaults are compared with the classes'
  /// own through the recognizer built.
  func recognizer(_ type: RecognizerType, _ parameters: [String: Scene.Parameter] = [:]) -> GestureRecognizer {
    let plain = Scene.Recognizer(id: "r", type: type, action: "a")
    var all = parameters
    for key in SceneFormat.parameters(of: type) where all[key.name] == nil { all[key.name] = plain.parameter(key.name) }
    return SceneRuntime.makeRecognizer(Scene.Recognizer(id: "r", type: type, action: "a", parameters: all))
  }

  @Test("The format's documented defaults are the recognizers' own defaults")
  func defaultsMatchRecognizers() throws {
    let tap = try #require(recognizer(.tap) as? TapGestureRecognizer)
    let freshTap = TapGestureRecognizer()
    #expect(tap.numberOfTapsRequired == freshTap.numberOfTapsRequired)
    #expect(tap.allowableMovement == freshTap.allowableMovement)
    #expect(tap.maximumTapDuration == freshTap.maximumTapDuration)
    #expect(tap.maximumIntervalBetweenTaps == freshTap.maximumIntervalBetweenTaps)
    #expect(tap.allowableTouchTimeSeparation == freshTap.allowableTouchTimeSeparation)
    let press = try #require(recognizer(.longPress) as? LongPressGestureRecognizer)
    let freshPress = LongPressGestureRecognizer()
    #expect(press.minimumPressDuration == freshPress.minimumPressDuration)
    #expect(press.allowableMovement == freshPress.allowableMovement)
    #expect(press.numberOfTapsRequired == freshPress.numberOfTapsRequired)
    let pan = try #require(recognizer(.pan) as? PanGestureRecognizer)
    #expect(pan.startDistance == PanGestureRecognizer().startDistance)
    #expect(pan.maximumNumberOfTouches == Int.max)
    let swipe = try #require(recognizer(.swipe) as? SwipeGestureRecognizer)
    let freshSwipe = SwipeGestureRecognizer()
    #expect(swipe.direction == freshSwipe.direction)
    #expect(swipe.minimumPrimaryMovement == freshSwipe.minimumPrimaryMovement)
    #expect(swipe.maximumSecondaryMovement == freshSwipe.maximumSecondaryMovement)
    #expect(swipe.rateOfMinimumMovementDecay == freshSwipe.rateOfMinimumMovementDecay)
    #expect(swipe.rateOfMaximumMovementDecay == freshSwipe.rateOfMaximumMovementDecay)
    #expect(swipe.maximumDuration == freshSwipe.maximumDuration)
    let swipeDefaults = Dictionary(
      uniqueKeysWithValues: SceneFormat.parameters(of: .swipe).compactMap { key in
        key.defaultValue.map { (key.name, $0) }
      })
    #expect(swipeDefaults["minimumPrimaryMovement"] == .number(freshSwipe.minimumPrimaryMovement))
    #expect(swipeDefaults["maximumSecondaryMovement"] == .number(freshSwipe.maximumSecondaryMovement))
    #expect(swipeDefaults["rateOfMinimumMovementDecay"] == .number(freshSwipe.rateOfMinimumMovementDecay))
    #expect(swipeDefaults["rateOfMaximumMovementDecay"] == .number(freshSwipe.rateOfMaximumMovementDecay))
    #expect(swipeDefaults["maximumDuration"] == .number(freshSwipe.maximumDuration))
    let pinch = try #require(recognizer(.pinch) as? PinchGestureRecognizer)
    #expect(pinch.startDistance == PinchGestureRecognizer().startDistance)
    let rotation = try #require(recognizer(.rotation) as? RotationGestureRecognizer)
    #expect(rotation.startDistance == RotationGestureRecognizer().startDistance)
    let edge = try #require(
      recognizer(.screenEdgePan, ["edges": .options(["left"])]) as? ScreenEdgePanGestureRecognizer)
    let freshEdge = ScreenEdgePanGestureRecognizer()
    #expect(edge.edgeZoneWidth == freshEdge.edgeZoneWidth)
    #expect(edge.maximumNumberOfTouches == freshEdge.maximumNumberOfTouches)
    #expect(edge.startDistance == freshEdge.startDistance)
    #expect(edge.delaysTouchesBegan == freshEdge.delaysTouchesBegan)
    #expect(edge.edges == .left)
  }

  @Test("Parameters and option sets reach the recognizers")
  func parametersApplied() throws {
    let swipe = try #require(
      recognizer(.swipe, ["direction": .options(["left", "up"]), "numberOfTouchesRequired": .integer(2)])
        as? SwipeGestureRecognizer)
    #expect(swipe.direction == [.left, .up])
    #expect(swipe.numberOfTouchesRequired == 2)
    let tuned = try #require(
      recognizer(
        .swipe,
        [
          "minimumPrimaryMovement": .number(80), "maximumSecondaryMovement": .number(20),
          "rateOfMinimumMovementDecay": .number(0.5), "rateOfMaximumMovementDecay": .number(0.25),
          "maximumDuration": .number(0.8),
        ]) as? SwipeGestureRecognizer)
    #expect(tuned.minimumPrimaryMovement == 80)
    #expect(tuned.maximumSecondaryMovement == 20)
    #expect(tuned.rateOfMinimumMovementDecay == 0.5)
    #expect(tuned.rateOfMaximumMovementDecay == 0.25)
    #expect(tuned.maximumDuration == 0.8)
    let press = try #require(
      recognizer(.longPress, ["minimumPressDuration": .integer(2), "numberOfTouchesRequired": .integer(5)])
        as? LongPressGestureRecognizer)
    #expect(press.minimumPressDuration == 2)
    #expect(press.numberOfTouchesRequired == 5)
    let edge = try #require(recognizer(.screenEdgePan, ["edges": .options(["all"])]) as? ScreenEdgePanGestureRecognizer)
    #expect(edge.edges == .all)
  }

  @Test("The view tree, requirements and simultaneity are built as the scene says")
  func builtTree() throws {
    let scene = try Scene.parse(try readText(TestPaths.config("photo-viewer.yaml")))
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    let photo = try #require(runtime.view("photo"))
    #expect(photo.isMultipleTouchEnabled)
    #expect(runtime.view("close")?.superview === photo)
    #expect(runtime.windows.first?.identifier == "viewer")
    let pinch = try #require(photo.gestureRecognizers.first { $0.name == "photo-pinch" })
    let rotate = try #require(photo.gestureRecognizers.first { $0.name == "photo-rotate" })
    let reset = try #require(photo.gestureRecognizers.first { $0.name == "photo-reset" })
    #expect(pinch.delegate?.gestureRecognizer(pinch, shouldRecognizeSimultaneouslyWith: rotate) == true)
    #expect(pinch.delegate?.gestureRecognizer(pinch, shouldRecognizeSimultaneouslyWith: reset) == false)

    let carousel = SceneRuntime(
      scene: try Scene.parse(try readText(TestPaths.config("carousel.yaml"))), clock: VirtualClock()
    ) {
      _ in
    }
    let slideTap = try #require(carousel.view("slide")?.gestureRecognizers.first)
    #expect(slideTap.failureRequirements.map(\.name) == ["next", "previous"])
  }

  @Test("Devices pick the first window whose globs match name, vendor:product or path")
  func deviceMatching() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - {id: left, size: {width: 10, height: 10}, devices: ["eGalax*", "/dev/input/by-path/*usb-0:1*"]}
        - {id: right, size: {width: 10, height: 10}, devices: ["0eef:72a1"]}
        - {id: rest, size: {width: 10, height: 10}}
      """)
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    func device(_ name: String, _ vendor: UInt16 = 1, _ product: UInt16 = 2) -> DeviceDescription {
      DeviceDescription(name: name, id: InputID(bustype: 3, vendor: vendor, product: product, version: 1))
    }
    #expect(runtime.windowIndex(for: device("eGalax Inc. USB TouchController")) == 0)
    #expect(runtime.windowIndex(for: device("Other"), path: "/dev/input/by-path/pci-usb-0:1.2-event") == 0)
    #expect(runtime.windowIndex(for: device("Other", 0x0eef, 0x72a1)) == 1)
    #expect(runtime.windowIndex(for: device("Other")) == 2)
    #expect(globMatch("ev[0-9]", "ev7") && !globMatch("ev[!0-9]", "ev7") && globMatch("a?c", "abc"))
  }

  @Test("A hidden or non-interactive view stops getting taps; unknown ids are errors")
  func runtimeChanges() throws {
    let scene = try Scene.parse(try readText(TestPaths.config("kiosk.yaml")))
    let clock = VirtualClock()
    var actions: [String] = []
    let runtime = SceneRuntime(scene: scene, clock: clock) { message in
      if case .action(let a) = message { actions.append(a.action) }
    }
    func tap(_ x: Double, _ y: Double) {
      let script = FingerScript(start: clock.now + 1)
      script.tap(at: .init(x: x, y: y))
      Replay.forEachFrame(of: script.recording) { frame in
        clock.advance(to: frame.time.seconds)
        runtime.handle(frame, from: script.device)
      }
      clock.advance(to: clock.now + 1)
    }
    tap(400, 480)
    try runtime.setView("buy-ticket", hidden: true)
    tap(400, 480)
    try runtime.setView("buy-ticket", hidden: false, userInteractionEnabled: false)
    tap(400, 480)
    try runtime.setView(
      "buy-ticket", userInteractionEnabled: true, frame: Scene.Frame(x: 0, y: 0, width: 100, height: 100))
    tap(50, 50)
    runtime.beginIgnoringInteraction()
    tap(50, 50)
    try runtime.endIgnoringInteraction()
    tap(50, 50)
    #expect(actions == ["buy-ticket", "buy-ticket", "buy-ticket"])
    #expect(throws: SceneRuntimeError.unknownView("buy-tiket", suggestion: "buy-ticket")) {
      try runtime.setView("buy-tiket", hidden: true)
    }
    #expect(throws: SceneRuntimeError.self) { try runtime.setView("help", alpha: 2) }
  }

  @Test("A recording from a device no window takes is refused")
  func noWindow() throws {
    let scene = try Scene.parse(
      "version: 1\nwindows: [{id: w, size: {width: 10, height: 10}, devices: [\"nothing\"]}]\n")
    let script = FingerScript()
    script.tap(at: .init(x: 1, y: 1))
    #expect(throws: SceneRuntimeError.noWindow(device: SyntheticTouchscreen.name)) {
      try ScenePlayer.replay(script.recording, scene: scene)
    }
  }
}
