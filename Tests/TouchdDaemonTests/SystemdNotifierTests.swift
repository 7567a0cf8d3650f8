import Foundation
import Testing
import TouchdTestKit

@testable import TouchdDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// A datagram socket standing in for systemd's notification socket.
private final class NotifySocket {
  let fd: CInt
  /// The value NOTIFY_SOCKET would carry: a path, or `@name` for the abstract namespace.
  let name: String

  init(abstract: Bool) throws {
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    let unique = "touchd-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    name = abstract ? "@" + unique : NSTemporaryDirectory() + unique + ".sock"
    guard let address = UnixSocketAddress(name) else { throw POSIXError(.ENAMETOOLONG) }
    guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else { throw POSIXError(.EADDRINUSE) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  /// The next datagram's text (nil after 5 s without one).
  func receive() -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = recv(fd, &buffer, buffer.count, 0)
    guard n >= 0 else { return nil }
    return String(decoding: buffer[0..<n], as: UTF8.self)
  }

  deinit {
    close(fd)
    if !name.hasPrefix("@") { unlink(name) }
  }
}

@Suite("systemd protocols without libsystemd")
struct SystemdNotifierTests {
  @Test("Notifications arrive as one datagram each, on a path socket and on an abstract one", arguments: [false, true])
  func notificationsArrive(abstract: Bool) throws {
    let listener = try NotifySocket(abstract: abstract)
    let notifier = SystemdNotifier(socketPath: listener.name)
    #expect(notifier.isActive)
    notifier.ready(status: "2 windows, 1 device")
    #expect(listener.receive() == "READY=1\nSTATUS=2 windows, 1 device")
    let before = MonotonicClock.microseconds()
    notifier.reloading()
    let after = MonotonicClock.microseconds()
    // RELOADING=1 with when the reload began, on CLOCK_MONOTONIC, in µs (systemd ≥ 253).
    let reloading = listener.receive() ?? ""
    let lines = reloading.split(separator: "\n")
    #expect(lines.first == "RELOADING=1" && lines.count == 2, "\(reloading)")
    let stamp = lines.last.flatMap { $0.hasPrefix("MONOTONIC_USEC=") ? Int64($0.dropFirst(15)) : nil }
    #expect(stamp.map { before <= $0 && $0 <= after } == true, "\(reloading) not in \(before)...\(after)")
    notifier.watchdog()
    #expect(listener.receive() == "WATCHDOG=1")
    notifier.stopping()
    #expect(listener.receive() == "STOPPING=1")
  }

  @Test("Without NOTIFY_SOCKET, or with a socket nobody listens on, notifying does nothing")
  func withoutSystemd() {
    #expect(!SystemdNotifier(socketPath: nil).isActive)
    #expect(!SystemdNotifier(socketPath: nil).send("READY=1"))
    #expect(!SystemdNotifier(socketPath: "").isActive)
    #expect(!SystemdNotifier(socketPath: "/nonexistent/notify.sock").send("READY=1"))
    // Neither a path nor an abstract name (sd_notify also accepts vsock:, which touchd does not).
    #expect(!SystemdNotifier(socketPath: "relative.sock").send("READY=1"))
    // Longer than sun_path holds (108 bytes with a path's terminating zero).
    #expect(!SystemdNotifier(socketPath: "/" + String(repeating: "x", count: 200)).send("READY=1"))
    #expect(UnixSocketAddress("/" + String(repeating: "x", count: 106)) != nil)
    #expect(UnixSocketAddress("/" + String(repeating: "x", count: 107)) == nil)
    #expect(UnixSocketAddress("@" + String(repeating: "x", count: 107)) != nil)
    #expect(UnixSocketAddress("") == nil)
  }

  @Test("The watchdog interval is WATCHDOG_USEC, for this process only")
  func watchdogInterval() {
    #expect(SystemdNotifier(socketPath: "/run/x", watchdogUSec: "20000000").watchdogInterval == 20)
    #expect(
      SystemdNotifier(socketPath: "/run/x", watchdogUSec: "1500000", watchdogPID: "\(getpid())").watchdogInterval
        == 1.5)
    #expect(
      SystemdNotifier(socketPath: "/run/x", watchdogUSec: "1500000", watchdogPID: "\(getpid() + 1)")
        .watchdogInterval == nil)
    #expect(SystemdNotifier(socketPath: "/run/x", watchdogUSec: "0").watchdogInterval == nil)
    #expect(SystemdNotifier(socketPath: "/run/x", watchdogUSec: "soon").watchdogInterval == nil)
    #expect(SystemdNotifier(socketPath: "/run/x").watchdogInterval == nil)
  }

  @Test("Log lines are for the journal only when JOURNAL_STREAM names stderr's own device and inode")
  func journalStream() throws {
    let path = "/tmp/touchd-journal-stream-\(getpid())"
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
    try #require(fd >= 0)
    defer {
      close(fd)
      unlink(path)
    }
    var info = stat()
    try #require(fstat(fd, &info) == 0)
    let (device, inode) = (UInt64(info.st_dev), UInt64(info.st_ino))
    #expect(JournalLogHandler.isJournalStream("\(device):\(inode)", fd: fd))
    // Inherited from a parent whose stderr was the journal, but this fd is another file.
    #expect(!JournalLogHandler.isJournalStream("\(device):\(inode + 1)", fd: fd))
    #expect(!JournalLogHandler.isJournalStream("\(device + 1):\(inode)", fd: fd))
    #expect(!JournalLogHandler.isJournalStream("\(device)", fd: fd))
    #expect(!JournalLogHandler.isJournalStream("x:\(inode)", fd: fd))
    #expect(!JournalLogHandler.isJournalStream(nil, fd: fd))
    #expect(!JournalLogHandler.isJournalStream("\(device):\(inode)", fd: -1))
  }

  @Test("Socket activation passes LISTEN_FDS descriptors from 3 when LISTEN_PID is this process")
  func listenDescriptors() {
    #expect(SystemdNotifier.listenDescriptors(listenPID: "42", listenFDs: "2", pid: 42) == [3, 4])
    #expect(SystemdNotifier.listenDescriptors(listenPID: "42", listenFDs: "1", pid: 43) == [])
    #expect(SystemdNotifier.listenDescriptors(listenPID: nil, listenFDs: "1", pid: 42) == [])
    #expect(SystemdNotifier.listenDescriptors(listenPID: "42", listenFDs: nil, pid: 42) == [])
    #expect(SystemdNotifier.listenDescriptors(listenPID: "42", listenFDs: "0", pid: 42) == [])
    #expect(SystemdNotifier.listenDescriptors(listenPID: "42", listenFDs: "two", pid: 42) == [])
  }

  @Test("LISTEN_FDNAMES names the descriptors in order; a missing or miscounted list names none")
  func listenNames() throws {
    #expect(
      SystemdNotifier.listenNames("touchd.socket:metrics:touchd-websocket.socket", count: 3) == [
        "touchd.socket", "metrics", "touchd-websocket.socket",
      ])
    #expect(SystemdNotifier.listenNames("metrics", count: 2) == [nil, nil])
    #expect(SystemdNotifier.listenNames(nil, count: 2) == [nil, nil])
    #expect(SystemdNotifier.listenNames(":metrics", count: 2) == ["", "metrics"])
    // The unit names its socket as touchd looks for it.
    let unit = try String(contentsOfFile: TestPaths.repository("systemd/touchd-metrics.socket"), encoding: .utf8)
    #expect(unit.contains("\nFileDescriptorName=\(SystemdNotifier.metricsSocketName)\n"))
    #expect(unit.contains("\nListenStream=127.0.0.1:\(MetricsEndpoint.defaultPort)\n"))
  }
}
