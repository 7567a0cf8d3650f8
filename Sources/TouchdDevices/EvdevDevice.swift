import TouchdInput
import TouchdSystem

/// An open `/dev/input/event*` node read through libevdev: its description and raw events.
///
/// Not thread-safe: the queue that opens it owns it (for the daemon, the pipeline queue, where the
/// ``DevicePoll`` it is in is read) and must make every call, including `close()`, there.
public final class EvdevDevice {
  /// The node, e.g. `/dev/input/event5`.
  public let path: String
  /// Name, ids, properties, every supported code and the absinfo of every axis.
  public let description: DeviceDescription
  /// What udev's database says of the device, nil when udev knows nothing of it.
  public let udev: UdevProperties?
  /// The device's physical path (`EVIOCGPHYS`), nil when it has none.
  public let phys: String?
  /// Whether touchd reads it as a touchscreen, and why.
  public let decision: DeviceDecision
  /// Whether udev tagged the device `ID_INPUT_TOUCHSCREEN=1` (false when udev does not know it).
  public var udevTouchscreen: Bool { udev?.classes?.contains(.touchscreen) ?? false }
  /// The udev `LIBINPUT_CALIBRATION_MATRIX` (six values, libinput's meaning), nil when absent or invalid.
  public var calibrationMatrix: [Double]? { udev?.calibrationMatrix }
  /// Whether this process holds the device exclusively (EVIOCGRAB).
  public private(set) var isGrabbed: Bool

  private var fd: Int32
  private let evdev: LinuxInput.Evdev

  /// Opens `path` O_RDONLY | O_NONBLOCK | O_CLOEXEC, switches its event clock to CLOCK_MONOTONIC,
  /// reads its capabilities with libevdev and, when `grab` is set, takes it exclusively.
  public init(path: String, grab: Bool = false) throws(DeviceError) {
    let fd: Int32
    switch LinuxInput.openNode(path) {
    case .success(let opened): fd = opened
    case .failure(let errno): throw .open(path: path, errno)
    }
    do {
      evdev = try LinuxInput.Evdev(fd: fd)
    } catch {
      LinuxInput.close(fd)
      throw .evdev(path: path, error)
    }
    // Times must be CLOCK_MONOTONIC so frames compare with `now` after a resync or removal. A
    // kernel older than 4.4 refuses; it then keeps CLOCK_REALTIME, which only skews those two cases.
    _ = LinuxInput.setClockMonotonic(fd)
    if grab, let errno = LinuxInput.grab(evdev.pointer, true) {
      LinuxInput.close(fd)
      throw .grab(path: path, errno)
    }
    self.path = path
    self.fd = fd
    self.isGrabbed = grab
    self.description = evdev.describe()
    self.phys = evdev.phys()
    self.udev = LinuxInput.udevNode(path: path)?.properties
    self.decision = DeviceDecision.decide(description: description, udev: udev, phys: phys)
  }

  deinit { close() }

  /// A multitouch slot's current value of `code` as libevdev knows it (read at open and kept up to
  /// date by its events), nil when the device has no such slot or axis.
  public func slotValue(_ slot: Int, _ code: UInt16) -> Int32? {
    fd >= 0 ? LinuxInput.slotValue(evdev.pointer, slot: slot, code: code) : nil
  }

  /// A switch's current value as libevdev knows it, nil when the device has no such switch.
  public func switchValue(_ code: UInt16) -> Int32? {
    fd >= 0 ? LinuxInput.switchValue(evdev.pointer, code: code) : nil
  }

  /// The device's name (`EVIOCGNAME`).
  public var name: String { description.name }

  /// Whether and how the device is a touchscreen (`decision.kind`).
  public var kind: TouchscreenKind { decision.kind }

  /// The non-blocking fd to watch for readability (in a ``DevicePoll``), -1 once closed.
  /// Owned by the device: do not close it; remove it from the poll set before calling `close()`.
  public var fileDescriptor: Int32 { fd }

  /// Reads every pending event, handing each to `handle` in order.
  ///
  /// After `SYN_DROPPED` the events libevdev synthesizes to resync are handed on too, so a
  /// recording of them replays to the device's real state. Returns `.removed` when the device was
  /// unplugged (ENODEV), `.drained` when nothing more is pending; EINTR is retried.
  public func readEvents(_ handle: (InputEvent) -> Void) throws(DeviceError) -> DeviceReadStatus {
    try read { item in
      switch item {
      case .event(let event), .dropped(let event), .syncEvent(let event): handle(event)
      case .syncEnded: break
      }
    }
  }

  /// Reads every pending event, with the resync boundaries.
  func read(_ handle: (EvdevItem) -> Void) throws(DeviceError) -> DeviceReadStatus {
    try drainEvents(path: path, next: nextEvent, handle: handle)
  }

  /// The device's place in the ``ForwardPath`` when it is a forwarded protocol B touchscreen: the
  /// events the path read ahead on the input thread are handed over first. Set by the path; the
  /// device leaves the path when it is closed, if it has not already.
  var pathEntry: (path: ForwardPath, entry: OpaquePointer)?

  /// The libevdev handle, for the ``ForwardPath``; nil once closed.
  var libevdev: OpaquePointer? { fd >= 0 ? evdev.pointer : nil }

  /// One `libevdev_next_event` (or a result the ``ForwardPath`` read ahead); ENODEV once closed.
  func nextEvent(_ mode: EvdevReadMode) -> EvdevReadResult {
    guard fd >= 0 else { return .failure(.noDevice) }
    if let pathEntry, let buffered = LinuxInput.bufferedEvent(pathEntry.entry) { return buffered }
    return LinuxInput.nextEvent(evdev.pointer, mode)
  }

  /// Releases the grab and closes the fd. Idempotent.
  public func close() {
    pathEntry?.path.detach(self)
    guard fd >= 0 else { return }
    if isGrabbed {
      _ = LinuxInput.grab(evdev.pointer, false)
      isGrabbed = false
    }
    LinuxInput.close(fd)
    fd = -1
  }
}
