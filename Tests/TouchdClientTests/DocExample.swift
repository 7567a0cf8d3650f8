import TouchdClient

/// The Swift example of docs/integration.md, compiled (never run) so that it stays true to the API.
func integrationDocExample() async throws {
  let client = TouchdClient()  // $TOUCHD_SOCKET, else /run/touchd/touchd.sock
  let hello = try await client.connect()
  print("touchd", hello.instance ?? "?", "windows:", hello.windows.map(\.id))
  try await client.subscribe(types: [.action], views: ["buy-ticket", "show-map"])

  Task {
    // Commands may come from any task while another iterates the messages.
    do {
      try await client.setView("dor", hidden: true)
    } catch TouchdError.daemon(let message) {
      print(message)  // unknown view 'dor' (did you mean 'door'?)
    }
  }

  for try await event in client.messages {
    switch event {
    case .message(.action(let action)):
      print(action.seq, action.action, action.view, action.location.map { "\($0.x),\($0.y)" } ?? "")
    case .message(.gap(let gap)):
      print("the daemon dropped \(gap.skipped) messages: this app fell behind")
    case .message(let other):
      print("notice:", other.type)  // reloaded, updated, windowChanged, shutdown, …
    case .reconnected(let reconnected):
      // The subscription is back. After a restart the daemon's state is its scene file's again:
      // views the app hid or scenes it pushed must be set again.
      print("reconnected; daemon restarted:", reconnected.restarted)
    case .missed(let missed):
      print("missed", missed.count, missed.exact ? "messages" : "messages at most")
    }
  }
}
