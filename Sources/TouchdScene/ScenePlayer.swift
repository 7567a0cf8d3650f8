import TouchDelivery
import TouchdInput

/// Runs recordings through a ``SceneRuntime`` on a ``VirtualClock``, deterministically.
public enum ScenePlayer {
  /// A command applied at a time of the replay, as if a client sent it then (`touchctl replay --at`).
  public struct TimedCommand: Hashable, Sendable {
    /// Seconds after the recording's first event.
    public var offset: Double
    public var command: SceneCommand
    /// How an error names the command (touchctl: `--at 0.5 '{"cmd":…}'`).
    public var label: String

    public init(at offset: Double, _ command: SceneCommand, label: String? = nil) {
      self.offset = offset
      self.command = command
      self.label = label ?? "command at +\(offset) s \(command.json)"
    }
  }

  /// One step of a replay, in the order it happened.
  public enum Step: Hashable, Sendable {
    /// A message the scene published.
    case message(Message)
    /// A timed command was applied at `time` (the clock's seconds).
    case command(TimedCommand, time: Double)
    /// VoiceOver asked speech for `request` at `time` (what the daemon sends speech-dispatcher).
    case speech(SpeechRequest, time: Double)
  }

  /// The time a replay's command offsets (and `touchctl replay --explain`'s `+seconds`) count
  /// from: the recording's first event.
  public static func origin(of recording: Recording) -> Double { recording.events.first?.time.seconds ?? 0 }

  /// The time a replay of several recordings counts from: the earliest first event among them.
  public static func origin(of recordings: [Recording]) -> Double {
    recordings.compactMap(\.events.first?.time).min()?.seconds ?? 0
  }

  /// What a replay sent to one virtual touchscreen (docs/forward.md): the recording of the
  /// device whose unclaimed touches a window with `forward:` forwards, as evemu would record the
  /// virtual device.
  public struct ForwardedDevice: Hashable, Sendable {
    /// The index of the recording (the physical device) it forwards.
    public var source: Int
    /// The id of the window that forwards it.
    public var window: String
    /// The virtual device's description and events, on the replay's clock.
    public var recording: Recording
    /// Its touches forwarded, held, released, cancelled (as `status` will report them).
    public var counters: ForwardCounters

    public init(source: Int, window: String, recording: Recording, counters: ForwardCounters = ForwardCounters()) {
      self.source = source
      self.window = window
      self.recording = recording
      self.counters = counters
    }
  }

  /// Collects a replay's forwarded devices (``run(_:scene:devicePaths:deviceProperties:commands:trace:document:forwarding:_:)``).
  public final class ForwardCollector {
    /// One per recording routed to a window with `forward:`, in the order of the recordings.
    public private(set) var devices: [ForwardedDevice] = []

    public init() {}

    func add(_ device: ForwardedDevice) { devices.append(device) }

    func append(_ events: [InputEvent], to index: Int) { devices[index].recording.events += events }

    func finish(_ runtime: SceneRuntime) {
      for i in devices.indices {
        devices[i].counters = runtime.forwardCounters(source: devices[i].source) ?? ForwardCounters()
      }
    }
  }

  /// Replays `recordings` against `scene` and returns what each virtual touchscreen got: one
  /// ``ForwardedDevice`` per recording whose window has `forward:` (none when no window has one).
  /// Arguments as ``replay(_:scene:devicePaths:deviceProperties:commands:trace:document:)``.
  public static func forwarded(
    _ recordings: [Recording], scene: Scene, devicePaths: [String?] = [], deviceProperties: [String: String] = [:],
    commands: [TimedCommand] = []
  ) throws(SceneRuntimeError) -> [ForwardedDevice] {
    let collector = ForwardCollector()
    try run(
      recordings, scene: scene, devicePaths: devicePaths, deviceProperties: deviceProperties, commands: commands,
      forwarding: collector
    ) { _ in }
    return collector.devices
  }

  /// Where a recorded device's frames go in a scene: its touches to a window (it is a touchscreen
  /// a window's `devices` match), its keys to a window (a window's `keys.devices` match it), or both.
  public struct Route: Hashable, Sendable {
    public var touchWindow: Int?
    public var keyWindow: Int?

    public init(touchWindow: Int?, keyWindow: Int?) {
      self.touchWindow = touchWindow
      self.keyWindow = keyWindow
    }

    /// What to read from the recording.
    public var reading: MultiReplay.Reading { MultiReplay.Reading(touches: touchWindow != nil, keys: keyWindow != nil) }
  }

  /// Routes a recorded device as the live daemon routes the device: a touchscreen (touchd's rule,
  /// `Recording.notTouchscreenMessage`) to the first window whose `devices` match it; a device with
  /// keys that make presses (``KeyAssembler/hasKeys(_:)``) to the first window whose `keys.devices`
  /// match it (``SceneRuntime/keyWindowIndex(for:path:)``), a touchscreen too. A touchscreen that
  /// neither takes is ``SceneRuntimeError/noWindow(device:)``; any other device that no window's
  /// `keys.devices` takes is ``SceneRuntimeError/notTouchscreen(_:)``, its message naming the
  /// recording and the device.
  /// `properties` are the udev properties `KEY=GLOB` patterns match (a recording has none of its
  /// own: `touchctl replay --udev-property` gives them).
  public static func route(
    _ recording: Recording, in runtime: SceneRuntime, path: String? = nil, properties: [String: String] = [:]
  ) throws(SceneRuntimeError) -> Route {
    let description = recording.description
    let keyWindow =
      KeyAssembler.hasKeys(description)
      ? runtime.keyWindowIndex(for: description, path: path, properties: properties) : nil
    guard let message = recording.notTouchscreenMessage else {
      let touchWindow = runtime.windowIndex(for: description, path: path, properties: properties)
      if touchWindow == nil && keyWindow == nil { throw .noWindow(device: description.name) }
      return Route(touchWindow: touchWindow, keyWindow: keyWindow)
    }
    guard let keyWindow else {
      guard KeyAssembler.hasKeys(description) else { throw .notTouchscreen(message) }
      throw .notTouchscreen(
        message + ", nor its keys: no window's keys.devices matches its name \"\(description.name)\" or its id "
          + description.id.vendorProduct)
    }
    return Route(touchWindow: nil, keyWindow: keyWindow)
  }

  /// Replays `recording` against `scene`: for each frame the clock advances to the frame's time
  /// (firing due timers), the frame is mapped into the first window whose `devices` match the
  /// recording's device and delivered; touches still down at the end are cancelled, then pending
  /// timers run out. Returns the messages in order.
  ///
  /// Each of `commands` is applied when the clock reaches ``origin(of:)`` + its offset: after the
  /// timers due by then, before a frame at the same time; commands at one time in the given
  /// order. With `trace`, the runtime traces (``SceneRuntime/isTracing``) and the trace messages
  /// are among those returned.
  ///
  /// The recording is routed by ``route(_:in:path:)``: a device a window's `keys.devices` names
  /// feeds that window key frames too. ``replay(_:scene:devicePaths:deviceProperties:commands:trace:)`` replays
  /// several recordings at once.
  public static func replay(
    _ recording: Recording, scene: Scene, devicePath: String? = nil, commands: [TimedCommand] = [],
    trace: Bool = false, document: StrictJSON? = nil, health: TouchHealth? = nil
  ) throws(SceneRuntimeError) -> [Message] {
    try replay(
      [recording], scene: scene, devicePaths: [devicePath], commands: commands, trace: trace, document: document,
      health: health)
  }

  /// ``replay(_:scene:devicePath:commands:trace:)``, handing each step (messages and applied
  /// commands, each just before what it causes) to `body` as it happens. A command that fails (an unknown view, ending an
  /// ignoring never begun) stops the replay with ``SceneRuntimeError/timedCommand(label:error:)``
  /// before its first step: the commands are tried on the scene without touches first.
  public static func run(
    _ recording: Recording, scene: Scene, devicePath: String? = nil, commands: [TimedCommand] = [],
    trace: Bool = false, document: StrictJSON? = nil, _ body: @escaping (Step) -> Void
  ) throws(SceneRuntimeError) {
    try run(
      [recording], scene: scene, devicePaths: [devicePath], commands: commands, trace: trace, document: document,
      body)
  }

  /// Replays several recordings at once, as the live daemon reads several devices (a touchscreen
  /// and a keypad): their events merged by time, equal times in the order of `recordings`
  /// (``MultiReplay``); each recording routed by ``route(_:in:path:)`` (`devicePaths`, when given,
  /// one per recording, are the device paths window patterns may match). For each frame the clock
  /// advances to its time, then a touch frame is mapped into its window and delivered, a key frame
  /// is delivered to its window with the recording's index as its `source`. At the end, touches and
  /// keys still down are cancelled (recording by recording, touches first) at the last event of any
  /// recording, then pending timers run out. Commands and `trace` as in
  /// ``replay(_:scene:devicePath:commands:trace:)``, offsets counted from the earliest first event.
  public static func replay(
    _ recordings: [Recording], scene: Scene, devicePaths: [String?] = [], deviceProperties: [String: String] = [:],
    commands: [TimedCommand] = [], trace: Bool = false, document: StrictJSON? = nil, health: TouchHealth? = nil
  ) throws(SceneRuntimeError) -> [Message] {
    var messages: [Message] = []
    try run(
      recordings, scene: scene, devicePaths: devicePaths, deviceProperties: deviceProperties, commands: commands,
      trace: trace, document: document, health: health
    ) { step in
      if case .message(let message) = step { messages.append(message) }
    }
    return messages
  }

  /// ``replay(_:scene:devicePaths:deviceProperties:commands:trace:)``, handing each step to `body`
  /// as it happens. `deviceProperties` are every recording's udev properties, for windows that
  /// match devices by `KEY=GLOB` patterns. `document`, the JSON the scene was read from
  /// (``SceneDocument``), lets `update` commands change it. With `forwarding`, each recording
  /// routed to a window with `forward:` gets a virtual touchscreen whose events the collector
  /// keeps (docs/forward.md). With `health`, the runtime's touches are judged there
  /// (``TouchHealth``), as the daemon's are. `touchesEntries`: the optional entries of touches
  /// messages to make (``SceneRuntime/touchesEntries``; `touchctl replay --coalesced --predicted`).
  public static func run(
    _ recordings: [Recording], scene: Scene, devicePaths: [String?] = [], deviceProperties: [String: String] = [:],
    commands: [TimedCommand] = [], trace: Bool = false, document: StrictJSON? = nil,
    forwarding: ForwardCollector? = nil, health: TouchHealth? = nil, touchesEntries: TouchesMessage.Entries = [],
    _ body: @escaping (Step) -> Void
  ) throws(SceneRuntimeError) {
    let origin = origin(of: recordings)
    let clock = VirtualClock(now: origin)
    let runtime = SceneRuntime(scene: scene, clock: clock) { body(.message($0)) }
    runtime.speaker = { body(.speech($0, time: clock.now)) }
    runtime.document = document
    runtime.health = health
    var routes: [Route] = []
    for (index, recording) in recordings.enumerated() {
      let path = index < devicePaths.count ? devicePaths[index] : nil
      routes.append(try route(recording, in: runtime, path: path, properties: deviceProperties))
      // Each recording is one device, as live: its index is its source (a pen and its panel pair).
      runtime.addInputDevice(
        source: index, description: recording.description, path: path, properties: deviceProperties)
    }
    if let forwarding {
      for (index, route) in routes.enumerated() {
        guard let window = route.touchWindow, scene.windows[window].forward != nil else { continue }
        // The collector's next slot: the device is added once the runtime has described it.
        let slot = forwarding.devices.count
        guard
          let description = runtime.addForwarding(
            of: recordings[index].description, source: index, inWindow: window,
            output: { forwarding.append($0, to: slot) })
        else { continue }
        forwarding.add(
          ForwardedDevice(
            source: index, window: scene.windows[window].id,
            recording: Recording(description: description, events: [], source: recordings[index].source + " forwarded"))
        )
      }
    }
    runtime.isTracing = trace
    runtime.touchesEntries = touchesEntries
    // Stable: commands at one time keep their order.
    let ordered = commands.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
      .map(\.element)
    try rehearse(ordered, scene: scene, document: document, origin: origin)
    var pending = ordered[...]
    func applyCommands(upTo time: Double?) throws(SceneRuntimeError) {
      while let next = pending.first, time.map({ origin + next.offset <= $0 }) ?? true {
        pending.removeFirst()
        clock.advance(to: origin + next.offset)
        body(.command(next, time: clock.now))
        do {
          try runtime.apply(next.command)
        } catch {
          throw .timedCommand(label: next.label, error: error)
        }
      }
    }
    func deliver(_ index: Int, _ frame: DeviceFrame) throws(SceneRuntimeError) {
      try applyCommands(upTo: frame.time.seconds)
      clock.advance(to: frame.time.seconds)
      switch frame {
      case .touches(let touches):
        if let window = routes[index].touchWindow { runtime.handle(touches, inWindow: window, source: index) }
      case .keys(let keys):
        if let window = routes[index].keyWindow { runtime.handle(keys, inWindow: window, source: index) }
      }
    }
    let replay = MultiReplay(recordings, readings: routes.map(\.reading))
    try replay.feed(deliver)
    try replay.cancelAll(at: replay.endTime ?? Timestamp(microseconds: 0), deliver)
    try applyCommands(upTo: nil)
    clock.runUntilIdle()
    runtime.flushForwarding()
    forwarding?.finish(runtime)
  }

  /// Applies `commands`, in order at their times, to a runtime of `scene` that gets no touches and
  /// publishes nowhere, so that a command that cannot apply (an unknown view, ending an ignoring
  /// never begun) stops a replay before its first step rather than midway. What a command needs
  /// holds or not whatever the touches do: views, windows and the ignoring depth change only by
  /// commands.
  private static func rehearse(
    _ commands: [TimedCommand], scene: Scene, document: StrictJSON?, origin: Double
  ) throws(SceneRuntimeError) {
    guard !commands.isEmpty else { return }
    let clock = VirtualClock(now: origin)
    let runtime = SceneRuntime(scene: scene, clock: clock) { _ in }
    runtime.document = document
    for command in commands {
      clock.advance(to: origin + command.offset)
      do {
        try runtime.apply(command.command)
      } catch {
        throw .timedCommand(label: command.label, error: error)
      }
    }
  }
}
