import CTouchd
import TouchdInput
import TouchdSystem

/// An input device touchd creates through uinput: the virtual touchscreen a window with `forward:`
/// hands its unclaimed touches to (docs/forward.md). It exists from `init` until `destroy()` (or
/// deinit); when touchd exits, even killed, the kernel removes it with the uinput fd.
///
/// Its phys is ``DeviceDecision/ownPhysPrefix`` followed by the physical device's node name, so
/// touchd never reads it back (``DeviceDecision/decide(description:udev:phys:openError:)`` and the
/// udev rule 70-touchd.rules both know the prefix), whatever a scene's `devices:` match.
///
/// Not thread-safe: owned by the pipeline queue, like the device it forwards.
public final class UinputDevice {
  /// The device as created: name, ids, properties, codes and axes.
  public let description: DeviceDescription
  /// Its phys, `touchd/...`.
  public let phys: String
  /// Its event node (`/dev/input/eventN`), nil when libevdev could not find it in sysfs.
  public let node: String?
  /// The physical device's node it stands for.
  public let physical: String
  /// Writes that failed since it was created (the events are lost; nothing is retried).
  public private(set) var writeErrors = 0

  private var fd: Int32
  /// The uinput fd, -1 once destroyed (for the ``ForwardPath``, which writes frames to it).
  var fileDescriptor: Int32 { fd }
  private var handle: OpaquePointer?
  /// The `struct input_event`s of the last write, kept for the next.
  private var buffer: [input_event] = []

  /// Creates the device `description` describes, with phys `touchd/` + `physical`'s node name
  /// (`event5` for `/dev/input/event5`). `uinputPath` is `/dev/uinput` but for tests. Fails with
  /// `.uinput(path:, errno)`: ENOENT when the uinput module is not loaded, EACCES without access
  /// to the node (docs/forward.md, "Permissions").
  public init(description: DeviceDescription, physical: String, uinputPath: String = "/dev/uinput")
    throws(DeviceError)
  {
    let fd: Int32
    switch LinuxInput.openNode(uinputPath, access: O_RDWR) {
    case .success(let opened): fd = opened
    case .failure(let errno): throw .uinput(path: uinputPath, errno)
    }
    let name = physical.split(separator: "/").last.map(String.init) ?? physical
    let phys = DeviceDecision.ownPhysPrefix + name
    if let errno = LinuxInput.setUinputPhys(fd, phys) {
      LinuxInput.close(fd)
      throw .uinput(path: uinputPath, errno)
    }
    // The template is only read while the device is created.
    let created: OpaquePointer
    switch LinuxInput.createUinput(LinuxInput.Evdev(description: description), fd: fd) {
    case .success(let handle): created = handle
    case .failure(let errno):
      LinuxInput.close(fd)
      throw .uinput(path: uinputPath, errno)
    }
    self.fd = fd
    self.handle = created
    self.description = description
    self.phys = phys
    self.physical = physical
    self.node = LinuxInput.uinputDevnode(created)
  }

  deinit { destroy() }

  /// Writes `events` (whole frames, each ending in `SYN_REPORT`) in one write(2). uinput never
  /// blocks a writer: a reader that does not keep up gets `SYN_DROPPED` from its own buffer. A
  /// failed write is counted (``writeErrors``) and returned; the caller logs it.
  @discardableResult
  public func write(_ events: [InputEvent]) -> Errno? {
    guard handle != nil, !events.isEmpty else { return nil }
    let error = LinuxInput.writeEvents(fd, events, buffer: &buffer)
    if error != nil { writeErrors += 1 }
    return error
  }

  /// Removes the device and closes the uinput fd. Idempotent.
  public func destroy() {
    guard let handle else { return }
    LinuxInput.destroyUinput(handle)
    self.handle = nil
    LinuxInput.close(fd)
    fd = -1
  }
}
