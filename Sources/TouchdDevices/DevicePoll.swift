/// Every open device's fd in one epoll set, watched through the set's own fd, which never closes.
///
/// Why not one `DispatchSourceRead` per device: on Linux, libdispatch tears a read source down
/// asynchronously on its manager thread, and when an unplugged evdev node reports `EPOLLHUP` that
/// teardown races libdispatch's own unregistration of the fd. touchd crashed with SIGSEGV in
/// `_dispatch_event_loop_drain` on about 1 in 6 unplugs in the VM suite (swift-corelibs-libdispatch
/// issue #949 describes the same use-after-free of an epoll "muxnote"). With this set, the daemon
/// keeps a single watcher on ``fileDescriptor`` (the daemon's input thread) for the life of the process; adding and
/// removing a device is a plain `epoll_ctl`, synchronous, on the pipeline queue, and a device's fd is
/// closed only after it left the set.
///
/// The set is level-triggered: a device stays ready until its events are drained (EAGAIN) or it is
/// removed, so nothing is lost between wake-ups. Waiting costs nothing while no device has input.
///
/// Not thread-safe: owned by the pipeline queue, like the devices.
public final class DevicePoll {
  /// The epoll set's fd: readable while any device in the set is. Wait on it (`poll(2)`, or a
  /// `DispatchSourceRead`); do not close it.
  public let fileDescriptor: Int32
  private var nextToken: UInt64 = 1
  private var fds: [UInt64: Int32] = [:]

  /// Makes the empty set.
  public init() throws(DeviceError) {
    switch LinuxInput.epollCreate() {
    case .success(let fd): fileDescriptor = fd
    case .failure(let errno): throw .poll(path: nil, errno)
    }
  }

  deinit { LinuxInput.close(fileDescriptor) }

  /// Adds a device's fd; the token it returns comes back from ``ready()`` while the fd has input,
  /// and stays unique for the life of the set (fd numbers are reused after a close; tokens are not).
  public func add(_ fd: Int32, path: String) throws(DeviceError) -> UInt64 {
    let token = nextToken
    if let errno = LinuxInput.epollAdd(fileDescriptor, fd, token: token) { throw .poll(path: path, errno) }
    nextToken += 1
    fds[token] = fd
    return token
  }

  /// Removes the fd added with `token`: call before closing it. A token already removed is ignored.
  public func remove(_ token: UInt64) {
    guard let fd = fds.removeValue(forKey: token) else { return }
    LinuxInput.epollRemove(fileDescriptor, fd)
  }

  /// The tokens of the devices with input (or an error, such as ENODEV after an unplug) now,
  /// without waiting; only tokens still in the set.
  public func ready() -> [UInt64] {
    LinuxInput.epollReady(fileDescriptor).filter { fds[$0] != nil }
  }

  /// How many fds are in the set.
  public var count: Int { fds.count }
}
