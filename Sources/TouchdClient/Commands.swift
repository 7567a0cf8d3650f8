import TouchdProtocol

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
    public static let accessibility: MessageType = "accessibility"
    public static let stroke: MessageType = "stroke"
    public static let signature: MessageType = "signature"
    public static let trace: MessageType = "trace"
    /// The types that carry `seq`: subscribed to all of them without `actions` or `views`, a
    /// ``Missed`` count is exact.
    public static let pipeline: [MessageType] = [
      .action, .touches, .scroll, .control, .presses, .idle, .accessibility, .stroke, .signature,
    ]
  }

  /// What the daemon does when this client falls behind by its send buffer: `disconnect` (the
  /// daemon's default) or `skip` (drop messages and send a ``TouchdMessage/gap(_:)`` with their
  /// number once caught up). The protocol's type.
  public typealias Overflow = SubscribeCommand.Overflow

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

    /// The protocol's `update` command for this change.
    var command: UpdateCommand {
      switch self {
      case .addView(let view, let parent, let index):
        UpdateCommand(operation: .add, target: .view, id: "", object: StrictJSON(view), parent: parent, index: index)
      case .replaceView(let view): UpdateCommand(operation: .replace, target: .view, id: "", object: StrictJSON(view))
      case .removeView(let id): UpdateCommand(operation: .remove, target: .view, id: id)
      case .addRecognizer(let recognizer, let parent):
        UpdateCommand(operation: .add, target: .recognizer, id: "", object: StrictJSON(recognizer), parent: parent)
      case .replaceRecognizer(let recognizer):
        UpdateCommand(operation: .replace, target: .recognizer, id: "", object: StrictJSON(recognizer))
      case .removeRecognizer(let id): UpdateCommand(operation: .remove, target: .recognizer, id: id)
      }
    }
  }

  /// Sends a command the protocol declares (Sources/TouchdProtocol/Commands) with its fields, plus
  /// `extra` ones it does not know, and returns its reply.
  func send(_ command: Command, extra: [String: TouchdJSON] = [:], timeout: Duration?) async throws -> Reply {
    var fields = extra
    for (key, value) in command.members { fields[key] = TouchdJSON(value) }
    return try await request(command.name, fields, timeout: timeout)
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
    try await send(.ping, timeout: commandTimeout)
  }

  /// `subscribe`: replaces this client's filter (nil: the daemon's default, `types` actions only,
  /// no `actions` or `views` filter, overflow `disconnect`; the daemon reads an empty `actions` or
  /// `views` as no filter too). `coalesced` and `predicted` ask for those entries of touches
  /// messages (``TouchesMessage/coalesced``, ``TouchesMessage/predicted``; default false). The reply
  /// has the effective `types`, `actions`, `views`, `overflow`, `coalesced` and `predicted`. The
  /// client sends it again after a reconnection.
  @discardableResult
  public func subscribe(
    types: [MessageType]? = nil, actions: [String]? = nil, views: [String]? = nil, overflow: Overflow? = nil,
    coalesced: Bool? = nil, predicted: Bool? = nil
  ) async throws -> Reply {
    let subscribe = SubscribeCommand(
      types: types?.map(\.rawValue), actions: actions, views: views, overflow: overflow, coalesced: coalesced,
      predicted: predicted)
    return try await send(.subscribe(subscribe), timeout: commandTimeout)
  }

  /// `set` on a view: changes it at once (the next touch sees it). Each argument given is sent;
  /// `fields` adds any other key of the protocol (a control's `value`, `selectedSegmentIndex`, …).
  @discardableResult
  public func setView(
    _ view: String, hidden: Bool? = nil, alpha: Double? = nil, userInteractionEnabled: Bool? = nil,
    frame: Rect? = nil, contentOffset: Point? = nil, animated: Bool? = nil, contentSize: Size? = nil,
    scrollEnabled: Bool? = nil, enabled: Bool? = nil, selected: Bool? = nil, on: Bool? = nil,
    value: Double? = nil, selectedSegmentIndex: Int? = nil, currentPage: Int? = nil, firstResponder: Bool? = nil,
    fields: [String: TouchdJSON] = [:]
  ) async throws -> Reply {
    let set = SetViewCommand(
      view: view, hidden: hidden, alpha: alpha, userInteractionEnabled: userInteractionEnabled,
      frame: frame,
      scroll: ScrollChange(
        contentOffset: contentOffset, animated: animated ?? false,
        contentSize: contentSize, scrollEnabled: scrollEnabled),
      control: ControlChange(
        enabled: enabled, selected: selected, on: on, value: value, selectedSegmentIndex: selectedSegmentIndex,
        currentPage: currentPage),
      firstResponder: firstResponder)
    var extra = fields
    // Sent as given: the command writes `animated` only when true with a `contentOffset`, and the
    // daemon is the one to refuse it without one.
    if let animated { extra["animated"] = .bool(animated) }
    return try await send(.setView(set), extra: extra, timeout: commandTimeout)
  }

  /// `set` on a window: its `rotation` (0, 90, 180, 270), `calibration` (six numbers) or `size`,
  /// or VoiceOver on or off (`voiceOver`, which publishes an `accessibility` message); touches in
  /// progress on it are cancelled. Every client gets a ``TouchdMessage/windowChanged(_:)``.
  @discardableResult
  public func setWindow(
    _ window: String, rotation: Int? = nil, calibration: [Double]? = nil, size: Size? = nil, voiceOver: Bool? = nil
  ) async throws -> Reply {
    let change = WindowChange(
      rotation: rotation, calibration: calibration, size: size, voiceOver: voiceOver)
    return try await send(.setWindow(SetWindowCommand(window: window, change: change)), timeout: commandTimeout)
  }

  /// `announce`: VoiceOver says `text` in `window` (the first when nil), as UIAccessibility's
  /// `.announcement`; the reply's `spoken` is false where VoiceOver is off (nothing is said).
  @discardableResult
  public func announce(_ text: String, window: String? = nil) async throws -> Reply {
    try await send(.announce(AnnounceCommand(text: text, window: window)), timeout: commandTimeout)
  }

  /// `signature`: the signature drawn on the signature view `view` (`get`: the reply has its
  /// strokes, bounds and duration, and subscribers of `signature` get it too) or its strokes
  /// forgotten (`clear`).
  @discardableResult
  public func signature(_ view: String, clear: Bool = false) async throws -> Reply {
    try await send(.signature(SignatureCommand(view: view, action: clear ? "clear" : "get")), timeout: commandTimeout)
  }

  /// `ignoreInteraction`: `true` begins ignoring touches (nested), `false` ends one begin; the
  /// reply's `ignoring` is the nesting count.
  @discardableResult
  public func ignoreInteraction(_ value: Bool) async throws -> Reply {
    try await send(.ignoreInteraction(IgnoreInteractionCommand(value: value)), timeout: commandTimeout)
  }

  /// `reload`: reads the scene file again (an invalid one is refused, the old scene stays).
  @discardableResult
  public func reload() async throws -> Reply {
    try await send(.reload, timeout: commandTimeout)
  }

  /// `scene`: replaces the running scene with `scene` (the scene format as a JSON object); the
  /// reply has `windows`, `views`, `recognizers`. Every client gets a ``TouchdMessage/reloaded(_:)``
  /// with `source` `client`.
  @discardableResult
  public func pushScene(_ scene: TouchdJSON) async throws -> Reply {
    try await send(.scene(PushSceneCommand(scene: StrictJSON(scene))), timeout: commandTimeout)
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
    try await send(.update(change.command), timeout: commandTimeout)
  }

  /// `status`: devices, replay, clients, limits, counters, windows, latency, … (docs/protocol.md).
  public func status() async throws -> Reply {
    try await send(.status, timeout: commandTimeout)
  }

  /// `metrics`: the daemon's metrics in Prometheus' text exposition format.
  public func metrics() async throws -> String {
    try await send(.metrics, timeout: commandTimeout).decode(MetricsReply.self).text
  }

  /// `health`: each window's touchscreen health (docs/operations.md, "Touchscreen health").
  public func health() async throws -> HealthReply {
    try await send(.health, timeout: commandTimeout).decode(HealthReply.self)
  }

  /// `calibrate`: the window's next touch on each target (3 to 9 window points, in order) goes to
  /// the calibration; a ``TouchdMessage/calibration(_:)`` comes as each is collected, the reply
  /// (`matrix`, `rmsError`, `maxError`, `points`, `warning`, …) after the last. `timeout` is the
  /// daemon's (default 120 s); the client waits that long plus ``commandTimeout``.
  public func calibrate(window: String, targets: [Point], timeout: Duration? = nil) async throws -> Reply {
    let calibrate = CalibrateCommand(
      window: window, targets: targets, timeout: timeout?.seconds)
    let wait = commandTimeout.map { .seconds(calibrate.waitSeconds) + $0 }
    return try await send(.calibrate(calibrate), timeout: wait)
  }
}
