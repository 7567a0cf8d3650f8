/// A message of the socket protocol (server → client, docs/protocol.md) that the protocol both
/// writes and reads: ``jsonLine`` is the daemon's encoder, written by hand so that keys keep the
/// documented order and numbers ``JSONFormat``'s spelling; ``init(decoding:)`` reads the same
/// fields back strictly (types checked, unknown keys ignored). Decoding is never on the daemon's
/// hot path; clients use it (``init(jsonLine:)``, or `Decodable` through ``init(decodingFrom:)``).
public protocol WireMessage: Hashable, Sendable, Decodable {
  /// The message's `type` key.
  static var typeName: String { get }
  /// The message as one line of JSON, keys in the documented order, without the newline.
  var jsonLine: String { get }
  /// Reads the message from its fields (`type` already checked).
  init(decoding fields: CommandFields) throws(ProtocolError)
}

extension WireMessage {
  /// Reads one line of the daemon (without its newline) as this message.
  public init(jsonLine: some Collection<UInt8>) throws(ProtocolError) {
    try self.init(decoding: CommandFields.message(jsonLine, type: Self.typeName))
  }

  /// Reads one line given as a string.
  public init(jsonLine: String) throws(ProtocolError) {
    try self.init(jsonLine: Array(jsonLine.utf8))
  }

  /// `Decodable`'s initializer for every message: the decoder's value as ``StrictJSON``, read by
  /// ``init(decoding:)``, so that a `JSONDecoder` (the Swift client's) applies the same rules.
  public init(decodingFrom decoder: any Decoder) throws {
    try self.init(decoding: CommandFields.message(StrictJSON(from: decoder), type: Self.typeName))
  }
}
