import TouchdProtocol
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking line connection to the daemon's socket, speaking the protocol's commands: what a
/// synchronous tool (touchctl) uses where an app uses the asynchronous TouchdClient. It sends a
/// command (declared in TouchdProtocol/Commands) or a line as given, and reads the daemon's lines
/// as written; its system calls go through the seam (TouchdSystem).
public final class BlockingConnection {
  /// The `id` of every command sent; the reply echoes it.
  public let id: String
  private let fd: Int32
  private var buffer: [UInt8] = []
  private let system: SystemCalls

  /// Connects to the socket at `path`. Errors are the system's (`ENOENT`, `EACCES`,
  /// `ECONNREFUSED`, …), for the caller to explain; `ENAMETOOLONG` for a path no `sockaddr_un`
  /// holds.
  public init(path: String, id: String, system: SystemCalls = .live) throws(SystemCallError) {
    let fd = try system.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: addr.sun_path)
    guard path.utf8.count < capacity else {
      system.close(fd)
      throw SystemCallError("connect", Errno(ENAMETOOLONG))
    }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in raw.copyBytes(from: Array(path.utf8) + [0]) }
    let connected = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        Result { () throws(SystemCallError) in
          try system.connect(fd, address, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }
    if case .failure(let error) = connected {
      system.close(fd)
      throw error
    }
    // Stored only once connected: a throw after every stored property is set would run `deinit`
    // and close the descriptor a second time.
    self.fd = fd
    self.id = id
    self.system = system
  }

  deinit { system.close(fd) }

  /// Writes `line` and a newline, whole.
  public func send(_ line: String) throws(SystemCallError) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let outcome = bytes.withUnsafeBytes { bytes in
        Result { () throws(SystemCallError) in try system.write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
      }
      offset += try Self.moved(outcome.get(), "write")
    }
  }

  /// The next line; nil at end of stream, or when `timeout` seconds pass without one.
  public func readLine(timeout: Double? = nil) throws(SystemCallError) -> String? {
    while true {
      if let i = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<i], as: UTF8.self)
        buffer.removeSubrange(...i)
        return line
      }
      if let timeout {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = try withUnsafeMutablePointer(to: &pfd) { pointer in
          Result { () throws(SystemCallError) in
            try system.poll(UnsafeMutableBufferPointer(start: pointer, count: 1), timeout: Int32(timeout * 1000))
          }
        }.get()
        if ready == 0 { return nil }
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let outcome = chunk.withUnsafeMutableBytes { raw in
        Result { () throws(SystemCallError) in try system.read(fd, into: raw) }
      }
      let n = try Self.moved(outcome.get(), "read")
      if n == 0 { return nil }
      buffer += chunk[..<n]
    }
  }

  /// The bytes an outcome moved; `wouldBlock` (never on this blocking socket) as EAGAIN.
  private static func moved(_ outcome: IOOutcome<Int>, _ call: String) throws(SystemCallError) -> Int {
    guard case .processed(let count) = outcome else { throw SystemCallError(call, Errno(EAGAIN)) }
    return count
  }

  /// Sends `command` with this connection's ``id`` and returns the reply or error line that
  /// echoes it; the other lines that arrive meanwhile (hello, notices, messages) go to `other`.
  /// Nil when `timeout` seconds pass without the answer, or the stream ends.
  public func request(
    _ command: Command, timeout: Double = 10, other: (String) -> Void = { _ in }
  ) throws(SystemCallError) -> String? {
    let members = [("cmd", JSONValue.string(command.name)), ("id", .string(id))] + command.members
    guard let line = JSONValue.object(members).clientText else {
      preconditionFailure("a command of finite numbers: \(command)")
    }
    return try request(line: line, timeout: timeout, other: other)
  }

  /// Sends `line`, a command object that carries this connection's ``id``, and returns the line
  /// that answers it (``request(_:timeout:other:)``).
  public func request(
    line: String, timeout: Double = 10, other: (String) -> Void = { _ in }
  ) throws(SystemCallError) -> String? {
    try send(line)
    while let line = try readLine(timeout: timeout) {
      guard Self.id(of: line) == id else {
        other(line)
        continue
      }
      return line
    }
    return nil
  }

  /// A line's `type`, nil when it is not a JSON object with a string `type`.
  public static func type(of line: String) -> String? { (try? StrictJSON.parse(line))?["type"]?.stringValue }

  /// A line's `id` when it is a string.
  private static func id(of line: String) -> String? { (try? StrictJSON.parse(line))?["id"]?.stringValue }
}
