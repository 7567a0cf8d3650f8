/// `{"type":"reloaded","source":S,"windows":[…],"views":N}`: the scene was replaced, from its file
/// (`file`: `reload`, SIGHUP) or by a client (`client`: the `scene` command). docs/protocol.md.
public struct ReloadedMessage: Decodable, Hashable, Sendable {
  /// `file` or `client`.
  public var source: String?
  public var windows: [WindowInfo]
  public var views: Int?

  public init(source: String, windows: [WindowInfo], views: Int) {
    self.source = source
    self.windows = windows
    self.views = views
  }

  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"reloaded""#)
    if let source { w.string(#","source":"#, source) }
    WindowInfo.write(windows, key: #","windows":"#, into: &w)
    if let views { w.integer(#","views":"#, views) }
    return w.finish()
  }
}
