// VoiceOver's speech, out of the pipeline: each window's requests go to its connection to
// speech-dispatcher, on an event loop of their own.
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import TouchdScene

/// The daemon's speech: the runtime's ``SpeechRequest``s, handed over from the pipeline's queue in
/// one hop to a thread of its own (``SpeechConnection`` does the rest there), so that no touch ever
/// waits for speech-dispatcher, a slow synthesizer or a hung socket. The thread starts with the
/// first request: a kiosk without VoiceOver never has it.
final class SpeechOutput: @unchecked Sendable {
  private let logger: Logger
  private let environment: [String: String]
  private let group = NIOLockedValueBox<MultiThreadedEventLoopGroup?>(nil)
  /// Each window's connection, by the window's id (touched only on the loop).
  private var connections: [String: SpeechConnection] = [:]
  /// Each window's counts, by the window's id, as its connection keeps them.
  private let counts = NIOLockedValueBox<[String: SpeechCounts]>([:])

  init(logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.logger = logger
    self.environment = environment
  }

  /// The socket a `speech:` without `socket` uses: `$SPEECHD_ADDRESS` when it names a Unix socket
  /// (`unix_socket:PATH`, the address speech-dispatcher's own clients honour), else the per-user
  /// default `$XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock` (speech-dispatcher's manual,
  /// "Communication mechanisms"), else ``systemSocket``.
  static func defaultSocket(environment: [String: String]) -> String {
    if let address = environment["SPEECHD_ADDRESS"], address.hasPrefix("unix_socket:") {
      return String(address.dropFirst("unix_socket:".count))
    }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      return runtime + "/speech-dispatcher/speechd.sock"
    }
    return systemSocket
  }

  /// The last resort: a socket in the runtime directory of Debian's `speech-dispatcher` user (its
  /// system unit's PIDFile's directory), where a system-wide instance started with `-S` of this
  /// path listens.
  static let systemSocket = "/run/speech-dispatcher/speechd.sock"

  /// Takes a request on the pipeline's queue: one hop, nothing waited for.
  func handle(_ request: SpeechRequest) {
    let loop = eventLoop()
    loop.execute { [self] in
      let path = request.speech.socket ?? Self.defaultSocket(environment: environment)
      let connection: SpeechConnection
      if let existing = connections[request.window] {
        connection = existing
        if existing.settings != request.speech || existing.path != path { existing.update(request.speech, path: path) }
      } else {
        connection = SpeechConnection(
          window: request.window, settings: request.speech, path: path, loop: loop, logger: logger, counts: counts)
        connections[request.window] = connection
      }
      connection.handle(request.kind)
    }
  }

  /// Each window that has spoken, by id, with its counts now; never waits on the speech thread.
  func snapshot() -> [(window: String, counts: SpeechCounts)] {
    counts.withLockedValue { $0.map { ($0.key, $0.value) } }.sorted { $0.window < $1.window }
  }

  private func eventLoop() -> EventLoop {
    group.withLockedValue { group in
      if let group { return group.next() }
      let made = MultiThreadedEventLoopGroup(numberOfThreads: 1)
      group = made
      return made.next()
    }
  }
}
