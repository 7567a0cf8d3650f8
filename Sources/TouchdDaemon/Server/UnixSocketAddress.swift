#if canImport(Glibc)
  import Glibc
#endif

/// An `AF_UNIX` socket address: a file path, or, with a leading `@` (as `NOTIFY_SOCKET` writes
/// it), a name in Linux's abstract namespace.
struct UnixSocketAddress {
  private var storage = sockaddr_un()
  /// The address length to pass with it: up to the end of the name (and a path's terminating zero).
  let length: socklen_t

  /// Nil for an empty name or one that does not fit `sun_path`.
  init?(_ name: String) {
    var bytes = Array(name.utf8)
    let abstract = name.hasPrefix("@")
    let capacity = MemoryLayout.size(ofValue: storage.sun_path)
    // A path needs its terminating zero inside sun_path; an abstract name does not.
    guard !bytes.isEmpty, bytes.count + (abstract ? 0 : 1) <= capacity else { return nil }
    if abstract { bytes[0] = 0 }
    storage.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &storage.sun_path) { $0.copyBytes(from: bytes) }
    length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + bytes.count + (abstract ? 0 : 1))
  }

  /// Calls `body` with the address as the `sockaddr` that bind, connect and sendto take.
  func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
    withUnsafePointer(to: storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
  }
}
