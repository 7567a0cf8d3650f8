/// The answer to a command: `{"type":"reply","id":ID,"ok":true,…}` with the command's fields, or
/// `{"type":"error","id":ID,"message":"…"}` (docs/protocol.md, "Replies"). `id` is echoed as the
/// client wrote it (JSON text, `null` when the command had none or was not a JSON object).
public enum ReplyMessage: Hashable, Sendable {
  /// The reply; `fieldsJSON` are its members, encoded (`"view":"door"`), or empty.
  case ok(idJSON: String, fieldsJSON: String)
  case error(idJSON: String, message: String)

  /// What a client denied by the access policy is told before the connection closes.
  public static let accessDenied = ReplyMessage.error(idJSON: "null", message: "access denied")

  public var jsonLine: String {
    switch self {
    case .ok(let id, let fields):
      var w = JSONLineWriter(#"{"type":"reply","id":"#)
      w.json(id)
      w.raw(#","ok":true"#)
      if !fields.isEmpty {
        w.raw(",")
        w.json(fields)
      }
      return w.finish()
    case .error(let id, let message):
      var w = JSONLineWriter(#"{"type":"error","id":"#)
      w.json(id)
      w.string(#","message":"#, message)
      return w.finish()
    }
  }
}
