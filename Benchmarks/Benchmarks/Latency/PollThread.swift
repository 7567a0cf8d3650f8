import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The baseline of "Input hop" (docs/performance.md, "Input thread or Dispatch read source"): the
/// input thread touchd had from issue #21 until issue #45 replaced it with one Dispatch read source
/// (`InputSource`), kept here as it was so that the hop stays measured against it. A thread of its
/// own sleeps in `poll(2)` on one fd (the devices' epoll set) and, when it becomes readable, runs
/// the handler on the pipeline queue with `queue.sync` (inline on an idle queue: the kernel wakes
/// the thread that runs it, no libdispatch manager-thread hop). The handler must drain the fd.
final class PollThread: @unchecked Sendable {
  private let fileDescriptor: Int32
  private let queue: DispatchQueue
  private let handler: () -> Void
  /// A pipe whose write end ``stop()`` writes to end the thread's wait.
  private let stopPipe: (read: Int32, write: Int32)

  init(fileDescriptor: Int32, queue: DispatchQueue, handler: @escaping () -> Void) {
    self.fileDescriptor = fileDescriptor
    self.queue = queue
    self.handler = handler
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0, "pipe: errno \(errno)")
    stopPipe = (fds[0], fds[1])
  }

  deinit {
    close(stopPipe.read)
    close(stopPipe.write)
  }

  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "bench.input"
    thread.start()
  }

  /// Ends the thread after the handler it may be running returns.
  func stop() {
    var byte: UInt8 = 1
    _ = write(stopPipe.write, &byte, 1)
  }

  private func run() {
    var fds = [
      pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      fds[0].revents = 0
      fds[1].revents = 0
      let polled = poll(&fds, 2, -1)
      if polled < 0 && errno == EINTR { continue }
      precondition(polled >= 0, "poll: errno \(errno)")
      if fds[1].revents != 0 || fds[0].revents & Int16(POLLNVAL) != 0 { return }
      guard fds[0].revents != 0 else { continue }
      queue.sync { handler() }
    }
  }
}
