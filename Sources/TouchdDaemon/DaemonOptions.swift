import Logging
import NIOCore
import TouchdScene

/// How `touchd` runs: the command line, validated.
public struct DaemonOptions: Sendable, Equatable {
  /// The scene file (YAML).
  public var scenePath: String
  /// Where to listen when systemd did not pass a socket.
  public var socketPath = "/run/touchd/touchd.sock"
  /// Group of the socket file touchd creates (nil: the daemon's).
  public var socketGroup: String?
  /// Users and groups allowed to connect (empty: whoever can open the socket).
  public var allowUsers: [String] = []
  public var allowGroups: [String] = []
  /// Unsent bytes a client may have before it counts as stalled.
  public var clientBufferBytes = 256 * 1024
  /// Clients connected at once; one more is refused with an error line. 128: a kiosk has a few
  /// clients (its app, a logger, `touchctl`), and 128 of them at their worst (each with a full
  /// send buffer and a partial line of the maximum length) hold about 40 MiB, with file
  /// descriptors well under the usual soft limit of 1024.
  public var maximumClients = 128
  /// Clients of one user connected at once (``SocketServer/Configuration/maximumClientsPerUser``).
  public var maximumClientsPerUser = SocketServer.Configuration.defaultMaximumClientsPerUser
  /// Seconds a client may stay without sending a complete line
  /// (``SocketServer/Configuration/firstLineTimeout``).
  public var firstLineTimeout = SocketServer.Configuration.defaultFirstLineTimeout.seconds
  /// Seconds a line may stay incomplete (``SocketServer/Configuration/partialLineTimeout``).
  public var partialLineTimeout = SocketServer.Configuration.defaultPartialLineTimeout.seconds
  /// The longest command line a client may send, in bytes without its newline (the server's
  /// default: room for a `scene` command with the largest scene).
  public var maximumLineLength = SocketServer.Configuration.defaultMaximumLineLength
  /// Feed these recordings in real time instead of reading devices: one file per device (evemu),
  /// or a `libinput record` file of one or several devices; all merged by time.
  public var replayPaths: [String] = []
  /// The first of ``replayPaths`` (setting it makes it the only one).
  public var replayPath: String? {
    get { replayPaths.first }
    set { replayPaths = newValue.map { [$0] } ?? [] }
  }
  /// The `.desc` of a split evemu recording (with one `--replay`).
  public var replayDescriptionPath: String?
  /// Start the recording again when it ends.
  public var replayLoop = false
  /// Replay this many times as fast as real time.
  public var replaySpeed = 1.0
  /// Seconds to wait after start before the replay begins (lets clients connect first).
  public var replayDelay = 0.0
  /// Hold the replay until a client sends `subscribe`; ``replayDelay`` then counts from its reply.
  public var replayWaitsForSubscriber = false
  /// Stop the daemon once the recording (not looping) has been played and its timers ran out.
  public var exitAfterReplay = false
  /// The least severe level logged.
  public var logLevel = Logger.Level.info
  /// Where the WebSocket endpoint listens (`HOST:PORT`); nil: only if systemd passes a TCP socket.
  /// Serve the metrics over HTTP at `HOST:PORT` (loopback), for Prometheus to scrape.
  public var metricsAddress: String?
  public var webSocketAddress: String?
  /// Pages allowed on the WebSocket endpoint, as given (`--websocket-origin`).
  public var webSocketOrigins: [String] = []
  /// Whether the WebSocket endpoint may listen on an address other than loopback.
  public var webSocketAllowRemote = false
  /// The uinput node the virtual touchscreens of `forward:` windows are created through.
  public var uinputPath = "/dev/uinput"

  public init(scenePath: String) { self.scenePath = scenePath }
}

// MARK: The command line

extension DaemonOptions {
  /// A command line `touchd` cannot run with; ``description`` says what is wrong and where.
  public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// What a command line asks for.
  public enum Invocation: Equatable, Sendable {
    case run(DaemonOptions)
    /// `-h` or `--help`: print ``DaemonOptions/help``.
    case help
    /// `--version`: print ``TouchdVersion/current``.
    case version
  }

  /// One option of the command line.
  private struct Option: Sendable {
    enum Kind: Sendable {
      case flag(@Sendable (inout DaemonOptions) -> Void)
      case value(String, @Sendable (inout DaemonOptions, String) throws(UsageError) -> Void)
    }
    let name: String
    let kind: Kind
    let help: String
  }

  /// Every option, in the order `--help` lists them.
  private static let options: [Option] = [
    Option(name: "scene", kind: .value("FILE") { $0.scenePath = $1 }, help: "The scene file (YAML). Required."),
    Option(
      name: "socket", kind: .value("PATH") { $0.socketPath = $1 },
      help: "The socket to listen on, unless systemd passes one (default: /run/touchd/touchd.sock)."),
    Option(
      name: "socket-group", kind: .value("GROUP") { $0.socketGroup = $1 },
      help: "Group of the socket file (members may connect)."),
    Option(
      name: "allow-user", kind: .value("USER") { $0.allowUsers.append($1) },
      help: "A user allowed to connect (repeatable; default: whoever can open the socket)."),
    Option(
      name: "allow-group", kind: .value("GROUP") { $0.allowGroups.append($1) },
      help: "A group allowed to connect (repeatable)."),
    Option(
      name: "client-buffer",
      kind: .value("BYTES") { (o, text) throws(UsageError) in o.clientBufferBytes = try integer(text, "client-buffer")
      },
      help: "Unsent bytes a client may queue before it is disconnected or skips (default: 262144)."),
    Option(
      name: "max-clients",
      kind: .value("N") { (o, text) throws(UsageError) in o.maximumClients = try integer(text, "max-clients") },
      help:
        "Clients connected at once; one more gets a 'too many clients' error and is closed (default: 128; "
        + "touchd raises its open-file limit to the hard limit to fit them)."),
    Option(
      name: "max-clients-per-user",
      kind: .value("N") { (o, text) throws(UsageError) in
        o.maximumClientsPerUser = try integer(text, "max-clients-per-user")
      },
      help:
        "Clients of one user (uid; all WebSocket clients count as one user) connected at once; one more gets "
        + "a 'too many clients of uid N' error and is closed (default: 16)."),
    Option(
      name: "first-line-timeout",
      kind: .value("SECONDS") { (o, text) throws(UsageError) in
        o.firstLineTimeout = try number(text, "first-line-timeout")
      },
      help:
        "Seconds a client may stay connected without sending a complete line (a listener sends subscribe); "
        + "then it gets an error and is closed (default: 30)."),
    Option(
      name: "partial-line-timeout",
      kind: .value("SECONDS") { (o, text) throws(UsageError) in
        o.partialLineTimeout = try number(text, "partial-line-timeout")
      },
      help: "Seconds a line may stay incomplete; then the client gets an error and is closed (default: 10)."),
    Option(
      name: "max-line-length",
      kind: .value("BYTES") { (o, text) throws(UsageError) in
        o.maximumLineLength = try integer(text, "max-line-length")
      },
      help:
        "The longest command line a client may send; a longer one is refused and the connection closed "
        + "(default: 2162688: a scene command with the largest scene, 2 MiB, fits)."),
    Option(
      name: "metrics-address",
      kind: .value("HOST:PORT") { (o, text) throws(UsageError) in
        guard WebSocketConfiguration.parse(text) != nil else {
          throw UsageError(description: "--metrics-address '\(text)' is not HOST:PORT (127.0.0.1:9765, [::1]:9765)")
        }
        o.metricsAddress = text
      },
      help:
        "Also serve the metrics over HTTP here, GET /metrics in Prometheus' text format (off by default; loopback "
        + "only; 127.0.0.1:9765 is the documented port)."),
    Option(
      name: "websocket",
      kind: .value("HOST:PORT") { (o, text) throws(UsageError) in
        guard WebSocketConfiguration.parse(text) != nil else {
          throw UsageError(
            description: "--websocket '\(text)' is not HOST:PORT (127.0.0.1:8765, [::1]:8765, localhost:8765)")
        }
        o.webSocketAddress = text
      },
      help:
        "Also serve the protocol over WebSocket here, for browser pages (off by default; loopback only unless "
        + "--websocket-allow-remote; systemd's touchd-websocket.socket passes one instead)."),
    Option(
      name: "websocket-origin",
      kind: .value("ORIGIN") { (o, text) throws(UsageError) in
        do throws(OriginError) {
          _ = try OriginPolicy.normalize(text)
        } catch {
          throw UsageError(description: error.description)
        }
        o.webSocketOrigins.append(text)
      },
      help:
        "A page origin (scheme://host[:port]) allowed on the WebSocket endpoint (repeatable; * for any; "
        + "default: none, only programs, which send no Origin)."),
    Option(
      name: "websocket-allow-remote", kind: .flag { $0.webSocketAllowRemote = true },
      help: "Let --websocket (or systemd's socket) listen on an address other than loopback."),
    Option(
      name: "uinput", kind: .value("PATH") { $0.uinputPath = $1 },
      help:
        "The uinput node for the virtual touchscreens of windows with forward: (default: /dev/uinput)."),
    Option(
      name: "replay", kind: .value("RECORDING") { $0.replayPaths.append($1) },
      help:
        "Feed this recording (evemu or libinput record) in real time instead of devices (repeatable: a "
        + "touchscreen's and a keypad's recordings replay together, merged by time)."),
    Option(
      name: "desc", kind: .value("FILE") { $0.replayDescriptionPath = $1 },
      help: "The .desc of a split evemu recording."),
    Option(
      name: "loop", kind: .flag { $0.replayLoop = true },
      help:
        "Play the recording again and again, each pass 1 s (of the recording's time) after the last, so "
        + "that taps of two passes do not join into one double tap."),
    Option(
      name: "speed",
      kind: .value("FACTOR") { (o, text) throws(UsageError) in o.replaySpeed = try number(text, "speed") },
      help: "Replay speed (2 = twice as fast; default: 1)."),
    Option(
      name: "replay-delay",
      kind: .value("SECONDS") { (o, text) throws(UsageError) in o.replayDelay = try number(text, "replay-delay") },
      help: "Seconds to wait before the replay starts (lets clients connect first)."),
    Option(
      name: "wait-for-subscriber", kind: .flag { $0.replayWaitsForSubscriber = true },
      help:
        "Hold the replay until a client sends subscribe; --replay-delay then counts from its reply."),
    Option(
      name: "exit-after-replay", kind: .flag { $0.exitAfterReplay = true },
      help: "Exit once the recording has been played (not with --loop)."),
    Option(
      name: "log-level",
      kind: .value("LEVEL") { (o, text) throws(UsageError) in
        guard let level = Logger.Level(rawValue: text) else {
          throw UsageError(
            description: "unknown --log-level '\(text)' (trace, debug, info, notice, warning, error, critical)")
        }
        o.logLevel = level
      },
      help: "Log level: trace, debug, info, notice, warning, error, critical (default: info)."),
  ]

  /// `touchd --help`.
  public static var help: String {
    var text = """
      Usage: touchd --scene FILE [options]

      Touchscreen gesture daemon: UIKit-style touch delivery, actions as JSON lines on a Unix socket.

      Reads every touchscreen the scene's windows claim, and the key devices their `keys.devices`
      name (udev discovery and hotplug), runs touches and presses through the scene's views and
      gesture recognizers, and publishes actions to the clients of the socket (docs/protocol.md).
      SIGHUP reloads the scene; a scene that fails validation is rejected and the old one kept.
      SIGTERM and SIGINT stop cleanly.

      Options:

      """
    for option in options {
      var left = "  --" + option.name
      if case .value(let placeholder, _) = option.kind { left += " " + placeholder }
      text += helpLine(left, option.help)
    }
    text += helpLine("  --version", "Print touchd's version.")
    text += helpLine("  -h, --help", "Show this help.")
    return text
  }

  /// An option and its help, wrapped at 100 columns with the help in a column of its own.
  private static func helpLine(_ left: String, _ help: String) -> String {
    let column = 28
    var lines: [String] = []
    var line = ""
    for word in help.split(separator: " ") {
      if !line.isEmpty && column + line.count + 1 + word.count > 100 {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(line)
    let first =
      left.count < column
      ? left + String(repeating: " ", count: column - left.count)
      : left + "\n"
        + String(repeating: " ", count: column)
    return first + lines.joined(separator: "\n" + String(repeating: " ", count: column)) + "\n"
  }

  /// Parses `touchd`'s arguments (without the program name): `--name value`, `--name=value`
  /// and flags, in any order; the last of a repeated single-value option wins.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var options = DaemonOptions(scenePath: "")
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "-h" || argument == "--help" { return .help }
      if argument == "--version" { return .version }
      guard argument.hasPrefix("--"), argument.count > 2 else {
        throw UsageError(description: "unexpected argument '\(argument)' (options start with --)")
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let option = Self.options.first(where: { $0.name == name }) else {
        let hint = closestMatch(to: name, in: Self.options.map(\.name)).map { " (did you mean '--\($0)'?)" } ?? ""
        throw UsageError(description: "unknown option '--\(name)'\(hint)")
      }
      switch option.kind {
      case .flag(let set):
        if inlineValue != nil { throw UsageError(description: "--\(name) takes no value") }
        set(&options)
      case .value(let placeholder, let set):
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count {
          value = arguments[index]
          index += 1
        } else {
          throw UsageError(description: "--\(name) needs a value (\(placeholder))")
        }
        try set(&options, value)
      }
    }
    guard !options.scenePath.isEmpty else { throw UsageError(description: "missing --scene FILE") }
    try options.validate()
    return .run(options)
  }

  /// The rules between options.
  func validate() throws(UsageError) {
    if replaySpeed <= 0 { throw UsageError(description: "--speed must be positive") }
    if replayDelay < 0 { throw UsageError(description: "--replay-delay must not be negative") }
    let replayOnly =
      replayLoop || exitAfterReplay || replayDescriptionPath != nil || replaySpeed != 1 || replayDelay != 0
      || replayWaitsForSubscriber
    if replayOnly && replayPaths.isEmpty {
      throw UsageError(
        description:
          "--loop, --speed, --desc, --replay-delay, --wait-for-subscriber and --exit-after-replay go with --replay")
    }
    if replayDescriptionPath != nil && replayPaths.count > 1 {
      throw UsageError(description: "--desc describes one recording: give a single --replay with it")
    }
    if replayLoop && exitAfterReplay {
      throw UsageError(description: "--loop never finishes: drop --exit-after-replay")
    }
    if clientBufferBytes < 4096 { throw UsageError(description: "--client-buffer must be at least 4096 bytes") }
    if !(1...1_000_000).contains(maximumClients) {
      throw UsageError(description: "--max-clients must be between 1 and 1000000")
    }
    if !(1...1_000_000).contains(maximumClientsPerUser) {
      throw UsageError(description: "--max-clients-per-user must be between 1 and 1000000")
    }
    for (name, value) in [("first-line-timeout", firstLineTimeout), ("partial-line-timeout", partialLineTimeout)]
    where !(0.001...86_400).contains(value) {
      throw UsageError(description: "--\(name) must be between 0.001 and 86400 seconds")
    }
    if !(1024...(64 << 20)).contains(maximumLineLength) {
      throw UsageError(description: "--max-line-length must be between 1024 and 67108864 bytes")
    }
  }

  private static func integer(_ text: String, _ name: String) throws(UsageError) -> Int {
    guard let value = Int(text) else {
      throw UsageError(description: "--\(name) expects a whole number, got '\(text)'")
    }
    return value
  }

  private static func number(_ text: String, _ name: String) throws(UsageError) -> Double {
    guard let value = Double(text), value.isFinite else {
      throw UsageError(description: "--\(name) expects a number, got '\(text)'")
    }
    return value
  }
}
