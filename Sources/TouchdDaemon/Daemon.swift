import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers
import TouchDelivery
import TouchdDevices
import TouchdInput
import TouchdScene

#if canImport(Glibc)
  import Glibc
#endif

/// The running daemon: devices (or replayed recordings) → scene runtime → socket clients.
///
/// # Threads
/// One serial queue, ``queue``, owns the whole pipeline: devices are read, frames assembled and
/// delivered, recognizer timers fire, and commands that change the scene run there. Input wakes it
/// through a thread of its own, ``InputThread``, asleep on the devices' epoll set (``DevicePoll``: no
/// device has a source of its own, so unplugging tears nothing down), which runs the reads on the
/// queue with `sync`: the kernel wakes the thread that reads. Dispatch sources wake it for the rest:
/// one on the udev monitor, one timer armed only while a recognizer timeout is pending
/// (``DispatchClock``), and signal sources. The socket
/// server runs on its own event loop; a frame's messages are written to the clients' sockets from
/// the queue itself (non-blocking, see ``SocketServer/publish(_:kernelTime:)``), never waiting.
///
/// # Devices
/// A touchscreen feeds the first window whose `devices` match it. A key device (keys that make
/// presses, `KeyAssembler.hasKeys`) is taken only when a window's `keys.devices` names it:
/// keyboards are everywhere, so the scene opts in. A touchscreen a window's `keys.devices` names
/// too is read once, its touches to its window and its keys to that window. A window's `grab`
/// grabs the devices it takes, for touches or for keys. Devices are found at start, on hotplug
/// and again on a scene reload; a device that goes away has its touches and keys cancelled.
public final class Daemon: CommandHandler, @unchecked Sendable {
  /// The pipeline queue.
  public let queue = DispatchQueue(label: "touchd.pipeline")
  private let options: DaemonOptions
  private let logger: Logger
  private let notifier = SystemdNotifier()
  private let ids = TouchIDAllocator()
  private var clock: DispatchClock!
  /// The scene read at start (the file), until the runtime is built from it.
  private var loaded: SceneDocument
  /// The scene as running: the file's or a client's, with its updates and window changes.
  private var scene: Scene { runtime?.scene ?? loaded.scene }
  private var runtime: SceneRuntime!
  /// The device whose touches a running calibration collected last: the reply names it, and its
  /// udev calibration goes into the reply's `udevMatrix`.
  private var calibrationDevice: (path: String, name: String, calibration: CalibrationMatrix?)?
  /// The number of the client whose calibration runs (``ClientInfo/number``).
  private var calibrationClient: Int?
  private var server: SocketServer!
  private var devices: [String: LiveDevice] = [:]
  private var monitor: DeviceMonitor?
  private var monitorSource: DispatchSourceRead?
  /// The open devices' fds, and the thread that waits on them all.
  private var poll: DevicePoll?
  private var inputThread: InputThread?
  /// The path of each device in ``poll``, by its token.
  private var polledPaths: [UInt64: String] = [:]
  private var sources: [DispatchSourceProtocol] = []
  private var replay: ReplayFeeder?
  /// Whether a client subscribes to `trace` messages: the runtime traces only then.
  private var tracing = false
  /// The message types at least one client subscribes to, as the server last reported them (from
  /// its event loop; read by the pipeline per message). Encoding is skipped for the others: a
  /// view with `touches: true` then costs no JSON while nobody reads its touches.
  private let subscribedTypes = NIOLockedValueBox<Set<String>>([])
  private var counters = PipelineCounters()
  /// This run of the daemon, in `hello`: a client that reconnects and finds the same instance
  /// knows that `seq` went on counting, so a jump in it is messages it missed; another instance
  /// (a restart) counts from 1 again. 64 random bits in 16 hex digits.
  let instance: String = {
    let hex = String(UInt64.random(in: .min ... .max), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }()
  /// Each stage's latency over the last live frames (`status` → `latency`).
  private var latency = PipelineLatency()
  /// The kernel time of the live frame being delivered (nil otherwise): its messages are
  /// collected in ``outbound`` and handed to the server together.
  private var liveFrameTime: Int64?
  /// When the live frame's last message was encoded.
  private var frameEncoded: Int64?
  /// When the live frame's first forwarded batch was written to its virtual touchscreen.
  private var frameForwarded: Int64?
  /// The live frame's messages, handed to the server in one batch once delivery returns.
  private var outbound: [OutboundMessage] = []
  private var shuttingDown = false

  /// Tells each device's presses and forwarded touches apart (`SceneRuntime.handle(_:inWindow:source:)`).
  private var nextSource = 0
  /// The virtual touchscreens of the touchscreens windows with `forward:` take.
  private let forwarding: LiveForwarding

  /// A device being read, and the windows it feeds.
  private final class LiveDevice {
    let device: InputDevice
    /// The window its touches go to; nil when only its keys are read.
    let touchWindow: Int?
    /// The window its keys go to; nil when only its touches are read.
    let keyWindow: Int?
    /// The `source` of its key frames and of its touch frames: its presses and its forwarded
    /// touches (docs/forward.md) belong to it.
    let source: Int
    let calibration: CalibrationMatrix?
    /// Its token in the daemon's ``DevicePoll``.
    let token: UInt64
    init(
      device: InputDevice, touchWindow: Int?, keyWindow: Int?, source: Int, calibration: CalibrationMatrix?,
      token: UInt64
    ) {
      self.device = device
      self.touchWindow = touchWindow
      self.keyWindow = keyWindow
      self.source = source
      self.calibration = calibration
      self.token = token
    }
  }

  /// Loads and validates the scene; nothing is opened yet.
  public init(options: DaemonOptions, logger: Logger) throws(SceneError) {
    self.options = options
    self.logger = logger
    forwarding = LiveForwarding(logger: logger, uinputPath: options.uinputPath, path: ForwardPath())
    loaded = try Scene.loadDocument(path: options.scenePath)
    forwarding.didWrite = { [unowned self] in
      if liveFrameTime != nil, frameForwarded == nil { frameForwarded = MonotonicClock.microseconds() }
    }
  }

  // MARK: Start and stop

  /// Opens the socket, the devices (or the recordings) and the signal sources. Call once, before
  /// `dispatchMain()`; errors name what failed (the socket path, the recording's file:line).
  public func start() throws {
    var replayRecordings: [Recording] = []
    if let description = options.replayDescriptionPath, let path = options.replayPath {
      replayRecordings = try RecordingReader.loadAll(path: path, descriptionPath: description)
    } else {
      replayRecordings = try RecordingReader.loadAll(paths: options.replayPaths)
    }
    let replaying = !options.replayPaths.isEmpty
    try queue.sync {
      clock = DispatchClock(
        queue: queue,
        origin: replaying
          ? ScenePlayer.origin(of: replayRecordings) - options.replayDelay * options.replaySpeed : nil,
        speed: replaying ? options.replaySpeed : 1, held: replaying && options.replayWaitsForSubscriber)
      // Input already in the kernel's buffers goes first: a lift stamped before a recognizer's
      // deadline must end the touch before the timeout fires, as in replay (input and the timer can
      // become ready together, and the timer may get the queue first).
      clock.willRunTimers = { [unowned self] in
        settleInput()
        for path in devices.keys.sorted() { if let live = devices[path] { readDevice(live) } }
      }
      // A timer may claim or cancel a forwarded touch: the next frames go through the pipeline.
      clock.didFireTimer = { [unowned self] in forwarding.disarmShortcuts() }
      runtime = makeRuntime(loaded)
      try startServer()
      if replaying {
        try startReplay(replayRecordings)
      } else {
        startDevices()
      }
      installSignals()
      startWatchdog()
      let status = statusLine()
      logger.info("touchd ready", metadata: ["scene": "\(options.scenePath)", "status": "\(status)"])
      notifier.ready(status: status)
    }
  }

  private func makeRuntime(_ document: SceneDocument) -> SceneRuntime {
    let runtime = SceneRuntime(document: document, clock: clock) { [unowned self] message in publish(message) }
    runtime.isTracing = tracing
    runtime.application.onStuckTouch = { [unowned self] touch in
      counters.stuckTouches += 1
      logger.warning(
        "touch cancelled: it did not move for stuckTouchTimeout",
        metadata: [
          "touch": "\(touch.id)", "view": "\(touch.view?.identifier ?? "")",
          "x": "\(touch.locationInWindow.x)", "y": "\(touch.locationInWindow.y)",
        ])
    }
    return runtime
  }

  /// Hands a message to the server (which never blocks): trace messages take the same path. A
  /// live frame's messages wait in ``outbound`` until its delivery returns, then go in one batch:
  /// one hop to the server's event loop and one flush per client per frame. A message of a type no
  /// client subscribes to is counted but never encoded (``subscribedTypes``).
  private func publish(_ message: Message) {
    let type: String
    var action: String?
    let view: String?
    switch message {
    case .action(let a):
      counters.messages += 1
      counters.actions += 1
      (type, action, view) = ("action", a.action, a.view)
    case .touches(let t):
      counters.messages += 1
      (type, view) = ("touches", t.view)
    case .scroll(let m):
      counters.messages += 1
      (type, view) = ("scroll", m.view)
    case .controlAction(let a):
      counters.messages += 1
      counters.actions += 1
      (type, action, view) = ("action", a.action, a.view)
    case .control(let m):
      counters.messages += 1
      (type, view) = ("control", m.view)
    case .presses(let m):
      counters.messages += 1
      (type, view) = ("presses", m.view)
    case .idle:
      counters.messages += 1
      (type, view) = ("idle", nil)
    case .trace(let t):
      counters.traces += 1
      (type, view) = ("trace", t.view)
    }
    guard subscribedTypes.withLockedValue({ $0.contains(type) }) else { return }
    let out = OutboundMessage(line: message.jsonLine, type: type, action: action, view: view)
    if liveFrameTime != nil {
      frameEncoded = MonotonicClock.microseconds()
      outbound.append(out)
    } else {
      server.publish(out)
    }
  }

  private func startServer() throws {
    var config = SocketServer.Configuration(path: options.socketPath)
    // systemd passes the Unix socket (touchd.socket) and, with touchd-websocket.socket, a TCP one;
    // they are told apart by their address family, not their order or names.
    let inherited = SystemdNotifier.listenDescriptors().map { (fd: $0, isTCP: SystemdNotifier.isInternetSocket($0)) }
    let tcp = inherited.first { $0.isTCP }?.fd
    if let host = options.webSocketAddress.flatMap(WebSocketConfiguration.parse) {
      config.webSocket = WebSocketConfiguration(host: host.host, port: host.port)
    }
    if let tcp {
      config.webSocket = WebSocketConfiguration(inheritedDescriptor: tcp)
      logger.info("using the WebSocket socket passed by systemd", metadata: ["fd": "\(tcp)"])
    }
    if config.webSocket != nil {
      config.webSocket?.allowRemote = options.webSocketAllowRemote
      do throws(OriginError) {
        config.webSocket?.origins = try OriginPolicy(options.webSocketOrigins)
      } catch {
        throw DaemonOptions.UsageError(description: error.description)
      }
    }
    if let fd = inherited.first(where: { !$0.isTCP })?.fd {
      config.inheritedDescriptor = fd
      logger.info("using the socket passed by systemd", metadata: ["fd": "\(fd)"])
    } else {
      let directory = (options.socketPath as NSString).deletingLastPathComponent
      try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    if let group = options.socketGroup {
      guard let gr = getgrnam(group) else { throw AccessPolicyError(message: "unknown socket group '\(group)'") }
      config.group = gr.pointee.gr_gid
    }
    config.access = try AccessPolicy.resolve(users: options.allowUsers, groups: options.allowGroups)
    config.sendBufferLimit = options.clientBufferBytes
    config.maximumLineLength = options.maximumLineLength
    // Room for the clients: the soft open-file limit up to the hard one, and no more clients than fit.
    let files = OpenFileLimit.raiseToHard()
    config.maximumClients = OpenFileLimit.clientsThatFit(options.maximumClients)
    if files.after != files.before {
      logger.info("open-file limit raised", metadata: ["from": "\(files.before)", "to": "\(files.after)"])
    }
    if config.maximumClients < options.maximumClients {
      logger.warning(
        "fewer clients fit than --max-clients asks; the limit is lowered",
        metadata: [
          "max-clients": "\(options.maximumClients)", "limit": "\(config.maximumClients)",
          "openFiles": "\(files.after)", "remedy": "raise LimitNOFILE= (systemd) or ulimit -Hn",
        ])
    }
    server = try SocketServer(configuration: config, handler: self, logger: logger)
    server.setHello(helloLine())
  }

  private func installSignals() {
    for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { signal(sig, SIG_IGN) }
    for sig in [SIGTERM, SIGINT] {
      let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
      source.setEventHandler { [unowned self] in
        settleInput()
        logger.info("stopping", metadata: ["signal": "\(sig == SIGTERM ? "SIGTERM" : "SIGINT")"])
        shutdown(exitCode: 0)
      }
      source.activate()
      sources.append(source)
    }
    let hup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
    hup.setEventHandler { [unowned self] in
      settleInput()
      _ = reload(reason: "SIGHUP")
    }
    hup.activate()
    sources.append(hup)
  }

  /// Keeps systemd's watchdog fed from the pipeline queue, so a stuck pipeline gets restarted.
  private func startWatchdog() {
    guard let interval = notifier.watchdogInterval else { return }
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now(), repeating: .microseconds(Int(interval * 1e6 / 2)))
    timer.setEventHandler { [notifier] in notifier.watchdog() }
    timer.activate()
    sources.append(timer)
    logger.info("watchdog armed", metadata: ["interval.s": "\(interval)"])
  }

  /// Cancels every touch (clients see them cancelled), tells clients, removes the socket, exits.
  private func shutdown(exitCode: Int32) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard !shuttingDown else { return }
    shuttingDown = true
    notifier.stopping()
    runtime.application.cancelTouches()
    // The cancels reach the virtual touchscreens before they go.
    runtime.flushForwarding()
    for path in devices.keys.sorted() { closeDevice(path, cancelTouches: false, cancelKeys: true) }
    server.shutdown(notice: #"{"type":"shutdown"}"#)
    logger.info("stopped")
    // The devices are closed (and ungrabbed) already; the clients' goodbyes leave on the server's
    // event loop meanwhile.
    queue.async { exit(exitCode) }
  }

  // MARK: Frames

  /// Delivers one frame to the runtime at its time (``DispatchClock/handling(at:_:)``): due timers
  /// first, then the device's calibration, then the window's mapping (in the runtime). `source`:
  /// the live device, whose virtual touchscreen gets the frame's forwarded touches.
  private func deliver(_ frame: TouchFrame, window: Int, calibration: CalibrationMatrix?, source: Int? = nil) {
    dispatchPrecondition(condition: .onQueue(queue))
    var frame = frame
    if let calibration {
      for i in frame.contacts.indices {
        (frame.contacts[i].x, frame.contacts[i].y) = calibration.apply(x: frame.contacts[i].x, y: frame.contacts[i].y)
      }
    }
    clock.handling(at: frame.time.seconds) {
      counters.frames += 1
      counters.touchesBegan += frame.contacts.reduce(0) { $0 + ($1.phase == .began ? 1 : 0) }
      runtime.handle(frame, inWindow: window, source: source)
    }
  }

  /// Delivers one key frame to the runtime at its time: due timers first, as for touches.
  private func deliver(_ frame: KeyFrame, window: Int, source: Int) {
    dispatchPrecondition(condition: .onQueue(queue))
    clock.handling(at: frame.time.seconds) {
      counters.keyFrames += 1
      runtime.handle(frame, inWindow: window, source: source)
    }
  }

  /// Delivers a live device's frame to the window that takes it, then hands its messages to the
  /// server in one batch. `wake` is when the input thread woke for it, if it came from a read the
  /// thread woke for: then each stage's latency is recorded.
  private func deliver(_ frame: DeviceFrame, from live: LiveDevice, wake: Int64? = nil) {
    let kernel = frame.time.microseconds
    let assembled = MonotonicClock.microseconds()
    liveFrameTime = kernel
    frameEncoded = nil
    frameForwarded = nil
    // The frame may change what any device's next frame does (two devices may share a window):
    // every shortcut is disarmed, and this device's armed again once the frame is delivered.
    forwarding.disarmShortcuts()
    let shortcut = forwarding.shortcut(source: live.source)
    let shortcutWrote = shortcut?.writtenAt
    shortcut?.writtenAt = nil
    switch frame {
    case .touches(let touches):
      if let window = live.touchWindow {
        if runtime.calibratingWindow == window, touches.contacts.contains(where: { $0.phase == .began }) {
          calibrationDevice = (live.device.path, live.device.name, live.calibration)
        }
        deliver(touches, window: window, calibration: live.calibration, source: live.source)
      }
    case .keys(let keys):
      if let window = live.keyWindow { deliver(keys, window: window, source: live.source) }
    }
    liveFrameTime = nil
    if let shortcut {
      forwarding.frameDelivered(source: live.source)
      if let written = shortcutWrote { frameForwarded = written }
      if case .touches = frame, let window = live.touchWindow, let assembler = live.device.assembler {
        runtime.armShortcut(
          shortcut, source: live.source, window: window, assembler: assembler, calibration: live.calibration)
      }
    }
    if let wake {
      latency.wake.record(wake - kernel)
      latency.assembled.record(assembled - kernel)
      if let encoded = frameEncoded { latency.encoded.record(encoded - kernel) }
      if let forwarded = frameForwarded { latency.forwarded.record(forwarded - kernel) }
      latency.delivered.record(MonotonicClock.microseconds() - kernel)
    }
    guard !outbound.isEmpty else { return }
    server.publish(outbound, kernelTime: wake == nil ? nil : kernel)
    outbound.removeAll(keepingCapacity: true)
  }

  // MARK: Devices

  private func startDevices() {
    do {
      let poll = try DevicePoll()
      let thread = InputThread(
        fileDescriptor: poll.fileDescriptor, queue: queue, name: "touchd.input",
        beforeQueue: { [path = forwarding.path] in path.run() }
      ) { [unowned self] wake in readReadyDevices(wake: wake) }
      self.poll = poll
      inputThread = thread
      thread.start()
    } catch {
      logger.error("cannot watch input devices; none will be read", metadata: ["error": "\(error)"])
      return
    }
    do {
      let monitor = try DeviceMonitor()
      let source = DispatchSource.makeReadSource(fileDescriptor: monitor.fileDescriptor, queue: queue)
      source.setEventHandler { [unowned self] in
        settleInput()
        while let event = monitor.receive() { hotplug(event) }
      }
      source.activate()
      self.monitor = monitor
      monitorSource = source
    } catch {
      logger.error("cannot watch for hotplug; devices present now are still read", metadata: ["error": "\(error)"])
    }
    openPresentDevices()
  }

  private func openPresentDevices() {
    let found: [DiscoveredDevice]
    do {
      found = try DeviceDiscovery.scan()
    } catch {
      logger.error("cannot enumerate input devices", metadata: ["error": "\(error)"])
      return
    }
    for device in found where devices[device.path] == nil {
      let decision = device.decision
      // A device a window's keys.devices names is opened even when touchd may not take it, so the
      // log says why not.
      let keysNamed =
        device.description.map {
          keysNamedWindow(for: $0, path: device.path, properties: device.udev?.values ?? [:]) != nil
        } ?? false
      guard decision.isTouchscreen || keysNamed else {
        reportNotTaken(path: device.path, description: device.description, decision)
        continue
      }
      openDevice(device.path)
    }
    if !devices.values.contains(where: { $0.touchWindow != nil }) {
      logger.notice(
        "no touchscreen taken; touchd keeps watching for one to appear",
        metadata: [
          "devices.seen": "\(found.count)",
          "devices.touchLike": "\(found.filter { $0.decision.looksLikeTouchDevice }.count)",
          "hint": .string(
            "touchd takes what udev tags ID_INPUT_TOUCHSCREEN=1 (and no TOUCHD_IGNORE=1); "
              + "`touchctl devices` shows each device's classification and reason"),
        ])
    }
  }

  /// Says why a device was not taken: at `notice` when it looks like a touch device (with what
  /// would change the decision), at `debug` for keyboards, mice and the like; a device with keys is
  /// reported at `info` too while the scene takes key devices.
  private func reportNotTaken(path: String, description: DeviceDescription?, _ decision: DeviceDecision) {
    let metadata = decisionMetadata(path: path, name: description?.name, decision)
    if decision.looksLikeTouchDevice {
      logger.notice("touch device not taken", metadata: metadata)
    } else {
      logger.debug("ignoring a non-touchscreen", metadata: metadata)
    }
    guard let description, KeyAssembler.hasKeys(description), scene.windows.contains(where: { $0.keys != nil })
    else { return }
    logger.info(
      "key device not taken",
      metadata: [
        "device.path": "\(path)", "device.name": "\(description.name)",
        "device.id": "\(description.id.vendorProduct)",
        "reason": "no window's keys.devices matches its name, its id or its path",
        "remedy":
          "add a pattern that matches \"\(description.name)\", \(description.id.vendorProduct) or \(path) to a window's keys.devices in \(options.scenePath)",
      ])
  }

  /// The log fields of a decision: the device, who decided, why, and what would change it.
  private func decisionMetadata(path: String, name: String?, _ decision: DeviceDecision) -> Logger.Metadata {
    var metadata: Logger.Metadata = [
      "device.path": "\(path)", "decidedBy": "\(decision.source.rawValue)", "reason": "\(decision.reason)",
    ]
    if let name { metadata["device.name"] = "\(name)" }
    if let remedy = decision.remedy { metadata["remedy"] = "\(remedy)" }
    return metadata
  }

  /// What the scene takes of a device: its touches, its keys, or both.
  private struct Role: Equatable {
    /// The window of a touchscreen whose `devices` match it.
    var touchWindow: Int?
    /// The window whose `keys.devices` match a device touchd may read.
    var keyWindow: Int?
    var isEmpty: Bool { touchWindow == nil && keyWindow == nil }
  }

  /// Whether a device taken in `role` is grabbed: when a virtual touchscreen forwards its touches,
  /// or a window it feeds has `grab:`.
  private func grabs(_ role: Role, forwards: Bool) -> Bool {
    forwards || [role.touchWindow, role.keyWindow].contains { $0.map { scene.windows[$0].grab } ?? false }
  }

  /// The first window whose `keys.devices` match the device, if it has keys that make presses.
  private func keysNamedWindow(for description: DeviceDescription, path: String, properties: [String: String])
    -> Int?
  {
    KeyAssembler.hasKeys(description)
      ? runtime.keyWindowIndex(for: description, path: path, properties: properties) : nil
  }

  /// The role of a device: touches for a touchscreen a window's `devices` match; keys when a
  /// window's `keys.devices` name it and nothing keeps touchd off it (`TOUCHD_IGNORE`, touchd's own
  /// virtual devices, an unreadable node).
  private func role(of probe: EvdevDevice) -> Role {
    let (description, path, decision) = (probe.description, probe.path, probe.decision)
    let properties = probe.udev?.values ?? [:]
    let touchWindow =
      decision.isTouchscreen ? runtime.windowIndex(for: description, path: path, properties: properties) : nil
    let keysAllowed: Bool =
      switch decision.source {
      case .udev, .touchdRule: true
      case .ignoreProperty, .ownDevice, .unreadable: false
      }
    return Role(
      touchWindow: touchWindow,
      keyWindow: keysAllowed ? keysNamedWindow(for: description, path: path, properties: properties) : nil)
  }

  private func hotplug(_ event: DeviceEvent) {
    switch event.action {
    case .add:
      guard devices[event.path] == nil else { return }
      openDevice(event.path)
    case .remove:
      guard devices[event.path] != nil else { return }
      logger.info("input device removed", metadata: ["device.path": "\(event.path)"])
      closeDevice(event.path, cancelTouches: true, cancelKeys: true)
    case .change:
      // A rule changed (TOUCHD_IGNORE, ID_INPUT_TOUCHSCREEN): decide again.
      guard let live = devices[event.path] else {
        openDevice(event.path)
        return
      }
      guard let probe = try? EvdevDevice(path: event.path) else { return }
      probe.close()
      let current = Role(touchWindow: live.touchWindow, keyWindow: live.keyWindow)
      let now = role(of: probe)
      // A new LIBINPUT_CALIBRATION_MATRIX (a rule `touchctl calibrate --udev-rule` wrote) takes
      // effect too: the device is reopened with it.
      let calibration = probe.calibrationMatrix.flatMap(CalibrationMatrix.init(values:))
      let calibrationChanged = now.touchWindow != nil && calibration != live.calibration
      guard now != current || calibrationChanged else { return }
      var metadata = decisionMetadata(path: event.path, name: probe.name, probe.decision)
      if now == current {
        metadata["calibration"] = "\(calibration.map { "\($0)" } ?? "none")"
        closeDevice(event.path, cancelTouches: true, cancelKeys: true)
        logger.notice(
          "touchscreen's udev calibration changed; it is reopened with it, its touches cancelled", metadata: metadata)
        openDevice(event.path)
        return
      }
      closeDevice(event.path, cancelTouches: true, cancelKeys: true)
      if !now.isEmpty {
        logger.notice(
          "input device taken differently now; it is reopened, its touches and keys cancelled", metadata: metadata)
        openDevice(event.path)
      } else if current.touchWindow != nil {
        logger.notice("touchscreen no longer taken; its touches are cancelled", metadata: metadata)
      } else {
        logger.notice("key device no longer taken; its keys are cancelled", metadata: metadata)
      }
    }
  }

  private func openDevice(_ path: String) {
    let device: InputDevice
    let role: Role
    let source = nextSource
    var forwards = false
    do {
      let probe = try EvdevDevice(path: path)
      let description = probe.description
      role = self.role(of: probe)
      if probe.decision.isTouchscreen && role.touchWindow == nil {
        let id = description.id.vendorProduct
        logger.notice(
          "no window of the scene claims this touchscreen",
          metadata: [
            "device.path": "\(path)", "device.name": "\(probe.name)",
            "remedy":
              "add a `devices:` pattern that matches its name \"\(probe.name)\", its id \(id), its path or a udev property (KEY=VALUE, `touchctl devices` lists them) to a window of \(options.scenePath)",
          ])
      }
      let properties = probe.udev?.values ?? [:]
      if role.keyWindow == nil, let named = keysNamedWindow(for: description, path: path, properties: properties) {
        var metadata = decisionMetadata(path: path, name: probe.name, probe.decision)
        metadata["window"] = "\(scene.windows[named].id)"
        logger.notice("key device not taken", metadata: metadata)
      }
      guard !role.isEmpty else {
        probe.close()
        if !probe.decision.isTouchscreen && keysNamedWindow(for: description, path: path, properties: properties) == nil
        {
          reportNotTaken(path: path, description: description, probe.decision)
        }
        return
      }
      let ids = role.touchWindow == nil ? nil : self.ids
      // A window with `forward:` grabs its touchscreens once their virtual touchscreens exist.
      if let window = role.touchWindow, scene.windows[window].forward != nil {
        forwards = forwarding.attach(description, path: path, source: source, window: window, runtime: runtime)
      }
      if grabs(role, forwards: forwards) {
        probe.close()
        device = try InputDevice(path: path, grab: true, touches: ids, keys: role.keyWindow != nil)
      } else {
        device = try InputDevice(device: probe, touches: ids, keys: role.keyWindow != nil)
      }
    } catch {
      if forwards { forwarding.detach(source: source, runtime: runtime) }
      logger.warning("cannot open input device", metadata: ["device.path": "\(path)", "error": "\(error)"])
      return
    }
    let calibration = device.calibrationMatrix.flatMap(CalibrationMatrix.init(values:))
    guard let poll else { return }
    let token: UInt64
    do {
      token = try poll.add(device.fileDescriptor, path: path)
    } catch {
      logger.warning("cannot watch input device", metadata: ["device.path": "\(path)", "error": "\(error)"])
      if forwards { forwarding.detach(source: source, runtime: runtime) }
      device.close()
      return
    }
    let live = LiveDevice(
      device: device, touchWindow: role.touchWindow, keyWindow: role.keyWindow, source: source,
      calibration: calibration, token: token)
    nextSource += 1
    polledPaths[token] = path
    devices[path] = live
    if forwards { forwarding.connect(device.device, source: live.source, token: token) }
    // Events queued before the source existed (fingers already down, a key held) are read now.
    readDevice(live)
    var metadata: Logger.Metadata = [
      "device.path": "\(path)", "device.name": "\(device.name)", "grabbed": "\(device.device.isGrabbed)",
    ]
    if let window = role.keyWindow {
      metadata["keys.window"] = "\(scene.windows[window].id)"
      metadata["device.id"] = "\(device.description.id.vendorProduct)"
    }
    if let window = role.touchWindow {
      metadata["window"] = "\(scene.windows[window].id)"
      metadata["calibration"] = "\(calibration.map { "\($0)" } ?? "none")"
      metadata["forward"] = "\(forwards)"
      logger.info("touchscreen opened", metadata: metadata)
    } else {
      logger.info("key device opened", metadata: metadata)
    }
    notifier.status(statusLine())
  }

  /// Reads every device the poll set reports ready (events, or the error of an unplugged node).
  /// Reads every device with input; `wake`: when the input thread woke for it.
  private func readReadyDevices(wake: Int64) {
    guard let poll else { return }
    // What the forwarding path read ahead first (its device's fd may be empty now), then the rest.
    forwarding.path.pending { token in readDevice(token: token, wake: wake) }
    for token in poll.ready() { readDevice(token: token, wake: wake) }
    // The end of the input turn: the path may take the shortcuts armed for the next frames.
    forwarding.path.publish()
  }

  private func readDevice(token: UInt64, wake: Int64? = nil) {
    if let path = polledPaths[token], let live = devices[path] { readDevice(live, wake: wake) }
  }

  /// The start of any work on the queue but an input turn: the forwarding path takes no frame
  /// until the next input turn ends, the frames it read ahead (and may have written) are delivered
  /// first, and every shortcut is disarmed, since the work may change what the next frame does.
  private func settleInput() {
    dispatchPrecondition(condition: .onQueue(queue))
    forwarding.path.settle { token in readDevice(token: token) }
    forwarding.disarmShortcuts()
  }

  /// Reads what a device has; `wake`: when the input thread woke for it (nil for the read at open).
  private func readDevice(_ live: LiveDevice, wake: Int64? = nil) {
    do {
      let drops = live.device.resyncCount
      let status = try live.device.readFrames { frame in deliver(frame, from: live, wake: wake) }
      if live.device.resyncCount > drops {
        counters.resyncs += live.device.resyncCount - drops
        logger.warning(
          "events dropped by the kernel (SYN_DROPPED); touches and keys resynced",
          metadata: ["device.path": "\(live.device.path)", "resyncs": "\(live.device.resyncCount)"])
      }
      if status == .removed {
        logger.info("input device unplugged", metadata: ["device.path": "\(live.device.path)"])
        closeDevice(live.device.path, cancelTouches: false, cancelKeys: false)
      }
    } catch {
      logger.error(
        "input device read failed; closing it", metadata: ["device.path": "\(live.device.path)", "error": "\(error)"])
      closeDevice(live.device.path, cancelTouches: true, cancelKeys: true)
    }
  }

  /// Stops reading a device, first delivering the frames that cancel its touches and its keys
  /// down, as asked (a read that saw the removal delivered them already).
  private func closeDevice(_ path: String, cancelTouches: Bool, cancelKeys: Bool) {
    guard let live = devices.removeValue(forKey: path) else { return }
    if cancelTouches || cancelKeys {
      for frame in live.device.cancelAll() {
        switch frame {
        case .touches: if cancelTouches { deliver(frame, from: live) }
        case .keys: if cancelKeys { deliver(frame, from: live) }
        }
      }
    }
    // Its virtual touchscreen goes first, with the cancels above, while the device is still grabbed.
    forwarding.detach(source: live.source, runtime: runtime)
    // Out of the poll set first, then closed: the fd is never closed while watched.
    poll?.remove(live.token)
    polledPaths[live.token] = nil
    live.device.close()
    notifier.status(statusLine())
  }

  // MARK: Replay

  private func startReplay(_ recordings: [Recording]) throws {
    var routes: [ScenePlayer.Route] = []
    for recording in recordings { routes.append(try ScenePlayer.route(recording, in: runtime)) }
    let feeder = ReplayFeeder(recordings: recordings, routes: routes, ids: ids, loop: options.replayLoop)
    replay = feeder
    logger.info(
      "replaying recordings",
      metadata: [
        "recordings": "\(feeder.source)", "events": "\(recordings.reduce(0) { $0 + $1.events.count })",
        "speed": "\(options.replaySpeed)", "loop": "\(options.replayLoop)",
      ])
    scheduleReplay()
  }

  private func scheduleReplay() {
    guard let feeder = replay else { return }
    guard let next = feeder.nextTime else {
      if options.exitAfterReplay { exitWhenIdle() }
      return
    }
    _ = clock.schedule(at: next) { [unowned self] in
      feeder.feed(until: clock.now) { index, frame in deliver(frame, replayed: index, by: feeder) }
      scheduleReplay()
    }
  }

  /// Delivers a replayed recording's frame to the window its route names.
  private func deliver(_ frame: DeviceFrame, replayed index: Int, by feeder: ReplayFeeder) {
    let route = feeder.routes[index]
    switch frame {
    case .touches(let touches):
      if let window = route.touchWindow { deliver(touches, window: window, calibration: nil) }
    case .keys(let keys):
      // The recording's index is the key source, as in ScenePlayer.
      if let window = route.keyWindow { deliver(keys, window: window, source: index) }
    }
  }

  /// Exits once the recognizers' pending timers (a tap waiting out the multi-tap interval) ran.
  private func exitWhenIdle() {
    if clock.hasPendingTimers {
      queue.asyncAfter(deadline: .now() + .milliseconds(50)) { [unowned self] in exitWhenIdle() }
    } else {
      logger.info("replay finished")
      shutdown(exitCode: 0)
    }
  }

  // MARK: Reload

  /// Loads the scene file again. On success the new scene replaces the old (``install(_:source:)``);
  /// on failure the old one stays.
  private func reload(reason: String) -> Result<Void, SceneError> {
    dispatchPrecondition(condition: .onQueue(queue))
    notifier.reloading()
    let newScene: SceneDocument
    do {
      newScene = try Scene.loadDocument(path: options.scenePath)
    } catch {
      counters.reloadFailures += 1
      logger.error(
        "scene reload rejected; the old scene stays",
        metadata: ["reason": "\(reason)", "errors": "\(error.diagnostics.count)"])
      for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
      notifier.reloaded(status: "reload rejected; \(statusLine())")
      return .failure(error)
    }
    install(newScene, source: .file)
    counters.reloads += 1
    logger.info("scene reloaded", metadata: ["reason": "\(reason)", "scene": "\(options.scenePath)"])
    notifier.reloaded(status: statusLine())
    return .success(())
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
  private func install(_ newScene: SceneDocument, source: SceneSource) {
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
    let seq = runtime.nextSequenceNumber
    let previous = runtime!
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
    } else {
      keepOrReopenDevices(previous: previous)
      // Enumerate again: the new scene may take other touchscreens and key devices.
      openPresentDevices()
    }
    server.setHello(helloLine(), notice: reloadedLine(source: source))
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

  // MARK: Commands

  public func handle(
    _ command: ClientCommand, from client: ClientInfo, server serverCounters: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    queue.async { [unowned self] in
      // A command may hide a view, change a window's mapping or the scene: the next frames go
      // through the pipeline until one has been delivered.
      settleInput()
      if case .calibrate(let request) = command.request {
        calibrate(request, client: client, reply: reply)
      } else if case .scene(.update(let update)) = command.request {
        self.update(update, client: client, reply: reply)
      } else {
        reply(execute(command, client: client, serverCounters: serverCounters))
      }
    }
  }

  /// Carries out an `update`: the scene as changed is edited and validated on a queue of its own
  /// (``SceneUpdate/prepare(on:)``: tens of milliseconds for a large scene, which the touch pipeline
  /// does not wait for), then made on the pipeline's queue (``SceneRuntime/commit(_:)``) if the
  /// scene is still the one it was prepared on; else it is prepared again on the new one.
  private func update(
    _ update: SceneUpdate, client: ClientInfo, reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    dispatchPrecondition(condition: .onQueue(queue))
    guard let document = runtime.document else {
      return reply(.error(SceneRuntimeError.noDocument.description))
    }
    let base = (ObjectIdentifier(runtime), runtime.documentVersion)
    DispatchQueue.global(qos: .userInitiated).async { [unowned self] in
      let prepared = Result { () throws(SceneRuntimeError) in try update.prepare(on: document) }
      queue.async { [unowned self] in
        settleInput()
        guard (ObjectIdentifier(runtime), runtime.documentVersion) == base else {
          // Another client's update, a push or a reload came first: prepare on the scene as it is.
          return self.update(update, client: client, reply: reply)
        }
        switch prepared {
        case .failure(let error):
          reply(.error(error.description))
        case .success(let prepared):
          let fields = runtime.commit(prepared)
          // Later clients' hello counts the scene as changed; every client hears of the change.
          server.setHello(helloLine(), notice: #"{"type":"updated",\#(fields)}"#)
          logger.info(
            "scene updated by a client",
            metadata: [
              "client": "\(client)", "op": "\(update.operation.rawValue)", "\(update.target.rawValue)": "\(update.id)",
            ])
          reply(.ok(fieldsJSON: fields))
        }
      }
    }
  }

  /// Starts a calibration (``SceneRuntime/calibrate(window:targets:timeout:collected:completion:)``):
  /// every client gets a `calibration` notice as each target's touch lifts, and the requesting
  /// client the fit as the reply once the last one has, or the error.
  private func calibrate(
    _ request: CalibrateRequest, client: ClientInfo, reply: @escaping @Sendable (CommandResult) -> Void
  ) {
    dispatchPrecondition(condition: .onQueue(queue))
    do {
      try runtime.calibrate(
        window: request.window, targets: request.targets, timeout: request.timeout,
        collected: { [unowned self] index, point in
          let target = request.targets[index]
          let line =
            #"{"type":"calibration","window":\#(WireProtocol.quote(request.window)),"target":\#(index + 1),"#
            + #""targets":\#(request.targets.count),"at":\#(Self.pointJSON(target)),"touched":\#(Self.pointJSON(point))}"#
          server.publish(OutboundMessage(line: line, type: "calibration"))
        },
        completion: { [unowned self] result in
          calibrationClient = nil
          switch result {
          case .success(let fit):
            logger.notice(
              "calibration done",
              metadata: [
                "window": "\(request.window)", "matrix": "\(fit.matrix)", "maxError": "\(fit.maxError)",
              ])
            reply(.ok(fieldsJSON: calibrationReply(request, fit)))
          case .failure(let error):
            logger.notice("calibration failed", metadata: ["window": "\(request.window)", "error": "\(error)"])
            reply(.error(error.description))
          }
        })
      calibrationDevice = nil
      calibrationClient = client.number
      logger.notice(
        "calibration began: the window's touches go to it until its last target is touched",
        metadata: ["window": "\(request.window)", "targets": "\(request.targets.count)"])
    } catch {
      reply(.error(error.description))
    }
  }

  /// A client that began a calibration and went away ends it: the window's touches would otherwise
  /// reach no view until its time-out.
  public func clientDisconnected(_ client: ClientInfo) {
    queue.async { [unowned self] in
      settleInput()
      guard calibrationClient == client.number else { return }
      runtime.cancelCalibration("\(client) that asked for it disconnected")
    }
  }

  /// A replay held for a subscriber (`--wait-for-subscriber`) starts with the first `subscribe`.
  public func clientSubscribed(_ client: ClientInfo) {
    queue.async { [unowned self] in
      settleInput()
      guard clock.isHeld else { return }
      logger.info(
        "a client subscribed: the replay starts", metadata: ["client": "\(client)", "delay": "\(options.replayDelay)"])
      clock.release()
    }
  }

  private static func pointJSON(_ p: Scene.Point) -> String {
    #"{"x":\#(JSONFormat.number(p.x)),"y":\#(JSONFormat.number(p.y))}"#
  }

  /// The fields of a successful `calibrate` reply (docs/protocol.md).
  private func calibrationReply(_ request: CalibrateRequest, _ fit: CalibrationFit) -> String {
    func numbers(_ values: [Double]) -> String { "[" + CalibrationFit.numbers(values).joined(separator: ",") + "]" }
    let rounded = CalibrationFit.points
    let points = zip(request.targets.indices, request.targets).map { i, target in
      #"{"at":\#(Self.pointJSON(target)),"landed":{"x":\#(rounded(fit.landed[i].x)),"y":\#(rounded(fit.landed[i].y))},"#
        + #""error":\#(rounded(fit.errors[i]))}"#
    }
    // A matrix for a udev rule: the device's own LIBINPUT_CALIBRATION_MATRIX, if any, then the fit.
    let device = calibrationDevice
    let first = (device?.calibration ?? .identity).values
    let deviceJSON =
      device.map { #"{"path":\#(WireProtocol.quote($0.path)),"name":\#(WireProtocol.quote($0.name))}"# } ?? "null"
    let udevMatrix = CalibrationFit.compose(fit.matrix, after: first)
    return #""window":\#(WireProtocol.quote(request.window)),"matrix":\#(numbers(fit.matrix)),"#
      + #""rmsError":\#(rounded(fit.rmsError)),"maxError":\#(rounded(fit.maxError)),"#
      + #""warning":\#(fit.warning.map(WireProtocol.quote) ?? "null"),"points":[\#(points.joined(separator: ","))],"#
      + #""device":\#(deviceJSON),"udevMatrix":\#(numbers(udevMatrix))"#
  }

  /// Traces while a client subscribes to `trace` (and not otherwise: tracing costs time), and
  /// encodes only the types some client subscribes to. Called on the server's event loop before the
  /// `subscribe` reply is written, so the next frame's messages are encoded for the new subscriber.
  public func subscribedTypesChanged(_ types: Set<String>) {
    subscribedTypes.withLockedValue { $0 = types }
    let wanted = types.contains("trace")
    queue.async { [unowned self] in
      guard wanted != tracing else { return }
      tracing = wanted
      runtime?.isTracing = wanted
      logger.info(wanted ? "tracing: a client subscribed to trace messages" : "tracing off: no trace subscriber")
    }
  }

  private func execute(_ command: ClientCommand, client: ClientInfo, serverCounters: ServerCounters) -> CommandResult {
    dispatchPrecondition(condition: .onQueue(queue))
    // The protocol fuzz target runs the same function against its own runtime.
    let result = WireProtocol.execute(
      command.request, runtime: runtime, status: { statusJSON(serverCounters) },
      replaceScene: { pushed in
        guard let pushed else {
          switch reload(reason: "reload command") {
          case .success: return .ok(fieldsJSON: "")
          case .failure(let error):
            return .error(error.message(prefix: "scene rejected, the old scene stays: "))
          }
        }
        // Parsed and validated on the server's event loop already: only the objects are built here.
        install(pushed, source: .client)
        counters.scenePushes += 1
        let counts = pushed.scene.counts
        logger.notice(
          "scene replaced by a client's scene command",
          metadata: [
            "client": "\(client)", "windows": "\(counts.windows)", "views": "\(counts.views)",
            "recognizers": "\(counts.recognizers)",
          ])
        return .ok(
          fieldsJSON: #""windows":\#(windowsJSON()),"views":\#(counts.views),"recognizers":\#(counts.recognizers)"#)
      })
    if case .scene(.setWindow(let id, _)) = command.request, case .ok(let fields) = result {
      // New clients' hello has the window's new size; every client hears of the change.
      server.setHello(helloLine(), notice: #"{"type":"windowChanged",\#(fields)}"#)
      logger.notice("window changed by a client's set command", metadata: ["window": "\(id)", "now": "\(fields)"])
    }
    return result
  }

  // MARK: Reporting

  private var touchesDown: Int {
    runtime.application.currentEvent?.allTouches.filter { !$0.phase.isTerminal }.count ?? 0
  }

  private func windowsJSON() -> String {
    "["
      + runtime.scene.windows.map {
        #"{"id":\#(WireProtocol.quote($0.id)),"width":\#(JSONFormat.number($0.size.width)),"height":\#(JSONFormat.number($0.size.height))}"#
      }.joined(separator: ",") + "]"
  }

  private func helloLine() -> String {
    #"{"type":"hello","version":\#(WireProtocol.version),"instance":"\#(instance)","windows":\#(windowsJSON()),"views":\#(scene.counts.views)}"#
  }

  private func reloadedLine(source: SceneSource) -> String {
    #"{"type":"reloaded","source":"\#(source.rawValue)","windows":\#(windowsJSON()),"views":\#(scene.counts.views)}"#
  }

  private func statusLine() -> String {
    if let replay { return "replaying \(replay.source); \(touchesDown) touches down" }
    let touchscreens = devices.values.filter { $0.touchWindow != nil }.count
    let keyDevices = devices.values.filter { $0.keyWindow != nil }.count
    return "\(touchscreens) touchscreen(s), \(keyDevices) key device(s); \(touchesDown) touches down"
  }

  /// `status`'s `webSocket`: null when the endpoint is off.
  private func webSocketJSON() -> String {
    guard let address = self.server.webSocketAddress, let webSocket = self.server.configuration.webSocket else {
      return "null"
    }
    let origins = webSocket.origins.allowed.map(WireProtocol.quote).joined(separator: ",")
    return
      #"{"address":\#(WireProtocol.quote(address)),"origins":[\#(origins)],"allowRemote":\#(webSocket.allowRemote)}"#
  }

  /// The status's `idle`: null without the scene's `idle:`; else its state, settings, the time of
  /// the last touch or press (the messages' clock; null before the first) and the seconds since.
  private func idleJSON() -> String {
    guard let state = runtime.idleState, let idle = scene.idle else { return "null" }
    let last = state.lastInput.map(JSONFormat.number) ?? "null"
    let since = state.lastInput.map { JSONFormat.number(max(0, clock.now - $0)) } ?? "null"
    return #"{"state":"\#(state.isIdle ? "idle" : "active")","after":\#(JSONFormat.number(idle.after)),"#
      + #""wake":"\#(idle.wake.rawValue)","lastInput":\#(last),"secondsSinceInput":\#(since)}"#
  }

  private func statusJSON(_ server: ServerCounters) -> String {
    let deviceList = devices.keys.sorted().compactMap { path -> String? in
      guard let live = devices[path] else { return nil }
      func window(_ index: Int?) -> String { index.map { WireProtocol.quote(scene.windows[$0].id) } ?? "null" }
      return
        #"{"path":\#(WireProtocol.quote(path)),"name":\#(WireProtocol.quote(live.device.name)),"window":\#(window(live.touchWindow)),"keysWindow":\#(window(live.keyWindow)),"grabbed":\#(live.device.device.isGrabbed),"#
        + #""forward":\#(forwarding.statusJSON(source: live.source, runtime: runtime))}"#
    }
    let c = counters
    return [
      #""scene":\#(WireProtocol.quote(options.scenePath))"#,
      #""windows":\#(windowsJSON())"#,
      #""devices":[\#(deviceList.joined(separator: ","))]"#,
      #""replay":\#(replay.map { WireProtocol.quote($0.source) } ?? "null")"#,
      #""touchesDown":\#(touchesDown)"#,
      #""latency":\#(latency.json(handed: server.handedLatency))"#,
      #""idle":\#(idleJSON())"#,
      #""ignoring":\#(runtime.ignoreDepth)"#,
      #""tracing":\#(runtime.isTracing)"#,
      #""clients":\#(server.clients)"#,
      #""webSocket":\#(webSocketJSON())"#,
      #""limits":{"clients":\#(self.server.configuration.maximumClients),"#
        + #""lineBytes":\#(self.server.configuration.maximumLineLength),"#
        + #""clientBufferBytes":\#(self.server.configuration.sendBufferLimit),"#
        + #""sceneBytes":\#(Scene.maximumFileBytes),"openFiles":\#(OpenFileLimit.current)}"#,
      #""counters":{"frames":\#(c.frames),"touchesBegan":\#(c.touchesBegan),"keyFrames":\#(c.keyFrames),"actions":\#(c.actions),"messages":\#(c.messages),"#
        + #""traceMessages":\#(c.traces),"#
        + #""reloads":\#(c.reloads),"reloadFailures":\#(c.reloadFailures),"scenePushes":\#(c.scenePushes),"resyncs":\#(c.resyncs),"#
        + #""stuckTouches":\#(c.stuckTouches),"#
        + #""timerWakeups":\#(clock.wakeups),"#
        + #""clientsAccepted":\#(server.accepted),"clientsDenied":\#(server.denied),"#
        + #""clientsRefused":\#(server.refused),"#
        + #""clientsDisconnectedSlow":\#(server.disconnectedSlow),"messagesSent":\#(server.messagesSent),"#
        + #""messagesSkipped":\#(server.messagesSkipped)}"#,
    ].joined(separator: ",")
  }
}

/// What the pipeline counted since start.
struct PipelineCounters {
  var frames = 0
  var touchesBegan = 0
  /// Key frames delivered (live and replayed key devices).
  var keyFrames = 0
  var actions = 0
  /// Action and touches messages.
  var messages = 0
  /// Trace messages (only while a client subscribes to them).
  var traces = 0
  var reloads = 0
  var reloadFailures = 0
  var scenePushes = 0
  /// SYN_DROPPED resyncs over all devices.
  var resyncs = 0
  /// Touches cancelled for not moving (the scene's `stuckTouchTimeout`).
  var stuckTouches = 0
}
