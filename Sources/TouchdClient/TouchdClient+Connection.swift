// TouchdClient: the connection loop: connecting, reconnecting with backoff, reading a connection, and
// pausing the reader while the events fill the buffer.

import Foundation
import NIOCore
import NIOPosix
import TouchdLines

extension TouchdClient {
  func run() async {
    while !isClosed {
      let delay = reconnectPolicy.delay(afterFailures: failures)
      if delay > .zero {
        do { try await Task.sleep(for: delay) } catch { break }
      }
      if isClosed { break }
      let connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>
      do {
        connection = try await open()
      } catch {
        failures += 1
        attemptsSinceHello += 1
        if !reconnectPolicy.isEnabled {
          finish(.cannotConnect(path: socketPath, reason: "\(error)"))
          return
        }
        continue
      }
      if isClosed {
        connection.channel.close(promise: nil)
        break
      }
      let refusal = await serve(connection)
      if let refusal, !refusal.retry || !reconnectPolicy.isEnabled {
        finish(.daemon(message: refusal.message))
        return
      }
      if !reconnectPolicy.isEnabled {
        finish(.connectionLost)
        return
      }
    }
    finish(.closed)
  }

  private func open() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
    try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connectTimeout(.seconds(5))
      .connect(unixDomainSocketPath: socketPath) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
          return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
  }

  struct Refusal {
    var message: String
    var retry: Bool
  }

  /// Reads one connection until it closes; the daemon's refusal, if it refused.
  private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async -> Refusal? {
    connectionNumber += 1
    let number = connectionNumber
    channel = connection.channel
    closing = false
    phase = .awaitingHello
    attemptsSinceHello += 1
    let helloTimer = Task { [helloTimeout] in
      try? await Task.sleep(for: helloTimeout)
      if !Task.isCancelled { helloTimedOut(number) }
    }
    var refusal: Refusal?
    do {
      try await connection.executeThenClose { inbound, _ in
        for try await line in inbound {
          refusal = receive(line)
          if refusal != nil || closing { break }
          await waitForRoom()
          if closing || isClosed { break }
        }
      }
    } catch {
      // The connection failed (reset, or a line too long): as closed.
    }
    helloTimer.cancel()
    channel = nil
    connectionLost()
    return refusal
  }

  private func helloTimedOut(_ number: Int) {
    guard number == connectionNumber, phase == .awaitingHello else { return }
    closing = true
    channel?.close(promise: nil)
  }

  /// The connection closed: the commands in flight throw ``TouchdError/connectionLost`` (or
  /// ``TouchdError/closed``, when ``close()`` closed it).
  private func connectionLost() {
    let hadHello = isConnected
    failPending(with: isClosed ? .closed : .connectionLost)
    resubscribeID = nil
    pendingReconnected = nil
    phase = .disconnected
    failures = hadHello ? 1 : failures + 1
  }

  func failPending(with error: TouchdError) {
    let failed = pending
    pending.removeAll()
    for (_, command) in failed.sorted(by: { $0.key < $1.key }) {
      command.timer?.cancel()
      command.continuation?.resume(throwing: error)
    }
  }

  /// Pauses the reader while the buffer is full and no command waits for its answer.
  private func waitForRoom() async {
    while events.count >= bufferLimit, !hasWaitingCommand, !closing, !isClosed {
      await withCheckedContinuation { roomWaiter = $0 }
    }
  }

  private var hasWaitingCommand: Bool { pending.values.contains { $0.continuation != nil } }

  func wakeReader() {
    roomWaiter?.resume()
    roomWaiter = nil
  }
}
