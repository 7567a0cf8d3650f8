/// `{"type":"shutdown"}`: the daemon is stopping; the connection closes after it.
public struct ShutdownMessage: Decodable, Hashable, Sendable {

  public init() {}

  public var jsonLine: String { JSONLineWriter(#"{"type":"shutdown""#).finish() }
}
