import TouchdInput

/// A live touchscreen: an `EvdevDevice` whose events become `TouchFrame`s through a
/// `FrameAssembler`, with `SYN_DROPPED` resynced and unplugging turned into cancelled touches.
///
/// Not thread-safe: owned by the serial queue its fd's `DispatchSourceRead` runs on; every call,
/// including `close()`, must be made there.
public final class TouchscreenDevice {
  /// The open node.
  public let device: EvdevDevice
  /// The contact protocol frames are assembled with.
  public let touchProtocol: TouchProtocol
  private let feed: FrameFeed

  /// Opens `path` (grabbing it when asked) and fails with `.notTouchscreen` unless it is one.
  /// `ids` is the daemon-wide allocator, so touch ids stay unique across devices.
  public convenience init(path: String, grab: Bool = false, ids: TouchIDAllocator) throws(DeviceError) {
    try self.init(device: EvdevDevice(path: path, grab: grab), ids: ids)
  }

  /// Adopts an already open device (discovery opened it to classify it).
  public init(device: EvdevDevice, ids: TouchIDAllocator) throws(DeviceError) {
    guard let touchProtocol = device.kind.touchProtocol else {
      throw .notTouchscreen(path: device.path, reason: device.decision.reason)
    }
    self.device = device
    self.touchProtocol = touchProtocol
    self.feed = FrameFeed(
      assembler: FrameAssembler(device: device.description, ids: ids), now: LinuxInput.monotonicNow)
  }

  /// The node, e.g. `/dev/input/event5`.
  public var path: String { device.path }
  /// The device's name.
  public var name: String { device.name }
  /// Name, ids, properties, codes and axes.
  public var description: DeviceDescription { device.description }
  /// The touchscreen's kind (never `.notTouchscreen`).
  public var kind: TouchscreenKind { device.kind }
  /// udev's `LIBINPUT_CALIBRATION_MATRIX`, nil when absent.
  public var calibrationMatrix: [Double]? { device.calibrationMatrix }
  /// The fd to put a `DispatchSourceRead` on; see `EvdevDevice.fileDescriptor`.
  public var fileDescriptor: Int32 { device.fileDescriptor }

  /// Reads every pending event and hands each completed frame to `deliver`, in order.
  ///
  /// On `SYN_DROPPED` the frame logic is told `beginSync()`, fed libevdev's resync events, and
  /// `endSync(at: now)` then cancels vanished touches and begins new ones. On ENODEV every live
  /// touch is cancelled (one last frame) and `.removed` returned: cancel the source and `close()`.
  public func readFrames(_ deliver: (TouchFrame) -> Void) throws(DeviceError) -> DeviceReadStatus {
    try feed.read(path: device.path, next: device.nextEvent, deliver: deliver)
  }

  /// How many times the kernel's buffer overflowed (`SYN_DROPPED`) and the device was resynced.
  public var resyncCount: Int { feed.drops }

  /// Cancels every live touch now, for a udev `remove` seen before the read reports ENODEV.
  public func cancelAllTouches() -> TouchFrame? { feed.removed() }

  /// Closes the device; call after cancelling its dispatch source.
  public func close() { device.close() }
}

/// Maps a device's reader items onto a `FrameAssembler`. Owned by its device's queue.
final class FrameFeed {
  let assembler: FrameAssembler
  /// CLOCK_MONOTONIC in production; a fake clock in tests.
  let now: () -> Timestamp
  /// How many `SYN_DROPPED` resyncs happened (the kernel buffer overflowed).
  private(set) var drops = 0

  init(assembler: FrameAssembler, now: @escaping () -> Timestamp) {
    self.assembler = assembler
    self.now = now
  }

  /// The frame an item completes, if any.
  func frame(for item: EvdevItem) -> TouchFrame? {
    switch item {
    case .event(let event), .syncEvent(let event):
      return assembler.process(event)
    case .dropped:
      drops += 1
      assembler.beginSync()
      return nil
    case .syncEnded:
      return assembler.endSync(at: now())
    }
  }

  /// The frame cancelling every live touch of a removed device.
  func removed() -> TouchFrame? { assembler.cancelAll(at: now()) }

  /// Drains `next` (libevdev_next_event, or a fake) into frames.
  func read(
    path: String, next: (EvdevReadMode) -> EvdevReadResult, deliver: (TouchFrame) -> Void
  ) throws(DeviceError) -> DeviceReadStatus {
    let status = try drainEvents(path: path, next: next) { item in
      if let frame = frame(for: item) { deliver(frame) }
    }
    if status == .removed, let frame = removed() { deliver(frame) }
    return status
  }
}
