import Foundation
import Logging
import Testing
import TouchdInput
import TouchdTestKit

@testable import TouchdDaemon

@Suite("touchd's command line")
struct DaemonOptionsTests {
  private func options(_ arguments: [String]) throws -> DaemonOptions {
    guard case .run(let options) = try DaemonOptions.parse(arguments) else {
      Issue.record("expected options, got help")
      return DaemonOptions(scenePath: "")
    }
    return options
  }

  private func usageError(_ arguments: [String]) -> String? {
    do {
      _ = try DaemonOptions.parse(arguments)
      return nil
    } catch {
      return error.description
    }
  }

  @Test("Every option sets its field, as --name value and --name=value")
  func everyOption() throws {
    let o = try options([
      "--scene", "kiosk.yaml", "--socket=/tmp/t.sock", "--socket-group", "kiosk", "--allow-user", "app",
      "--allow-user=root", "--allow-group", "ops", "--client-buffer", "8192", "--max-clients", "1000",
      "--max-line-length=131072", "--replay", "r.evemu", "--desc",
      "r.desc", "--loop", "--speed", "2.5", "--replay-delay=0.5", "--wait-for-subscriber",
      "--log-level", "debug",
    ])
    var expected = DaemonOptions(scenePath: "kiosk.yaml")
    expected.socketPath = "/tmp/t.sock"
    expected.socketGroup = "kiosk"
    expected.allowUsers = ["app", "root"]
    expected.allowGroups = ["ops"]
    expected.clientBufferBytes = 8192
    expected.maximumClients = 1000
    expected.maximumLineLength = 131_072
    expected.replayPath = "r.evemu"
    expected.replayDescriptionPath = "r.desc"
    expected.replayLoop = true
    expected.replaySpeed = 2.5
    expected.replayDelay = 0.5
    expected.replayWaitsForSubscriber = true
    expected.logLevel = .debug
    #expect(o == expected)
  }

  @Test("Defaults: the system socket, info logging, a 256 KiB client buffer, 128 clients, 2 MiB lines, no replay")
  func defaults() throws {
    let o = try options(["--scene", "s.yaml"])
    #expect(o.socketPath == "/run/touchd/touchd.sock")
    #expect(o.logLevel == .info)
    #expect(o.clientBufferBytes == 262_144)
    #expect(o.maximumClients == 128)
    #expect(o.maximumClientsPerUser == 16 && o.firstLineTimeout == 30 && o.partialLineTimeout == 10)
    #expect(o.maximumLineLength == 2_162_688)
    #expect(o.replayPath == nil && !o.replayLoop && o.replaySpeed == 1 && !o.replayWaitsForSubscriber)
    #expect(o.webSocketAddress == nil && o.webSocketOrigins.isEmpty && !o.webSocketAllowRemote)
    #expect(try options(["--replay", "r", "--exit-after-replay", "--scene", "s"]).exitAfterReplay)
  }

  @Test("--version asks for the version, from its one place")
  func version() throws {
    #expect(try DaemonOptions.parse(["--version"]) == .version)
    #expect(try DaemonOptions.parse(["--scene", "s", "--version"]) == .version)
    #expect(DaemonOptions.help.contains("--version"))
    #expect(TouchdVersion.current.split(separator: ".").count == 3)
  }

  static let root = TestPaths.repositoryRoot

  /// The options as --help prints them ("  --name VALUE   help").
  static var helpNames: [String] {
    DaemonOptions.help.split(separator: "\n").compactMap { line -> String? in
      let trimmed = line.drop { $0 == " " }
      guard line.hasPrefix("  --") || line.hasPrefix("  -h"), let name = trimmed.split(separator: " ").first else {
        return nil
      }
      return String(name.filter { $0 != "," })
    }
  }

  @Test("touchd(8) documents every option --help lists, and the version")
  func manualPage() throws {
    let root = Self.root
    let page = try String(contentsOf: root.appendingPathComponent("docs/man/touchd.8"), encoding: .utf8)
    // As roff writes them (\-\-name).
    let names = Self.helpNames
    #expect(names.count == 26, "\(names)")
    for name in names {
      #expect(page.contains(name.replacingOccurrences(of: "-", with: "\\-")), "touchd.8 lacks \(name)")
    }
    for name in ["touchd.8", "touchd.scene.5"] {
      let text = try String(contentsOf: root.appendingPathComponent("docs/man/\(name)"), encoding: .utf8)
      #expect(text.contains("\"touchd \(TouchdVersion.current)\""), "the .TH line of \(name) names the version")
    }
  }

  /// What scripts/install.sh checks when it installs them (the Debian package's build fails
  /// otherwise), here so a new option's completions are not first missed there.
  @Test("the bash, zsh and fish completions offer every option --help lists")
  func completions() throws {
    let dir = Self.root.appendingPathComponent("completions")
    let bash = try String(contentsOf: dir.appendingPathComponent("touchd.bash"), encoding: .utf8)
    let zsh = try String(contentsOf: dir.appendingPathComponent("_touchd"), encoding: .utf8)
    let fish = try String(contentsOf: dir.appendingPathComponent("touchd.fish"), encoding: .utf8)
    let bashWords = Set(bash.split(whereSeparator: { " \n'|)".contains($0) }).map(String.init))
    for name in Self.helpNames where name.hasPrefix("--") {
      #expect(bashWords.contains(name), "touchd.bash lacks \(name)")
      #expect(zsh.contains("\(name)[") || zsh.contains("\(name)}"), "_touchd lacks \(name)")
      #expect(fish.contains("-l \(name.dropFirst(2)) "), "touchd.fish lacks \(name)")
    }
  }

  @Test("-h and --help ask for the help, which lists every option")
  func help() throws {
    #expect(try DaemonOptions.parse(["--help"]) == .help)
    #expect(try DaemonOptions.parse(["--scene", "s", "-h"]) == .help)
    for name in [
      "--scene FILE", "--socket PATH", "--allow-user USER", "--max-clients N", "--max-line-length BYTES", "--loop",
      "--exit-after-replay", "--log-level",
    ] {
      #expect(DaemonOptions.help.contains(name), "\(name)")
    }
    #expect(DaemonOptions.help.split(separator: "\n").allSatisfy { $0.count <= 100 })
  }

  @Test("Bad command lines say what is wrong")
  func errors() {
    #expect(usageError([]) == "missing --scene FILE")
    #expect(usageError(["--scen", "s"]) == "unknown option '--scen' (did you mean '--scene'?)")
    #expect(usageError(["--scene", "s", "--colour"]) == "unknown option '--colour'")
    #expect(usageError(["--scene"]) == "--scene needs a value (FILE)")
    #expect(usageError(["--scene", "s", "extra"]) == "unexpected argument 'extra' (options start with --)")
    #expect(usageError(["--scene", "s", "--loop=yes"]) == "--loop takes no value")
    #expect(
      usageError(["--scene", "s", "--client-buffer", "lots"]) == "--client-buffer expects a whole number, got 'lots'")
    #expect(usageError(["--scene", "s", "--client-buffer", "100"]) == "--client-buffer must be at least 4096 bytes")
    #expect(usageError(["--scene", "s", "--max-clients", "0"]) == "--max-clients must be between 1 and 1000000")
    #expect(
      usageError(["--scene", "s", "--max-clients", "many"]) == "--max-clients expects a whole number, got 'many'")
    #expect(
      usageError(["--scene", "s", "--max-line-length", "100"])
        == "--max-line-length must be between 1024 and 67108864 bytes")
    #expect(usageError(["--scene", "s", "--replay", "r", "--speed", "fast"]) == "--speed expects a number, got 'fast'")
    #expect(usageError(["--scene", "s", "--replay", "r", "--speed", "0"]) == "--speed must be positive")
    #expect(
      usageError(["--scene", "s", "--replay", "r", "--replay-delay", "-1"]) == "--replay-delay must not be negative")
    #expect(
      usageError(["--scene", "s", "--loop"])
        == "--loop, --speed, --desc, --replay-delay, --wait-for-subscriber and --exit-after-replay go with --replay")
    #expect(
      usageError(["--scene", "s", "--wait-for-subscriber"])
        == "--loop, --speed, --desc, --replay-delay, --wait-for-subscriber and --exit-after-replay go with --replay")
    #expect(
      usageError(["--scene", "s", "--replay", "r", "--loop", "--exit-after-replay"])
        == "--loop never finishes: drop --exit-after-replay")
    #expect(
      usageError(["--scene", "s", "--log-level", "loud"])
        == "unknown --log-level 'loud' (trace, debug, info, notice, warning, error, critical)")
  }
}
