import Logging
import TouchdDevices
import TouchdInput
import TouchdScene

/// The virtual touchscreens of the live touchscreens a window with `forward:` takes
/// (docs/forward.md), and the virtual pens of its pen displays (docs/pens.md): one uinput device per physical device, created before the physical device is
/// grabbed and destroyed when it is closed (unplugged, touchd stopping, a new scene that forwards
/// it differently or not at all). A new scene that forwards it the same way keeps it.
///
/// The scene's forwarding (`SceneRuntime.addForwarding`) decides what goes to each; this writes it,
/// one write(2) per frame batch, from the pipeline queue: uinput never blocks a writer.
///
/// Fail-open: when the virtual device cannot be created (no uinput module, no access), the
/// physical device is read without a grab, so the compositor still gets every touch; the error
/// says why and how to fix it.
final class LiveForwarding {
  private let logger: Logger
  private let uinputPath: String
  /// By source (the live device's number).
  private var devices: [Int: UinputDevice] = [:]
  /// The forwarding shortcut of each forwarded protocol B touchscreen, by source.
  private var shortcuts: [Int: ForwardShortcut] = [:]
  /// The input thread's path that writes the shortcuts' frames, and the devices it reads, by source.
  let path: ForwardPath
  private var connected: [Int: EvdevDevice] = [:]
  /// Called after each batch is written (the daemon's `forwarded` latency stage).
  var didWrite: (() -> Void)?

  init(logger: Logger, uinputPath: String, path: ForwardPath) {
    self.logger = logger
    self.uinputPath = uinputPath
    self.path = path
  }

  /// Creates the virtual touchscreen of the physical touchscreen at `path` (described by
  /// `physical`), whose frames `runtime` gets in window `window` with `source`. Returns whether it
  /// exists now: the caller then grabs the physical device. False, with the error logged, when
  /// uinput refused (the caller reads the device without a grab) or the window has no `forward:`.
  func attach(
    _ physical: DeviceDescription, path: String, source: Int, window: Int, runtime: SceneRuntime
  ) -> Bool {
    guard
      let description = runtime.addForwarding(
        of: physical, source: source, inWindow: window, output: output(to: source))
    else { return false }
    do {
      let device = try UinputDevice(description: description, physical: path, uinputPath: uinputPath)
      devices[source] = device
      shortcuts[source] = ForwardShortcut(physical: physical)
      logger.info(
        "\(Self.kind(of: description)) created",
        metadata: [
          "device.path": "\(path)", "virtual.node": "\(device.node ?? "unknown")",
          "virtual.name": "\(description.name)", "virtual.phys": "\(device.phys)",
        ])
      return true
    } catch {
      runtime.removeForwarding(source: source)
      logger.error(
        "cannot forward: the touchscreen is read without a grab, so the compositor gets every touch",
        metadata: ["device.path": "\(path)", "error": "\(error)", "see": "docs/forward.md"])
      return false
    }
  }

  /// Hands `source`'s virtual touchscreen from `previous` to `runtime`, a new scene's, when that
  /// scene forwards the physical touchscreen (described by `physical`) in window `window` to the
  /// same virtual device: the same description, so the same name, axes and slots. Returns whether
  /// it did; when not, the caller closes the device, which removes the virtual touchscreen, and
  /// opens it again. `previous` must have cancelled and flushed its forwarded touches: `runtime`
  /// writes on from the device's state as they left it, every slot free.
  func carryOver(
    _ physical: DeviceDescription, source: Int, window: Int, from previous: SceneRuntime, to runtime: SceneRuntime
  ) -> Bool {
    guard let device = devices[source] else { return false }
    guard
      let description = runtime.addForwarding(
        of: physical, source: source, inWindow: window, continuing: previous, output: output(to: source))
    else { return false }
    guard description == device.description else {
      runtime.removeForwarding(source: source)
      return false
    }
    return true
  }

  /// Removes `source`'s virtual touchscreen after what is pending for it has left (cancel its
  /// touches first). Nothing when it has none.
  func detach(source: Int, runtime: SceneRuntime) {
    if let device = connected.removeValue(forKey: source) { path.detach(device) }
    runtime.removeForwarding(source: source)
    shortcuts[source]?.disarm()
    shortcuts[source] = nil
    guard let device = devices.removeValue(forKey: source) else { return }
    device.destroy()
    logger.info(
      "\(Self.kind(of: device.description)) removed",
      metadata: [
        "device.path": "\(device.physical)",
        "virtual.node": "\(device.node ?? "unknown")", "writeErrors": "\(device.writeErrors)",
      ])
  }

  /// What a virtual device is, in the journal: a pen display's is a pen (docs/pens.md).
  static func kind(of description: DeviceDescription) -> String {
    description.isPenDisplay ? "virtual pen" : "virtual touchscreen"
  }

  /// Whether `source` forwards to a virtual touchscreen.
  func isForwarding(source: Int) -> Bool { devices[source] != nil }

  /// Lets the input thread's path read `device`, `source`'s physical touchscreen polled as
  /// `token`, and write the frames its shortcut composes; nothing unless `source` forwards a
  /// protocol B touchscreen. Until ``detach(source:runtime:)``.
  func connect(_ device: EvdevDevice, source: Int, token: UInt64) {
    guard let shortcut = shortcuts[source], let output = devices[source] else { return }
    path.attach(device, output: output, shortcut: shortcut, token: token)
    connected[source] = device
  }

  /// `source`'s forwarding shortcut, nil unless `source` forwards a protocol B touchscreen.
  func shortcut(source: Int) -> ForwardShortcut? { shortcuts[source] }

  /// After a frame of `source` was delivered: a frame the shortcut wrote that the pipeline
  /// forwarded nothing for is a mismatch (the compositor got a motion the replay has not).
  func frameDelivered(source: Int) {
    guard let shortcut = shortcuts[source], shortcut.awaitsConfirmation else { return }
    shortcut.confirmNothing()
    logMismatch(shortcut, source: source, "the pipeline forwarded nothing for the frame")
  }

  /// Every shortcut disarmed: anything but a frame may change what the next frame does.
  func disarmShortcuts() {
    for shortcut in shortcuts.values { shortcut.disarm() }
  }

  /// `status`'s `forward` of a device: the virtual node and name, and its touches (forwarded,
  /// held, released, cancelled, without a free slot) and failed writes; nil when not forwarding.
  func status(source: Int, runtime: SceneRuntime) -> StatusReply.ForwardStatus? {
    guard let device = devices[source] else { return nil }
    let c = runtime.forwardCounters(source: source) ?? ForwardCounters()
    return StatusReply.ForwardStatus(
      node: device.node, name: device.description.name, forwarded: c.forwarded, held: c.held,
      released: c.released, cancelled: c.cancelled, noSlot: c.noSlot,
      writeErrors: device.writeErrors + (connected[source].map(path.writeErrors) ?? 0),
      shortcutFrames: shortcuts[source]?.confirmed ?? 0, shortcutMismatches: shortcuts[source]?.mismatches ?? 0)
  }

  /// What `source`'s forwarding writes through: its virtual touchscreen, while it has one.
  private func output(to source: Int) -> ([InputEvent]) -> Void {
    { [unowned self] events in write(events, source: source) }
  }

  private func write(_ events: [InputEvent], source: Int) {
    guard let device = devices[source] else { return }
    if let shortcut = shortcuts[source], shortcut.awaitsConfirmation {
      // The shortcut wrote this frame as it was read: the same events are already there.
      if shortcut.confirm(events) { return }
      logMismatch(shortcut, source: source, "the pipeline forwarded other events for the frame")
    }
    let failed = device.write(events)
    didWrite?()
    guard let error = failed else { return }
    // The first failure, then one in a thousand: a broken device must not flood the journal.
    if device.writeErrors % 1000 == 1 {
      logger.error(
        "cannot write to the \(Self.kind(of: device.description)); these touches are lost to the compositor",
        metadata: [
          "virtual.node": "\(device.node ?? "unknown")", "error": "\(error)", "writeErrors": "\(device.writeErrors)",
        ])
    }
  }

  /// A frame the shortcut wrote is not what the pipeline forwarded (counted by the shortcut, for
  /// `status`): a fault of touchd's, logged (the first, then one in a thousand). The pipeline's
  /// events are written after the shortcut's, so the virtual device ends in the pipeline's state.
  private func logMismatch(_ shortcut: ForwardShortcut, source: Int, _ what: String) {
    guard shortcut.mismatches % 1000 == 1 else { return }
    logger.error(
      "forwarding shortcut mismatch: \(what)",
      metadata: [
        "virtual.node": "\(devices[source]?.node ?? "unknown")", "shortcutMismatches": "\(shortcut.mismatches)",
      ])
  }
}
