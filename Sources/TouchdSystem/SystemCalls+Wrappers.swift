// The wrappers touchd calls: Swift values in, Swift values out, each call through the one EINTR
// loop (`retryingOnInterrupt`) with its errno sorted (`ErrnoSort`). Those on the hot path (a
// frame's write, send, poll, epoll_wait and clock read) are inlinable and allocate nothing.
import Glibc

extension SystemCalls {
  // MARK: - Descriptors

  /// `open(2)`; the new descriptor.
  @inlinable
  public func open(_ path: String, _ flags: CInt, mode: mode_t = 0) throws(SystemCallError) -> CInt {
    try blockingCall("open") { sysOpen(path, flags, mode) }
  }

  /// `close(2)`, errors ignored: Linux releases the descriptor even when close reports EINTR or
  /// EIO, so there is nothing to retry (SwiftNIO ignores EINTR on close too). Unlike SwiftNIO, EBADF
  /// is not made a crash here: touchd's close paths never relied on it being checked.
  @inlinable
  public func close(_ fd: CInt) { _ = sysClose(fd) }

  /// `fcntl(2)` with an integer argument; its result. `foreign`: `fd` came from outside.
  @inlinable
  public func fcntl(_ fd: CInt, _ command: CInt, _ argument: CInt = 0, foreign: Bool = false)
    throws(SystemCallError) -> CInt
  {
    try blockingCall("fcntl", foreign: foreign) { sysFcntl(fd, command, argument) }
  }

  /// `pipe(2)`: a pipe's read and write ends.
  @inlinable
  public func pipe() throws(SystemCallError) -> (read: CInt, write: CInt) {
    var fds: (CInt, CInt) = (-1, -1)
    _ = try withUnsafeMutableBytes(of: &fds) { raw throws(SystemCallError) in
      try blockingCall("pipe") { sysPipe(raw.baseAddress!.assumingMemoryBound(to: CInt.self)) }
    }
    return (fds.0, fds.1)
  }

  // MARK: - Reading and writing

  /// `read(2)` into `buffer`: the bytes read (0 at end of file), or `wouldBlock`.
  @inlinable
  @inline(__always)
  public func read(_ fd: CInt, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> IOOutcome<Int> {
    try retryingOnInterrupt("read") { sysRead(fd, buffer.baseAddress, buffer.count) }
  }

  /// `write(2)` of `bytes`: the bytes written (possibly fewer), or `wouldBlock`. `foreign`: `fd`
  /// came from outside (a standard stream).
  @inlinable
  @inline(__always)
  public func write(_ fd: CInt, _ bytes: UnsafeRawBufferPointer, foreign: Bool = false)
    throws(SystemCallError) -> IOOutcome<Int>
  {
    try retryingOnInterrupt("write", foreign: foreign) { sysWrite(fd, bytes.baseAddress, bytes.count) }
  }

  /// `send(2)` of `bytes`: the bytes sent (possibly fewer), or `wouldBlock`.
  @inlinable
  @inline(__always)
  public func send(_ fd: CInt, _ bytes: UnsafeRawBufferPointer, flags: CInt) throws(SystemCallError) -> IOOutcome<Int> {
    try retryingOnInterrupt("send") { sysSend(fd, bytes.baseAddress, bytes.count, flags) }
  }

  /// `sendto(2)` of `bytes` to `address`: the bytes sent, or `wouldBlock`.
  @inlinable
  public func sendTo(
    _ fd: CInt, _ bytes: UnsafeRawBufferPointer, flags: CInt, address: UnsafePointer<sockaddr>, length: socklen_t
  ) throws(SystemCallError) -> IOOutcome<Int> {
    try retryingOnInterrupt("sendto") { sysSendTo(fd, bytes.baseAddress, bytes.count, flags, address, length) }
  }

  // MARK: - Waiting

  /// `poll(2)` on `fds` for at most `timeout` ms (-1: no limit); the number ready (0: timed out).
  /// After EINTR the wait starts again with the whole timeout.
  @inlinable
  @inline(__always)
  public func poll(_ fds: UnsafeMutableBufferPointer<pollfd>, timeout: CInt) throws(SystemCallError) -> Int {
    Int(try blockingCall("poll") { sysPoll(fds.baseAddress, nfds_t(fds.count), timeout) })
  }

  /// A new epoll set, close-on-exec.
  @inlinable
  public func epollCreate() throws(SystemCallError) -> CInt {
    try blockingCall("epoll_create1") { sysEpollCreate() }
  }

  /// Adds `fd` to `epoll`, level-triggered for input; `token` comes back from ``epollWait``. `fd`
  /// is the caller's (DevicePoll's public API takes it), so a bad one is thrown (EBADF), not a bug.
  @inlinable
  public func epollAdd(_ epoll: CInt, _ fd: CInt, token: UInt64) throws(SystemCallError) {
    _ = try blockingCall("epoll_ctl", foreign: true) { sysEpollAdd(epoll, fd, token) }
  }

  /// Removes `fd` from `epoll`, errors ignored: the only ones possible mean it was not in the set.
  @inlinable
  public func epollRemove(_ epoll: CInt, _ fd: CInt) { _ = sysEpollRemove(epoll, fd) }

  /// `epoll_wait(2)` for at most `timeout` ms (0: not at all), writing the ready tokens to
  /// `tokens` (at most 64); their count.
  @inlinable
  @inline(__always)
  public func epollWait(_ epoll: CInt, into tokens: UnsafeMutableBufferPointer<UInt64>, timeout: CInt)
    throws(SystemCallError) -> Int
  {
    Int(try blockingCall("epoll_wait") { sysEpollWait(epoll, tokens.baseAddress, CInt(tokens.count), timeout) })
  }

  // MARK: - Sockets

  /// `socket(2)`; the new descriptor.
  @inlinable
  public func socket(_ domain: CInt, _ type: CInt, _ protocol: CInt = 0) throws(SystemCallError) -> CInt {
    try blockingCall("socket") { sysSocket(domain, type, `protocol`) }
  }

  /// `connect(2)`. EINTR is retried, as SwiftNIO does.
  @inlinable
  public func connect(_ fd: CInt, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemCallError) {
    _ = try blockingCall("connect") { sysConnect(fd, address, length) }
  }

  /// `bind(2)`.
  @inlinable
  public func bind(_ fd: CInt, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) throws(SystemCallError) {
    _ = try blockingCall("bind") { sysBind(fd, address, length) }
  }

  /// `listen(2)`.
  @inlinable
  public func listen(_ fd: CInt, backlog: CInt) throws(SystemCallError) {
    _ = try blockingCall("listen") { sysListen(fd, backlog) }
  }

  /// `accept(2)` on a non-blocking listener: the connection's descriptor, or `wouldBlock` when
  /// none is waiting. (Glibc's Swift module leaves `accept4` out.)
  @inlinable
  public func accept(_ listener: CInt) throws(SystemCallError) -> IOOutcome<CInt> {
    try retryingOnInterrupt("accept") { sysAccept(listener, nil, nil) }
  }

  /// `getsockname(2)` into `storage`. `foreign`: `fd` came from outside (systemd).
  @inlinable
  public func getSockName(_ fd: CInt, into storage: inout sockaddr_storage, foreign: Bool = false)
    throws(SystemCallError)
  {
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = try withUnsafeMutablePointer(to: &storage) { pointer throws(SystemCallError) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemCallError) in
        try blockingCall("getsockname", foreign: foreign) { sysGetSockName(fd, address, &length) }
      }
    }
  }

  // MARK: - Files

  /// `stat(2)`.
  @inlinable
  public func stat(_ path: String) throws(SystemCallError) -> Glibc.stat {
    var info = Glibc.stat()
    _ = try blockingCall("stat") { sysStat(path, &info) }
    return info
  }

  /// `lstat(2)`: the link itself, not what it points to.
  @inlinable
  public func lstat(_ path: String) throws(SystemCallError) -> Glibc.stat {
    var info = Glibc.stat()
    _ = try blockingCall("lstat") { sysLstat(path, &info) }
    return info
  }

  /// `fstat(2)`. `foreign`: `fd` came from outside (a standard stream).
  @inlinable
  public func fstat(_ fd: CInt, foreign: Bool = false) throws(SystemCallError) -> Glibc.stat {
    var info = Glibc.stat()
    _ = try blockingCall("fstat", foreign: foreign) { sysFstat(fd, &info) }
    return info
  }

  /// `rename(2)`: `to` is replaced atomically (both on one file system).
  public func rename(_ from: String, to: String) throws(SystemCallError) {
    _ = try blockingCall("rename") { sysRename(from, to) }
  }

  /// `unlink(2)`.
  @inlinable
  public func unlink(_ path: String) throws(SystemCallError) {
    _ = try blockingCall("unlink") { sysUnlink(path) }
  }

  /// `chown(2)`; `uid_t.max` or `gid_t.max` leaves that owner as it is.
  @inlinable
  public func chown(_ path: String, user: uid_t, group: gid_t) throws(SystemCallError) {
    _ = try blockingCall("chown") { sysChown(path, user, group) }
  }

  /// `umask(2)`: sets the mask, returns the previous one.
  @inlinable
  public func umask(_ mask: mode_t) -> mode_t { sysUmask(mask) }

  // MARK: - Devices

  /// `ioctl(EVIOCSCLOCKID)`: the evdev node `fd` stamps its events with CLOCK_MONOTONIC.
  @inlinable
  public func setClockMonotonic(_ fd: CInt) throws(SystemCallError) {
    _ = try blockingCall("ioctl(EVIOCSCLOCKID)") { sysSetClockMonotonic(fd) }
  }

  /// `ioctl(UI_SET_PHYS)` on a uinput fd, before its device is created.
  @inlinable
  public func setUinputPhys(_ fd: CInt, _ phys: String) throws(SystemCallError) {
    _ = try blockingCall("ioctl(UI_SET_PHYS)") { sysSetUinputPhys(fd, phys) }
  }

  // MARK: - Process

  /// `getrlimit(2)`.
  @inlinable
  public func getRlimit(_ resource: __rlimit_resource_t) throws(SystemCallError) -> rlimit {
    var limit = rlimit()
    _ = try blockingCall("getrlimit") { sysGetRlimit(resource, &limit) }
    return limit
  }

  /// `setrlimit(2)`.
  @inlinable
  public func setRlimit(_ resource: __rlimit_resource_t, _ limit: rlimit) throws(SystemCallError) {
    var limit = limit
    _ = try blockingCall("setrlimit") { sysSetRlimit(resource, &limit) }
  }

  /// Ignores `signal` (`SIG_IGN`), or with `false` restores its default action (`SIG_DFL`).
  @inlinable
  public func ignoreSignal(_ signal: CInt, _ ignore: Bool = true) { sysIgnoreSignal(signal, ignore) }

  /// CLOCK_MONOTONIC now, the clock the kernel stamps input events with. A vDSO call (about 20 ns,
  /// no system call); it cannot fail for this clock.
  @inlinable
  @inline(__always)
  public func monotonicNow() -> timespec {
    var now = timespec()
    _ = sysClockGetTime(CLOCK_MONOTONIC, &now)
    return now
  }

  /// CLOCK_MONOTONIC now, in microseconds.
  @inlinable
  @inline(__always)
  public func monotonicMicroseconds() -> Int64 {
    let now = monotonicNow()
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
  }
}
