import TouchdScene

/// Answers the commands the server cannot answer itself (`set`, `ignoreInteraction`, `reload`,
/// `status`). Called on the server's event loop; implementations hop to the pipeline queue and call
/// `reply` from any thread, exactly once.
public protocol CommandHandler: AnyObject, Sendable {
  /// `server` is the server's counters at the time of the command (for `status`).
  func handle(
    _ command: ClientCommand, from client: ClientInfo, server: ServerCounters,
    reply: @escaping @Sendable (CommandResult) -> Void)

  /// The message types at least one client subscribes to changed (a `subscribe`, a client
  /// connecting or going away). Called on the server's event loop, in order; implementations hop
  /// to the pipeline queue. The daemon traces while `types` contains `trace`.
  func subscribedTypesChanged(_ types: Set<String>)

  /// The touches entries (`coalesced`, `predicted`) at least one client subscribed to touches asks
  /// for changed. Called on the server's event loop before the `subscribe` reply is written;
  /// implementations hop to the pipeline queue. The daemon's runtime makes only these.
  func touchesEntriesChanged(_ entries: TouchesMessage.Entries)

  /// A client went away (closed, or was disconnected). Called on the server's event loop;
  /// implementations hop to the pipeline queue. The daemon ends a calibration the client began.
  func clientDisconnected(_ client: ClientInfo)

  /// A client's first `subscribe` was answered (its reply written before this call). Called on
  /// the server's event loop; implementations hop to the pipeline queue. The daemon starts a replay
  /// held for a subscriber (`--wait-for-subscriber`).
  func clientSubscribed(_ client: ClientInfo)
}

extension CommandHandler {
  /// Does nothing: a handler that produces every type whoever subscribes.
  public func subscribedTypesChanged(_ types: Set<String>) {}

  /// Does nothing: a handler whose messages carry no optional touches entries.
  public func touchesEntriesChanged(_ entries: TouchesMessage.Entries) {}

  /// Does nothing: a handler that keeps no state per client.
  public func clientDisconnected(_ client: ClientInfo) {}

  /// Does nothing: a handler that does not wait for subscribers.
  public func clientSubscribed(_ client: ClientInfo) {}
}
