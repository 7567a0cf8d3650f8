/// `{"type":"hello","version":1,"instance":ID,"windows":[…],"views":N}`: the first line every
/// client gets (docs/protocol.md, "hello"). A client that connects before the scene is built gets
/// the server's placeholder, without `instance` (``placeholder``).
public struct HelloMessage: Decodable, Hashable, Sendable {
  /// The protocol's version: a client refuses a version it does not know.
  public static let protocolVersion = 1
  /// What a client connecting before the daemon's scene is up is told.
  public static let placeholder = HelloMessage(version: protocolVersion, instance: nil, windows: [], views: 0)

  public var version: Int
  /// This run of the daemon: the same instance after a reconnection means `seq` went on counting.
  public var instance: String?
  public var windows: [WindowInfo]
  /// How many views the scene has.
  public var views: Int?

  public init(version: Int = protocolVersion, instance: String?, windows: [WindowInfo], views: Int?) {
    self.version = version
    self.instance = instance
    self.windows = windows
    self.views = views
  }

  /// The line, keys in the documented order; `instance` and `views` only when known.
  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"hello","version":"#)
    w.integer(version)
    if let instance { w.string(#","instance":"#, instance) }
    WindowInfo.write(windows, key: #","windows":"#, into: &w)
    if let views { w.integer(#","views":"#, views) }
    return w.finish()
  }
}
