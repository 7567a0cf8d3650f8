import ArgumentParser
import Foundation
import TouchdConnection
import TouchdProtocol
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The `--socket` option shared by the commands that talk to touchd, and the connection they talk
/// through (TouchdConnection's ``BlockingConnection``).
struct SocketOptions: ParsableArguments {
  @Option(help: "The daemon's socket (default: $TOUCHD_SOCKET or /run/touchd/touchd.sock).")
  var socket: String = ProcessInfo.processInfo.environment["TOUCHD_SOCKET"] ?? "/run/touchd/touchd.sock"

  /// Connects, or fails with a message that names the socket and the likely cause. Commands carry
  /// the id `touchctl-PID`.
  func connect() throws -> BlockingConnection {
    do {
      return try BlockingConnection(path: socket, id: "touchctl-\(getpid())")
    } catch {
      let hint: String
      switch error.errno.code {
      case ENOENT: hint = "no such socket: is touchd running? (systemctl status touchd.socket)"
      case EACCES: hint = "permission denied: join the socket's group (e.g. 'touchd')"
      case ECONNREFUSED: hint = "connection refused: touchd is not listening"
      default: hint = String(cString: strerror(error.errno.code))
      }
      throw ValidationError("\(socket): \(hint)")
    }
  }
}

extension BlockingConnection {
  /// The answer to `command`, or a failure that says none came.
  func answer(_ command: Command, timeout: Double = 10, other: (String) -> Void = { _ in }) throws -> String {
    guard let line = try request(command, timeout: timeout, other: other) else {
      throw ValidationError("no reply from touchd within \(Int(timeout)) s")
    }
    return line
  }
}
