import TouchdInput

/// A live device touchd reads: an `EvdevDevice` whose events become `TouchFrame`s through a
/// `FrameAssembler` (a touchscreen), `KeyFrame`s through a `KeyAssembler` (a key device a scene
/// window names in `keys.devices`), or both from one fd (a touchscreen with its own keys, named by
/// `keys.devices` too), with `SYN_DROPPED` resynced and unplugging turned into cancelled touches
/// and keys.
///
/// Not thread-safe: owned by the serial queue that reads its ``DevicePoll``; every call, including
/// `close()`, must be made there.
public final class InputDevice {
  /// The open node.
  public let device: EvdevDevice
  /// The contact protocol touch frames are assembled with, nil when touches are not read or the
  /// device is a pen (read by a ``PenAssembler``).
  public let touchProtocol: TouchProtocol?
  /// Whether key frames are read.
  public let readsKeys: Bool
  private let feed: FrameFeed

  /// Opens `path` (grabbing it when asked) and reads its touches (with `touches`, the daemon-wide
  /// allocator, so touch ids stay unique across devices), its keys (`keys`), or both. Fails with
  /// `.notTouchscreen` when touches are asked of a device that is not a touchscreen, `.noKeys` when
  /// keys are asked of one without keys that make presses.
  public convenience init(
    path: String, grab: Bool = false, touches: TouchIDAllocator?, keys: Bool
  ) throws(DeviceError) {
    try self.init(device: EvdevDevice(path: path, grab: grab), touches: touches, keys: keys)
  }

  /// Adopts an already open device (discovery opened it to classify it). See
  /// ``init(path:grab:touches:keys:)``; asking for neither touches nor keys reads keys.
  public init(device: EvdevDevice, touches ids: TouchIDAllocator?, keys: Bool) throws(DeviceError) {
    if ids != nil {
      guard device.kind.isTouchscreen else {
        throw .notTouchscreen(path: device.path, reason: device.decision.reason)
      }
    }
    let readsKeys = keys || ids == nil
    if readsKeys && !KeyAssembler.hasKeys(device.description) { throw .noKeys(path: device.path) }
    self.device = device
    self.touchProtocol = ids == nil ? nil : device.kind.touchProtocol
    self.readsTouches = ids != nil
    self.readsKeys = readsKeys
    let reader = ids.map { ContactReader(device: device.description, ids: $0) }
    // The slots' state at open: a finger landing where the last one lifted sends no position.
    reader?.frameAssembler?.seedSlots { slot, code in device.slotValue(slot, code) }
    self.feed = FrameFeed(
      reader: reader, keys: readsKeys ? KeyAssembler(device: device.description) : nil,
      now: LinuxInput.monotonicNow)
  }

  /// The frames of the state the device was in when opened, for what the kernel reports no event:
  /// headphones already plugged into the jack (the headphone switch down from the start).
  public func openingFrames() -> [DeviceFrame] {
    let plugged = device.switchValue(SW.headphoneInsert) == 1
    return feed.keys?.seedHeadphones(plugged: plugged, at: feed.now()).map { [.keys($0)] } ?? []
  }

  /// The node, e.g. `/dev/input/event5`.
  public var path: String { device.path }
  /// The device's name.
  public var name: String { device.name }
  /// Name, ids, properties, codes and axes.
  public var description: DeviceDescription { device.description }
  /// Whether touch frames are read (a touchscreen's, or a pen display's).
  public let readsTouches: Bool
  /// udev's `LIBINPUT_CALIBRATION_MATRIX`, nil when absent.
  public var calibrationMatrix: [Double]? { device.calibrationMatrix }
  /// The assembler of its touch frames, nil when touches are not read or the device is a pen.
  public var assembler: FrameAssembler? { feed.reader?.frameAssembler }
  /// The fd to add to a ``DevicePoll``; see `EvdevDevice.fileDescriptor`.
  public var fileDescriptor: Int32 { device.fileDescriptor }

  /// Reads every pending event and hands each completed frame to `deliver`, in order; a touch frame
  /// comes before the key frame the same `SYN_REPORT` completes.
  ///
  /// On `SYN_DROPPED` the assemblers are told `beginSync()`, fed libevdev's resync events, and
  /// `endSync(at: now)` then cancels vanished touches and released keys and begins new ones. On
  /// ENODEV every live touch and key is cancelled (last frames) and `.removed` returned: cancel
  /// the source and `close()`.
  public func readFrames(_ deliver: (DeviceFrame) -> Void) throws(DeviceError) -> DeviceReadStatus {
    try feed.read(path: device.path, next: device.nextEvent, deliver: deliver)
  }

  /// How many times the kernel's buffer overflowed (`SYN_DROPPED`) and the device was resynced.
  public var resyncCount: Int { feed.drops }

  /// Cancels every live touch, then every key down, now: for a udev `remove` seen before the read
  /// reports ENODEV, or a device closed while touched or pressed.
  public func cancelAll() -> [DeviceFrame] {
    var frames: [DeviceFrame] = []
    feed.removed { frames.append($0) }
    return frames
  }

  /// Closes the device; call after removing its fd from the ``DevicePoll``.
  public func close() { device.close() }
}

/// Maps a device's reader items onto its assemblers. Owned by its device's queue.
final class FrameFeed {
  let reader: ContactReader?
  let keys: KeyAssembler?
  /// CLOCK_MONOTONIC in production; a fake clock in tests.
  let now: () -> Timestamp
  /// How many `SYN_DROPPED` resyncs happened (the kernel buffer overflowed).
  private(set) var drops = 0

  init(reader: ContactReader?, keys: KeyAssembler? = nil, now: @escaping () -> Timestamp) {
    self.reader = reader
    self.keys = keys
    self.now = now
  }

  /// Hands the frames an item completes to `deliver`: touches first, then keys.
  func frames(for item: EvdevItem, _ deliver: (DeviceFrame) -> Void) {
    switch item {
    case .event(let event), .syncEvent(let event):
      if let frame = reader?.process(event) { deliver(.touches(frame)) }
      if let frame = keys?.process(event) { deliver(.keys(frame)) }
    case .dropped:
      drops += 1
      reader?.beginSync()
      keys?.beginSync()
    case .syncEnded:
      let time = now()
      if let frame = reader?.endSync(at: time) { deliver(.touches(frame)) }
      if let frame = keys?.endSync(at: time) { deliver(.keys(frame)) }
    }
  }

  /// The frames cancelling every live touch, then every key down, of a removed device.
  func removed(_ deliver: (DeviceFrame) -> Void) {
    let time = now()
    if let frame = reader?.cancelAll(at: time) { deliver(.touches(frame)) }
    if let frame = keys?.cancelAll(at: time) { deliver(.keys(frame)) }
  }

  /// Drains `next` (libevdev_next_event, or a fake) into frames.
  func read(
    path: String, next: (EvdevReadMode) -> EvdevReadResult, deliver: (DeviceFrame) -> Void
  ) throws(DeviceError) -> DeviceReadStatus {
    let status = try drainEvents(path: path, next: next) { item in frames(for: item, deliver) }
    if status == .removed { removed(deliver) }
    return status
  }

  /// ``read(path:next:deliver:)`` for the touch frames alone.
  func read(
    path: String, next: (EvdevReadMode) -> EvdevReadResult, touches: (TouchFrame) -> Void
  ) throws(DeviceError) -> DeviceReadStatus {
    try read(path: path, next: next) { frame in
      if case .touches(let touchFrame) = frame { touches(touchFrame) }
    }
  }
}
