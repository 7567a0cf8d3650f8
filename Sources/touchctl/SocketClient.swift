import ArgumentParser
import Foundation
import TouchdSystem

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
  private let system = SystemCalls.live

  init(path: String) throws {
    let system = SystemCalls.live
    let fd = try Self.posix { () throws(SystemCallError) in
      try system.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: addr.sun_path)
    guard path.utf8.count < capacity else {
      system.close(fd)
      throw POSIXError(.ENAMETOOLONG)
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      raw.copyBytes(from: Array(path.utf8) + [0])
    }
    let connected = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        Result { () throws(SystemCallError) in
          try system.connect(fd, address, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }
    do {
      try Self.posix { () throws(SystemCallError) in try connected.get() }
    } catch {
      system.close(fd)
      throw error
    }
    self.fd = fd
  }

  deinit { system.close(fd) }

  /// `body`'s value; its error as the `POSIXError` touchctl reports (EAGAIN too: the socket blocks).
  private static func posix<T>(_ body: () throws(SystemCallError) -> T) throws(POSIXError) -> T {
    do {
      return try body()
    } catch {
      throw POSIXError(POSIXErrorCode(rawValue: error.errno.code) ?? .EIO)
    }
  }

  /// The bytes an outcome moved; `wouldBlock` (never on this blocking socket) as EAGAIN.
  private static func moved(_ outcome: IOOutcome<Int>) throws(POSIXError) -> Int {
    guard case .processed(let count) = outcome else { throw POSIXError(.EAGAIN) }
    return count
  }

  func send(_ line: String) throws {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let outcome = try bytes.withUnsafeBytes { bytes in
        try Self.posix { () throws(SystemCallError) in
          try system.write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
      }
      offset += try Self.moved(outcome)
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
        let ready = try withUnsafeMutablePointer(to: &pfd) { pointer in
          try Self.posix { () throws(SystemCallError) in
            try system.poll(UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: Int32(timeout * 1000))
          }
        }
        if ready == 0 { return nil }
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let outcome = try chunk.withUnsafeMutableBytes { raw in
        try Self.posix { () throws(SystemCallError) in try system.read(fd, into: raw) }
      }
      let n = try Self.moved(outcome)
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
