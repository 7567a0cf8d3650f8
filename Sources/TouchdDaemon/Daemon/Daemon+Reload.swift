import Dispatch
import Logging
import TouchdScene

/// A new scene in place of the running one: the scene file read again (`reload`, SIGHUP) or a
/// client's `scene` installed, with each open device kept for it or closed and opened again.
extension Daemon {
  /// What became of a reload.
  enum ReloadOutcome {
    /// The file's scene runs.
    case installed
    /// The file's scene was refused: the old one stays.
    case rejected(SceneError)
    /// A client's scene was installed while the file was read: it stays, as it would had the reload
    /// been done before it (the later of the two wins).
    case superseded

    /// What the log and the reload's error say of a superseded reload.
    static let supersededMessage =
      "scene reload dropped: a client's scene replaced the scene while the file was read, and stays"
  }

  /// Reads the scene files of reloads, one at a time in the order asked, so that of two reloads
  /// the later one's scene is installed last.
  static let sceneFileQueue = DispatchQueue(label: "touchd.reload", qos: .userInitiated)

  /// Loads the scene file again. The file is read, parsed and validated off the pipeline's queue (a
  /// scene of 10,000 rows is seconds of YAML: docs/performance.md), so touches go on through the
  /// old scene meanwhile; then, on the queue, the new scene replaces the old (``install(_:source:)``),
  /// or on failure the old one stays. `done` gets the outcome on the queue.
  func reload(reason: String, done: @escaping @Sendable (ReloadOutcome) -> Void = { _ in }) {
    dispatchPrecondition(condition: .onQueue(queue))
    notifier.reloading()
    let path = options.scenePath
    let pushes = counters.scenePushes
    Self.sceneFileQueue.async { [unowned self] in
      let loaded = Result { () throws(SceneError) in try Scene.loadDocument(path: path) }
      queue.async { [unowned self] in
        settleInput()
        done(finishReload(loaded, reason: reason, pushesBefore: pushes))
      }
    }
  }

  /// A reload's file read: installed unless refused, or unless a client's scene was installed since
  /// the reload was asked (`pushesBefore`: the pushes counted then).
  private func finishReload(
    _ loaded: Result<SceneDocument, SceneError>, reason: String, pushesBefore: Int
  ) -> ReloadOutcome {
    dispatchPrecondition(condition: .onQueue(queue))
    switch loaded {
    case .failure(let error):
      counters.reloadFailures += 1
      logger.error(
        "scene reload rejected; the old scene stays",
        metadata: ["reason": "\(reason)", "errors": "\(error.diagnostics.count)"])
      for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
      notifier.reloaded(status: "reload rejected; \(statusLine())")
      return .rejected(error)
    case .success(let newScene):
      guard counters.scenePushes == pushesBefore else {
        logger.notice(
          "\(ReloadOutcome.supersededMessage)", metadata: ["reason": "\(reason)", "scene": "\(options.scenePath)"])
        notifier.reloaded(status: statusLine())
        return .superseded
      }
      install(newScene, source: .file)
      counters.reloads += 1
      logger.info("scene reloaded", metadata: ["reason": "\(reason)", "scene": "\(options.scenePath)"])
      notifier.reloaded(status: statusLine())
      return .installed
    }
  }

  /// Where a new scene came from, as the `reloaded` notice's `source` names it.
  enum SceneSource: String {
    /// The scene file, read again (`reload`, SIGHUP).
    case file
    /// A client's `scene` command.
    case client
  }

  /// Puts `newScene` in place of the running scene: touches and presses down are cancelled (their
  /// fingers and keys are ignored until they lift), the running calibration ends, devices are
  /// matched again to the new windows (``keepOrReopenDevices()``); `seq` and the idle state go on.
  /// Every client gets a `reloaded` notice naming the `source`.
  func install(_ newScene: SceneDocument, source: SceneSource) {
    dispatchPrecondition(condition: .onQueue(queue))
    runtime.application.cancelTouches()
    // The cancels reach the virtual touchscreens now: palm, then lift, so the compositor sees
    // wl_touch.cancel whether the virtual touchscreen stays or goes.
    runtime.flushForwarding()
    // Presses down end cancelled for the old scene's clients, as touches do. Each device forgets
    // what is down, so a finger or key held through the change is ignored until it lifts.
    for path in devices.keys.sorted() {
      guard let live = devices[path] else { continue }
      for case .keys(let frame) in live.device.cancelAll() { deliver(.keys(frame), from: live) }
    }
    if let replay {
      replay.cancelKeys(at: clock.now) { index, frame in deliver(frame, replayed: index, by: replay) }
    }
    runtime.cancelCalibration(source == .file ? "the scene was reloaded" : "a client replaced the scene")
    runtime.isTracing = false
    runtime.sink = { _ in }
    runtime.speaker = nil
    let seq = runtime.nextSequenceNumber
    let previous = runtime!
    let previousDocument = loaded
    loaded = newScene
    runtime = makeRuntime(newScene)
    runtime.nextSequenceNumber = seq
    runtime.continueIdle(from: previous)
    if let replay {
      replay.routes = replay.recordings.map { recording in
        do {
          return try ScenePlayer.route(recording, in: runtime)
        } catch {
          logger.error(
            "the new scene takes no frames of a replayed recording; they are dropped",
            metadata: ["recording": "\(recording.source)", "error": "\(error)"])
          return ScenePlayer.Route(touchWindow: nil, keyWindow: nil)
        }
      }
      registerReplayedDevices(replay.recordings)
    } else {
      keepOrReopenDevices(previous: previous)
      // Enumerate again: the new scene may take other touchscreens and key devices.
      openPresentDevices()
      // The new runtime knows the devices kept too (those opened again told it themselves).
      for live in devices.values { registerDevice(live) }
    }
    server.setHello(hello().jsonLine, notice: reloaded(source: source).jsonLine)
    Retired(runtime: consume previous, document: consume previousDocument).free()
  }

  /// A replaced scene's runtime and document, freed on another thread: a catalogue's list of
  /// 10,000 rows is tens of milliseconds of freeing (docs/performance.md, "The push on two cores")
  /// that would hold the pipeline's queue, and touches, after the new scene is live. Safe because
  /// nothing runs in their freeing but releases (TouchDelivery's and TouchdScene's classes have no
  /// `deinit`), and Swift's reference counts are atomic: whatever the pipeline still holds of them
  /// (a timer's closure) stays alive and is freed where its last reference goes.
  private final class Retired: @unchecked Sendable {
    private var runtime: SceneRuntime?
    private var document: SceneDocument?

    init(runtime: SceneRuntime, document: SceneDocument) {
      self.runtime = runtime
      self.document = document
    }

    /// Hands the last references to a utility thread, which drops them.
    func free() {
      DispatchQueue.global(qos: .utility).async { [self] in
        runtime = nil
        document = nil
      }
    }
  }

  /// Matches each open device to the new scene. One the new scene takes as the old one did (the
  /// same windows, the same grab, and when forwarded the same virtual touchscreen: the window's
  /// `forward:` unchanged) stays open: its grab is held through the change and its virtual
  /// touchscreen stays, so the compositor sees no device go and come. Any other is closed, and
  /// opened again by ``openPresentDevices()`` when the new scene takes it. `previous`: the old
  /// scene's runtime.
  private func keepOrReopenDevices(previous: SceneRuntime) {
    for path in devices.keys.sorted() {
      guard let live = devices[path] else { continue }
      if keeps(live, previous: previous) {
        var metadata: Logger.Metadata = ["device.path": "\(path)", "grabbed": "\(live.device.device.isGrabbed)"]
        if let window = live.touchWindow { metadata["window"] = "\(scene.windows[window].id)" }
        if let window = live.keyWindow { metadata["keys.window"] = "\(scene.windows[window].id)" }
        metadata["forward"] = "\(forwarding.isForwarding(source: live.source))"
        logger.info("input device kept for the new scene", metadata: metadata)
      } else {
        closeDevice(path, cancelTouches: false, cancelKeys: false)
      }
    }
  }

  /// Whether the new scene takes `live` as the old one did; when it forwards it, the device's
  /// virtual touchscreen is then the new scene's.
  private func keeps(_ live: LiveDevice, previous: SceneRuntime) -> Bool {
    // An open device has a role, so an equal one is not empty.
    let now = role(of: live.device.device)
    guard now == Role(touchWindow: live.touchWindow, keyWindow: live.keyWindow) else { return false }
    let forwards = now.touchWindow.map { scene.windows[$0].forward != nil } ?? false
    // A device that could not forward (no uinput) is opened again: the new scene tries again.
    guard forwards == forwarding.isForwarding(source: live.source),
      grabs(now, forwards: forwards) == live.device.device.isGrabbed
    else { return false }
    if forwards, let window = now.touchWindow {
      return forwarding.carryOver(
        live.device.description, source: live.source, window: window, from: previous, to: runtime)
    }
    return true
  }
}
