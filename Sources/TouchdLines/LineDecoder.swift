import NIOCore

/// Splits a line protocol's bytes into lines: each `\n`-terminated line, without its `\n` (and a
/// `\r` before it), as one buffer. A partial line at the end of the connection is dropped. The
/// Swift client reads the daemon's replies with it, the daemon speech-dispatcher's (SSIP's CRLF
/// lines).
public struct LineDecoder: ByteToMessageDecoder {
  public typealias InboundOut = ByteBuffer

  /// The longest line accepted.
  public var maximumLength: Int
  /// Bytes of the buffer already searched for a newline.
  private var searched = 0

  public struct LineTooLong: Error {}

  /// `maximumLength`: the longest line accepted (the default fits a daemon's `status`, a few KiB,
  /// many times over).
  public init(maximumLength: Int = 64 << 20) { self.maximumLength = maximumLength }

  public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
    let from = searched
    let found = buffer.withUnsafeReadableBytes { bytes in
      bytes[from...].firstIndex(of: UInt8(ascii: "\n"))
    }
    guard let end = found else {
      searched = buffer.readableBytes
      if searched > maximumLength { throw LineTooLong() }
      return .needMoreData
    }
    searched = 0
    var length = end
    if length > 0, buffer.getInteger(at: buffer.readerIndex + length - 1, as: UInt8.self) == UInt8(ascii: "\r") {
      length -= 1
    }
    let line = buffer.getSlice(at: buffer.readerIndex, length: length)!
    buffer.moveReaderIndex(forwardBy: end + 1)
    context.fireChannelRead(wrapInboundOut(line))
    return .continue
  }

  public mutating func decodeLast(
    context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
  ) throws -> DecodingState {
    while try decode(context: context, buffer: &buffer) == .continue {}
    return .needMoreData
  }
}
