import ArgumentParser
import Foundation
import TouchdConnection
import TouchdProtocol

/// `touchctl send`: sends one command to touchd and prints the reply.
struct SendCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "send",
    abstract: "Send one command to touchd and print its reply.",
    discussion: #"Example: touchctl send '{"cmd":"set","view":"door","hidden":true}'"#)

  @OptionGroup var connection: SocketOptions
  @Argument(help: "The command, a JSON object with \"cmd\".") var json: String

  func run() throws {
    guard var command = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
      throw ValidationError("not a JSON object: \(json)")
    }
    let client = try connection.connect()
    // The command as given, its keys sorted and touchctl's id in place of its own (pinned by
    // SocketCommandTests): the daemon, not touchctl, judges it.
    command["id"] = client.id
    let line = String(
      decoding: try JSONSerialization.data(withJSONObject: command, options: [.sortedKeys]), as: UTF8.self)
    guard let reply = try client.request(line: line) else { throw ValidationError("no reply from touchd within 10 s") }
    print(reply)
    if BlockingConnection.type(of: reply) == "error" { throw ExitCode(1) }
  }
}

/// `touchctl status`: the daemon's devices, clients and counters.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", abstract: "Show touchd's devices, clients and counters.")

  @OptionGroup var connection: SocketOptions
  @Flag(help: "Print the raw JSON reply.") var json = false

  func run() throws {
    let reply = try connection.connect().answer(.status)
    guard !json, let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any] else {
      print(reply)
      return
    }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
  }
}
