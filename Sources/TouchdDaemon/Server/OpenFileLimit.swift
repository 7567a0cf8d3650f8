import TouchdSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds how many clients fit.
public enum OpenFileLimit {
  /// Descriptors kept for everything but clients: the standard streams, the event loop's epoll,
  /// eventfd and timerfd, the listening socket, the journal and notify sockets, the udev monitor,
  /// the devices' epoll set and the devices themselves, with room to spare.
  public static let reserved = 64

  /// The current soft limit.
  public static var current: Int {
    guard let limit = try? SystemCalls.live.getRlimit(resource) else { return 1024 }
    return clamp(limit.rlim_cur)
  }

  /// Raises the soft limit to the hard limit, as systemd recommends for programs that need many
  /// descriptors and never use select(2) (systemd.exec(5), `LimitNOFILE=`: the soft limit stays
  /// 1024 for select's sake, programs that need more raise it themselves). touchd waits with epoll
  /// (NIO, libdispatch). Returns the soft limit before and after.
  @discardableResult
  public static func raiseToHard() -> (before: Int, after: Int) {
    let system = SystemCalls.live
    guard var limit = try? system.getRlimit(resource) else { return (1024, 1024) }
    let before = clamp(limit.rlim_cur)
    // An unlimited hard limit still stops at the kernel's nr_open (1048576 by default).
    let target = limit.rlim_max == unlimited ? rlim_t(1 << 20) : limit.rlim_max
    guard limit.rlim_cur < target else { return (before, before) }
    limit.rlim_cur = target
    guard (try? system.setRlimit(resource, limit)) != nil else { return (before, before) }
    return (before, current)
  }

  /// The number of clients that fit under the current limit: `wanted`, or fewer when the limit is
  /// lower than `wanted` plus ``reserved`` (so the client over the limit still gets an error line
  /// instead of a failed accept).
  public static func clientsThatFit(_ wanted: Int) -> Int {
    max(1, min(wanted, current - reserved))
  }

  /// `RLIM_INFINITY` (all ones; Swift cannot import the C macro's `-1` into the unsigned type).
  private static let unlimited = rlim_t.max

  private static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }

  private static func clamp(_ value: rlim_t) -> Int {
    value == unlimited || value > rlim_t(Int.max) ? Int.max : Int(value)
  }
}
