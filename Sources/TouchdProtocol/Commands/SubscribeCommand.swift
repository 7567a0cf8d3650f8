/// `{"cmd":"subscribe","types":…,"actions":…,"views":…,"overflow":…,"coalesced":…,"predicted":…}`:
/// replaces the client's filter (docs/protocol.md, "subscribe"). `types`, `actions` and `views` are
/// a string or an array of strings (`types` of ``messageTypes``); `overflow` is `"skip"` or
/// `"disconnect"`; `coalesced` and `predicted` (booleans) ask for those entries of touches
/// messages (``TouchesMessage/Entries``). A field not given keeps the daemon's default.
public struct SubscribeCommand: Hashable, Sendable {
  /// The fields `subscribe` takes.
  public static let fields = ["types", "actions", "views", "overflow", "coalesced", "predicted"]
  /// Every message type a client subscribes to, in the order errors and docs list them.
  public static let messageTypes = [
    "action", "touches", "scroll", "control", "presses", "idle", "accessibility", "stroke", "signature", "trace",
  ]

  /// What the daemon does when the client falls behind by its send buffer.
  public enum Overflow: String, Hashable, Sendable {
    /// Close the connection (the daemon's default).
    case disconnect
    /// Drop messages and send a `gap` with their number once caught up.
    case skip
  }

  public var types: [String]?
  public var actions: [String]?
  public var views: [String]?
  public var overflow: Overflow?
  /// Whether touches messages carry `coalesced` (default false).
  public var coalesced: Bool?
  /// Whether touches messages carry `predicted` (default false).
  public var predicted: Bool?

  public init(
    types: [String]? = nil, actions: [String]? = nil, views: [String]? = nil, overflow: Overflow? = nil,
    coalesced: Bool? = nil, predicted: Bool? = nil
  ) {
    self.types = types
    self.actions = actions
    self.views = views
    self.overflow = overflow
    self.coalesced = coalesced
    self.predicted = predicted
  }

  /// The touches messages' optional entries asked for.
  public var touchesEntries: TouchesMessage.Entries {
    var entries: TouchesMessage.Entries = []
    if coalesced == true { entries.insert(.coalesced) }
    if predicted == true { entries.insert(.predicted) }
    return entries
  }

  /// Decodes the command's fields with strict types; an unknown message type is an error naming
  /// the closest known one.
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    types = try fields.strings("types")
    if let unknown = types?.first(where: { !Self.messageTypes.contains($0) }) {
      let name = StrictJSON.shortened(unknown)
      let order = Self.messageTypes
      let hint = closestMatch(to: name, in: order).map { "did you mean '\($0)'? " } ?? ""
      throw ProtocolError(
        "unknown message type '\(name)' in 'types' (\(hint)known: \(order.joined(separator: ", ")))")
    }
    actions = try fields.strings("actions")
    views = try fields.strings("views")
    if let value = fields["overflow"] {
      guard case .string(let name) = value, let overflow = Overflow(rawValue: name) else {
        throw fields.mismatch("overflow", #""skip" or "disconnect""#, value)
      }
      self.overflow = overflow
    }
    coalesced = try fields.bool("coalesced")
    predicted = try fields.bool("predicted")
  }

  /// The fields given.
  public var members: [JSONValue.Member] {
    var out: [JSONValue.Member] = []
    if let types { out.append(("types", .array(types.map(JSONValue.string)))) }
    if let actions { out.append(("actions", .array(actions.map(JSONValue.string)))) }
    if let views { out.append(("views", .array(views.map(JSONValue.string)))) }
    if let overflow { out.append(("overflow", .string(overflow.rawValue))) }
    if let coalesced { out.append(("coalesced", .bool(coalesced))) }
    if let predicted { out.append(("predicted", .bool(predicted))) }
    return out
  }
}
