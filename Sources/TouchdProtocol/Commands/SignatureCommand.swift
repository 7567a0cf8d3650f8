/// `{"cmd":"signature","view":V,"do":"get"|"clear"}`: a signature view's signature (docs/pens.md,
/// "Signature capture"). `get` replies with it and publishes it as a `signature` message to the
/// subscribers of type `signature`; `clear` forgets its strokes (a new signature starts).
public struct SignatureCommand: Hashable, Sendable {
  /// The fields `signature` takes.
  public static let fields = ["view", "do"]
  /// What `do` may be.
  public static let actions = ["get", "clear"]

  public var view: String
  /// `get` or `clear`.
  public var action: String

  public init(view: String, action: String) {
    self.view = view
    self.action = action
  }

  /// Decodes the command's fields with strict types.
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    view = try fields.required(fields.string("view"), "view", "a string: the signature view's id")
    action = try fields.required(fields.string("do"), "do", "get or clear")
    guard Self.actions.contains(action) else {
      throw ProtocolError("'do' must be get or clear, found \(JSONValue.string(action).compact)")
    }
  }

  public var members: [JSONValue.Member] { [("view", .string(view)), ("do", .string(action))] }
}
