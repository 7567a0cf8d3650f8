import ArgumentParser
import Foundation

/// `touchctl send`: sends one command to touchd and prints the reply.
struct SendCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "send",
    abstract: "Send one command to touchd and print its reply.",
    discussion: #"Example: touchctl send '{"cmd":"set","view":"door","hidden":true}'"#)

  @OptionGroup var connection: SocketOptions
  @Argument(help: "The command, a JSON object with \"cmd\".") var json: String

  func run() throws {
    guard let command = SocketClient.object(json) else {
      throw ValidationError("not a JSON object: \(json)")
    }
    let reply = try connection.connect().request(command)
    print(reply)
    if SocketClient.object(reply)?["type"] as? String == "error" { throw ExitCode(1) }
  }
}

/// `touchctl status`: the daemon's devices, clients and counters.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", abstract: "Show touchd's devices, clients and counters.")

  @OptionGroup var connection: SocketOptions
  @Flag(help: "Print the raw JSON reply.") var json = false

  func run() throws {
    let reply = try connection.connect().request(["cmd": "status"])
    guard !json, let object = SocketClient.object(reply) else {
      print(reply)
      return
    }
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
  }
}
