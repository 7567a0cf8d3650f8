import TouchdScene

/// What a client wants to receive. Empty sets mean "all"; by default a client gets every action
/// message and no touches or trace messages.
public struct Subscription: Sendable, Equatable {
  /// Message types: "action", "touches", "scroll", "control", "presses", "idle", "trace".
  public var types: Set<String> = ["action"]
  /// Action names to receive; empty: all. Applies to action messages only (touches and trace
  /// messages are not filtered by action).
  public var actions: Set<String> = []
  /// Views to receive messages about; empty: all. A trace message passes by its view (a
  /// recognizer's view, a touch's hit-test view); one about no view (a swallowed touch) passes
  /// only without a views filter.
  public var views: Set<String> = []
  /// When the client's send buffer overflows: disconnect it (default), or skip messages and send
  /// a `gap` message with the number skipped once it catches up.
  public var skipOnOverflow = false

  public init() {}

  /// The message types a client may subscribe to.
  public static let knownTypes: Set<String> = Set(typeOrder)
  /// The message types in the order errors list them.
  public static let typeOrder = Message.typeNames

  /// Whether `message` passes the filter. Replies, errors and server notices always pass.
  public func accepts(_ message: OutboundMessage) -> Bool {
    guard Self.knownTypes.contains(message.type) else { return true }
    guard types.contains(message.type) else { return false }
    if !actions.isEmpty, message.type == "action" {
      guard let a = message.action, actions.contains(a) else { return false }
    }
    // The idle state is the scene's, about no view: a views filter does not hold it back.
    if !views.isEmpty, message.type != "idle" {
      guard let v = message.view, views.contains(v) else { return false }
    }
    return true
  }

  /// The fields `subscribe` takes.
  public static let fields = ["types", "actions", "views", "overflow"]

  /// Decodes a `subscribe` command's fields with strict types: `types`, `actions` and `views` a
  /// string or an array of strings (`types` of ``knownTypes``), `overflow` `"skip"` or
  /// `"disconnect"`. Errors name the field (``CommandFields``).
  public static func decode(_ fields: CommandFields) throws(ProtocolError) -> Subscription {
    try fields.rejectUnknown(Self.fields)
    var s = Subscription()
    if let types = try fields.strings("types") {
      let order = Self.typeOrder
      if let unknown = types.first(where: { !knownTypes.contains($0) }) {
        let name = StrictJSON.shortened(unknown)
        let hint = closestMatch(to: name, in: order).map { "did you mean '\($0)'? " } ?? ""
        throw ProtocolError(
          "unknown message type '\(name)' in 'types' (\(hint)known: \(order.joined(separator: ", ")))")
      }
      s.types = Set(types)
    }
    s.actions = Set(try fields.strings("actions") ?? [])
    s.views = Set(try fields.strings("views") ?? [])
    if let overflow = fields["overflow"] {
      switch overflow {
      case .string("skip"): s.skipOnOverflow = true
      case .string("disconnect"): s.skipOnOverflow = false
      default: throw fields.mismatch("overflow", #""skip" or "disconnect""#, overflow)
      }
    }
    return s
  }

  /// The reply fields describing this subscription.
  public var replyJSON: String {
    func list(_ s: Set<String>) -> String { "[" + s.sorted().map(WireProtocol.quote).joined(separator: ",") + "]" }
    return #""types":\#(list(types)),"actions":\#(list(actions)),"views":\#(list(views)),"overflow":"#
      + (skipOnOverflow ? #""skip""# : #""disconnect""#)
  }
}
