import TouchdScene

/// What a client wants to receive. Empty sets mean "all"; by default a client gets every action
/// message and no touches or trace messages.
public struct Subscription: Sendable, Equatable {
  /// Message types: "action", "touches", "scroll", "control", "presses", "idle", "accessibility", "trace".
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
  /// The optional entries of touches messages the client gets (`coalesced`, `predicted`); the
  /// fan-out leaves the others' bytes out of its lines (``OutboundMessage/append(for:to:)``).
  public var touchesEntries: TouchesMessage.Entries = []

  public init() {}

  /// The message types a client may subscribe to (``SubscribeCommand/messageTypes``).
  public static let knownTypes: Set<String> = Set(SubscribeCommand.messageTypes)

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

  /// The filter a `subscribe` command asks for: what it gives replaces the default, and an empty
  /// `actions` or `views` is no filter.
  public init(_ command: SubscribeCommand) {
    if let types = command.types { self.types = Set(types) }
    actions = Set(command.actions ?? [])
    views = Set(command.views ?? [])
    skipOnOverflow = command.overflow == .skip
    touchesEntries = command.touchesEntries
  }

  /// Decodes a `subscribe` command's fields with strict types (``SubscribeCommand``).
  public static func decode(_ fields: CommandFields) throws(ProtocolError) -> Subscription {
    Subscription(try SubscribeCommand(decoding: fields))
  }

  /// The reply fields describing this subscription.
  public var replyJSON: String {
    func list(_ s: Set<String>) -> String { "[" + s.sorted().map(JSONFormat.string).joined(separator: ",") + "]" }
    return #""types":\#(list(types)),"actions":\#(list(actions)),"views":\#(list(views)),"overflow":"#
      + (skipOnOverflow ? #""skip""# : #""disconnect""#)
      + #","coalesced":\#(touchesEntries.contains(.coalesced)),"predicted":\#(touchesEntries.contains(.predicted))"#
  }
}
