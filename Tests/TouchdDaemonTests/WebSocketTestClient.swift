import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking WebSocket client for tests (RFC 6455), on a raw TCP socket independent of NIO: it
/// can send what a browser would not (binary messages, fragments, oversized frames, any Origin).
final class WebSocketTestClient: @unchecked Sendable {
  /// A frame as it arrived: opcode and payload.
  struct Frame: Equatable {
    var opcode: UInt8
    var payload: [UInt8]
    var text: String { String(decoding: payload, as: UTF8.self) }
    /// A close frame's status code.
    var closeCode: Int? {
      opcode == 0x8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
    }
  }

  let fd: Int32
  private var buffer: [UInt8] = []
  /// The HTTP response to the handshake (status line and headers).
  private(set) var response = ""

  /// Connects to `host:port` and sends the handshake, with `origin` when given; waits for the
  /// response head (``response``), which is `101` when the upgrade took place.
  init(host: String = "127.0.0.1", port: Int, origin: String? = nil, path: String = "/", receiveBuffer: Int32? = nil)
    throws
  {
    // Stored only once connected: a throw after every stored property is set runs deinit, which
    // would close the descriptor twice (see LineClient).
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    if var size = receiveBuffer {
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
    self.fd = fd
    var request =
      "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    if let origin { request += "Origin: \(origin)\r\n" }
    writeAll(Array((request + "\r\n").utf8))
    let deadline = Date().addingTimeInterval(10)
    while true {
      if let end = findHeadEnd() {
        response = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeSubrange(..<(end + 4))
        break
      }
      guard fill(until: deadline) else { break }
    }
  }

  deinit { close(fd) }

  /// Whether the server switched protocols.
  var upgraded: Bool { response.hasPrefix("HTTP/1.1 101") }

  /// Sends one frame, masked as a client must (RFC 6455 §5.3).
  func send(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    default:
      frame.append(0x80 | 127)
      frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xff) }
    }
    frame += mask
    frame += payload.enumerated().map { $1 ^ mask[$0 % 4] }
    writeAll(frame)
  }

  /// Sends one text message.
  func send(_ text: String) { send(opcode: 0x1, Array(text.utf8)) }

  /// The next frame, or nil when none arrives within `timeout` seconds or the server closed.
  func readFrame(timeout: Double = 5) -> Frame? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if buffer.count >= 2 {
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        if length == 126, buffer.count >= 4 {
          length = Int(buffer[2]) << 8 | Int(buffer[3])
          offset = 4
        } else if length == 127, buffer.count >= 10 {
          length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
          offset = 10
        }
        if length < 126 || offset > 2, buffer.count >= offset + length {
          let frame = Frame(opcode: buffer[0] & 0x0f, payload: Array(buffer[offset..<(offset + length)]))
          buffer.removeSubrange(..<(offset + length))
          return frame
        }
      }
      guard fill(until: deadline) else { return nil }
    }
  }

  /// The next text message (control frames skipped), or nil.
  func readText(timeout: Double = 5) -> String? {
    while let frame = readFrame(timeout: timeout) {
      if frame.opcode == 0x1 { return frame.text }
      if frame.opcode == 0x8 { return nil }
    }
    return nil
  }

  /// Frames until the server's close frame (included) or the end of the connection.
  func framesUntilClose(timeout: Double = 5) -> [Frame] {
    var frames: [Frame] = []
    while let frame = readFrame(timeout: timeout) {
      frames.append(frame)
      if frame.opcode == 0x8 { break }
    }
    return frames
  }

  /// Whether the server ended the TCP connection within `timeout`.
  func connectionEnded(timeout: Double = 5) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while fill(until: deadline) { buffer.removeAll() }
    return deadline.timeIntervalSinceNow > 0
  }

  private func findHeadEnd() -> Int? {
    guard buffer.count >= 4 else { return nil }
    for i in 0...(buffer.count - 4)
    where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
      return i
    }
    return nil
  }

  /// Reads more bytes into the buffer; false at the deadline or the end of the connection.
  private func fill(until deadline: Date) -> Bool {
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return false }
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&pfd, 1, Int32(remaining * 1000) + 1)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return false }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = read(fd, &chunk, chunk.count)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      buffer += chunk[..<n]
      return true
    }
  }

  private func writeAll(_ bytes: [UInt8]) {
    var written = 0
    while written < bytes.count {
      let n = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return }
      written += n
    }
  }
}
