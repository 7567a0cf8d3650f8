/// `{"type":"updated","op":OP,"view"|"recognizer":ID,"parent":P,"index":I,"views":N,"recognizers":M}`:
/// a client's `update` changed one view subtree or one recognizer of the running scene; every
/// client gets it, and its fields are the `update` reply's (docs/protocol.md, "update").
public struct UpdatedMessage: Decodable, Hashable, Sendable {
  /// `add`, `replace` or `remove` (``UpdateCommand/Operation``; a string, so that a later
  /// daemon's operation still reads).
  public var op: String
  /// The view added, replaced or removed (nil for a recognizer).
  public var view: String?
  /// The recognizer added, replaced or removed (nil for a view).
  public var recognizer: String?
  /// The window or view it was added to, or was in.
  public var parent: String
  /// Where it landed, or was, among its parent's subviews (recognizers: among its parent's
  /// recognizers).
  public var index: Int
  /// The scene's number of views now.
  public var views: Int
  /// The scene's number of recognizers now.
  public var recognizers: Int

  public init(
    op: String, view: String?, recognizer: String?, parent: String, index: Int, views: Int, recognizers: Int
  ) {
    self.op = op
    self.view = view
    self.recognizer = recognizer
    self.parent = parent
    self.index = index
    self.views = views
    self.recognizers = recognizers
  }

  /// The update of `target` `id` by `operation`.
  public init(
    _ operation: UpdateCommand.Operation, _ target: UpdateCommand.Target, id: String, parent: String, index: Int,
    views: Int, recognizers: Int
  ) {
    self.init(
      op: operation.rawValue, view: target == .view ? id : nil, recognizer: target == .recognizer ? id : nil,
      parent: parent, index: index, views: views, recognizers: recognizers)
  }

  /// The `update` reply's members, encoded, for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String { writer(#"{"op":"#).finishMembers() }

  /// The notice every client gets.
  public var jsonLine: String { writer(#"{"type":"updated","op":"#).finish() }

  private func writer(_ prefix: StaticString) -> JSONLineWriter {
    var w = JSONLineWriter(prefix)
    w.string(op)
    if let view { w.string(#","view":"#, view) }
    if let recognizer { w.string(#","recognizer":"#, recognizer) }
    w.string(#","parent":"#, parent)
    w.integer(#","index":"#, index)
    w.integer(#","views":"#, views)
    w.integer(#","recognizers":"#, recognizers)
    return w
  }
}
