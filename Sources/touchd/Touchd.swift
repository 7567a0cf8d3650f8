import Dispatch
import Logging
import TouchdDaemon
import TouchdInput
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

// The daemon's entry point: the command line (DaemonOptions.parse, hand-written: the daemon keeps
// no argument-parsing library resident), logging, then the daemon on its queues.

/// Exit status for a bad command line (sysexits.h EX_USAGE).
let usageExitCode: Int32 = 64

/// Exit status for a scene that cannot be read or is invalid at start (sysexits.h EX_CONFIG). The
/// unit sets `RestartPreventExitStatus=78`: systemd does not restart a daemon whose configuration
/// must be fixed first.
let configExitCode: Int32 = 78

/// Writes all of `text` to a standard stream (before logging is set up).
func emit(_ text: String, to fd: Int32) {
  var text = text
  text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let rest = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset...]))
      guard case .processed(let n)? = try? SystemCalls.live.write(fd, rest, foreign: true), n > 0 else { return }
      offset += n
    }
  }
}

let invocation: DaemonOptions.Invocation
do {
  invocation = try DaemonOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  emit("touchd: \(error)\nUsage: touchd --scene FILE [options] (touchd --help lists them)\n", to: STDERR_FILENO)
  exit(usageExitCode)
}

switch invocation {
case .help:
  emit(DaemonOptions.help, to: STDOUT_FILENO)
  exit(0)
case .version:
  emit("touchd \(TouchdVersion.current)\n", to: STDOUT_FILENO)
  exit(0)
case .run(let options):
  LoggingSystem.bootstrap { label in
    var handler = JournalLogHandler(label: label)
    handler.logLevel = options.logLevel
    return handler
  }
  let logger = Logger(label: "touchd")
  let daemon: Daemon
  do {
    daemon = try Daemon(options: options, logger: logger)
  } catch {
    for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
    exit(configExitCode)
  }
  do {
    try daemon.start()
  } catch {
    logger.critical("cannot start", metadata: ["error": "\(error)"])
    exit(1)
  }
  dispatchMain()
}
