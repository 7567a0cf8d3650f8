import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing
import TouchdScene

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// SSIP as touchd writes and reads it (the `ssip.info` manual), and a connection's queue against a
/// speech-dispatcher that answers late or never.
@Suite struct SSIPTests {
  @Test func aSpeaksTextIsCRLFLinesWithLeadingDotsDoubledAndEndsWithADotLine() {
    #expect(SSIP.textBlock("Buy ticket, button.") == "Buy ticket, button.\r\n.")
    #expect(SSIP.textBlock(".5 left\nthen\r\n..more") == "..5 left\r\nthen\r\n...more\r\n.")
    #expect(SSIP.textBlock("") == "\r\n.")
  }

  @Test func repliesAreTheirCodeAndWhetherTheyAreTheLastLine() {
    #expect(SSIP.reply("225-12")! == (225, false))
    #expect(SSIP.reply("225 OK MESSAGE QUEUED")! == (225, true))
    #expect(SSIP.reply("230 OK RECEIVING DATA")! == (230, true))
    #expect(SSIP.reply("409 ERR RATE TOO HIGH")! == (409, true))
    #expect(SSIP.reply("200")! == (200, true))
    #expect(SSIP.reply("OK") == nil && SSIP.reply("2x5 no") == nil && SSIP.reply("") == nil)
    #expect(SSIP.isSuccess(225) && !SSIP.isSuccess(409) && !SSIP.isSuccess(300))
  }

  @Test func theClientNameKeepsOnlyWhatSSIPAllowsInAComponent() {
    #expect(SSIP.clientName(window: "main") == "SET self CLIENT_NAME touchd:touchd:main")
    #expect(SSIP.clientName(window: "left-1_a") == "SET self CLIENT_NAME touchd:touchd:left-1_a")
    #expect(SSIP.clientName(window: "kiosk:two words/é") == "SET self CLIENT_NAME touchd:touchd:kiosk_two_words__")
  }

  @Test func theBackoffDoublesFromAQuarterSecondToEightSeconds() {
    #expect(
      (1...8).map { SpeechConnection.retryDelay(afterFailures: $0).nanoseconds / 1_000_000 } == [
        250, 500, 1000, 2000, 4000, 8000, 8000, 8000,
      ])
  }

  /// A speech-dispatcher that takes the connection and never answers: the first command waits, an
  /// interrupting utterance drops the ones queued behind it (counted), and after the reply timeout
  /// the connection is closed and tried again.
  @Test func aServerThatNeverAnswersHoldsOneCommandAndInterruptionsDropTheQueue() throws {
    let path = "/tmp/touchd-ssip-\(getpid()).sock"
    unlink(path)
    let server = try SilentServer(path: path)
    defer {
      server.stop()
      unlink(path)
    }
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    defer { try? group.syncShutdownGracefully() }
    let loop = group.next()
    let counts = NIOLockedValueBox<[String: SpeechCounts]>([:])
    let connection = SpeechConnection(
      window: "main", settings: Scene.Speech(), path: path, loop: loop, logger: Logger(label: "test"), counts: counts)
    try loop.submit {
      connection.handle(.say(text: "One.", hint: nil, interrupting: true))
      connection.handle(.say(text: "Two.", hint: "Hint.", interrupting: true))
      connection.handle(.say(text: "Queued.", hint: nil, interrupting: false))
      connection.handle(.say(text: "Three.", hint: nil, interrupting: true))
    }.wait()
    // The connection's first line is out; everything else waits for its reply, which never comes.
    #expect(server.waitForLines(1))
    usleep(300_000)
    #expect(server.lines == ["SET self CLIENT_NAME touchd:touchd:main"])
    // One, Two, Hint and Queued were dropped by the interruptions; Three waits.
    #expect(
      counts.withLockedValue { $0["main"].map { ($0.said, $0.dropped, $0.connected) } } ?? (-1, -1, false) == (
        0, 4, true
      ))
    // The reply timeout (5 s) closes it: Three goes with it, and touchd connects again.
    #expect(server.waitForConnections(2, timeout: 10))
    #expect(counts.withLockedValue { $0["main"]?.dropped } == 5)
  }
}

/// A Unix socket server that accepts connections and reads their lines, and never answers.
final class SilentServer: @unchecked Sendable {
  private let fd: Int32
  private let state = NIOLockedValueBox<(lines: [String], connections: Int, stopped: Bool)>(([], 0, false))
  private var thread: Thread?

  init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 4) == 0 else { throw DaemonTestError("cannot listen on \(path)") }
    let thread = Thread { [self] in serve() }
    self.thread = thread
    thread.start()
  }

  var lines: [String] { state.withLockedValue { $0.lines } }

  func waitForLines(_ count: Int, timeout: Double = 5) -> Bool {
    wait(timeout) { $0.lines.count >= count }
  }

  func waitForConnections(_ count: Int, timeout: Double) -> Bool {
    wait(timeout) { $0.connections >= count }
  }

  func stop() {
    state.withLockedValue { $0.stopped = true }
    shutdown(fd, Int32(SHUT_RDWR))
    close(fd)
  }

  private func wait(_ timeout: Double, _ done: ((lines: [String], connections: Int, stopped: Bool)) -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if state.withLockedValue({ done($0) }) { return true }
      usleep(20_000)
    }
    return false
  }

  private func serve() {
    while !state.withLockedValue({ $0.stopped }) {
      let client = accept(fd, nil, nil)
      guard client >= 0 else { return }
      state.withLockedValue { $0.connections += 1 }
      let reader = Thread { [self] in
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pending = ""
        while true {
          let n = read(client, &buffer, buffer.count)
          guard n > 0 else { break }
          pending += String(decoding: buffer[0..<n], as: UTF8.self)
          while let end = pending.range(of: "\r\n") {
            let line = String(pending[..<end.lowerBound])
            pending = String(pending[end.upperBound...])
            state.withLockedValue { $0.lines.append(line) }
          }
        }
        close(client)
      }
      reader.start()
    }
  }
}
