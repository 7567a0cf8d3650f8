import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking Unix-socket client that reads whole lines.
public final class Client {
  public let fd: Int32
  private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
  private var pending: [UInt8] = []

  /// Connects to the Unix socket at `path`.
  public init(path: String) {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    precondition(fd >= 0, "socket: \(errno)")
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8)
      precondition(bytes.count < raw.count)
      raw.copyBytes(from: bytes + [0])
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    precondition(result == 0, "connect \(path): \(errno)")
  }

  /// Reads and writes `fd`, an already connected socket, which it closes when it goes.
  public init(fd: Int32) {
    self.fd = fd
  }

  deinit { close(fd) }

  /// Writes `line` and a newline.
  public func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }

  /// Reads until one whole line has arrived; returns its length.
  @discardableResult public func readLine() -> Int {
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        pending.removeSubrange(...newline)
        return newline
      }
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      precondition(n > 0, "read: \(n) errno \(errno)")
      pending.append(contentsOf: buffer[..<n])
    }
  }
}
