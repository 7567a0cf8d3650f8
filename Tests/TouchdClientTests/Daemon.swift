import Foundation
import TouchdTestKit

@testable import TouchdClient

#if canImport(Glibc)
  import Glibc
#endif

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The tests' scene, shared with the Python and JavaScript clients' tests.
let testScene: String = {
  (try? String(contentsOf: TestPaths.repositoryRoot.appendingPathComponent("clients/test-scene.yaml"), encoding: .utf8))
    ?? ""
}()

enum Spot {
  static let door = FingerScript.Point(x: 300, y: 250)
  static let lamp = FingerScript.Point(x: 1200, y: 250)
  static let pad = FingerScript.Point(x: 500, y: 800)
}

/// A tap on door, on lamp, then on pad, `gap` seconds apart. Through the test scene it publishes
/// 6 messages: door touches began and cancelled (the tap recognizer takes the touch), open-door,
/// toggle-lamp, pad touches began and ended.
func tapsScript(gap: Double = 0.5) -> FingerScript {
  let script = FingerScript(start: 10)
  script.tap(at: Spot.door)
  script.wait(gap)
  script.tap(at: Spot.lamp)
  script.wait(gap)
  script.tap(at: Spot.pad)
  script.wait(gap)
  return script
}

/// (type, view, phase or action) of the 6 messages of ``tapsScript(gap:)``, in seq order.
let tapsMessages = [
  "touches door began", "touches door cancelled", "action door open-door", "action lamp toggle-lamp",
  "touches pad began", "touches pad ended",
]

/// (type, view, phase or action) of a pipeline message.
func kind(_ message: TouchdMessage?) -> String {
  switch message {
  case .action(let m): "action \(m.view) \(m.action)"
  case .touches(let m): "touches \(m.view) \(m.phase)"
  case let other?: other.type
  case nil: "nil"
  }
}

/// A directory for one test's socket, scene, recordings and logs (short: a socket path has at
/// most 107 bytes).
final class Workspace: Sendable {
  let directory: URL
  var socket: String { directory.appendingPathComponent("s").path }
  var scene: String { directory.appendingPathComponent("scene.yaml").path }

  init(_ name: String = #function) throws {
    Self.removeThoseOfEndedRuns()
    let clean = name.filter { $0.isLetter }.prefix(12)
    directory = URL(fileURLWithPath: "/tmp/tdc-\(getpid())-\(clean)")
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try testScene.write(toFile: scene, atomically: true, encoding: .utf8)
  }

  /// Removes the workspaces of test runs whose process has ended (`/tmp/tdc-PID-NAME`).
  private static func removeThoseOfEndedRuns() {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []
    for name in names where name.hasPrefix("tdc-") {
      guard let pid = Int32(name.dropFirst(4).prefix { $0.isNumber }), pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      try? FileManager.default.removeItem(atPath: "/tmp/" + name)
    }
  }

  /// Writes `script`'s evemu recording; returns its path.
  func recording(_ script: FingerScript, name: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    try script.evemuText.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// Starts touchd on this workspace's socket: replaying `script` (after `delay` seconds) if given.
  func start(
    _ script: FingerScript? = nil, delay: Double = 1, loop: Bool = false, exitAfterReplay: Bool = false,
    speed: Double? = nil, extra: [String] = []
  ) throws -> Daemon {
    var arguments = ["--scene", scene, "--socket", socket]
    if let script {
      let name = "input-\(UInt64(Date().timeIntervalSince1970 * 1e6)).evemu"
      arguments += ["--replay", try recording(script, name: name), "--replay-delay", "\(delay)"]
      if loop { arguments.append("--loop") }
      if exitAfterReplay { arguments.append("--exit-after-replay") }
      if let speed { arguments += ["--speed", "\(speed)"] }
    }
    return try Daemon(arguments: arguments + extra, socket: socket, directory: directory)
  }
}

/// A running touchd, killed when released if still running.
final class Daemon: @unchecked Sendable {
  // @unchecked: `Process` is not Sendable; a test uses its daemon from one task at a time.
  let process = Process()
  let logURL: URL

  init(arguments: [String], socket: String, directory: URL) throws {
    let binary = try TestPaths.builtProduct("touchd").path
    logURL = directory.appendingPathComponent("touchd-\(UInt64(Date().timeIntervalSince1970 * 1e6)).log")
    _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.standardError = try FileHandle(forWritingTo: logURL)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    // Wait until it listens, without connecting (a test connection would count in its status):
    // it logs `touchd ready` once its socket listens. (/proc/net/unix is no good: other suites
    // running beside this one hold thousands of sockets, and reading it took seconds.)
    let deadline = Date().addingTimeInterval(20)
    while !(FileManager.default.fileExists(atPath: socket) && log.contains("touchd ready")) {
      guard process.isRunning, Date() < deadline else {
        throw TestFailure("touchd did not listen on \(socket); log:\n\(log)")
      }
      usleep(5000)
    }
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

  /// Sends `signal` and waits for the exit; its status, nil if still running after 10 s.
  @discardableResult
  func stop(_ signal: Int32 = SIGTERM) async throws -> Int32? {
    if process.isRunning { kill(process.processIdentifier, signal) }
    for _ in 0..<1000 {
      if !process.isRunning { return process.terminationStatus }
      try await Task.sleep(for: .milliseconds(10))
    }
    return nil
  }
}

/// Fast reconnection for the tests.
let fast = TouchdClient.ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))

extension TouchdClient {
  /// The next event, failing after `seconds`.
  func next(within seconds: Double = 10) async throws -> TouchdEvent {
    let messages = self.messages
    let event = try await withThrowingTaskGroup(of: TouchdEvent?.self) { group in
      group.addTask {
        var iterator = messages.makeAsyncIterator()
        return try await iterator.next()
      }
      group.addTask {
        try await Task.sleep(for: .seconds(seconds))
        throw TestFailure("no event within \(seconds) s")
      }
      defer { group.cancelAll() }
      return try await group.next()!
    }
    guard let event else { throw TestFailure("the messages ended") }
    return event
  }

  /// The next message (events other than messages are a failure).
  func nextMessage(within seconds: Double = 10) async throws -> TouchdMessage {
    let event = try await next(within: seconds)
    guard case .message(let message) = event else { throw TestFailure("expected a message, got \(event)") }
    return message
  }

  /// Messages up to and including the first one `last` accepts.
  func messages(
    until last: (TouchdMessage) -> Bool, within seconds: Double = 15
  ) async throws -> [TouchdMessage] {
    var out: [TouchdMessage] = []
    while true {
      let message = try await nextMessage(within: seconds)
      out.append(message)
      if last(message) { return out }
    }
  }

  /// The messages read before the next reconnected event (they arrived before the connection
  /// dropped), and the event; a missed event before it is a failure.
  func untilReconnected(within seconds: Double = 10) async throws -> ([TouchdMessage], Reconnected) {
    var queued: [TouchdMessage] = []
    while true {
      switch try await next(within: seconds) {
      case .message(let message): queued.append(message)
      case .reconnected(let event): return (queued, event)
      case .missed(let missed): throw TestFailure("missed before reconnected: \(missed)")
      }
    }
  }

  /// Messages up to and including the shutdown notice.
  func messagesUntilShutdown(within seconds: Double = 15) async throws -> [TouchdMessage] {
    try await messages(until: { $0 == .shutdown }, within: seconds)
  }
}

/// The touches messages and actions of `messages`, as ``kind(_:)`` strings.
func kinds(_ messages: [TouchdMessage]) -> [String] {
  messages.filter { $0.seq != nil }.map(kind)
}
