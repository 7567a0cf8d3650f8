extension TouchdClient {
  /// A message type to subscribe to; the protocol's name as `rawValue`, so a type added by a
  /// later daemon can be named with a string literal.
  public struct MessageType: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
    /// The protocol's name of the type.
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    public static let action: MessageType = "action"
    public static let touches: MessageType = "touches"
    public static let scroll: MessageType = "scroll"
    public static let control: MessageType = "control"
    public static let presses: MessageType = "presses"
    public static let idle: MessageType = "idle"
    public static let trace: MessageType = "trace"
    /// The types that carry `seq`: subscribed to all of them without `actions` or `views`, a
    /// ``Missed`` count is exact.
    public static let pipeline: [MessageType] = [.action, .touches, .scroll, .control, .presses, .idle]
  }

  /// What the daemon does when this client falls behind by its send buffer.
  public enum Overflow: String, Sendable, Hashable {
    /// Close the connection (the daemon's default).
    case disconnect
    /// Drop messages and send a ``TouchdMessage/gap(_:)`` with their number once caught up.
    case skip
  }

  /// One change of the running scene's views or recognizers (the `update` command).
  public enum Update: Sendable, Hashable {
    /// Adds a view (an object of the scene format, with its `id`, subviews and recognizers) to the
    /// window or view `parent`, at `index` among its subviews (0 the backmost; nil: in front).
    case addView(TouchdJSON, parent: String, index: Int? = nil)
    /// Replaces the view of the same `id`, with its subtree.
    case replaceView(TouchdJSON)
    /// Removes a view and its subtree.
    case removeView(String)
    /// Adds a recognizer (an object of the scene format) to the view `parent`.
    case addRecognizer(TouchdJSON, parent: String)
    /// Replaces the recognizer of the same `id`.
    case replaceRecognizer(TouchdJSON)
    /// Removes a recognizer.
    case removeRecognizer(String)

    var fields: [String: TouchdJSON] {
      switch self {
      case .addView(let view, let parent, let index):
        var fields: [String: TouchdJSON] = ["op": "add", "view": view, "parent": .string(parent)]
        if let index { fields["index"] = .number(Double(index)) }
        return fields
      case .replaceView(let view): return ["op": "replace", "view": view]
      case .removeView(let id): return ["op": "remove", "view": .string(id)]
      case .addRecognizer(let recognizer, let parent):
        return ["op": "add", "recognizer": recognizer, "parent": .string(parent)]
      case .replaceRecognizer(let recognizer): return ["op": "replace", "recognizer": recognizer]
      case .removeRecognizer(let id): return ["op": "remove", "recognizer": .string(id)]
      }
    }
  }

  /// Sends any command, `fields` as the protocol names them, and returns its reply; throws
  /// ``TouchdError/daemon(message:)`` with the daemon's error, ``TouchdError/connectionLost`` if
  /// the connection closed before the answer, ``TouchdError/timeout`` after ``commandTimeout``.
  /// `cmd` and `id` are the client's: such fields are ignored.
  @discardableResult
  public func send(_ cmd: String, fields: [String: TouchdJSON] = [:]) async throws -> Reply {
    try await request(cmd, fields, timeout: commandTimeout)
  }

  /// `ping`: the daemon answers.
  @discardableResult
  public func ping() async throws -> Reply {
    try await send("ping")
  }

  /// `subscribe`: replaces this client's filter (nil: the daemon's default, `types` actions only,
  /// no `actions` or `views` filter, overflow `disconnect`; the daemon reads an empty `actions` or
  /// `views` as no filter too). The reply has the effective `types`, `actions`, `views` and
  /// `overflow`. The client sends it again after a reconnection.
  @discardableResult
  public func subscribe(
    types: [MessageType]? = nil, actions: [String]? = nil, views: [String]? = nil, overflow: Overflow? = nil
  ) async throws -> Reply {
    var fields: [String: TouchdJSON] = [:]
    if let types { fields["types"] = .array(types.map { .string($0.rawValue) }) }
    if let actions { fields["actions"] = .array(actions.map(TouchdJSON.string)) }
    if let views { fields["views"] = .array(views.map(TouchdJSON.string)) }
    if let overflow { fields["overflow"] = .string(overflow.rawValue) }
    return try await send("subscribe", fields: fields)
  }

  /// `set` on a view: changes it at once (the next touch sees it). Each argument given is sent;
  /// `fields` adds any other key of the protocol (a control's `value`, `selectedSegmentIndex`, …).
  @discardableResult
  public func setView(
    _ view: String, hidden: Bool? = nil, alpha: Double? = nil, userInteractionEnabled: Bool? = nil,
    frame: Rect? = nil, contentOffset: Point? = nil, animated: Bool? = nil, contentSize: Size? = nil,
    scrollEnabled: Bool? = nil, enabled: Bool? = nil, selected: Bool? = nil, on: Bool? = nil,
    value: Double? = nil, selectedSegmentIndex: Int? = nil, firstResponder: Bool? = nil,
    fields: [String: TouchdJSON] = [:]
  ) async throws -> Reply {
    var all = fields
    all["view"] = .string(view)
    func put(_ key: String, _ value: TouchdJSON?) { if let value { all[key] = value } }
    put("hidden", hidden.map(TouchdJSON.bool))
    put("alpha", alpha.map(TouchdJSON.number))
    put("userInteractionEnabled", userInteractionEnabled.map(TouchdJSON.bool))
    put(
      "frame",
      frame.map { ["x": .number($0.x), "y": .number($0.y), "width": .number($0.width), "height": .number($0.height)] })
    put("contentOffset", contentOffset.map { ["x": .number($0.x), "y": .number($0.y)] })
    put("animated", animated.map(TouchdJSON.bool))
    put("contentSize", contentSize.map { ["width": .number($0.width), "height": .number($0.height)] })
    put("scrollEnabled", scrollEnabled.map(TouchdJSON.bool))
    put("enabled", enabled.map(TouchdJSON.bool))
    put("selected", selected.map(TouchdJSON.bool))
    put("on", on.map(TouchdJSON.bool))
    put("value", value.map(TouchdJSON.number))
    put("selectedSegmentIndex", selectedSegmentIndex.map { .number(Double($0)) })
    put("firstResponder", firstResponder.map(TouchdJSON.bool))
    return try await send("set", fields: all)
  }

  /// `set` on a window: its `rotation` (0, 90, 180, 270), `calibration` (six numbers) or `size`;
  /// touches in progress on it are cancelled. Every client gets a ``TouchdMessage/windowChanged(_:)``.
  @discardableResult
  public func setWindow(
    _ window: String, rotation: Int? = nil, calibration: [Double]? = nil, size: Size? = nil
  ) async throws -> Reply {
    var fields: [String: TouchdJSON] = ["window": .string(window)]
    if let rotation { fields["rotation"] = .number(Double(rotation)) }
    if let calibration { fields["calibration"] = .array(calibration.map(TouchdJSON.number)) }
    if let size { fields["size"] = ["width": .number(size.width), "height": .number(size.height)] }
    return try await send("set", fields: fields)
  }

  /// `ignoreInteraction`: `true` begins ignoring touches (nested), `false` ends one begin; the
  /// reply's `ignoring` is the nesting count.
  @discardableResult
  public func ignoreInteraction(_ value: Bool) async throws -> Reply {
    try await send("ignoreInteraction", fields: ["value": .bool(value)])
  }

  /// `reload`: reads the scene file again (an invalid one is refused, the old scene stays).
  @discardableResult
  public func reload() async throws -> Reply {
    try await send("reload")
  }

  /// `scene`: replaces the running scene with `scene` (the scene format as a JSON object); the
  /// reply has `windows`, `views`, `recognizers`. Every client gets a ``TouchdMessage/reloaded(_:)``
  /// with `source` `client`.
  @discardableResult
  public func pushScene(_ scene: TouchdJSON) async throws -> Reply {
    try await send("scene", fields: ["scene": scene])
  }

  /// `scene` with an `Encodable` scene (encoded by `JSONEncoder`).
  @discardableResult
  public func pushScene(_ scene: some Encodable & Sendable) async throws -> Reply {
    try await pushScene(TouchdJSON(encoding: scene))
  }

  /// `update`: changes one view subtree or one recognizer of the running scene in place; the reply
  /// (and the ``TouchdMessage/updated(_:)`` every client gets) has `op`, the id, `parent`, `index`
  /// and the scene's counts.
  @discardableResult
  public func update(_ change: Update) async throws -> Reply {
    try await send("update", fields: change.fields)
  }

  /// `status`: devices, replay, clients, limits, counters, windows, latency, … (docs/protocol.md).
  public func status() async throws -> Reply {
    try await send("status")
  }

  /// `calibrate`: the window's next touch on each target (3 to 9 window points, in order) goes to
  /// the calibration; a ``TouchdMessage/calibration(_:)`` comes as each is collected, the reply
  /// (`matrix`, `rmsError`, `maxError`, `points`, `warning`, …) after the last. `timeout` is the
  /// daemon's (default 120 s); the client waits that long plus ``commandTimeout``.
  public func calibrate(window: String, targets: [Point], timeout: Duration? = nil) async throws -> Reply {
    var fields: [String: TouchdJSON] = [
      "window": .string(window), "targets": .array(targets.map { [.number($0.x), .number($0.y)] }),
    ]
    if let timeout { fields["timeout"] = .number(timeout.seconds) }
    let wait = commandTimeout.map { (timeout ?? .seconds(120)) + $0 }
    return try await request("calibrate", fields, timeout: wait)
  }
}
