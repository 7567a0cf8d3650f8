import CForwardPath
import CForwardShortcut
import TouchdInput

/// The forwarding shortcut's path (docs/forward.md, "Frames and time"): first in each input
/// handler on the pipeline's queue, once the daemon has armed the shortcuts from the scene's state,
/// ``run()`` reads the frame of the first forwarded protocol B device whose ``ForwardShortcut`` is
/// armed and that has input, composes it and writes it to the device's virtual touchscreen, all in
/// C and before any Swift reads the frame. The events it read stay buffered in the device, which
/// hands them to the pipeline first (``pending(_:)`` names it), so the frame is delivered as usual
/// and the pipeline's own events for it are checked against the written ones.
///
/// Owned by the pipeline's queue, like the devices and shortcuts it reads: no lock. ``run()``
/// leaves every shortcut disarmed (arming lasts one run), and reads one device at most, so the
/// frame it composes is the first the handler delivers, from the state it was armed from.
public final class ForwardPath {
  private let path: OpaquePointer
  private var tokens: UnsafeMutablePointer<UInt64>
  private var capacity = 16
  private var reading: [UInt64] = []

  public init() {
    guard let path = touchd_forward_path_create() else { fatalError("out of memory for the forwarding path") }
    self.path = path
    tokens = .allocate(capacity: capacity)
    reading.reserveCapacity(capacity)
  }

  deinit {
    touchd_forward_path_destroy(path)
    tokens.deallocate()
  }

  /// The input handler's first step, once the shortcuts are armed: reads the first armed device
  /// with input up to the end of a frame and writes the frame its shortcut composes; disarms every
  /// shortcut. Reads nothing while a device still holds events it read before. Returns the frames
  /// written (0 or 1).
  @discardableResult
  public func run() -> Int { Int(touchd_forward_path_run(path)) }

  /// Calls `read` with the poll token of each device holding events the path read (at most one
  /// after a ``run()``; its frame may be written already), to be read and delivered first.
  public func pending(_ read: (UInt64) -> Void) {
    let count = touchd_forward_path_pending(path, tokens, Int32(capacity))
    guard count > 0 else { return }
    if Int(count) > capacity {
      tokens.deallocate()
      capacity = Int(count)
      tokens = .allocate(capacity: capacity)
      _ = touchd_forward_path_pending(path, tokens, Int32(capacity))
    }
    // Copied first (into storage kept between calls: no allocation per frame), since `read` may
    // detach a device or call back into the path.
    reading.removeAll(keepingCapacity: true)
    reading.append(contentsOf: UnsafeBufferPointer(start: tokens, count: Int(count)))
    for token in reading { read(token) }
  }

  /// Lets the path read `device` and write the frames `shortcut` composes to `output`, `token`
  /// naming the device in ``pending(_:)``. Until ``detach(_:)``.
  public func attach(_ device: EvdevDevice, output: UinputDevice, shortcut: ForwardShortcut, token: UInt64) {
    detach(device)
    guard let evdev = device.libevdev, output.fileDescriptor >= 0,
      let entry = touchd_forward_path_attach(path, evdev, output.fileDescriptor, shortcut.composer, token)
    else { return }
    device.pathEntry = (self, entry)
  }

  /// An entry that reads from `reader` instead of a device and writes to `output` (for tests and
  /// benchmarks: a pipe, /dev/null); detach with ``detach(entry:)``, read what it buffered with
  /// ``next(_:)``.
  public func attach(
    reader: touchd_path_reader, context: UnsafeMutableRawPointer, output: Int32, shortcut: ForwardShortcut,
    token: UInt64
  ) -> OpaquePointer? {
    touchd_forward_path_attach_reader(path, reader, context, output, shortcut.composer, token)
  }

  /// Removes an entry made by ``attach(reader:context:output:shortcut:token:)``.
  public func detach(entry: OpaquePointer) { touchd_forward_path_detach(path, entry) }

  /// Hands over the oldest result `entry` buffered, nil when none is.
  public static func next(_ entry: OpaquePointer) -> EvdevReadResult? { LinuxInput.bufferedEvent(entry) }

  /// The path no longer reads `device`; what it buffered is read first, by the caller.
  public func detach(_ device: EvdevDevice) {
    guard let (owner, entry) = device.pathEntry, owner === self else { return }
    device.pathEntry = nil
    touchd_forward_path_detach(path, entry)
  }

  /// Writes the path made to `device`'s virtual touchscreen that failed.
  public func writeErrors(_ device: EvdevDevice) -> Int {
    device.pathEntry.map { Int(touchd_path_entry_write_errors($0.entry)) } ?? 0
  }
}
