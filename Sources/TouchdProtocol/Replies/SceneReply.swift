/// The fields of the reply to `scene` (a pushed scene now runs): its windows and how many views
/// and recognizers it has.
public struct SceneReply: Decodable, Hashable, Sendable {
  public var windows: [WindowInfo]
  public var views: Int
  public var recognizers: Int

  public init(windows: [WindowInfo], views: Int, recognizers: Int) {
    self.windows = windows
    self.views = views
    self.recognizers = recognizers
  }

  /// The reply's members, encoded, for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String {
    var w = JSONLineWriter("{")
    WindowInfo.write(windows, key: #""windows":"#, into: &w)
    w.integer(#","views":"#, views)
    w.integer(#","recognizers":"#, recognizers)
    return w.finishMembers()
  }
}
