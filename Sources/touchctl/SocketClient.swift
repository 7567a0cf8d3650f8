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

extension SocketOptions {
  /// Connects, sends `command` and reads its reply as `Reply` (a protocol reply type); an error
  /// reply, or a line that is not one, fails with `context` and the daemon's message.
  func reply<Reply: Decodable>(to command: Command, as: Reply.Type, context: String) throws -> Reply {
    let line = try connect().answer(command)
    guard BlockingConnection.type(of: line) == "reply",
      let reply = try? StrictJSONDecoder.decode(Reply.self, line: line)
    else {
      let message = (try? StrictJSON.parse(line))?["message"]?.stringValue ?? line
      throw ValidationError("\(context): \(message)")
    }
    return reply
  }
}
