import Dispatch

/// The devices' input on the pipeline queue: one `DispatchSourceRead` on one fd, the devices' epoll
/// set (``DevicePoll``), whose handler runs on the queue with the time it began. The run loop on
/// Dispatch sources that issue #45 asks for: input, timers (``DispatchClock``), udev and signals all
/// reach the one serial queue the same way, so nothing else runs beside the handler and it needs no
/// hand-over with the queue's other work.
///
/// Why one source on the set and not one per device: libdispatch tears a read source down
/// asynchronously, and an unplugged evdev node's `EPOLLHUP` raced that teardown and crashed touchd
/// (``DevicePoll``'s header, docs/reliability.md). The set's fd never closes, so this source lives
/// as long as the daemon; devices come and go with an `epoll_ctl` on the set.
///
/// Why not a thread of touchd's own in `poll(2)` any more (issue #21 had one): on Linux, libdispatch
/// watches a source's fd from its manager thread, which then wakes a worker for the queue, one
/// hand-off more than a thread that the kernel wakes itself. Measured on the host, the thread saved
/// 15-17 µs at p50 and 25-27 µs at p99 ("Input hop", docs/performance.md "Input thread or Dispatch
/// read source"), under the 50 µs by which issue #45 would have kept it.
///
/// libdispatch registers a read source's fd level-triggered and one-shot (`EPOLLIN | EPOLLONESHOT`,
/// swift-corelibs-libdispatch src/event/event_epoll.c) and re-arms it after each handler: while the
/// set is still readable the handler runs again. So the handler must consume what made it readable
/// (read the ready devices to EAGAIN, or remove them from the set), or it runs again at once. The fd
/// is not closed here.
public final class InputSource: @unchecked Sendable {
  private let source: DispatchSourceRead

  /// - Parameters:
  ///   - fileDescriptor: the fd to read (the epoll set's); it must stay open until ``stop(then:)``'s
  ///     callback has run.
  ///   - queue: the serial queue the handler runs on.
  ///   - handler: runs on `queue` each time the fd is readable; its argument is when it began
  ///     (``MonotonicClock/microseconds()``), the first thing it does.
  public init(fileDescriptor: Int32, queue: DispatchQueue, handler: @escaping (_ wake: Int64) -> Void) {
    source = DispatchSource.makeReadSource(fileDescriptor: fileDescriptor, queue: queue)
    source.setEventHandler { handler(MonotonicClock.microseconds()) }
  }

  // A dispatch source must not be released inactive (libdispatch crashes on it): activating a
  // cancelled one runs its cancel handler instead of its event handler; on an active one it does
  // nothing.
  deinit {
    source.cancel()
    source.activate()
  }

  /// Starts watching. Call once.
  public func start() { source.activate() }

  /// Stops watching: once this returns on the queue, the handler does not run again ("cancellation
  /// prevents any further invocation of the event handler block", Apple's
  /// `dispatch_source_cancel`). `stopped` runs on the queue once libdispatch has let go of the fd,
  /// after which it may be closed.
  public func stop(then stopped: (@Sendable () -> Void)? = nil) {
    if let stopped { source.setCancelHandler(handler: stopped) }
    source.cancel()
    source.activate()
  }
}
