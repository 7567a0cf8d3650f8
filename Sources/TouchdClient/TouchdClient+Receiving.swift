// TouchdClient: the daemon's lines: the hello (and the subscription sent again after a reconnection),
// the answers to commands, and the published messages.

import Foundation
import NIOCore

extension TouchdClient {
  func receive(_ line: ByteBuffer) -> Refusal? {
    guard let message = Self.parse(Data(line.readableBytesView), decoder: decoder) else { return nil }
    if phase == .awaitingHello { return beforeHello(message) }
    switch message {
    case .reply(let reply): answer(id: reply.id, with: .success(reply), message: message)
    case .error(let error): answer(id: error.id, with: .failure(error.message), message: message)
    default: publish(message)
    }
    return nil
  }

  /// The message of one line; nil for an empty line or one that is not a JSON object. A known type
  /// this version cannot read (a field missing or of another kind) is unknown, with its fields.
  static func parse(_ line: Data, decoder: JSONDecoder) -> TouchdMessage? {
    if let message = try? decoder.decode(TouchdMessage.self, from: line) { return message }
    guard var fields = try? decoder.decode([String: TouchdJSON].self, from: line) else { return nil }
    let type = fields.removeValue(forKey: "type")?.stringValue ?? ""
    return .unknown(type: type, fields: fields)
  }

  private func publish(_ message: TouchdMessage) {
    let seq = message.seq
    if phase == .resubscribing, seq != nil || message.type == "trace" {
      // Published under the default filter before the subscription is back: dropped, and
      // counted by the Missed event that follows.
      return
    }
    if let seq {
      if let last = missedFrom {
        missedFrom = nil
        deliver(
          .missed(Missed(count: max(0, seq - last - 1), lastSeq: last, seq: seq, exact: subscriptionIsEverything)))
      }
      lastSeq = seq
      seqInstance = hello?.instance
    }
    deliver(.message(message))
  }

  private func beforeHello(_ message: TouchdMessage) -> Refusal? {
    guard case .hello(let greeting) = message else {
      if case .error(let error) = message {
        // Access denied or too many clients: the daemon closes the connection.
        return Refusal(message: error.message, retry: error.message.contains("too many clients"))
      }
      // Not touchd, or not this protocol: as a failed attempt.
      closing = true
      channel?.close(promise: nil)
      return nil
    }
    let previous = hello
    hello = greeting
    failures = 0
    let attempts = attemptsSinceHello
    attemptsSinceHello = 0
    guard let previous else {
      seqInstance = greeting.instance
      becomeReady()
      return nil
    }
    let restarted = greeting.instance == nil || greeting.instance != previous.instance
    if restarted {
      lastSeq = nil
      missedFrom = nil
    } else if let lastSeq, seqInstance == greeting.instance {
      missedFrom = lastSeq
    }
    seqInstance = greeting.instance
    pendingReconnected = Reconnected(
      restarted: restarted, hello: greeting, previousInstance: previous.instance,
      lastSeq: restarted ? nil : lastSeq, attempts: attempts, resubscribeError: nil)
    if let subscription {
      let id = nextID
      nextID += 1
      pending[id] = Pending(cmd: "subscribe", fields: subscription, continuation: nil, isInternal: true)
      resubscribeID = id
      // The fields were sent once already: they encode.
      write(Self.line("subscribe", id: id, encodedFields: (try? Self.encode(subscription)) ?? ""))
      phase = .resubscribing
      releaseReadyWaiters()
    } else {
      becomeReady()
      deliverReconnected(error: nil)
    }
    return nil
  }

  private func becomeReady() {
    phase = .ready
    releaseReadyWaiters()
  }

  private func releaseReadyWaiters() {
    let waiters = readyWaiters
    readyWaiters.removeAll()
    for waiter in waiters {
      waiter.timer?.cancel()
      waiter.continuation.resume()
    }
  }

  private func deliverReconnected(error: String?) {
    guard var event = pendingReconnected else { return }
    pendingReconnected = nil
    event.resubscribeError = error
    deliver(.reconnected(event))
  }

  private enum Outcome {
    case success(Reply)
    case failure(String)
  }

  private func answer(id: TouchdJSON, with outcome: Outcome, message: TouchdMessage) {
    var key = id.intValue
    if case .failure = outcome, id == .null, !pending.isEmpty {
      // An error the daemon could not tie to a line's id answers the oldest command waiting.
      key = pending.keys.min()
    }
    guard let key, let command = pending.removeValue(forKey: key) else {
      deliver(.message(message))
      return
    }
    command.timer?.cancel()
    if command.cmd == "subscribe", case .success(let reply) = outcome {
      subscription = command.fields
      subscriptionIsEverything = Self.passesEverything(reply)
    }
    if command.isInternal {
      if key == resubscribeID {
        resubscribeID = nil
        phase = .ready
        if case .failure(let text) = outcome {
          subscriptionIsEverything = false
          deliverReconnected(error: text)
        } else {
          deliverReconnected(error: nil)
        }
      }
      return
    }
    switch outcome {
    case .success(let reply): command.continuation?.resume(returning: reply)
    case .failure(let text): command.continuation?.resume(throwing: TouchdError.daemon(message: text))
    }
  }

  /// Whether a subscribe reply's effective filter passes every message that carries `seq`.
  private static func passesEverything(_ reply: Reply) -> Bool {
    let types = Set(reply["types"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    func unfiltered(_ key: String) -> Bool {
      guard let value = reply[key], !value.isNull else { return true }
      return value.arrayValue?.isEmpty == true
    }
    return MessageType.pipeline.allSatisfy { types.contains($0.rawValue) } && unfiltered("actions")
      && unfiltered("views")
  }
}
