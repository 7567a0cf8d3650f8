import ArgumentParser
import Dispatch
import Logging
import TouchdDaemon
import TouchdScene

#if canImport(Glibc)
  import Glibc
#endif

@main
struct Touchd: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "touchd",
    abstract: "Touchscreen gesture daemon: UIKit-style touch delivery, actions as JSON lines on a Unix socket.",
    discussion: """
      Reads every touchscreen the scene's windows claim (udev discovery and hotplug), runs touches
      through the scene's views and gesture recognizers, and publishes actions to the clients of
      the socket (docs/protocol.md). SIGHUP reloads the scene; a scene that fails validation is
      rejected and the old one kept. SIGTERM and SIGINT stop cleanly.
      """)

  @Option(help: "The scene file (YAML).") var scene: String
  @Option(help: "The socket to listen on, unless systemd passes one.") var socket = "/run/touchd/touchd.sock"
  @Option(help: "Group of the socket file (members may connect).") var socketGroup: String?
  @Option(help: "A user allowed to connect (repeatable; default: whoever can open the socket).")
  var allowUser: [String] = []
  @Option(help: "A group allowed to connect (repeatable).") var allowGroup: [String] = []
  @Option(help: "Unsent bytes a client may queue before it is disconnected (or skips).")
  var clientBuffer = 256 * 1024
  @Option(help: "Feed this recording (evemu or libinput record) in real time instead of devices.")
  var replay: String?
  @Option(help: "The .desc of a split evemu recording.") var desc: String?
  @Flag(help: "Play the recording again and again.") var loop = false
  @Option(help: "Replay speed (2 = twice as fast).") var speed = 1.0
  @Option(help: "Seconds to wait before the replay starts (lets clients connect first).")
  var replayDelay = 0.0
  @Flag(help: "Exit once the recording has been played (not with --loop).") var exitAfterReplay = false
  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"

  func validate() throws {
    if speed <= 0 { throw ValidationError("--speed must be positive") }
    if replayDelay < 0 { throw ValidationError("--replay-delay must not be negative") }
    if (loop || exitAfterReplay || desc != nil || speed != 1 || replayDelay != 0) && replay == nil {
      throw ValidationError("--loop, --speed, --desc, --replay-delay and --exit-after-replay go with --replay")
    }
    if loop && exitAfterReplay { throw ValidationError("--loop never finishes: drop --exit-after-replay") }
    if clientBuffer < 4096 { throw ValidationError("--client-buffer must be at least 4096 bytes") }
    guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
  }

  func run() throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = JournalLogHandler(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "touchd")
    var options = DaemonOptions(scenePath: scene)
    options.socketPath = socket
    options.socketGroup = socketGroup
    options.allowUsers = allowUser
    options.allowGroups = allowGroup
    options.clientBufferBytes = clientBuffer
    options.replayPath = replay
    options.replayDescriptionPath = desc
    options.replayLoop = loop
    options.replaySpeed = speed
    options.exitAfterReplay = exitAfterReplay
    options.replayDelay = replayDelay
    let daemon: Daemon
    do {
      daemon = try Daemon(options: options, logger: logger)
    } catch {
      for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
      throw ExitCode(1)
    }
    do {
      try daemon.start()
    } catch {
      logger.critical("cannot start", metadata: ["error": "\(error)"])
      throw ExitCode(1)
    }
    dispatchMain()
  }
}
