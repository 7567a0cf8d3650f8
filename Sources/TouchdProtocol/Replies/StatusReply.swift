/// The fields of the `status` reply (docs/protocol.md, "status"): the scene, its windows, the
/// devices, the replay, touches down, latency by stage, the idle state, ignoring and tracing, the
/// clients, the WebSocket endpoint, the limits and the counters. Keys are written in this order,
/// and `null` where a part does not apply (no replay, no `idle:`, no WebSocket, a device not
/// forwarded, a stage without samples).
public struct StatusReply: Decodable, Hashable, Sendable {
  /// The scene file's path.
  public var scene: String
  public var windows: [WindowInfo]
  /// The open input devices, by path.
  public var devices: [DeviceStatus]
  /// The recording being replayed, nil when live.
  public var replay: String?
  public var touchesDown: Int
  public var latency: LatencyStatus
  public var idle: IdleStatus?
  /// How deep `ignoreInteraction` nests now.
  public var ignoring: Int
  /// Whether any client subscribes to `trace`.
  public var tracing: Bool
  public var clients: Int
  public var webSocket: WebSocketStatus?
  public var limits: Limits
  public var counters: Counters

  public init(
    scene: String, windows: [WindowInfo], devices: [DeviceStatus], replay: String?, touchesDown: Int,
    latency: LatencyStatus, idle: IdleStatus?, ignoring: Int, tracing: Bool, clients: Int,
    webSocket: WebSocketStatus?, limits: Limits, counters: Counters
  ) {
    self.scene = scene
    self.windows = windows
    self.devices = devices
    self.replay = replay
    self.touchesDown = touchesDown
    self.latency = latency
    self.idle = idle
    self.ignoring = ignoring
    self.tracing = tracing
    self.clients = clients
    self.webSocket = webSocket
    self.limits = limits
    self.counters = counters
  }

  /// The reply's members, encoded (`"scene":…,"counters":{…}`), for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String {
    var w = JSONLineWriter(#"{"scene":"#)
    w.string(scene)
    WindowInfo.write(windows, key: #","windows":"#, into: &w)
    w.raw(#","devices":["#)
    for (i, device) in devices.enumerated() {
      if i > 0 { w.raw(",") }
      device.write(into: &w)
    }
    w.raw("]")
    w.optionalString(#","replay":"#, replay)
    w.integer(#","touchesDown":"#, touchesDown)
    w.raw(#","latency":"#)
    latency.write(into: &w)
    w.raw(#","idle":"#)
    if let idle { idle.write(into: &w) } else { w.raw("null") }
    w.integer(#","ignoring":"#, ignoring)
    w.bool(#","tracing":"#, tracing)
    w.integer(#","clients":"#, clients)
    w.raw(#","webSocket":"#)
    if let webSocket { webSocket.write(into: &w) } else { w.raw("null") }
    w.raw(#","limits":"#)
    limits.write(into: &w)
    w.raw(#","counters":"#)
    counters.write(into: &w)
    return w.finishMembers()
  }
}
