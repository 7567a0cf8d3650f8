// The runtime's type: its state and the objects it builds from the scene, the idle state and `seq`
// a reload carries over. Input, run-time changes, building and messages are in SceneRuntime+*.swift.
import TouchDelivery
import TouchdInput

/// Why a runtime request was refused.
public enum SceneRuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No view has this id; `suggestion` is a close id, if any.
  case unknownView(String, suggestion: String?)
  /// No window has this id; `suggestion` is a close id, if any.
  case unknownWindow(String, suggestion: String?)
  /// An alpha outside 0...1 or a negative size.
  case invalidValue(String)
  /// No window of the scene takes touches from this device.
  case noWindow(device: String)
  /// A recording's device is not a touchscreen (`Recording.notTouchscreenMessage`).
  case notTouchscreen(String)
  /// A replay's timed command (``ScenePlayer/TimedCommand``) failed; `label` names it.
  indirect case timedCommand(label: String, error: SceneRuntimeError)

  public var description: String {
    switch self {
    case .unknownView(let id, let suggestion):
      "unknown view '\(id)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .unknownWindow(let id, let suggestion):
      "unknown window '\(id)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .invalidValue(let message): message
    case .noWindow(let device): "no window of the scene takes touches from '\(device)'"
    case .notTouchscreen(let message): message
    case .timedCommand(let label, let error): "\(label): \(error)"
    }
  }
}

/// A scene brought to life: the application, windows, views and recognizers built from a
/// ``Scene``, delivering frames and publishing ``Message``s. The daemon drives it live on its
/// clock; ``ScenePlayer`` drives it on virtual time for replays.
///
/// # Thread safety
/// Not thread-safe: one owner calls every method, on the queue that owns the clock.
public final class SceneRuntime {
  /// The scene as running: the file's, with the windows' `set` changes (rotation, calibration,
  /// size) applied.
  public internal(set) var scene: Scene
  public let application: Application
  /// The windows, in the scene's order (front to back).
  public let windows: [TouchDelivery.Window]
  /// Where messages go, in order.
  public var sink: (Message) -> Void
  /// Where VoiceOver's speech goes (the daemon's speech output); nil: nothing is spoken, and the
  /// accessibility messages are published all the same.
  public var speaker: ((SpeechRequest) -> Void)?

  /// Every view by its id (Updates/ adds and removes them).
  var viewsByID: [String: TouchDelivery.View] = [:]
  /// Every recognizer by its id.
  var recognizersByID: [String: GestureRecognizer] = [:]
  /// Each page control with `pages:` bound to its scroll view, by the control's id
  /// (SceneRuntime+Pages.swift).
  var pageBindings: [String: PageBinding] = [:]
  /// Each window's VoiceOver, nil where it is off (Accessibility/SceneRuntime+VoiceOver.swift).
  var voiceOvers: [VoiceOverState?] = []
  /// Contacts down when VoiceOver turned off, ignored until they lift.
  var voiceOverIgnored: Set<TouchID> = []
  /// How many taps VoiceOver has made to activate elements (their contact ids).
  var voiceOverTaps: UInt64 = 0
  private var nextSeq = 1
  var frameTime: Double?
  /// The touches' recorded frames while ``touchesEntries`` is not empty (TouchMotion.swift).
  var touchMotion: TouchMotion?
  /// The optional entries touches messages carry (`coalesced`, `predicted`: what some subscriber
  /// asks for). Empty by default: then no frame is recorded and touches messages are as before.
  /// Setting it starts recording afresh.
  public var touchesEntries: TouchesMessage.Entries {
    get { touchMotion?.entries ?? [] }
    set { touchMotion = newValue.isEmpty ? nil : TouchMotion(entries: newValue) }
  }
  let simultaneity = SimultaneityDelegate()
  /// ``mapping(forWindow:)`` of every window (changed by ``setWindow(_:_:)`` only).
  var mappings: [ScreenMapping] = []
  /// Each window's `keys.map`, by key code: the key's name and the press type it makes.
  private(set) var keyMaps: [[UInt16: (name: String, type: PressType)]] = []
  /// The scene's `idle:` (nil without one).
  private(set) var idleMonitor: IdleMonitor?
  /// Whether the scene is idle (`idle:`): its next input wakes it, and may be swallowed.
  var isIdle: Bool { idleMonitor?.isIdle ?? false }
  /// The virtual touchscreens of windows with `forward:` (SceneForwarding.swift), nil until one is added.
  var forwarding: SceneForwarding?
  /// The `calibrate` command collecting a window's touches (Calibration/), nil when none runs.
  var calibration: CalibrationSession?
  /// Where the calibration's result goes.
  var calibrationCompletion: ((Result<CalibrationFit, CalibrationError>) -> Void)?
  /// Touchscreen health (``health``, Health/SceneRuntime+Health.swift), nil when not kept.
  var healthMonitor: TouchHealth?
  /// The pens and touchscreens the runtime was told of, and which of their touches a pen near
  /// rejects (Pens/PenArbitration.swift).
  lazy var penArbitration = PenArbitration(scene: scene)
  /// Each pen's barrel buttons held, and the window its presses go to (Pens/SceneRuntime+Pens.swift).
  var penBarrels: [Int: PenButtons] = [:]
  var penBarrelWindows: [Int: Int] = [:]
  /// The signature pads and their strokes (Pens/SignatureCapture.swift).
  let signatures = SignatureCapture()
  /// Told each time a recognizer leaves `.possible` (``Application/recognizerOutcomeObserver``,
  /// which the runtime keeps for health): the daemon counts outcomes for its metrics.
  public var recognizerOutcomeObserver: ((GestureRecognizer, _ recognized: Bool) -> Void)?
  /// Told of each touch the stuck-touch rule cancels (``Application/onStuckTouch``, which the
  /// runtime keeps for health): the daemon counts and logs them.
  public var stuckTouchObserver: ((Touch) -> Void)?

  /// The JSON the scene was read from (``SceneDocument``), which `update` edits; nil for a runtime
  /// built from a ``Scene`` alone, which takes no `update`.
  public internal(set) var document: StrictJSON?
  /// How many updates changed ``document`` since the runtime was built.
  public internal(set) var documentVersion = 0

  /// Builds the objects of a scene read with its JSON (``Scene/loadDocument(path:maximumBytes:)``,
  /// ``Scene/parseDocument(json:name:)``): it takes `update` commands.
  public convenience init(document: SceneDocument, clock: TouchClock, sink: @escaping (Message) -> Void) {
    self.init(scene: document.scene, clock: clock, sink: sink)
    self.document = document.json
  }

  /// Builds the scene's objects on `clock`. `sink` receives every message.
  public init(scene: Scene, clock: TouchClock, sink: @escaping (Message) -> Void) {
    self.scene = scene
    self.sink = sink
    application = Application(clock: clock)
    application.stuckTouchTimeout = scene.stuckTouchTimeout
    var windows: [TouchDelivery.Window] = []
    var pending: [(GestureRecognizer, Scene.Recognizer)] = []
    // A list of thousands of rows registers thousands of ids: room for all of them at once rather
    // than growing (and rehashing) as they come.
    let counts = scene.counts
    viewsByID.reserveCapacity(counts.views)
    recognizersByID.reserveCapacity(counts.recognizers)
    for spec in scene.windows {
      let window = TouchDelivery.Window(frame: Rect(x: 0, y: 0, width: spec.size.width, height: spec.size.height))
      window.identifier = spec.id
      windows.append(window)
    }
    self.windows = windows
    mappings = scene.windows.indices.map(mapping(forWindow:))
    for (spec, window) in zip(scene.windows, windows) {
      application.addWindow(window)
      for viewSpec in spec.views {
        window.addSubview(build(viewSpec, window: spec, pending: &pending))
      }
    }
    for (spec, window) in zip(scene.windows, windows) {
      if let id = spec.firstResponder { window.firstResponder = viewsByID[id] }
      var keys: [UInt16: (name: String, type: PressType)] = [:]
      for (name, type) in spec.keys?.map ?? [:] {
        if let code = EventNames.keyCode(named: name) { keys[code] = (name, PressType(type)) }
      }
      keyMaps.append(keys)
    }
    if let idle = scene.idle {
      idleMonitor = IdleMonitor(
        idle, clock: clock, isInputDown: { [application] in application.isTouchOrPressDown },
        publish: { [weak self] isIdle, time, swallowed in self?.publishIdle(isIdle, time: time, swallowed: swallowed) })
    }
    wire(pending)
    bindPageControls()
    installHealthHooks()
    voiceOvers = Array(repeating: nil, count: windows.count)
    for (index, spec) in scene.windows.enumerated() where spec.voiceOver {
      setVoiceOver(true, inWindow: index, publish: false)
    }
  }

  /// Links each of `pending`'s recognizers to those its spec names (`requireToFail`,
  /// `simultaneousWith`), among every recognizer of the scene.
  func wire(_ pending: [(GestureRecognizer, Scene.Recognizer)]) {
    for (recognizer, spec) in pending {
      for id in spec.requireToFail { if let other = recognizersByID[id] { recognizer.require(toFail: other) } }
      for id in spec.simultaneousWith {
        guard let other = recognizersByID[id] else { continue }
        simultaneity.allow(recognizer, other)
        recognizer.delegate = simultaneity
        other.delegate = simultaneity
      }
    }
  }

  // MARK: Idle

  /// The scene's idle state, nil when the scene has no `idle:`: whether it is idle, and the time
  /// of the last touch or press (nil before the first).
  public var idleState: (isIdle: Bool, lastInput: Double?)? {
    idleMonitor.map { ($0.isIdle, $0.lastInput) }
  }

  /// Takes over the idle state of the runtime this one replaces (a scene reload), so that a
  /// reload neither wakes an idle screen nor restarts the time without input.
  public func continueIdle(from previous: SceneRuntime) {
    previous.idleMonitor?.stop()
    guard let idleMonitor, let state = previous.idleState else { return }
    idleMonitor.continueFrom(isIdle: state.isIdle, lastInput: state.lastInput)
  }

  // MARK: Sequence numbers

  /// The `seq` the next message gets. A daemon that replaces its runtime (a scene reload)
  /// carries it over, so `seq` keeps increasing for its clients.
  public var nextSequenceNumber: Int {
    get { nextSeq }
    set { nextSeq = newValue }
  }

  func takeSeq() -> Int {
    defer { nextSeq += 1 }
    return nextSeq
  }
}
