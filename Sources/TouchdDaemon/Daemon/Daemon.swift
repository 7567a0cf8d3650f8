import Dispatch
import Logging
import NIOConcurrencyHelpers
import TouchdDevices
import TouchdInput
import TouchdScene

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
///
/// # Files
/// This file holds the daemon's state; what it does is in extensions, one concern a file:
/// Daemon+Lifecycle.swift (start and stop), Daemon+Frames.swift (delivery, latency, the messages
/// handed to the server), Daemon+Devices.swift and Daemon+DeviceRoles.swift (the live devices, and
/// which the scene takes), Daemon+Replay.swift, Daemon+Reload.swift (a new scene in place),
/// Daemon+Commands.swift (client commands) and Daemon+Status.swift (`hello`, `status`).
public final class Daemon: CommandHandler, @unchecked Sendable {
  /// The pipeline queue.
  public let queue = DispatchQueue(label: "touchd.pipeline")
  let options: DaemonOptions
  let logger: Logger
  let notifier = SystemdNotifier()
  let ids = TouchIDAllocator()
  var clock: DispatchClock!
  /// The scene read at start (the file), until the runtime is built from it.
  var loaded: SceneDocument
  /// The scene as running: the file's or a client's, with its updates and window changes.
  var scene: Scene { runtime?.scene ?? loaded.scene }
  var runtime: SceneRuntime!
  /// The device whose touches a running calibration collected last: the reply names it, and its
  /// udev calibration goes into the reply's `udevMatrix`.
  var calibrationDevice: (path: String, name: String, calibration: CalibrationMatrix?)?
  /// The number of the client whose calibration runs (``ClientInfo/number``).
  var calibrationClient: Int?
  var server: SocketServer!
  var devices: [String: LiveDevice] = [:]
  var monitor: DeviceMonitor?
  var monitorSource: DispatchSourceRead?
  /// The open devices' fds, and the thread that waits on them all.
  var poll: DevicePoll?
  var inputThread: InputThread?
  /// The path of each device in ``poll``, by its token.
  var polledPaths: [UInt64: String] = [:]
  var sources: [DispatchSourceProtocol] = []
  var replay: ReplayFeeder?
  /// Whether a client subscribes to `trace` messages: the runtime traces only then.
  var tracing = false
  /// The touches entries some touches subscriber asks for: the runtime records frames only then.
  var touchesEntries: TouchesMessage.Entries = []
  /// The message types at least one client subscribes to, as the server last reported them (from
  /// its event loop; read by the pipeline per message). Encoding is skipped for the others: a
  /// view with `touches: true` then costs no JSON while nobody reads its touches.
  let subscribedTypes = NIOLockedValueBox<Set<String>>([])
  var counters = PipelineCounters()
  /// This run of the daemon, in `hello`: a client that reconnects and finds the same instance
  /// knows that `seq` went on counting, so a jump in it is messages it missed; another instance
  /// (a restart) counts from 1 again. 64 random bits in 16 hex digits.
  let instance: String = {
    let hex = String(UInt64.random(in: .min ... .max), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }()
  /// Each stage's latency over the last live frames (`status` → `latency`).
  var latency = PipelineLatency()
  /// The metrics (`metrics` command, docs/operations.md "Metrics").
  let metrics = DaemonMetrics()
  /// Touchscreen health, kept across scene reloads (each runtime is handed it: `health`).
  let health = TouchHealth()
  /// The metrics of each replayed recording's device, by the recording's index.
  var replayedDevices: [DeviceMetrics] = []
  /// The kernel time of the live frame being delivered (nil otherwise): its messages are
  /// collected in ``outbound`` and handed to the server together.
  var liveFrameTime: Int64?
  /// When the live frame's last message was encoded.
  var frameEncoded: Int64?
  /// When the live frame's first forwarded batch was written to its virtual touchscreen.
  var frameForwarded: Int64?
  /// The live frame's messages, handed to the server in one batch once delivery returns.
  var outbound: [OutboundMessage] = []
  var shuttingDown = false

  /// Tells each device's presses and forwarded touches apart (`SceneRuntime.handle(_:inWindow:source:)`).
  var nextSource = 0
  /// The virtual touchscreens of the touchscreens windows with `forward:` take.
  let forwarding: LiveForwarding
  /// VoiceOver's speech, through speech-dispatcher (Speech/).
  let speech: SpeechOutput

  /// A device being read, and the windows it feeds.
  final class LiveDevice {
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
    /// Its frames, touches, resyncs and unplugs, for the metrics.
    let metrics: DeviceMetrics
    init(
      device: InputDevice, touchWindow: Int?, keyWindow: Int?, source: Int, calibration: CalibrationMatrix?,
      token: UInt64, metrics: DeviceMetrics
    ) {
      self.device = device
      self.touchWindow = touchWindow
      self.keyWindow = keyWindow
      self.source = source
      self.calibration = calibration
      self.token = token
      self.metrics = metrics
    }
  }

  /// Loads and validates the scene; nothing is opened yet.
  public init(options: DaemonOptions, logger: Logger) throws(SceneError) {
    self.options = options
    self.logger = logger
    forwarding = LiveForwarding(logger: logger, uinputPath: options.uinputPath, path: ForwardPath())
    speech = SpeechOutput(logger: logger)
    loaded = try Scene.loadDocument(path: options.scenePath)
    forwarding.didWrite = { [unowned self] in
      if liveFrameTime != nil, frameForwarded == nil { frameForwarded = MonotonicClock.microseconds() }
    }
  }
}
