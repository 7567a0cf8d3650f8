#if canImport(Glibc)
  import Glibc
#endif

/// A connected peer's identity, from `SO_PEERCRED`.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
  public var pid: Int32
  public var uid: UInt32
  public var gid: UInt32
  public init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }
  public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

/// Who may talk to the daemon, beyond the socket file's own mode and group.
///
/// With both lists empty every peer that can open the socket is allowed. Otherwise a peer is
/// allowed when its uid is listed, or its primary or a supplementary group is listed. Root and the
/// daemon's own user are always allowed.
public struct AccessPolicy: Sendable, Equatable {
  public var users: Set<UInt32>
  public var groups: Set<UInt32>

  public init(users: Set<UInt32> = [], groups: Set<UInt32> = []) {
    self.users = users
    self.groups = groups
  }

  /// Whether the policy lets `peer` in; `supplementaryGroups` are the peer user's other groups.
  public func allows(_ peer: PeerCredentials, supplementaryGroups: [UInt32], daemonUID: UInt32) -> Bool {
    if users.isEmpty && groups.isEmpty { return true }
    if peer.uid == 0 || peer.uid == daemonUID { return true }
    if users.contains(peer.uid) || groups.contains(peer.gid) { return true }
    return supplementaryGroups.contains { groups.contains($0) }
  }

  /// Resolves user and group names (or numeric ids) to ids; unknown names are errors naming them.
  public static func resolve(users: [String], groups: [String]) throws -> AccessPolicy {
    var policy = AccessPolicy()
    for name in users {
      if let id = UInt32(name) {
        policy.users.insert(id)
      } else if let pw = getpwnam(name) {
        policy.users.insert(pw.pointee.pw_uid)
      } else {
        throw AccessPolicyError(message: "unknown user '\(name)'")
      }
    }
    for name in groups {
      if let id = UInt32(name) {
        policy.groups.insert(id)
      } else if let gr = getgrnam(name) {
        policy.groups.insert(gr.pointee.gr_gid)
      } else {
        throw AccessPolicyError(message: "unknown group '\(name)'")
      }
    }
    return policy
  }

  /// The supplementary groups of `uid`'s user (empty when the user has no passwd entry).
  public static func supplementaryGroups(of uid: UInt32, primary gid: UInt32) -> [UInt32] {
    guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return [] }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(name, gid, &groups, &count) < 0 {
      groups = [gid_t](repeating: 0, count: Int(count))
      guard getgrouplist(name, gid, &groups, &count) >= 0 else { return [] }
    }
    return Array(groups.prefix(Int(count)))
  }
}

/// An access policy that names an unknown user or group.
public struct AccessPolicyError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
