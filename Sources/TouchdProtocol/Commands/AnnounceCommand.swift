/// `{"cmd":"announce","text":TEXT,"window":ID}`: VoiceOver says `text` in the window (the first
/// one when `window` is absent), as an app posts UIAccessibility's `.announcement` ("Your ticket
/// is printing"): subscribers get an `accessibility` message with `event` `announce`. Where
/// VoiceOver is off nothing is said, as UIKit's announcement is only spoken while VoiceOver runs.
public struct AnnounceCommand: Hashable, Sendable {
  /// The fields `announce` takes.
  public static let fields = ["text", "window"]

  public var text: String
  public var window: String?

  public init(text: String, window: String? = nil) {
    self.text = text
    self.window = window
  }

  /// Decodes the command's fields with strict types.
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    text = try fields.required(fields.string("text"), "text", "a string: what VoiceOver says")
    guard !text.isEmpty else { throw ProtocolError("'text' must be a non-empty string: what VoiceOver says") }
    window = try fields.string("window")
  }

  public var members: [JSONValue.Member] {
    var out: [JSONValue.Member] = [("text", .string(text))]
    if let window { out.append(("window", .string(window))) }
    return out
  }
}
