import CTouchd
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Tells systemd about the daemon's state (`sd_notify`): READY, STATUS, RELOADING, STOPPING and the
/// watchdog keep-alive. Without `NOTIFY_SOCKET` (not under systemd) every call does nothing.
public struct SystemdNotifier: Sendable {
  public init() {}

  /// Whether systemd listens (NOTIFY_SOCKET is set).
  public var isActive: Bool { getenv("NOTIFY_SOCKET") != nil }

  public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
  public func status(_ text: String) { send("STATUS=\(text)") }
  public func reloading() { send("RELOADING=1") }
  public func reloaded(status: String) { send("READY=1\nSTATUS=\(status)") }
  public func stopping() { send("STOPPING=1") }
  public func watchdog() { send("WATCHDOG=1") }

  /// The watchdog interval systemd asks for (`WatchdogSec=`), or nil when the watchdog is off.
  public var watchdogInterval: Double? {
    var usec: UInt64 = 0
    guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
    return Double(usec) / 1e6
  }

  private func send(_ state: String) {
    guard isActive else { return }
    _ = ctouchd_notify(state)
  }

  /// Listening sockets passed by systemd socket activation (`LISTEN_FDS`), from fd 3 on.
  public static func listenDescriptors() -> [CInt] {
    let n = sd_listen_fds(1)
    guard n > 0 else { return [] }
    return (0..<n).map { SD_LISTEN_FDS_START + $0 }
  }
}
