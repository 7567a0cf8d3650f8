// How touchd sorts an errno, and the one loop that retries a system call a signal interrupted.
// The wrappers that use it are in SystemCalls.swift; the seam as a whole is described there.
import Glibc

/// A positive `errno` value from a failed system or library call.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  public var code: Int32
  public init(_ code: Int32) { self.code = code }
  /// `strerror`'s text.
  public var description: String { String(cString: strerror(code)) }

  public static let wouldBlock = Errno(EAGAIN)
  public static let noDevice = Errno(ENODEV)
  public static let interrupted = Errno(EINTR)
  public static let permissionDenied = Errno(EACCES)
  public static let notPermitted = Errno(EPERM)
  public static let noSuchFile = Errno(ENOENT)
  public static let badDescriptor = Errno(EBADF)
}

/// What a failed call's errno means, sorted as SwiftNIO sorts it (NIOPosix's `syscall(blocking:)`
/// and `isUnacceptableErrno`).
public enum ErrnoSort: Equatable, Sendable {
  /// EINTR: a signal interrupted the call before it did anything; make it again.
  case retry
  /// EAGAIN (= EWOULDBLOCK): a non-blocking descriptor has nothing to give or no room now. Not an
  /// error: reported as ``IOOutcome/wouldBlock``.
  case wouldBlock
  /// EFAULT (a bad address), or EBADF on a descriptor touchd opened and owns: touchd's own bug,
  /// which stops the process (`precondition`) rather than run on with a wrong descriptor.
  case bug
  /// Anything else (ENODEV, EACCES, ECONNREFUSED…): the world, not touchd; thrown as a
  /// ``SystemCallError`` naming the call, for the caller to handle or report.
  case expected

  /// Sorts `code`. `foreign`: the descriptor is not one touchd opened (systemd's `LISTEN_FDS`, a
  /// standard stream, one a public API's caller handed in), so EBADF means it was handed a closed
  /// one: expected, not a bug.
  @inlinable
  public init(_ code: Int32, foreign: Bool = false) {
    switch code {
    case EINTR: self = .retry
    case EAGAIN: self = .wouldBlock
    case EFAULT: self = .bug
    case EBADF: self = foreign ? .expected : .bug
    default: self = .expected
    }
  }
}

/// A system call failed with an expected errno (``ErrnoSort/expected``).
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The call, as its manual page names it (`open`, `epoll_ctl`, `ioctl(EVIOCSCLOCKID)`).
  public var call: String
  public var errno: Errno
  public init(_ call: String, _ errno: Errno) {
    self.call = call
    self.errno = errno
  }
  public var description: String { "\(call): \(errno)" }
}

/// What a call on a non-blocking descriptor did.
public enum IOOutcome<Value> {
  /// It returned `Value` (bytes moved, a new descriptor, ready descriptors).
  case processed(Value)
  /// EAGAIN: nothing now; wait for readiness and call again.
  case wouldBlock
}

extension IOOutcome: Equatable where Value: Equatable {}
extension IOOutcome: Sendable where Value: Sendable {}

/// Makes the system call `body` until it is not interrupted, and sorts its errno (``ErrnoSort``):
/// EINTR is retried, EAGAIN is ``IOOutcome/wouldBlock``, a bug stops the process, anything else is
/// thrown with `call`'s name. The one EINTR loop of touchd's Swift code: every wrapper in
/// ``SystemCalls`` goes through it. `body` returns -1 and sets `errno` on failure, as the C calls do.
@inlinable
@inline(__always)
public func retryingOnInterrupt<Result: FixedWidthInteger>(
  _ call: String, foreign: Bool = false, _ body: () -> Result
) throws(SystemCallError) -> IOOutcome<Result> {
  while true {
    let result = body()
    guard result == -1 else { return .processed(result) }
    let code = Glibc.errno
    switch ErrnoSort(code, foreign: foreign) {
    case .retry: continue
    case .wouldBlock: return .wouldBlock
    case .bug: preconditionFailure("\(call): \(Errno(code)) (errno \(code)): a bug in touchd")
    case .expected: throw SystemCallError(call, Errno(code))
    }
  }
}

/// ``retryingOnInterrupt(_:foreign:_:)`` for a call on a blocking descriptor, or one that never
/// blocks: EAGAIN is thrown like any expected errno.
@inlinable
@inline(__always)
func blockingCall<Result: FixedWidthInteger>(
  _ call: String, foreign: Bool = false, _ body: () -> Result
) throws(SystemCallError) -> Result {
  switch try retryingOnInterrupt(call, foreign: foreign, body) {
  case .processed(let result): return result
  case .wouldBlock: throw SystemCallError(call, .wouldBlock)
  }
}
