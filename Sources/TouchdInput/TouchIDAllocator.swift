// Touch identities: the daemon-wide counter every FrameAssembler takes a new touch's id from.

import Foundation

/// Hands out daemon-wide touch identities, one per touch, never reused. Share one between devices.
public final class TouchIDAllocator: @unchecked Sendable {
  private let lock = NSLock()
  private var nextValue: UInt64

  /// Starts counting at `first`.
  public init(first: UInt64 = 1) { nextValue = first }

  /// A new, never used identity.
  public func next() -> TouchID {
    lock.lock()
    defer { lock.unlock() }
    let id = nextValue
    nextValue &+= 1
    return TouchID(rawValue: id)
  }
}
