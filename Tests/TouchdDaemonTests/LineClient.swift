import Foundation

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking test client for the line protocol, on a raw Unix socket (independent of NIO).
final class LineClient: @unchecked Sendable {
  let fd: Int32
  private var buffer: [UInt8] = []
  /// Bytes of ``buffer`` known to hold no newline: a 2 MB line is scanned once, not once a read.
  private var scanned = 0

  /// `fd` is stored only once connected: an initializer that throws after every stored property
  /// is set runs `deinit`, which would close the descriptor a second time (by then, perhaps, a
  /// socket another thread just opened: a 1000-client test once lost a client that way).
  init(path: String, receiveBuffer: Int32? = nil) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    if var size = receiveBuffer {
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    guard let address = UnixSocketAddress(path) else {
      close(fd)
      throw POSIXError(.ENAMETOOLONG)
    }
    guard address.withSockaddr({ connect(fd, $0, $1) }) == 0 else {
      let code = errno
      close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
    self.fd = fd
  }

  deinit { close(fd) }

  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }

  /// The next line, or nil when none arrives within `timeout` seconds or the server closed.
  func readLine(timeout: Double = 5) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let i = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<i], as: UTF8.self)
        buffer.removeSubrange(...i)
        scanned = 0
        return line
      }
      scanned = buffer.count
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&pfd, 1, Int32(remaining * 1000) + 1)
      // A signal (SIGCHLD from another test's daemon) interrupts poll and read: wait on.
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 1 << 20)
      let n = read(fd, &chunk, chunk.count)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return nil }
      buffer += chunk[..<n]
    }
  }

  /// Reads until a line containing `needle` arrives; returns it and everything skipped before it.
  func readUntil(_ needle: String, timeout: Double = 5) -> (match: String?, skipped: [String]) {
    var skipped: [String] = []
    while let line = readLine(timeout: timeout) {
      if line.contains(needle) { return (line, skipped) }
      skipped.append(line)
    }
    return (nil, skipped)
  }

  /// Whether the server closed the connection (EOF) within `timeout`, discarding data before it.
  func closedByServer(timeout: Double = 5) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while deadline.timeIntervalSinceNow > 0 {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&pfd, 1, 100)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { return false }
      if pfd.revents != 0 {
        let n = read(fd, &chunk, chunk.count)
        if n <= 0 { return true }
      }
    }
    return false
  }
}

/// A fresh socket path under /tmp.
func temporarySocketPath(_ name: String = #function) -> String {
  let clean = name.filter { $0.isLetter || $0.isNumber }.prefix(40)
  return "/tmp/touchd-test-\(getpid())-\(clean).sock"
}

/// Parses a JSON line into a dictionary (nil when it is not an object).
func json(_ line: String?) -> [String: Any]? {
  guard let line, let data = line.data(using: .utf8) else { return nil }
  return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}
