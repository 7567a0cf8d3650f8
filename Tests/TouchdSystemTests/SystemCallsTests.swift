import Glibc
import Synchronization
import Testing

@testable import TouchdSystem

/// The seam's errno sorting, through replaced calls: a call that fails with `errno` the first
/// `failures` times, then returns `success`.
@Suite struct SystemCallsTests {
  /// Counts the calls a replaced system call gets; fails the first `failures` with `code`.
  final class Script: Sendable {
    let calls = Atomic<Int>(0)
    let failures: Int
    let code: Int32
    init(failures: Int, code: Int32) {
      self.failures = failures
      self.code = code
    }
    /// One call: -1 with `errno` set while failures remain, else `success`.
    func call<T: FixedWidthInteger>(_ success: T) -> T {
      let n = calls.wrappingAdd(1, ordering: .relaxed).newValue
      guard n <= failures else { return success }
      Glibc.errno = code
      return -1
    }
    var count: Int { calls.load(ordering: .relaxed) }
  }

  @Test func interruptedCallIsRetried() throws {
    let script = Script(failures: 2, code: EINTR)
    var system = SystemCalls.live
    system.sysRead = { _, _, count in script.call(count) }
    var bytes = [UInt8](repeating: 0, count: 8)
    let outcome = try bytes.withUnsafeMutableBytes { try system.read(3, into: $0) }
    #expect(outcome == .processed(8))
    #expect(script.count == 3)
  }

  @Test func interruptedPollIsRetriedToo() throws {
    let script = Script(failures: 1, code: EINTR)
    var system = SystemCalls.live
    system.sysPoll = { _, _, _ in script.call(1) }
    var fds = [pollfd(fd: 3, events: Int16(POLLIN), revents: 0)]
    #expect(try fds.withUnsafeMutableBufferPointer { try system.poll($0, timeout: -1) } == 1)
    #expect(script.count == 2)
  }

  @Test func wouldBlockIsAnOutcomeNotAnError() throws {
    let script = Script(failures: 1, code: EAGAIN)
    var system = SystemCalls.live
    system.sysSend = { _, _, count, _ in script.call(count) }
    let bytes: [UInt8] = [1, 2, 3]
    let outcome = try bytes.withUnsafeBytes { try system.send(3, $0, flags: 0) }
    #expect(outcome == .wouldBlock)
    #expect(script.count == 1)
    // EWOULDBLOCK is EAGAIN on Linux.
    #expect(ErrnoSort(EWOULDBLOCK) == .wouldBlock)
  }

  @Test func wouldBlockOnABlockingCallIsThrown() {
    var system = SystemCalls.live
    let script = Script(failures: 1, code: EAGAIN)
    system.sysSocket = { _, _, _ in script.call(CInt(7)) }
    #expect(throws: SystemCallError("socket", .wouldBlock)) { try system.socket(AF_UNIX, 1) }
  }

  @Test func expectedErrnoIsThrownWithTheCallsName() {
    let script = Script(failures: 1, code: ENODEV)
    var system = SystemCalls.live
    system.sysOpen = { _, _, _ in script.call(CInt(5)) }
    let error = #expect(throws: SystemCallError.self) { try system.open("/dev/input/event99", O_RDONLY) }
    #expect(error == SystemCallError("open", .noDevice))
    #expect(error?.description.hasPrefix("open: ") == true)
    #expect(script.count == 1)

    let again = Script(failures: 1, code: ENODEV)
    system.sysEpollAdd = { _, _, _ in again.call(CInt(0)) }
    #expect(throws: SystemCallError("epoll_ctl", .noDevice)) { try system.epollAdd(4, 5, token: 1) }
  }

  @Test func errnoSorting() {
    #expect(ErrnoSort(EINTR) == .retry)
    #expect(ErrnoSort(EAGAIN) == .wouldBlock)
    #expect(ErrnoSort(EFAULT) == .bug)
    #expect(ErrnoSort(EBADF) == .bug)
    // A descriptor from outside (systemd, a standard stream) may be closed: the world's doing.
    #expect(ErrnoSort(EBADF, foreign: true) == .expected)
    #expect(ErrnoSort(EFAULT, foreign: true) == .bug)
    for code in [ENODEV, EACCES, EPERM, ENOENT, ECONNREFUSED, EMFILE, EPIPE] {
      #expect(ErrnoSort(code) == .expected)
    }
  }

  @Test func foreignDescriptorsBadDescriptorIsThrown() {
    let script = Script(failures: 1, code: EBADF)
    var system = SystemCalls.live
    system.sysFstat = { _, _ in script.call(CInt(0)) }
    #expect(throws: SystemCallError("fstat", .badDescriptor)) { try system.fstat(2, foreign: true) }
  }

  @Test func liveCallsWork() throws {
    let system = SystemCalls.live
    let pipe = try system.pipe()
    _ = try system.fcntl(pipe.read, F_SETFD, FD_CLOEXEC)
    _ = try system.fcntl(pipe.read, F_SETFL, O_NONBLOCK)
    defer {
      system.close(pipe.read)
      system.close(pipe.write)
    }
    #expect(try system.fcntl(pipe.read, F_GETFD) & FD_CLOEXEC != 0)
    var buffer = [UInt8](repeating: 0, count: 4)
    // Empty and non-blocking: would block.
    #expect(try buffer.withUnsafeMutableBytes { try system.read(pipe.read, into: $0) } == .wouldBlock)
    let sent: [UInt8] = [1, 2, 3]
    #expect(try sent.withUnsafeBytes { try system.write(pipe.write, $0) } == .processed(3))
    var fds = [pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)]
    #expect(try fds.withUnsafeMutableBufferPointer { try system.poll($0, timeout: 1000) } == 1)
    #expect(try buffer.withUnsafeMutableBytes { try system.read(pipe.read, into: $0) } == .processed(3))
    #expect(buffer[..<3] == [1, 2, 3])
    #expect(throws: SystemCallError("open", .noSuchFile)) { try system.open("/nonexistent/touchd", O_RDONLY) }
    #expect(system.monotonicMicroseconds() > 0)
  }
}
