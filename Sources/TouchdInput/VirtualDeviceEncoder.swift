/// What writes a virtual device's events from a window's forwarded changes (docs/forward.md): the
/// virtual touchscreen's ``ForwardEncoder`` and a pen display's ``PenForwardEncoder``.
public protocol VirtualDeviceEncoder: AnyObject {
  /// One change of what is forwarded (a touch's, a pen's).
  associatedtype Change
  /// The virtual device it writes to.
  var device: DeviceDescription { get }
  /// What it forwarded, for `status` and the metrics.
  var counters: ForwardCounters { get }
  /// Appends the events of one batch of changes at `time`, in order, each frame ending in
  /// `SYN_REPORT`: a caller that keeps `events` between batches allocates nothing for them.
  func encode(_ changes: [Change], at time: Timestamp, into events: inout [InputEvent])
}

extension VirtualDeviceEncoder {
  /// The events of one batch of changes at `time`, in order.
  public func encode(_ changes: [Change], at time: Timestamp) -> [InputEvent] {
    var events: [InputEvent] = []
    encode(changes, at: time, into: &events)
    return events
  }
}
