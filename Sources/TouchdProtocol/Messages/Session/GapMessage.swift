/// `{"type":"gap","skipped":N}`: a client subscribed with `overflow: skip` fell behind, and this
/// many messages were dropped for it (docs/protocol.md, "Slow clients").
public struct GapMessage: Decodable, Hashable, Sendable {
  public var skipped: Int

  public init(skipped: Int) { self.skipped = skipped }

  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"gap","skipped":"#)
    w.integer(skipped)
    return w.finish()
  }
}
