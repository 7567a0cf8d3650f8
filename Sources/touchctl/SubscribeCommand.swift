import ArgumentParser
import Foundation
import TouchdConnection
import TouchdProtocol

/// `touchctl subscribe`: prints the daemon's messages as they arrive, one JSON object per line.
struct SubscribeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscribe",
    abstract: "Print touchd's messages as they arrive (JSON lines).",
    discussion: """
      Without filters, every action message. --type trace adds the daemon's trace messages (every \
      recognizer state change with its cause, touches held and released; docs/protocol.md); touchd \
      traces only while a client subscribes to them. Stops at end of stream or Ctrl-C.
      """)

  @OptionGroup var connection: SocketOptions
  @Option(name: .customLong("action"), help: "Only this action (repeatable).") var actions: [String] = []
  @Option(name: .customLong("view"), help: "Only messages about this view (repeatable).") var views: [String] = []
  @Option(
    name: .customLong("type"),
    help:
      "Message types: \(TouchdProtocol.SubscribeCommand.messageTypes.joined(separator: ", ")) (repeatable; default action)."
  )
  var types: [String] = []
  @Flag(help: "Touches messages list their coalesced frames (docs/protocol.md).") var coalesced = false
  @Flag(help: "Touches messages list predicted positions (docs/protocol.md).") var predicted = false
  @Flag(help: "Print the hello message and replies too.") var verbose = false
  @Option(help: "Exit after this many messages of the subscribed types (not replies or notices).") var count: Int?

  /// The types `--count` counts: the pipeline's messages (docs/protocol.md).
  static let countedTypes = Set(TouchdProtocol.SubscribeCommand.messageTypes)

  func run() throws {
    let client = try connection.connect()
    var early: [String] = []
    let subscribe = TouchdProtocol.SubscribeCommand(
      types: types.isEmpty ? nil : types, actions: actions.isEmpty ? nil : actions, views: views.isEmpty ? nil : views,
      coalesced: coalesced ? true : nil, predicted: predicted ? true : nil)
    if !subscribe.members.isEmpty {
      let reply = try client.answer(.subscribe(subscribe)) { early.append($0) }
      if BlockingConnection.type(of: reply) == "error" {
        throw ValidationError("touchd refused the subscription: \(reply)")
      }
      if verbose { early.append(reply) }
    }
    var received = 0
    var pending = early[...]
    while let line = try pending.popFirst() ?? client.readLine() {
      let type = BlockingConnection.type(of: line)
      if !verbose && (type == "hello" || type == "reply") { continue }
      // Unbuffered, so a pipe sees each message as it arrives.
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
      if let type, Self.countedTypes.contains(type) {
        received += 1
        if let count, received >= count { return }
      }
    }
  }
}
