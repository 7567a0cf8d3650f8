import TouchdInput

/// A command that changes the running scene: what a client sends on the daemon's socket
/// (`{"cmd":"set",…}`, `{"cmd":"ignoreInteraction",…}`, `{"cmd":"update",…}`) and what
/// `touchctl replay --at` applies at a time. The protocol declares and decodes the commands
/// (Sources/TouchdProtocol/Commands); this is the scene's share of them, which one
/// ``SceneRuntime/apply(_:)`` serves for both.
public enum SceneCommand: Hashable, Sendable {
  /// `{"cmd":"set","view":ID,…}`: changes a view's properties (``SetViewCommand``).
  case set(SetViewCommand)
  /// `{"cmd":"set","window":ID,…}`: changes how a window maps its touchscreens and its size
  /// (``SetWindowCommand``); the window's touches in progress are cancelled.
  case setWindow(SetWindowCommand)
  /// `{"cmd":"ignoreInteraction","value":BOOL}`: begins (true) or ends (false) one level of
  /// ignoring interaction.
  case ignoreInteraction(Bool)
  /// `{"cmd":"update","op":…,"view"|"recognizer":…}`: adds, replaces or removes one view subtree
  /// or one recognizer of the running scene (``SceneUpdate``).
  case update(SceneUpdate)
  /// `{"cmd":"announce","text":…}`: VoiceOver says a text (``AnnounceCommand``).
  case announce(AnnounceCommand)
  /// `{"cmd":"signature","view":…,"do":"get"|"clear"}`: a signature view's signature (``SignatureCommand``).
  case signature(SignatureCommand)

  /// The command names this type parses (`touchctl replay --at` takes these).
  public static let names = ["set", "ignoreInteraction", "update", "announce", "signature"]

  /// `set` on a view, its changes given one by one.
  public static func set(
    view: String, hidden: Bool? = nil, alpha: Double? = nil, userInteractionEnabled: Bool? = nil,
    frame: Scene.Frame? = nil, scroll: ScrollChange = ScrollChange(), control: ControlChange = ControlChange(),
    firstResponder: Bool? = nil
  ) -> SceneCommand {
    .set(
      SetViewCommand(
        view: view, hidden: hidden, alpha: alpha, userInteractionEnabled: userInteractionEnabled, frame: frame,
        scroll: scroll, control: control, firstResponder: firstResponder))
  }

  /// `set` on a window.
  public static func setWindow(window: String, change: WindowChange) -> SceneCommand {
    .setWindow(SetWindowCommand(window: window, change: change))
  }

  /// The scene's share of a protocol command; nil for the others (`ping`, `status`, …).
  public init?(_ command: Command) {
    switch command {
    case .setView(let set): self = .set(set)
    case .setWindow(let set): self = .setWindow(set)
    case .ignoreInteraction(let ignore): self = .ignoreInteraction(ignore.value)
    case .update(let update): self = .update(update)
    case .announce(let announce): self = .announce(announce)
    case .signature(let signature): self = .signature(signature)
    case .ping, .subscribe, .reload, .scene, .status, .calibrate, .metrics, .health: return nil
    }
  }

  /// The protocol command this is.
  public var command: Command {
    switch self {
    case .set(let set): .setView(set)
    case .setWindow(let set): .setWindow(set)
    case .ignoreInteraction(let value): .ignoreInteraction(IgnoreInteractionCommand(value: value))
    case .update(let update): .update(update)
    case .announce(let announce): .announce(announce)
    case .signature(let signature): .signature(signature)
    }
  }

  /// Decodes a command object (``CommandObject``: `cmd` names the command; `id` is allowed and
  /// ignored) with strict types. The error is the message a client gets; it names the field
  /// (``CommandFields`` lists the messages).
  public static func parse(_ object: CommandObject) throws(ProtocolError) -> SceneCommand {
    guard names.contains(object.name), let command = SceneCommand(try Command.decode(object)) else {
      throw Command.unknown(object.name, known: names, suggest: false)
    }
    return command
  }

  /// Parses one JSON object, as a client would send it on the socket (the same parser and errors).
  public static func parse(json: String) throws(ProtocolError) -> SceneCommand {
    let object: CommandObject
    do {
      object = try CommandObject.parse(json)
    } catch {
      throw error.error
    }
    return try parse(object)
  }

  /// The command as one line of JSON, keys in a fixed order (what `--explain` prints): `cmd`,
  /// then the command's members; an update's object as the client wrote it.
  public var json: String {
    if case .update(let update) = self { return update.json }
    let command = command
    return JSONValue.object([("cmd", .string(command.name))] + command.members).compact
  }
}

extension SceneRuntime {
  /// Applies `command` at once, as the daemon does for a client. Returns its reply
  /// (``SceneChangeReply``: the view for `set`, the window as it is now for `set` on a window, the
  /// nesting count for `ignoreInteraction`, what changed for `update`). An unknown view, a bad value, or ending an ignoring that was not begun is
  /// an error and changes nothing.
  @discardableResult
  public func apply(_ command: SceneCommand) throws(SceneRuntimeError) -> SceneChangeReply {
    switch command {
    case .set(let set):
      try setView(
        set.view, hidden: set.hidden, alpha: set.alpha, userInteractionEnabled: set.userInteractionEnabled,
        frame: set.frame, scroll: set.scroll, control: set.control, firstResponder: set.firstResponder)
      return .view(set.view)
    case .setWindow(let set):
      return .window(try setWindow(set.window, set.change))
    case .ignoreInteraction(true):
      beginIgnoringInteraction()
      return .ignoring(ignoreDepth)
    case .ignoreInteraction(false):
      try endIgnoringInteraction()
      return .ignoring(ignoreDepth)
    case .update(let update):
      return .updated(try apply(update))
    case .announce(let announce):
      let index = try announce.window.map(windowIndex(named:)) ?? 0
      return .announced(window: scene.windows[index].id, spoken: self.announce(announce.text, inWindow: index))
    case .signature(let command):
      return try signature(command)
    }
  }
}
