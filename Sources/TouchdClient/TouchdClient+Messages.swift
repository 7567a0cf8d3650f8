// TouchdClient: the events' stream: the buffered events and ``TouchdClient/messages``.

import Foundation

extension TouchdClient {
  func deliver(_ event: TouchdEvent) {
    if !eventWaiters.isEmpty {
      eventWaiters.removeFirst().continuation.resume(returning: event)
    } else {
      events.append(event)
    }
  }

  /// The next event; nil once the client is closed (after the events already received), or the
  /// error that ended it once (without reconnection).
  func nextEvent() async throws -> TouchdEvent? {
    if !events.isEmpty {
      let event = events.removeFirst()
      if events.count < bufferLimit { wakeReader() }
      return event
    }
    if let endError {
      if endDelivered || endError == .closed { return nil }
      endDelivered = true
      throw endError
    }
    start()
    let id = nextWaiterID
    nextWaiterID += 1
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TouchdEvent?, any Error>) in
        if Task.isCancelled { return continuation.resume(returning: nil) }
        eventWaiters.append((id, continuation))
      }
    } onCancel: {
      Task { await self.cancelEventWaiter(id) }
    }
  }

  private func cancelEventWaiter(_ id: Int) {
    guard let i = eventWaiters.firstIndex(where: { $0.id == id }) else { return }
    eventWaiters.remove(at: i).continuation.resume(returning: nil)
  }

  /// The daemon's messages and the client's events, in order, for as long as the client lives:
  /// through reconnections, until ``TouchdClient/close()`` (then it ends after the events already
  /// received) or, without reconnection, the end of the connection (then it throws
  /// ``TouchdError/connectionLost``). Each event goes to one iterator: iterate from one task.
  public struct Messages: AsyncSequence, Sendable {
    public typealias Element = TouchdEvent
    public typealias Failure = any Error
    let client: TouchdClient

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(client: client) }

    /// Takes the client's events one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
      let client: TouchdClient
      public mutating func next() async throws -> TouchdEvent? { try await client.nextEvent() }
    }
  }

  /// The daemon's messages and the client's own events (``TouchdEvent``); iterating starts the
  /// connection.
  public nonisolated var messages: Messages { Messages(client: self) }
}
