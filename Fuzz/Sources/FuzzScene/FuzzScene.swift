import FuzzSupport
import TouchDelivery
import TouchdInput
import TouchdScene

/// One input: scene YAML, read as `touchctl check` and the daemon read a scene file
/// (``Scene/parse(_:file:)``: parse, validate, decode). Properties checked:
/// - a rejected input gets at least one diagnostic, and every diagnostic names the file, a line of
///   the input and a column (`file:line:column: error: message`), and comes from the validator: a
///   scene the validator passes decodes;
/// - an accepted scene comes to life as the daemon builds it (``SceneRuntime``) and takes input in
///   every window: the scene's devices matched against a touchscreen's name, a tap, a two-finger
///   drag across the window, a long hold and each key of `keys.map` pressed and released, every
///   timer run out, every message encoded as its JSON line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let text = String(decoding: fuzzBytes(data, size), as: UTF8.self)
  let file = "fuzz.yaml"
  let scene: Scene
  do {
    scene = try Scene.parse(text, file: file)
  } catch {
    checkPlaces(error, file: file, text: text)
    return 0
  }
  exercise(scene)
  return 0
}

/// Every diagnostic names the file, a line of `text` and a column.
func checkPlaces(_ error: SceneError, file: String, text: String) {
  guard !error.diagnostics.isEmpty else { fuzzFailure("a scene rejected without a diagnostic") }
  let lines = lineCount(text, breaks: .yaml)
  for diagnostic in error.diagnostics {
    guard diagnostic.file == file, (1...lines).contains(diagnostic.line), diagnostic.column >= 1,
      !diagnostic.message.isEmpty,
      diagnostic.description == "\(file):\(diagnostic.line):\(diagnostic.column): error: \(diagnostic.message)"
    else {
      fuzzFailure("a diagnostic without its place (lines 1...\(lines)): \(diagnostic)")
    }
    // The validator names what is wrong and why; the decoder's own error (`cannot decode the
    // scene`, SceneDecoding.swift) means the validator let through what the decoder refuses.
    guard !diagnostic.message.hasPrefix("cannot decode the scene") else {
      fuzzFailure("the validator passed a scene the decoder refused: \(diagnostic)")
    }
  }
}

/// Builds the scene's runtime and feeds every window a few gestures and its keys.
func exercise(_ scene: Scene) {
  let clock = VirtualClock(now: 0)
  var bytes = 0
  let runtime = SceneRuntime(scene: scene, clock: clock) { message in bytes += message.jsonLine.utf8.count }
  runtime.isTracing = true
  _ = runtime.windowIndex(for: touchscreen, path: "/dev/input/event5")
  _ = runtime.keyWindowIndex(for: touchscreen, path: "/dev/input/event5")
  let ids = TouchIDAllocator()
  var time = 0.0
  func frame(_ window: Int, _ contacts: [Contact]) {
    time += 0.016
    clock.advance(to: time)
    runtime.handle(
      TouchFrame(time: Timestamp(microseconds: Int64(time * 1_000_000)), contacts: contacts), inWindow: window)
  }
  for window in scene.windows.indices {
    // A tap in the middle.
    let tap = ids.next()
    frame(window, [Contact(id: tap, phase: .began, x: 0.5, y: 0.5, majorRadius: 0.01, force: 0.5)])
    frame(window, [Contact(id: tap, phase: .ended, x: 0.5, y: 0.5, majorRadius: 0.01, force: 0.5)])
    // Two fingers dragged from the top left to the bottom right, past the edges.
    let (a, b) = (ids.next(), ids.next())
    for step in 0...20 {
      let t = Double(step) / 20
      let phase: TouchPhase = step == 0 ? .began : step == 20 ? .ended : .moved
      frame(
        window,
        [
          Contact(id: a, phase: phase, x: max(0, min(1, -0.05 + 1.1 * t)), y: max(0, min(1, 0.1 + 0.8 * t))),
          Contact(id: b, phase: phase, x: max(0, min(1, 0.1 + 0.85 * t)), y: max(0, min(1, 0.3 + 0.7 * t))),
        ])
    }
    // A long hold near the left edge, then a cancel.
    let hold = ids.next()
    frame(window, [Contact(id: hold, phase: .began, x: 0, y: 0.4)])
    clock.advance(to: time + 1.5)
    time += 1.5
    frame(window, [Contact(id: hold, phase: .cancelled, x: 0, y: 0.4)])
    // Each mapped key down and up.
    for name in (scene.windows[window].keys?.map.keys).map({ $0.sorted() }) ?? [] {
      guard let code = EventNames.keyCode(named: name) else { continue }
      for phase in [KeyPhase.down, .up] {
        time += 0.05
        clock.advance(to: time)
        runtime.handle(
          KeyFrame(
            time: Timestamp(microseconds: Int64(time * 1_000_000)), changes: [KeyChange(code: code, phase: phase)]),
          inWindow: window)
      }
    }
  }
  clock.runUntilIdle()
  _ = bytes
}

/// A touchscreen whose name, id and path the scene's `devices:` globs are matched against.
let touchscreen = DeviceDescription(
  name: "Atmel maXTouch Touchscreen (fuzz) with a long name: *?[]{}\\ ümlaut",
  id: InputID(bustype: 0x18, vendor: 0x03eb, product: 0x8c0e, version: 0),
  properties: [1], events: [0: [0, 1, 3], 3: [53, 54, 57, 47]], absInfo: [:])

@_cdecl("FuzzScene_main")
func fuzzSceneMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv, fuzzScene)
}
