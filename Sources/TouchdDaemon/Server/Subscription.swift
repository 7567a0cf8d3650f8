/// What a client wants to receive. Empty sets mean "all"; by default a client gets every action
/// message and no touches or trace messages.
public struct Subscription: Sendable, Equatable {
  /// Message types: "action", "touches", "scroll", "control", "presses", "trace".
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
  public static let knownTypes: Set<String> = ["action", "touches", "scroll", "control", "presses", "trace"]

  /// Whether `message` passes the filter. Replies, errors and server notices always pass.
  public func accepts(_ message: OutboundMessage) -> Bool {
    guard Self.knownTypes.contains(message.type) else { return true }
    guard types.contains(message.type) else { return false }
    if !actions.isEmpty, message.type == "action" {
      guard let a = message.action, actions.contains(a) else { return false }
    }
    if !views.isEmpty {
      guard let v = message.view, views.contains(v) else { return false }
    }
    return true
  }

  /// Applies a `subscribe` command's fields; unknown types or wrong field types are errors.
  public static func from(_ fields: [String: Any]) -> Result<Subscription, SubscriptionError> {
    var s = Subscription()
    func strings(_ key: String) -> Result<Set<String>?, SubscriptionError> {
      guard let raw = fields[key] else { return .success(nil) }
      if let one = raw as? String { return .success([one]) }
      guard let list = raw as? [Any], list.allSatisfy({ $0 is String }) else {
        return .failure(SubscriptionError(message: "'\(key)' must be a string or a list of strings"))
      }
      return .success(Set(list.compactMap { $0 as? String }))
    }
    switch strings("types") {
    case .failure(let e): return .failure(e)
    case .success(let types?):
      let unknown = types.subtracting(knownTypes)
      if !unknown.isEmpty {
        return .failure(
          SubscriptionError(
            message:
              "unknown message type \(unknown.sorted().joined(separator: ", ")) (known: action, touches, scroll, trace)"
          )
        )
      }
      s.types = types
    case .success(nil): break
    }
    switch strings("actions") {
    case .failure(let e): return .failure(e)
    case .success(let a): s.actions = a ?? []
    }
    switch strings("views") {
    case .failure(let e): return .failure(e)
    case .success(let v): s.views = v ?? []
    }
    if let overflow = fields["overflow"] {
      switch overflow as? String {
      case "skip": s.skipOnOverflow = true
      case "disconnect": s.skipOnOverflow = false
      default: return .failure(SubscriptionError(message: "'overflow' must be \"skip\" or \"disconnect\""))
      }
    }
    return .success(s)
  }

  /// The reply fields describing this subscription.
  public var replyJSON: String {
    func list(_ s: Set<String>) -> String { "[" + s.sorted().map(WireProtocol.quote).joined(separator: ",") + "]" }
    return #""types":\#(list(types)),"actions":\#(list(actions)),"views":\#(list(views)),"overflow":"#
      + (skipOnOverflow ? #""skip""# : #""disconnect""#)
  }
}

/// A `subscribe` command that cannot be applied.
public struct SubscriptionError: Error, Sendable {
  public var message: String
}
