import TouchdInput

/// A command that changes the running scene: what a client sends on the daemon's socket
/// (`{"cmd":"set",…}`, `{"cmd":"ignoreInteraction",…}`) and what `touchctl replay --at` applies at
/// a time. One parser and one ``SceneRuntime/apply(_:)`` serve both.
public enum SceneCommand: Hashable, Sendable {
  /// `{"cmd":"set","view":ID,…}`: changes a view's properties; nil leaves one as it is. The scroll
  /// view keys (`contentOffset`, with `animated`; `contentSize`; `scrollEnabled`) need a view with
  /// `scroll:`; the control keys (`enabled`, `selected`, `on`, `value`, `selectedSegmentIndex`) a
  /// view with `control:`; `firstResponder` true makes the view its window's first responder
  /// (false: the window's, if it was).
  case set(
    view: String, hidden: Bool? = nil, alpha: Double? = nil, userInteractionEnabled: Bool? = nil,
    frame: Scene.Frame? = nil, scroll: ScrollChange = ScrollChange(), control: ControlChange = ControlChange(),
    firstResponder: Bool? = nil)
  /// `{"cmd":"set","window":ID,…}`: changes how a window maps its touchscreens (`rotation`,
  /// `calibration`) and its size, as for a display rotated while running; the window's touches in
  /// progress are cancelled.
  case setWindow(window: String, change: WindowChange)
  /// `{"cmd":"ignoreInteraction","value":BOOL}`: begins (true) or ends (false) one level of
  /// ignoring interaction.
  case ignoreInteraction(Bool)
  /// `{"cmd":"update","op":…,"view"|"recognizer":…}`: adds, replaces or removes one view subtree
  /// or one recognizer of the running scene (``SceneUpdate``).
  case update(SceneUpdate)

  /// The command names this type parses.
  public static let names = ["set", "ignoreInteraction", "update"]

  /// The fields `set` takes with `window`.
  public static let setWindowFields = ["window", "rotation", "calibration", "size"]

  /// The fields `set` takes, in the order its errors list them.
  public static let setFields = [
    "view", "hidden", "alpha", "userInteractionEnabled", "frame", "contentOffset", "animated", "contentSize",
    "scrollEnabled", "enabled", "selected", "on", "value", "selectedSegmentIndex", "firstResponder",
  ]

  /// Decodes a command object (``CommandObject``: `cmd` names the command; `id` is allowed and
  /// ignored) with strict types. The error is the message a client gets; it names the field
  /// (``CommandFields`` lists the messages).
  public static func parse(_ object: CommandObject) throws(ProtocolError) -> SceneCommand {
    let fields = object.fields
    switch object.name {
    case "set": return try parseSet(fields)
    case "ignoreInteraction":
      try fields.rejectUnknown(["value"])
      return .ignoreInteraction(try fields.required(fields.bool("value"), "value", "true or false"))
    case "update": return .update(try SceneUpdate.decode(fields))
    default:
      let name = StrictJSON.shortened(object.name)
      throw ProtocolError("unknown command '\(name)' (known: \(names.joined(separator: ", ")))")
    }
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

  private static func parseSet(_ fields: CommandFields) throws(ProtocolError) -> SceneCommand {
    if fields["window"] != nil {
      guard fields["view"] == nil else {
        throw ProtocolError("'set' takes 'view' or 'window', not both (one command changes one of them)")
      }
      return try parseSetWindow(fields)
    }
    try fields.rejectUnknown(setFields)
    let view = try fields.required(
      fields.string("view"), "view", "a string: the view id, or 'window' with a window id")
    let hidden = try fields.bool("hidden")
    let alpha = try fields.number("alpha")
    let interaction = try fields.bool("userInteractionEnabled")
    let frame = try fields.numbers("frame", ["x", "y", "width", "height"]).map {
      Scene.Frame(x: $0[0], y: $0[1], width: $0[2], height: $0[3])
    }
    var scroll = ScrollChange()
    if let n = try fields.numbers("contentOffset", ["x", "y"]) {
      scroll.contentOffset = Scene.Point(x: n[0], y: n[1])
    }
    if let b = try fields.bool("animated") {
      guard scroll.contentOffset != nil else { throw ProtocolError("'animated' goes with 'contentOffset'") }
      scroll.animated = b
    }
    if let n = try fields.numbers("contentSize", ["width", "height"]) {
      scroll.contentSize = Scene.Size(width: n[0], height: n[1])
    }
    scroll.scrollEnabled = try fields.bool("scrollEnabled")
    var control = ControlChange()
    control.enabled = try fields.bool("enabled")
    control.selected = try fields.bool("selected")
    control.on = try fields.bool("on")
    control.value = try fields.number("value")
    control.selectedSegmentIndex = try fields.integer("selectedSegmentIndex")
    let firstResponder = try fields.bool("firstResponder")
    return .set(
      view: view, hidden: hidden, alpha: alpha, userInteractionEnabled: interaction, frame: frame, scroll: scroll,
      control: control, firstResponder: firstResponder)
  }

  private static func parseSetWindow(_ fields: CommandFields) throws(ProtocolError) -> SceneCommand {
    try fields.rejectUnknown(setWindowFields)
    let window = try fields.required(fields.string("window"), "window", "a string: the window id")
    var change = WindowChange()
    if let rotation = try fields.integer("rotation") {
      guard ScreenRotation(rawValue: rotation) != nil else {
        throw ProtocolError("'rotation' must be 0, 90, 180 or 270, found \(rotation)")
      }
      change.rotation = rotation
    }
    change.calibration = try fields.numberList(
      "calibration", counts: 6...6, "an array of 6 numbers (a 2x3 matrix, LIBINPUT_CALIBRATION_MATRIX's meaning)")
    if let n = try fields.numbers("size", ["width", "height"]) {
      guard n[0] > 0, n[1] > 0 else { throw ProtocolError("'size' must be above 0 points wide and high") }
      change.size = Scene.Size(width: n[0], height: n[1])
    }
    guard !change.isEmpty else {
      throw ProtocolError("'set' with 'window' changes at least one of rotation, calibration, size")
    }
    return .setWindow(window: window, change: change)
  }

  /// `,"key":{"a":1,"b":2}`: an object of numbers, for ``json``.
  private static func numbersJSON(_ key: String, _ names: [String], _ values: [Double]) -> String {
    #","\#(key)":{"# + zip(names, values).map { #""\#($0)":\#(JSONFormat.number($1))"# }.joined(separator: ",")
      + "}"
  }

  /// The command as one line of JSON, keys in a fixed order (what `--explain` prints).
  public var json: String {
    switch self {
    case .ignoreInteraction(let value):
      return #"{"cmd":"ignoreInteraction","value":\#(value)}"#
    case .setWindow(let window, let change):
      var out = #"{"cmd":"set","window":"# + JSONFormat.string(window)
      if let rotation = change.rotation { out += #","rotation":\#(rotation)"# }
      if let calibration = change.calibration {
        out += #","calibration":["# + calibration.map(JSONFormat.number).joined(separator: ",") + "]"
      }
      if let size = change.size { out += Self.numbersJSON("size", ["width", "height"], [size.width, size.height]) }
      return out + "}"
    case .set(let view, let hidden, let alpha, let interaction, let frame, let scroll, let control, let first):
      var out = #"{"cmd":"set","view":"# + JSONFormat.string(view)
      if let hidden { out += #","hidden":\#(hidden)"# }
      if let alpha { out += #","alpha":"# + JSONFormat.number(alpha) }
      if let interaction { out += #","userInteractionEnabled":\#(interaction)"# }
      if let frame {
        out += Self.numbersJSON("frame", ["x", "y", "width", "height"], [frame.x, frame.y, frame.width, frame.height])
      }
      if let offset = scroll.contentOffset {
        out += Self.numbersJSON("contentOffset", ["x", "y"], [offset.x, offset.y])
        if scroll.animated { out += #","animated":true"# }
      }
      if let size = scroll.contentSize {
        out += Self.numbersJSON("contentSize", ["width", "height"], [size.width, size.height])
      }
      if let enabled = scroll.scrollEnabled { out += #","scrollEnabled":\#(enabled)"# }
      if let enabled = control.enabled { out += #","enabled":\#(enabled)"# }
      if let selected = control.selected { out += #","selected":\#(selected)"# }
      if let on = control.on { out += #","on":\#(on)"# }
      if let value = control.value { out += #","value":"# + JSONFormat.number(value) }
      if let index = control.selectedSegmentIndex { out += #","selectedSegmentIndex":\#(index)"# }
      if let first { out += #","firstResponder":\#(first)"# }
      return out + "}"
    case .update(let update):
      return update.json
    }
  }
}

/// What a `set` command changes in a window; nil leaves a property as it is.
public struct WindowChange: Hashable, Sendable {
  /// 0, 90, 180 or 270 degrees clockwise (the scene's `rotation`).
  public var rotation: Int?
  /// Six numbers, libinput's calibration matrix (the scene's `calibration`).
  public var calibration: [Double]?
  /// The window's size in points.
  public var size: Scene.Size?

  public init(rotation: Int? = nil, calibration: [Double]? = nil, size: Scene.Size? = nil) {
    self.rotation = rotation
    self.calibration = calibration
    self.size = size
  }

  /// Whether the command changes nothing of the window.
  public var isEmpty: Bool { rotation == nil && calibration == nil && size == nil }
}

/// What a `set` command changes in a scroll view; nil leaves a property as it is.
public struct ScrollChange: Hashable, Sendable {
  /// The new content offset; with ``animated`` it moves there with the settling spring.
  public var contentOffset: Scene.Point?
  public var animated = false
  public var contentSize: Scene.Size?
  public var scrollEnabled: Bool?

  public init(
    contentOffset: Scene.Point? = nil, animated: Bool = false, contentSize: Scene.Size? = nil,
    scrollEnabled: Bool? = nil
  ) {
    self.contentOffset = contentOffset
    self.animated = animated
    self.contentSize = contentSize
    self.scrollEnabled = scrollEnabled
  }

  /// Whether the command changes nothing of a scroll view.
  public var isEmpty: Bool { contentOffset == nil && contentSize == nil && scrollEnabled == nil }
}

/// What a `set` command changes in a control; nil leaves a property as it is. As UIKit's
/// programmatic changes, none sends a control event; each visible change publishes a `control`
/// message.
public struct ControlChange: Hashable, Sendable {
  public var enabled: Bool?
  public var selected: Bool?
  /// A switch's `on`.
  public var on: Bool?
  /// A slider's or stepper's value (clamped to its range, as UIKit's `value` setter does).
  public var value: Double?
  /// A segmented control's selection (-1: none).
  public var selectedSegmentIndex: Int?

  public init(
    enabled: Bool? = nil, selected: Bool? = nil, on: Bool? = nil, value: Double? = nil,
    selectedSegmentIndex: Int? = nil
  ) {
    self.enabled = enabled
    self.selected = selected
    self.on = on
    self.value = value
    self.selectedSegmentIndex = selectedSegmentIndex
  }

  /// Whether the command changes nothing of a control.
  public var isEmpty: Bool {
    enabled == nil && selected == nil && on == nil && value == nil && selectedSegmentIndex == nil
  }
}

extension SceneRuntime {
  /// Applies `command` at once, as the daemon does for a client. Returns the reply's fields as
  /// JSON object members: `"view":ID` for `set`, `"ignoring":N` (the nesting count) for
  /// `ignoreInteraction`. An unknown view, a bad value, or ending an ignoring that was not begun is
  /// an error and changes nothing.
  @discardableResult
  public func apply(_ command: SceneCommand) throws(SceneRuntimeError) -> String {
    switch command {
    case .set(let view, let hidden, let alpha, let interaction, let frame, let scroll, let control, let first):
      try setView(
        view, hidden: hidden, alpha: alpha, userInteractionEnabled: interaction, frame: frame, scroll: scroll,
        control: control, firstResponder: first)
      return #""view":"# + JSONFormat.string(view)
    case .setWindow(let window, let change):
      return try setWindow(window, change)
    case .ignoreInteraction(true):
      beginIgnoringInteraction()
      return #""ignoring":\#(ignoreDepth)"#
    case .ignoreInteraction(false):
      try endIgnoringInteraction()
      return #""ignoring":\#(ignoreDepth)"#
    case .update(let update):
      return try apply(update)
    }
  }
}
