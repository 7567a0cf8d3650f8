/// `{"cmd":"ignoreInteraction","value":BOOL}`: begins (true) or ends (false) one level of ignoring
/// interaction, as UIApplication's `beginIgnoringInteractionEvents` and its end nest.
public struct IgnoreInteractionCommand: Hashable, Sendable {
  /// The fields `ignoreInteraction` takes.
  public static let fields = ["value"]

  public var value: Bool

  public init(value: Bool) { self.value = value }

  /// Decodes the command's fields with strict types.
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    value = try fields.required(fields.bool("value"), "value", "true or false")
  }

  public var members: [JSONValue.Member] { [("value", .bool(value))] }
}
