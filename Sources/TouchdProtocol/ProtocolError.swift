/// Why a line is not a command: not JSON, a wrong field, or an unknown command. Every command of
/// the socket (the scene's `set`, the daemon's `subscribe`, …) reports its errors with it, so every
/// command speaks one dialect of errors (docs/protocol.md, "Strict types").
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
