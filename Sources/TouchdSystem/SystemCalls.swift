// The system-call seam: every system call touchd's and touchctl's own Swift code makes, in one
// place, each through one EINTR loop (`retryingOnInterrupt`, Errno.swift) with errno sorted as
// SwiftNIO sorts it. What SwiftNIO, libdispatch, Foundation, libevdev and libudev call for touchd
// is theirs. The one exception in touchd's own code is C: CForwardPath/forward_path.c, which runs
// on the input thread before any Swift, calls write(2) (uinput) and clock_gettime itself, and the
// `ctouchd_` helpers in CTouchd/shim.h that this seam calls (epoll, whose `struct epoll_event` is
// packed, and the two ioctls whose request numbers are C macros) are C for Swift's sake.
//
// The calls are a table of closures (`SystemCalls`, raw C signatures); `SystemCalls.live` holds
// the real ones and is what touchd uses. A test builds its own table from `live`, replaces a
// call, and drives the wrappers (SystemCalls+Wrappers.swift) or a component given the table.
import CTouchd
import Glibc

/// The system calls, as C declares them: each returns -1 and sets `errno` on failure. Immutable
/// and `Sendable`: share ``live`` freely; a test replaces a member in its own copy.
public struct SystemCalls: Sendable {
  public var sysOpen: @Sendable (UnsafePointer<CChar>, CInt, mode_t) -> CInt
  public var sysClose: @Sendable (CInt) -> CInt
  public var sysRead: @Sendable (CInt, UnsafeMutableRawPointer?, Int) -> Int
  public var sysWrite: @Sendable (CInt, UnsafeRawPointer?, Int) -> Int
  public var sysSend: @Sendable (CInt, UnsafeRawPointer?, Int, CInt) -> Int
  public var sysSendTo: @Sendable (CInt, UnsafeRawPointer?, Int, CInt, UnsafePointer<sockaddr>?, socklen_t) -> Int
  public var sysPoll: @Sendable (UnsafeMutablePointer<pollfd>?, nfds_t, CInt) -> CInt
  public var sysPipe: @Sendable (UnsafeMutablePointer<CInt>?) -> CInt
  public var sysSocket: @Sendable (CInt, CInt, CInt) -> CInt
  public var sysConnect: @Sendable (CInt, UnsafePointer<sockaddr>?, socklen_t) -> CInt
  public var sysBind: @Sendable (CInt, UnsafePointer<sockaddr>?, socklen_t) -> CInt
  public var sysListen: @Sendable (CInt, CInt) -> CInt
  public var sysAccept: @Sendable (CInt, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?) -> CInt
  public var sysGetSockName: @Sendable (CInt, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?) -> CInt
  /// `fcntl(fd, cmd, arg)` with an integer argument (`F_GETFL` and `F_GETFD` ignore it).
  public var sysFcntl: @Sendable (CInt, CInt, CInt) -> CInt
  public var sysStat: @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<stat>) -> CInt
  public var sysLstat: @Sendable (UnsafePointer<CChar>, UnsafeMutablePointer<stat>) -> CInt
  public var sysFstat: @Sendable (CInt, UnsafeMutablePointer<stat>) -> CInt
  public var sysUnlink: @Sendable (UnsafePointer<CChar>) -> CInt
  public var sysRename: @Sendable (UnsafePointer<CChar>, UnsafePointer<CChar>) -> CInt
  public var sysChown: @Sendable (UnsafePointer<CChar>, uid_t, gid_t) -> CInt
  /// Never fails: returns the previous mask.
  public var sysUmask: @Sendable (mode_t) -> mode_t
  public var sysGetRlimit: @Sendable (__rlimit_resource_t, UnsafeMutablePointer<rlimit>) -> CInt
  public var sysSetRlimit: @Sendable (__rlimit_resource_t, UnsafePointer<rlimit>) -> CInt
  /// `epoll_create1(EPOLL_CLOEXEC)` (`ctouchd_epoll_create`).
  public var sysEpollCreate: @Sendable () -> CInt
  /// `epoll_ctl(EPOLL_CTL_ADD)` for input, level-triggered, with a 64-bit token (`ctouchd_epoll_add`).
  public var sysEpollAdd: @Sendable (CInt, CInt, UInt64) -> CInt
  /// `epoll_ctl(EPOLL_CTL_DEL)` (`ctouchd_epoll_remove`).
  public var sysEpollRemove: @Sendable (CInt, CInt) -> CInt
  /// `epoll_wait`, writing up to 64 ready tokens (`ctouchd_epoll_ready`).
  public var sysEpollWait: @Sendable (CInt, UnsafeMutablePointer<UInt64>?, CInt, CInt) -> CInt
  /// `ioctl(EVIOCSCLOCKID, CLOCK_MONOTONIC)` on an evdev node (`ctouchd_set_clock_monotonic`).
  public var sysSetClockMonotonic: @Sendable (CInt) -> CInt
  /// `ioctl(UI_SET_PHYS)` on a uinput fd (`ctouchd_uinput_set_phys`).
  public var sysSetUinputPhys: @Sendable (CInt, UnsafePointer<CChar>) -> CInt
  public var sysClockGetTime: @Sendable (clockid_t, UnsafeMutablePointer<timespec>) -> CInt
  /// `signal(2)` with `SIG_IGN` (`true`) or `SIG_DFL` (`false`): the two dispositions touchd sets.
  public var sysIgnoreSignal: @Sendable (CInt, Bool) -> Void

  /// The real calls.
  public static let live = SystemCalls(
    sysOpen: { Glibc.open($0, $1, $2) },
    sysClose: { Glibc.close($0) },
    sysRead: { Glibc.read($0, $1, $2) },
    sysWrite: { Glibc.write($0, $1, $2) },
    sysSend: { Glibc.send($0, $1, $2, $3) },
    sysSendTo: { Glibc.sendto($0, $1, $2, $3, $4, $5) },
    sysPoll: { Glibc.poll($0, $1, $2) },
    sysPipe: { Glibc.pipe($0) },
    sysSocket: { Glibc.socket($0, $1, $2) },
    sysConnect: { Glibc.connect($0, $1, $2) },
    sysBind: { Glibc.bind($0, $1, $2) },
    sysListen: { Glibc.listen($0, $1) },
    sysAccept: { Glibc.accept($0, $1, $2) },
    sysGetSockName: { Glibc.getsockname($0, $1, $2) },
    sysFcntl: { Glibc.fcntl($0, $1, $2) },
    sysStat: { liveStat($0, $1) },
    sysLstat: { liveLstat($0, $1) },
    sysFstat: { liveFstat($0, $1) },
    sysUnlink: { Glibc.unlink($0) },
    sysRename: { Glibc.rename($0, $1) },
    sysChown: { Glibc.chown($0, $1, $2) },
    sysUmask: { Glibc.umask($0) },
    sysGetRlimit: { Glibc.getrlimit($0, $1) },
    sysSetRlimit: { Glibc.setrlimit($0, $1) },
    sysEpollCreate: { ctouchd_epoll_create() },
    sysEpollAdd: { ctouchd_epoll_add($0, $1, $2) },
    sysEpollRemove: { ctouchd_epoll_remove($0, $1) },
    sysEpollWait: { ctouchd_epoll_ready($0, $1, $2, $3) },
    sysSetClockMonotonic: { ctouchd_set_clock_monotonic($0) },
    sysSetUinputPhys: { ctouchd_uinput_set_phys($0, $1) },
    sysClockGetTime: { Glibc.clock_gettime($0, $1) },
    sysIgnoreSignal: { _ = Glibc.signal($0, $1 ? SIG_IGN : SIG_DFL) }
  )
}

// `Glibc.stat` names the struct; at file scope, with arguments, `stat` is the call.
private func liveStat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> CInt { stat(path, info) }
private func liveLstat(_ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>) -> CInt { lstat(path, info) }
private func liveFstat(_ fd: CInt, _ info: UnsafeMutablePointer<stat>) -> CInt { fstat(fd, info) }
