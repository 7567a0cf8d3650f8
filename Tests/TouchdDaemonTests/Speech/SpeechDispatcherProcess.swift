import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real speech-dispatcher (Debian's, with its espeak-ng module) for the speech tests: its own
/// configuration, socket and log in a scratch directory, audio to libao's null driver, and every
/// line a client sends in its log (LogLevel 5), which the tests read back.
final class SpeechDispatcherProcess: @unchecked Sendable {
  /// Installed by scripts/setup.sh (Debian's speech-dispatcher and speech-dispatcher-espeak-ng).
  static let binary = "/usr/bin/speech-dispatcher"

  let directory: URL
  let socket: String
  private(set) var process: Process?
  private var runs = 0

  init(directory: URL) throws {
    guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
      throw DaemonTestError(
        "\(Self.binary) is missing: scripts/setup.sh installs speech-dispatcher and speech-dispatcher-espeak-ng")
    }
    self.directory = directory
    socket = directory.appendingPathComponent("speechd.sock").path
    let config = directory.appendingPathComponent("speechd-conf")
    let modules = config.appendingPathComponent("modules")
    try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("speechd-home"), withIntermediateDirectories: true)
    try """
    LogLevel 5
    AudioOutputMethod "libao"
    AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
    DefaultModule espeak-ng
    DefaultLanguage "en"
    """.write(to: config.appendingPathComponent("speechd.conf"), atomically: true, encoding: .utf8)
    try "".write(to: modules.appendingPathComponent("espeak-ng.conf"), atomically: true, encoding: .utf8)
    // libao's null driver: the synthesized audio goes nowhere, on a machine with no sound card.
    try "default_driver=null\n".write(
      to: directory.appendingPathComponent("speechd-home/.libao"), atomically: true, encoding: .utf8)
  }

  deinit { stop() }

  /// The log of the current (or last) run.
  var logDirectory: URL { directory.appendingPathComponent("speechd-log-\(runs)") }

  /// Starts it (again: a new log each run) and waits until its socket takes connections.
  func start() throws {
    runs += 1
    unlink(socket)
    try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: Self.binary)
    p.arguments = [
      "-s", "-t", "0", "-C", directory.appendingPathComponent("speechd-conf").path, "-S", socket,
      "-L", logDirectory.path, "-P", directory.appendingPathComponent("speechd.pid").path,
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = directory.appendingPathComponent("speechd-home").path
    environment["XDG_RUNTIME_DIR"] = directory.path
    p.environment = environment
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    process = p
    let deadline = Date().addingTimeInterval(20)
    while (try? LineClient(path: socket)) == nil {
      guard p.isRunning, Date() < deadline else {
        throw DaemonTestError("speech-dispatcher did not listen on \(socket); its log: \(log.suffix(2000))")
      }
      usleep(20_000)
    }
  }

  /// Stops it (SIGTERM) and waits for it to exit.
  func stop() {
    guard let p = process, p.isRunning else { return }
    kill(p.processIdentifier, SIGTERM)
    let deadline = Date().addingTimeInterval(10)
    while p.isRunning, Date() < deadline { usleep(20_000) }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
  }

  var log: String {
    (try? String(contentsOf: logDirectory.appendingPathComponent("speech-dispatcher.log"), encoding: .isoLatin1))
      ?? ""
  }

  /// Every line clients sent this run, in order, without its CR LF: the log's `FD:DATA:|line\r\n|
  /// (length)` entries (the line and its CR LF between bars). The test's own probes of the socket
  /// send nothing.
  var received: [String] {
    log.components(separatedBy: ":DATA:|").dropFirst().map { entry in
      entry.components(separatedBy: "\r\n|").first ?? entry
    }
  }

  /// Waits until the lines received hold `line`; false after `timeout` seconds.
  func waitForLine(_ line: String, timeout: Double = 15) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if received.contains(line) { return true }
      usleep(50_000)
    }
    return false
  }
}
