import Dispatch
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Tells systemd about the daemon's state: READY, STATUS, RELOADING, STOPPING and the watchdog
/// keep-alive. Without `NOTIFY_SOCKET` (not under systemd) every call does nothing.
///
/// The notification protocol is systemd's documented one (sd_notify(3)): one datagram of
/// newline-separated `KEY=VALUE` lines to the `AF_UNIX` socket named by `NOTIFY_SOCKET` (a leading
/// `@` means the abstract namespace). Speaking it here, instead of linking libsystemd for three
/// calls, keeps libsystemd and its six libraries (compression, crypto) out of the daemon.
public struct SystemdNotifier: Sendable {
  /// The socket notifications go to; nil when not under systemd.
  public let socketPath: String?
  /// `WATCHDOG_USEC` when `WATCHDOG_PID` is unset or names this process.
  private let watchdogMicroseconds: UInt64?

  /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from the environment.
  public init() {
    self.init(
      socketPath: Self.environment("NOTIFY_SOCKET"), watchdogUSec: Self.environment("WATCHDOG_USEC"),
      watchdogPID: Self.environment("WATCHDOG_PID"))
  }

  /// A notifier for the given values of `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID`.
  public init(socketPath: String?, watchdogUSec: String? = nil, watchdogPID: String? = nil) {
    self.socketPath = socketPath.flatMap { $0.isEmpty ? nil : $0 }
    let forThisProcess = watchdogPID.map { Int32($0) == getpid() } ?? true
    watchdogMicroseconds = forThisProcess ? watchdogUSec.flatMap { UInt64($0) }.flatMap { $0 > 0 ? $0 : nil } : nil
  }

  /// Whether systemd listens (NOTIFY_SOCKET is set).
  public var isActive: Bool { socketPath != nil }

  public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
  public func status(_ text: String) { send("STATUS=\(text)") }
  /// `RELOADING=1` with the time the reload began: since systemd 253, `MONOTONIC_USEC=` (CLOCK_MONOTONIC,
  /// µs) goes beside it, so that the service manager can tell one reload cycle from the next
  /// (sd_notify(3), "MONOTONIC_USEC=").
  public func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(MonotonicClock.microseconds())") }
  public func reloaded(status: String) { send("READY=1\nSTATUS=\(status)") }
  public func stopping() { send("STOPPING=1") }
  public func watchdog() { send("WATCHDOG=1") }

  /// The watchdog interval systemd asks for (`WatchdogSec=`), or nil when the watchdog is off.
  public var watchdogInterval: Double? { watchdogMicroseconds.map { Double($0) / 1e6 } }

  /// Sends one notification datagram; false when there is no socket or sending failed (systemd
  /// gone: the daemon carries on, as with sd_notify).
  @discardableResult
  public func send(_ state: String) -> Bool {
    guard let path = socketPath, path.hasPrefix("/") || path.hasPrefix("@"),
      let address = UnixSocketAddress(path)
    else { return false }
    let system = SystemCalls.live
    guard let fd = try? system.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)) else {
      return false
    }
    defer { system.close(fd) }
    let payload = Array(state.utf8)
    let sent = address.withSockaddr { sa, length in
      payload.withUnsafeBytes { bytes in
        try? system.sendTo(fd, bytes, flags: Int32(MSG_NOSIGNAL), address: sa, length: length)
      }
    }
    return sent == .processed(payload.count)
  }

  /// The first file descriptor systemd passes (`SD_LISTEN_FDS_START`).
  public static let firstListenDescriptor: CInt = 3

  /// Listening sockets passed by systemd socket activation, from fd 3 on: `LISTEN_FDS` of them
  /// when `LISTEN_PID` is this process. As sd_listen_fds(1): the descriptors get close-on-exec
  /// and the variables are removed, so that children do not take the sockets for theirs.
  public static func listenDescriptors() -> [ListenedSocket] {
    defer {
      unsetenv("LISTEN_PID")
      unsetenv("LISTEN_FDS")
      unsetenv("LISTEN_FDNAMES")
    }
    let descriptors = listenDescriptors(listenPID: environment("LISTEN_PID"), listenFDs: environment("LISTEN_FDS"))
    let names = listenNames(environment("LISTEN_FDNAMES"), count: descriptors.count)
    let system = SystemCalls.live
    for fd in descriptors {
      if let flags = try? system.fcntl(fd, F_GETFD, foreign: true) {
        _ = try? system.fcntl(fd, F_SETFD, flags | FD_CLOEXEC, foreign: true)
      }
    }
    return zip(descriptors, names).map { ListenedSocket(fd: $0, name: $1) }
  }

  /// A socket systemd passed, with its name (`FileDescriptorName=` of its socket unit, by default
  /// the unit's name; nil when systemd gave no names).
  public struct ListenedSocket: Hashable, Sendable {
    public var fd: CInt
    public var name: String?
  }

  /// The names `LISTEN_FDNAMES` gives `count` descriptors, colon-separated in their order
  /// (sd_listen_fds_with_names(3)); none (nil each) when it is missing or names another count.
  public static func listenNames(_ listenFDNames: String?, count: Int) -> [String?] {
    guard let listenFDNames else { return Array(repeating: nil, count: count) }
    let names = listenFDNames.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    return names.count == count ? names : Array(repeating: nil, count: count)
  }

  /// The `FileDescriptorName=` of touchd-metrics.socket: the socket touchd serves its metrics on.
  public static let metricsSocketName = "metrics"

  /// The descriptors `LISTEN_PID` and `LISTEN_FDS` announce for process `pid` (none when the
  /// variables are missing, malformed, or meant for another process).
  public static func listenDescriptors(listenPID: String?, listenFDs: String?, pid: Int32 = getpid()) -> [CInt] {
    guard let listenPID, Int32(listenPID) == pid, let listenFDs, let n = Int32(listenFDs), n > 0 else { return [] }
    return (0..<n).map { firstListenDescriptor + $0 }
  }

  /// Whether `fd` is an IPv4 or IPv6 socket (a TCP socket unit's), by its local address.
  public static func isInternetSocket(_ fd: CInt) -> Bool {
    var storage = sockaddr_storage()
    guard (try? SystemCalls.live.getSockName(fd, into: &storage, foreign: true)) != nil else { return false }
    return storage.ss_family == sa_family_t(AF_INET) || storage.ss_family == sa_family_t(AF_INET6)
  }

  private static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}
