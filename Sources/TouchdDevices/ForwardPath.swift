import CForwardPath
import CForwardShortcut
import TouchdInput

/// The forwarding shortcut's path on the input thread (docs/forward.md, "Frames and time"): when
/// the daemon's input thread wakes, ``run()`` reads the frame of each forwarded protocol B device
/// whose ``ForwardShortcut`` is armed, composes it and writes it to the device's virtual
/// touchscreen, all in C and before the thread enters the pipeline's queue. The events it read stay
/// buffered in the device, which hands them to the pipeline first, so the frame is delivered as
/// usual and the pipeline's own events for it are checked against the written ones.
///
/// The queue and the input thread share it by these rules (the C side's mutex orders them): the
/// input thread calls ``run()`` only; at the end of each input turn on the queue the daemon calls
/// ``publish()``, which lets the next ``run()`` use the armed shortcuts; any other work on the
/// queue starts with ``settle(_:)``, after which ``run()`` touches nothing until the next
/// ``publish()``, and whose callback names the devices to read first.
public final class ForwardPath: @unchecked Sendable {
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

  /// The input thread's turn before the queue. Returns the frames written.
  @discardableResult
  public func run() -> Int { Int(touchd_forward_path_run(path)) }

  /// The end of an input turn on the queue: armed shortcuts with nothing buffered are the path's.
  public func publish() { touchd_forward_path_publish(path) }

  /// The start of other work on the queue: the path takes nothing more until ``publish()``, and
  /// `read` gets the poll token of each device with buffered events (a frame the path may have
  /// written already), to be read and delivered before the work.
  public func settle(_ read: (UInt64) -> Void) {
    buffered(touchd_forward_path_settle(path, tokens, Int32(capacity)), read)
  }

  /// The poll tokens of the devices with buffered events, for the input turn on the queue.
  public func pending(_ read: (UInt64) -> Void) {
    buffered(touchd_forward_path_pending(path, tokens, Int32(capacity)), read)
  }

  private func buffered(_ count: Int32, _ read: (UInt64) -> Void) {
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
  /// naming the device in ``settle(_:)`` and ``pending(_:)``. Until ``detach(_:)``.
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
