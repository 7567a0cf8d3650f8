// TouchdClient: sending commands: a command's line, its reply or error, its timeout and cancellation
// (the command methods are in Commands.swift).

import Foundation
import NIOCore
import TouchdProtocol

extension TouchdClient {
  /// Sends `cmd` with `fields` and returns the reply, waiting at most `timeout` (nil: for ever)
  /// for a connection and the answer.
  func request(_ cmd: String, _ fields: [String: TouchdJSON], timeout: Duration?) async throws -> Reply {
    let deadline = timeout.map { ContinuousClock.now + $0 }
    let encodedFields = try Self.encode(fields)  // fails before anything is sent
    try await waitUntilConnected(deadline: deadline)
    let id = nextID
    nextID += 1
    let text = Self.line(cmd, id: id, encodedFields: encodedFields)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Reply, any Error>) in
        if Task.isCancelled { return continuation.resume(throwing: CancellationError()) }
        guard isConnected else { return continuation.resume(throwing: TouchdError.connectionLost) }
        var command = Pending(cmd: cmd, fields: fields, continuation: continuation, isInternal: false)
        if let deadline {
          command.timer = Task {
            try? await Task.sleep(until: deadline)
            if !Task.isCancelled { abandon(id, TouchdError.timeout) }
          }
        }
        pending[id] = command
        write(text)
        wakeReader()
      }
    } onCancel: {
      Task { await self.abandon(id, CancellationError()) }
    }
  }

  /// The caller of command `id` stopped waiting: it throws `error`, its answer will be dropped.
  private func abandon(_ id: Int, _ error: any Error) {
    guard var command = pending[id], let continuation = command.continuation else { return }
    command.continuation = nil
    command.timer?.cancel()
    command.timer = nil
    pending[id] = command
    continuation.resume(throwing: error)
  }

  func write(_ line: String) {
    channel?.writeAndFlush(ByteBuffer(string: line), promise: nil)
  }

  /// The fields of a command as JSON members, each after a comma: `,"view":"door","hidden":true`;
  /// keys sorted, values as ``TouchdJSON/jsonText()`` writes them.
  static func encode(_ fields: [String: TouchdJSON]) throws -> String {
    var out = ""
    for key in fields.keys.sorted() where key != "cmd" && key != "id" {
      out += "," + JSONFormat.string(key) + ":" + (try fields[key]!.jsonText())
    }
    return out
  }

  /// One command line: `{"cmd":…,"id":…,…}` and a newline.
  static func line(_ cmd: String, id: Int, encodedFields: String) -> String {
    "{\"cmd\":" + JSONFormat.string(cmd) + ",\"id\":\(id)" + encodedFields + "}\n"
  }
}
