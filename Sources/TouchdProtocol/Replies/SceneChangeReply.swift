/// The reply to a command that changes the running scene in place (`set` on a view or a window,
/// `ignoreInteraction`, `update`), and the notice every client gets for the changes others must
/// hear of: `windowChanged` and `updated` (docs/protocol.md, "Commands").
public enum SceneChangeReply: Hashable, Sendable {
  /// `set` on a view: `{"view":ID}`.
  case view(String)
  /// `set` on a window: the window as it is now.
  case window(WindowChangedMessage)
  /// `ignoreInteraction`: `{"ignoring":N}`, the nesting count now.
  case ignoring(Int)
  /// `update`: what changed, and the scene's counts now.
  case updated(UpdatedMessage)
  /// `announce`: `{"window":ID,"spoken":B}`, the window, and whether VoiceOver said it (it was on).
  case announced(window: String, spoken: Bool)
  /// `signature` `get`: the signature's fields (the `signature` message's, but `type` and `seq`).
  case signature(SignatureMessage)
  /// `signature` `clear`: `{"view":ID,"cleared":N}`, the strokes forgotten.
  case signatureCleared(view: String, strokes: Int)

  /// The reply's members, encoded, for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String {
    switch self {
    case .view(let id):
      var w = JSONLineWriter(#"{"view":"#)
      w.string(id)
      return w.finishMembers()
    case .window(let window): return window.fieldsJSON
    case .ignoring(let depth):
      var w = JSONLineWriter(#"{"ignoring":"#)
      w.integer(depth)
      return w.finishMembers()
    case .updated(let updated): return updated.fieldsJSON
    case .announced(let window, let spoken):
      var w = JSONLineWriter(#"{"window":"#)
      w.string(window)
      w.bool(#","spoken":"#, spoken)
      return w.finishMembers()
    case .signature(let signature): return signature.fieldsJSON
    case .signatureCleared(let view, let strokes):
      var w = JSONLineWriter(#"{"view":"#)
      w.string(view)
      w.integer(#","cleared":"#, strokes)
      return w.finishMembers()
    }
  }

  /// The line every client gets after the change, or nil when only the requester is told.
  public var noticeJSONLine: String? {
    switch self {
    case .view, .ignoring, .announced, .signature, .signatureCleared: nil
    case .window(let window): window.jsonLine
    case .updated(let updated): updated.jsonLine
    }
  }
}
