import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `--socket` option shared by the commands that talk to touchd.
struct SocketOptions: ParsableArguments {
  @Option(help: "The daemon's socket (default: $TOUCHD_SOCKET or /run/touchd/touchd.sock).")
  var socket: String = ProcessInfo.processInfo.environment["TOUCHD_SOCKET"] ?? "/run/touchd/touchd.sock"

  /// Connects, or fails with a message that names the socket and the likely cause.
  func connect() throws -> SocketClient {
    do {
      return try SocketClient(path: socket)
    } catch let error as POSIXError {
      let hint: String
      switch error.code {
      case .ENOENT: hint = "no such socket: is touchd running? (systemctl status touchd.socket)"
      case .EACCES: hint = "permission denied: join the socket's group (e.g. 'touchd')"
      case .ECONNREFUSED: hint = "connection refused: touchd is not listening"
      default: hint = String(cString: strerror(error.code.rawValue))
      }
      throw ValidationError("\(socket): \(hint)")
    }
  }
}

/// A blocking line client of the touchd socket.
final class SocketClient {
  private let fd: Int32
  private var buffer: [UInt8] = []

  /// `fd` is stored only once connected: a throw after every stored property is set would run
  /// `deinit` and close the descriptor a second time.
  init(path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: addr.sun_path)
    guard path.utf8.count < capacity else {
      close(fd)
      throw POSIXError(.ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: Array(path.utf8) + [0])
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard rc == 0 else {
      let code = errno
      close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
    self.fd = fd
  }

  deinit { close(fd) }

  func send(_ line: String) throws {
    var bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
      offset += n
    }
  }

  /// The next line; nil at end of stream, or when `timeout` seconds pass without one.
  func readLine(timeout: Double? = nil) throws -> String? {
    while true {
      if let i = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<i], as: UTF8.self)
        buffer.removeSubrange(...i)
        return line
      }
      if let timeout {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let rc = poll(&pfd, 1, Int32(timeout * 1000))
        if rc == 0 { return nil }
        if rc < 0 && errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = read(fd, &chunk, chunk.count)
      if n < 0 {
        if errno == EINTR { continue }
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
      if n == 0 { return nil }
      buffer += chunk[..<n]
    }
  }

  /// Sends `command` and returns the reply or error line with the same id; other messages
  /// (hello, actions) that arrive meanwhile go to `other`.
  func request(
    _ command: [String: Any], timeout: Double = 10, other: (String) -> Void = { _ in }
  ) throws -> String {
    var object = command
    let id = "touchctl-\(getpid())"
    object["id"] = id
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    try send(String(decoding: data, as: UTF8.self))
    while let line = try readLine(timeout: timeout) {
      guard let reply = Self.object(line), reply["id"] as? String == id else {
        other(line)
        continue
      }
      return line
    }
    throw ValidationError("no reply from touchd within \(Int(timeout)) s")
  }

  static func object(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
  }
}
