// The parts of the `status` reply (StatusReply.swift), each written in its documented key order.

extension StatusReply {
  /// An open input device: what it is, which window takes its touches and its keys, whether touchd
  /// grabbed it, and its forwarding (nil when not forwarded).
  public struct DeviceStatus: Decodable, Hashable, Sendable {
    public var path: String
    public var name: String
    public var window: String?
    public var keysWindow: String?
    public var grabbed: Bool
    public var forward: ForwardStatus?

    public init(
      path: String, name: String, window: String?, keysWindow: String?, grabbed: Bool, forward: ForwardStatus?
    ) {
      self.path = path
      self.name = name
      self.window = window
      self.keysWindow = keysWindow
      self.grabbed = grabbed
      self.forward = forward
    }

    func write(into w: inout JSONLineWriter) {
      w.raw(#"{"path":"#)
      w.string(path)
      w.string(#","name":"#, name)
      w.optionalString(#","window":"#, window)
      w.optionalString(#","keysWindow":"#, keysWindow)
      w.bool(#","grabbed":"#, grabbed)
      w.raw(#","forward":"#)
      if let forward { forward.write(into: &w) } else { w.raw("null") }
      w.raw("}")
    }
  }

  /// A forwarded device's virtual touchscreen (docs/forward.md): its node and name, its touches
  /// (forwarded, held, released, cancelled, without a free slot), failed writes, and the frames the
  /// forwarding shortcut wrote and got wrong.
  public struct ForwardStatus: Decodable, Hashable, Sendable {
    /// The virtual device's node (`/dev/input/eventN`), nil until udev names it.
    public var node: String?
    public var name: String
    public var forwarded: Int
    public var held: Int
    public var released: Int
    public var cancelled: Int
    public var noSlot: Int
    public var writeErrors: Int
    public var shortcutFrames: Int
    public var shortcutMismatches: Int

    public init(
      node: String?, name: String, forwarded: Int, held: Int, released: Int, cancelled: Int, noSlot: Int,
      writeErrors: Int, shortcutFrames: Int, shortcutMismatches: Int
    ) {
      self.node = node
      self.name = name
      self.forwarded = forwarded
      self.held = held
      self.released = released
      self.cancelled = cancelled
      self.noSlot = noSlot
      self.writeErrors = writeErrors
      self.shortcutFrames = shortcutFrames
      self.shortcutMismatches = shortcutMismatches
    }

    func write(into w: inout JSONLineWriter) {
      w.optionalString(#"{"node":"#, node)
      w.string(#","name":"#, name)
      w.integer(#","forwarded":"#, forwarded)
      w.integer(#","held":"#, held)
      w.integer(#","released":"#, released)
      w.integer(#","cancelled":"#, cancelled)
      w.integer(#","noSlot":"#, noSlot)
      w.integer(#","writeErrors":"#, writeErrors)
      w.integer(#","shortcutFrames":"#, shortcutFrames)
      w.integer(#","shortcutMismatches":"#, shortcutMismatches)
      w.raw("}")
    }
  }

  /// A live frame's latency by stage, in microseconds from the kernel's stamp (docs/performance.md,
  /// "Latency"): how many frames were measured, how many samples each stage keeps, and each
  /// stage's percentiles (nil before its first sample).
  public struct LatencyStatus: Decodable, Hashable, Sendable {
    /// Always `us`.
    public var unit: String
    public var frames: Int
    public var window: Int
    public var wake: StageSummary?
    public var assembled: StageSummary?
    public var encoded: StageSummary?
    public var forwarded: StageSummary?
    public var delivered: StageSummary?
    public var handed: StageSummary?

    public init(
      frames: Int, window: Int, wake: StageSummary?, assembled: StageSummary?, encoded: StageSummary?,
      forwarded: StageSummary?, delivered: StageSummary?, handed: StageSummary?
    ) {
      unit = "us"
      self.frames = frames
      self.window = window
      self.wake = wake
      self.assembled = assembled
      self.encoded = encoded
      self.forwarded = forwarded
      self.delivered = delivered
      self.handed = handed
    }

    func write(into w: inout JSONLineWriter) {
      w.string(#"{"unit":"#, unit)
      w.integer(#","frames":"#, frames)
      w.integer(#","window":"#, window)
      for (key, stage) in [
        (#","wake":"# as StaticString, wake), (#","assembled":"#, assembled), (#","encoded":"#, encoded),
        (#","forwarded":"#, forwarded), (#","delivered":"#, delivered), (#","handed":"#, handed),
      ] {
        w.raw(key)
        if let stage { stage.write(into: &w) } else { w.raw("null") }
      }
      w.raw("}")
    }
  }

  /// One stage's percentiles (nearest rank) over its kept samples, in microseconds.
  public struct StageSummary: Decodable, Hashable, Sendable {
    public var samples: Int
    public var p50: Int
    public var p90: Int
    public var p99: Int
    public var max: Int

    public init(samples: Int, p50: Int, p90: Int, p99: Int, max: Int) {
      self.samples = samples
      self.p50 = p50
      self.p90 = p90
      self.p99 = p99
      self.max = max
    }

    func write(into w: inout JSONLineWriter) {
      w.integer(#"{"samples":"#, samples)
      w.integer(#","p50":"#, p50)
      w.integer(#","p90":"#, p90)
      w.integer(#","p99":"#, p99)
      w.integer(#","max":"#, max)
      w.raw("}")
    }
  }

  /// The scene's idle state (its `idle:`): `idle` or `active`, its settings, and the time of the
  /// last touch or press on the messages' clock with the seconds since (nil before the first).
  public struct IdleStatus: Decodable, Hashable, Sendable {
    public var state: String
    public var after: Double
    public var wake: String
    public var lastInput: Double?
    public var secondsSinceInput: Double?

    public init(state: String, after: Double, wake: String, lastInput: Double?, secondsSinceInput: Double?) {
      self.state = state
      self.after = after
      self.wake = wake
      self.lastInput = lastInput
      self.secondsSinceInput = secondsSinceInput
    }

    func write(into w: inout JSONLineWriter) {
      w.string(#"{"state":"#, state)
      w.number(#","after":"#, after)
      w.string(#","wake":"#, wake)
      w.optionalNumber(#","lastInput":"#, lastInput)
      w.optionalNumber(#","secondsSinceInput":"#, secondsSinceInput)
      w.raw("}")
    }
  }

  /// The WebSocket endpoint: where it listens, the page origins it accepts, and whether it takes
  /// connections from other hosts.
  public struct WebSocketStatus: Decodable, Hashable, Sendable {
    public var address: String
    public var origins: [String]
    public var allowRemote: Bool

    public init(address: String, origins: [String], allowRemote: Bool) {
      self.address = address
      self.origins = origins
      self.allowRemote = allowRemote
    }

    func write(into w: inout JSONLineWriter) {
      w.string(#"{"address":"#, address)
      w.strings(#","origins":"#, origins)
      w.bool(#","allowRemote":"#, allowRemote)
      w.raw("}")
    }
  }

  /// The daemon's limits: clients at once, of one user at once, a command line's bytes, a client's
  /// send buffer, a scene's bytes, the open-file limit it runs under, and the seconds a client may
  /// go without a complete line and keep a line incomplete.
  public struct Limits: Decodable, Hashable, Sendable {
    public var clients: Int
    public var clientsPerUser: Int
    public var lineBytes: Int
    public var clientBufferBytes: Int
    public var sceneBytes: Int
    public var openFiles: Int
    public var firstLineSeconds: Double
    public var partialLineSeconds: Double

    public init(
      clients: Int, clientsPerUser: Int, lineBytes: Int, clientBufferBytes: Int, sceneBytes: Int, openFiles: Int,
      firstLineSeconds: Double, partialLineSeconds: Double
    ) {
      self.clients = clients
      self.clientsPerUser = clientsPerUser
      self.lineBytes = lineBytes
      self.clientBufferBytes = clientBufferBytes
      self.sceneBytes = sceneBytes
      self.openFiles = openFiles
      self.firstLineSeconds = firstLineSeconds
      self.partialLineSeconds = partialLineSeconds
    }

    func write(into w: inout JSONLineWriter) {
      w.integer(#"{"clients":"#, clients)
      w.integer(#","clientsPerUser":"#, clientsPerUser)
      w.integer(#","lineBytes":"#, lineBytes)
      w.integer(#","clientBufferBytes":"#, clientBufferBytes)
      w.integer(#","sceneBytes":"#, sceneBytes)
      w.integer(#","openFiles":"#, openFiles)
      w.number(#","firstLineSeconds":"#, firstLineSeconds)
      w.number(#","partialLineSeconds":"#, partialLineSeconds)
      w.raw("}")
    }
  }

  /// The daemon's counters since it started.
  public struct Counters: Decodable, Hashable, Sendable {
    public var frames = 0
    public var touchesBegan = 0
    public var keyFrames = 0
    public var actions = 0
    public var messages = 0
    public var traceMessages = 0
    public var reloads = 0
    public var reloadFailures = 0
    public var scenePushes = 0
    public var resyncs = 0
    public var stuckTouches = 0
    public var timerWakeups = 0
    public var clientsAccepted = 0
    public var clientsDenied = 0
    public var clientsRefused = 0
    /// Clients refused for their user's limit (counted in ``clientsAccepted`` too: a client's
    /// user is known once it is connected).
    public var clientsRefusedPerUser = 0
    /// Clients closed for no complete line in time, or a line left incomplete.
    public var clientsTimedOut = 0
    public var clientsDisconnectedSlow = 0
    public var messagesSent = 0
    public var messagesSkipped = 0

    public init() {}

    func write(into w: inout JSONLineWriter) {
      w.integer(#"{"frames":"#, frames)
      w.integer(#","touchesBegan":"#, touchesBegan)
      w.integer(#","keyFrames":"#, keyFrames)
      w.integer(#","actions":"#, actions)
      w.integer(#","messages":"#, messages)
      w.integer(#","traceMessages":"#, traceMessages)
      w.integer(#","reloads":"#, reloads)
      w.integer(#","reloadFailures":"#, reloadFailures)
      w.integer(#","scenePushes":"#, scenePushes)
      w.integer(#","resyncs":"#, resyncs)
      w.integer(#","stuckTouches":"#, stuckTouches)
      w.integer(#","timerWakeups":"#, timerWakeups)
      w.integer(#","clientsAccepted":"#, clientsAccepted)
      w.integer(#","clientsDenied":"#, clientsDenied)
      w.integer(#","clientsRefused":"#, clientsRefused)
      w.integer(#","clientsRefusedPerUser":"#, clientsRefusedPerUser)
      w.integer(#","clientsTimedOut":"#, clientsTimedOut)
      w.integer(#","clientsDisconnectedSlow":"#, clientsDisconnectedSlow)
      w.integer(#","messagesSent":"#, messagesSent)
      w.integer(#","messagesSkipped":"#, messagesSkipped)
      w.raw("}")
    }
  }
}
