import Dispatch
import Foundation
import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of its own that sleeps in `poll(2)` on one fd (the devices' epoll set) and, when it
/// becomes readable, runs a handler on the pipeline queue with `queue.sync`.
///
/// Why not a `DispatchSourceRead`: on Linux, libdispatch watches every source's fd from its manager
/// thread, which then wakes a worker thread to run the handler, so every frame paid two thread
/// wake-ups before touchd read a byte. Measured in the VM (docs/performance.md, "Latency"), that
/// hop was a quarter of the kernel-to-read stage. Here the kernel wakes this thread itself, and
/// `queue.sync` on an idle serial queue runs the handler right on it: libdispatch takes the queue's
/// lock and calls the block inline (`dispatch_sync` "as an optimization, invokes the block on the
/// current thread when possible", Apple's dispatch_sync documentation). When the queue is busy (a
/// timer, a client command), `sync` waits for it, so the handler is still serialized with
/// everything else the queue runs.
///
/// `beforeQueue`, when given, runs on the thread first, right after the wake and before
/// `queue.sync`: the forwarding path (``ForwardPath/run()``), which writes a forwarded frame
/// without waiting for the queue.
///
/// The fd must be level-triggered, and the handler must consume what made it readable (read the
/// ready devices to EAGAIN, or remove them from the set); otherwise the thread wakes again at once.
/// The fd is not closed here.
public final class InputThread: @unchecked Sendable {
  private let fileDescriptor: Int32
  private let queue: DispatchQueue
  private let handler: (_ wake: Int64) -> Void
  private let beforeQueue: (() -> Void)?
  /// A pipe whose write end ``stop()`` writes to end the thread's wait.
  private let stopPipe: (read: Int32, write: Int32)
  private let name: String
  private let system: SystemCalls

  /// - Parameters:
  ///   - fileDescriptor: the fd to wait on for input (POLLIN).
  ///   - queue: the serial queue the handler runs on.
  ///   - name: the thread's name (seen in `top -H`, `ps -L`, gdb).
  ///   - beforeQueue: runs on the thread after each wake, before the handler is queued.
  ///   - handler: runs on `queue` each time the fd is readable; its argument is when the thread
  ///     woke (``MonotonicClock/microseconds()``).
  ///   - system: the system calls (poll, the stop pipe's), replaceable in tests.
  public init(
    fileDescriptor: Int32, queue: DispatchQueue, name: String, beforeQueue: (() -> Void)? = nil,
    system: SystemCalls = .live, handler: @escaping (_ wake: Int64) -> Void
  ) {
    self.fileDescriptor = fileDescriptor
    self.beforeQueue = beforeQueue
    self.queue = queue
    self.name = name
    self.handler = handler
    self.system = system
    do {
      stopPipe = try system.pipe()
    } catch {
      preconditionFailure("\(error)")
    }
    for fd in [stopPipe.read, stopPipe.write] { _ = try? system.fcntl(fd, F_SETFD, FD_CLOEXEC) }
  }

  deinit {
    system.close(stopPipe.read)
    system.close(stopPipe.write)
  }

  /// Starts the thread. Call once.
  public func start() {
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.start()
  }

  /// Ends the thread after the handler it may be running returns; the handler is not called again.
  public func stop() {
    let byte: UInt8 = 1
    _ = withUnsafeBytes(of: byte) { try? system.write(stopPipe.write, $0) }
  }

  private func run() {
    var fds = [
      pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      fds[0].revents = 0
      fds[1].revents = 0
      // EINTR is retried in the seam; any other error is touchd's bug.
      let polled = fds.withUnsafeMutableBufferPointer { fds in
        Result { () throws(SystemCallError) in try system.poll(fds, timeout: -1) }
      }
      if case .failure(let error) = polled { preconditionFailure("poll on fd \(fileDescriptor): \(error)") }
      // Stopped, or the fd was closed under the thread (POLLNVAL): nothing more to wait for.
      if fds[1].revents != 0 || fds[0].revents & Int16(POLLNVAL) != 0 { return }
      guard fds[0].revents != 0 else { continue }
      let wake = MonotonicClock.microseconds()
      beforeQueue?()
      queue.sync { handler(wake) }
    }
  }
}
