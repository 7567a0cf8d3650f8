// Every libevdev and libudev call touchd makes, in one file, so a reviewer sees that C surface at
// once (the swift-system and libinput way), with the devices' system calls as TouchdDevices uses
// them: those go through the system-call seam (TouchdSystem's SystemCalls.live), like every system
// call of touchd's Swift code. Nothing else in TouchdDevices calls C but ForwardPath.swift, the
// forwarding shortcut's C path (CForwardPath) on the input thread.
import CForwardPath
import CTouchd
import Glibc
import TouchdInput
import TouchdSystem

/// Thin, total wrappers over the C calls. Each returns Swift values and positive errno codes; none
/// keeps state. Not thread-safe on its own: callers own the handles they pass.
enum LinuxInput {
  // MARK: - System calls (through the seam)

  /// The system calls the devices make.
  static var system: SystemCalls { .live }

  /// Opens a node non-blocking and close-on-exec, read-only unless `access` says otherwise (an
  /// evdev node; `O_RDWR` for `/dev/uinput`); returns the fd or an errno. EINTR is retried.
  static func openNode(_ path: String, access: Int32 = O_RDONLY) -> Result<Int32, Errno> {
    do {
      return .success(try system.open(path, access | O_NONBLOCK | O_CLOEXEC))
    } catch {
      return .failure(error.errno)
    }
  }

  /// Closes a file descriptor; errors (even EINTR) are ignored, as Linux always releases the fd.
  static func close(_ fd: Int32) { system.close(fd) }

  /// Asks the kernel to stamp this fd's events with CLOCK_MONOTONIC (EVIOCSCLOCKID), as libinput does.
  static func setClockMonotonic(_ fd: Int32) -> Errno? {
    do {
      try system.setClockMonotonic(fd)
      return nil
    } catch {
      return error.errno
    }
  }

  /// The current CLOCK_MONOTONIC time, the clock live events are stamped with.
  static func monotonicNow() -> Timestamp {
    Timestamp(microseconds: system.monotonicMicroseconds())
  }

  /// The character-device number of a node, to find its udev device.
  static func deviceNumber(_ path: String) -> dev_t? {
    guard let info = try? system.stat(path), (info.st_mode & S_IFMT) == S_IFCHR else { return nil }
    return info.st_rdev
  }

  /// A new epoll set, close-on-exec; the fd or an errno.
  static func epollCreate() -> Result<Int32, Errno> {
    do {
      return .success(try system.epollCreate())
    } catch {
      return .failure(error.errno)
    }
  }

  /// Adds `fd` to the epoll set `epoll`, level-triggered for input, tagged `token`.
  static func epollAdd(_ epoll: Int32, _ fd: Int32, token: UInt64) -> Errno? {
    do {
      try system.epollAdd(epoll, fd, token: token)
      return nil
    } catch {
      return error.errno
    }
  }

  /// Removes `fd` from the epoll set (before `fd` is closed); errors are ignored: the only ones
  /// possible mean it was not in the set.
  static func epollRemove(_ epoll: Int32, _ fd: Int32) { system.epollRemove(epoll, fd) }

  /// The tokens of the set's fds that are ready now (no waiting), at most 64; EINTR is retried,
  /// other errors give none.
  static func epollReady(_ epoll: Int32) -> [UInt64] {
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { buffer in
      let count = (try? system.epollWait(epoll, into: buffer, timeout: 0)) ?? 0
      return count > 0 ? Array(buffer[0..<count]) : []
    }
  }

  // MARK: - libevdev

  /// Reads one event with `libevdev_next_event`.
  static func nextEvent(_ dev: OpaquePointer, _ mode: EvdevReadMode) -> EvdevReadResult {
    var raw = input_event()
    let flags =
      switch mode {
      case .normal: LIBEVDEV_READ_FLAG_NORMAL.rawValue
      case .sync: LIBEVDEV_READ_FLAG_SYNC.rawValue
      }
    let status = libevdev_next_event(dev, flags, &raw)
    let event = InputEvent(
      time: Timestamp(seconds: Int64(ctouchd_event_sec(&raw)), microseconds: Int64(ctouchd_event_usec(&raw))),
      type: raw.type, code: raw.code, value: raw.value)
    return EvdevReadResult(status: status, event: event)
  }

  /// The oldest result the ``ForwardPath`` read ahead for a device (its `entry`), nil when none is
  /// buffered: what ``nextEvent(_:_:)`` returned to the path.
  static func bufferedEvent(_ entry: OpaquePointer) -> EvdevReadResult? {
    var status: Int32 = 0
    var raw = touchd_shortcut_event()
    guard touchd_path_entry_next(entry, &status, &raw) else { return nil }
    return EvdevReadResult(
      status: status,
      event: InputEvent(
        time: Timestamp(microseconds: raw.microseconds), type: raw.type, code: raw.code, value: raw.value))
  }

  /// `libevdev_grab`: exclusive access (no other reader sees the events) or its release.
  /// libevdev's current value of `code` in multitouch slot `slot`, nil when the device has no such
  /// slot or axis.
  static func slotValue(_ dev: OpaquePointer, slot: Int, code: UInt16) -> Int32? {
    guard slot >= 0, slot < Int(libevdev_get_num_slots(dev)),
      libevdev_has_event_code(dev, UInt32(EV_ABS), UInt32(code)) == 1
    else { return nil }
    return libevdev_get_slot_value(dev, UInt32(slot), UInt32(code))
  }

  /// libevdev's current value of switch `code` (`EV_SW`; read with `EVIOCGSW` at open, kept up to
  /// date by its events), nil when the device has no such switch.
  static func switchValue(_ dev: OpaquePointer, code: UInt16) -> Int32? {
    guard libevdev_has_event_code(dev, UInt32(EV_SW), UInt32(code)) == 1 else { return nil }
    return libevdev_get_event_value(dev, UInt32(EV_SW), UInt32(code))
  }

  static func grab(_ dev: OpaquePointer, _ on: Bool) -> Errno? {
    let status = libevdev_grab(dev, on ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB)
    return status == 0 ? nil : Errno(-status)
  }

  /// The device's physical path (`EVIOCGPHYS`, `libevdev_get_phys`), nil when it has none.
  static func phys(_ dev: OpaquePointer) -> String? {
    libevdev_get_phys(dev).map { String(cString: $0) }
  }

  /// Everything libevdev knows about a device: name, ids, properties, every code of every type,
  /// absinfo of every axis. Works on a kernel-backed handle and on one made with `libevdev_new()`.
  static func describe(_ dev: OpaquePointer) -> DeviceDescription {
    let name = libevdev_get_name(dev).map { String(cString: $0) } ?? ""
    let id = InputID(
      bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
      vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
      product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
      version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev)))
    var properties = Set<UInt16>()
    for property in 0...UInt32(INPUT_PROP_MAX) where libevdev_has_property(dev, property) != 0 {
      properties.insert(UInt16(property))
    }
    var events: [UInt16: Set<UInt16>] = [:]
    var absInfo: [UInt16: AbsInfo] = [:]
    for type in 1...UInt32(EV_MAX) where libevdev_has_event_type(dev, type) != 0 {
      let maxCode = libevdev_event_type_get_max(type)
      guard maxCode >= 0 else { continue }
      var codes = Set<UInt16>()
      for code in 0...UInt32(maxCode) where libevdev_has_event_code(dev, type, code) != 0 {
        codes.insert(UInt16(code))
        if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(dev, code)?.pointee {
          absInfo[UInt16(code)] = AbsInfo(
            value: info.value, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz, flat: info.flat,
            resolution: info.resolution)
        }
      }
      events[UInt16(type)] = codes
    }
    // The kernel's EV_SYN bitmap (EVIOCGBIT(0)) is the set of supported types: evemu's `B: 00` line.
    // libevdev answers "yes" to every EV_SYN code, so rebuild that bitmap from the types found.
    events[UInt16(EV_SYN)] = Set(events.keys).union([UInt16(EV_SYN)])
    return DeviceDescription(name: name, id: id, properties: properties, events: events, absInfo: absInfo)
  }

  /// Owns one `struct libevdev`. Confined to the thread or queue of its owner.
  final class Evdev {
    let pointer: OpaquePointer

    /// A device without a kernel node (`libevdev_new()`), to build descriptions in tests.
    init() {
      guard let pointer = libevdev_new() else { fatalError("libevdev_new: out of memory") }
      self.pointer = pointer
    }

    /// A device without a kernel node carrying `description`: its name, ids, properties, codes
    /// and axes (a uinput device's template).
    convenience init(description: DeviceDescription) {
      self.init()
      setName(description.name)
      setID(description.id)
      for property in description.properties { enable(property: property) }
      for (type, codes) in description.events where type != UInt16(EV_SYN) {
        for code in codes {
          enable(type: type, code: code, abs: type == UInt16(EV_ABS) ? description.absInfo[code] : nil)
        }
      }
    }

    /// A handle reading `fd` (`libevdev_new_from_fd`); the fd stays owned by the caller.
    init(fd: Int32) throws(Errno) {
      var pointer: OpaquePointer?
      let status = libevdev_new_from_fd(fd, &pointer)
      guard status == 0, let pointer else { throw Errno(-status) }
      self.pointer = pointer
    }

    deinit { libevdev_free(pointer) }

    /// `LinuxInput.describe` of this handle, which stays alive for the call.
    func describe() -> DeviceDescription { LinuxInput.describe(pointer) }

    /// `LinuxInput.phys` of this handle.
    func phys() -> String? { LinuxInput.phys(pointer) }

    func setPhys(_ phys: String) { libevdev_set_phys(pointer, phys) }

    /// `LinuxInput.slotCount` of this handle.
    func slotCount() -> Int? { LinuxInput.slotCount(pointer) }

    func setName(_ name: String) { libevdev_set_name(pointer, name) }

    func setID(_ id: InputID) {
      libevdev_set_id_bustype(pointer, Int32(id.bustype))
      libevdev_set_id_vendor(pointer, Int32(id.vendor))
      libevdev_set_id_product(pointer, Int32(id.product))
      libevdev_set_id_version(pointer, Int32(id.version))
    }

    func enable(property: UInt16) { libevdev_enable_property(pointer, UInt32(property)) }

    /// Enables `code` of `type`; EV_ABS codes need their `AbsInfo`.
    func enable(type: UInt16, code: UInt16, abs: AbsInfo? = nil) {
      if let abs {
        var info = input_absinfo(
          value: abs.value, minimum: abs.minimum, maximum: abs.maximum, fuzz: abs.fuzz, flat: abs.flat,
          resolution: abs.resolution)
        libevdev_enable_event_code(pointer, UInt32(type), UInt32(code), &info)
      } else {
        libevdev_enable_event_code(pointer, UInt32(type), UInt32(code), nil)
      }
    }
  }

  // MARK: - uinput

  /// `UI_SET_PHYS` on a uinput fd before its device is created.
  static func setUinputPhys(_ fd: Int32, _ phys: String) -> Errno? {
    do {
      try system.setUinputPhys(fd, phys)
      return nil
    } catch {
      return error.errno
    }
  }

  /// Creates the uinput device `dev` describes on the open uinput `fd`, which stays the caller's
  /// (`libevdev_uinput_create_from_device`); the handle to destroy it with.
  static func createUinput(_ dev: Evdev, fd: Int32) -> Result<OpaquePointer, Errno> {
    var handle: OpaquePointer?
    let status = libevdev_uinput_create_from_device(dev.pointer, fd, &handle)
    guard status == 0, let handle else { return .failure(Errno(-status)) }
    return .success(handle)
  }

  /// The created device's node (`/dev/input/eventN`), nil when libevdev could not find it in sysfs.
  static func uinputDevnode(_ handle: OpaquePointer) -> String? {
    libevdev_uinput_get_devnode(handle).map { String(cString: $0) }
  }

  /// Removes the device (`UI_DEV_DESTROY`); the fd stays open, the caller's to close.
  static func destroyUinput(_ handle: OpaquePointer) { libevdev_uinput_destroy(handle) }

  /// Writes `events` to a uinput fd in one write(2): the kernel stamps them itself, so their times
  /// are ignored. EINTR is retried; a short write (never seen: uinput takes whole events) reports EIO.
  /// `raw` is the caller's buffer, kept between calls so that a write allocates nothing.
  static func writeEvents(_ fd: Int32, _ events: [InputEvent], buffer raw: inout [input_event]) -> Errno? {
    raw.removeAll(keepingCapacity: true)
    for event in events {
      var e = input_event()
      e.type = event.type
      e.code = event.code
      e.value = event.value
      raw.append(e)
    }
    let outcome = raw.withUnsafeBytes { bytes in
      Result { () throws(SystemCallError) in try system.write(fd, bytes) }
    }
    switch outcome {
    case .success(.processed(let written)):
      return written == MemoryLayout<input_event>.stride * raw.count ? nil : Errno(EIO)
    case .success(.wouldBlock): return .wouldBlock
    case .failure(let error): return error.errno
    }
  }

  // MARK: - libudev

  /// What touchd reads from one udev input device.
  struct UdevNode: Equatable {
    var syspath: String
    var devnode: String?
    var action: String?
    /// The `ID_INPUT_*` classes, nil when udev has no answer for the device (no `ID_INPUT=1`: no
    /// udevd, or its rules have not run yet).
    var classes: InputClasses?
    /// `TOUCHD_IGNORE=1`: a rule gives the device to another program (or it is touchd's own).
    var ignore: Bool = false
    /// The raw `LIBINPUT_CALIBRATION_MATRIX` property, when a hwdb entry or rule sets one.
    var calibrationMatrix: String?
    /// Every property (`udev_device_get_properties_list_entry`).
    var values: [String: String] = [:]

    /// `ID_INPUT_TOUCHSCREEN=1`.
    var isTouchscreen: Bool { classes?.contains(.touchscreen) ?? false }

    /// What touchd keeps of the node's properties; nil when udev knows nothing of the device.
    var properties: UdevProperties? {
      guard classes != nil || ignore || calibrationMatrix != nil else { return nil }
      return UdevProperties(
        classes: classes, ignore: ignore, calibrationMatrix: calibrationMatrix.flatMap(parseCalibrationMatrix),
        values: values)
    }
  }

  private static func node(_ device: OpaquePointer) -> UdevNode {
    func string(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
    func property(_ name: String) -> String? { string(udev_device_get_property_value(device, name)) }
    // input_id sets ID_INPUT=1 on every input device it looked at: its absence means no answer.
    let classes = property("ID_INPUT") == "1" ? InputClasses(udevProperty: property) : nil
    var values: [String: String] = [:]
    var entry = udev_device_get_properties_list_entry(device)
    while let current = entry {
      if let name = string(udev_list_entry_get_name(current)) {
        values[name] = string(udev_list_entry_get_value(current)) ?? ""
      }
      entry = udev_list_entry_get_next(current)
    }
    return UdevNode(
      syspath: string(udev_device_get_syspath(device)) ?? "",
      devnode: string(udev_device_get_devnode(device)),
      action: string(udev_device_get_action(device)),
      classes: classes,
      ignore: property(UdevProperties.ignoreProperty) == "1",
      calibrationMatrix: property("LIBINPUT_CALIBRATION_MATRIX"), values: values)
  }

  /// Every device of subsystem `input` udev knows (`udev_enumerate_*`); works without udevd.
  static func enumerateInput() -> Result<[UdevNode], Errno> {
    guard let udev = udev_new() else { return .failure(Errno(Glibc.errno)) }
    defer { udev_unref(udev) }
    guard let enumerate = udev_enumerate_new(udev) else { return .failure(Errno(Glibc.errno)) }
    defer { udev_enumerate_unref(enumerate) }
    udev_enumerate_add_match_subsystem(enumerate, "input")
    let status = udev_enumerate_scan_devices(enumerate)
    guard status >= 0 else { return .failure(Errno(-status)) }
    var nodes: [UdevNode] = []
    var entry = udev_enumerate_get_list_entry(enumerate)
    while let current = entry {
      if let syspath = udev_list_entry_get_name(current),
        let device = udev_device_new_from_syspath(udev, syspath)
      {
        nodes.append(node(device))
        udev_device_unref(device)
      }
      entry = udev_list_entry_get_next(current)
    }
    return .success(nodes)
  }

  /// The udev view of the node at `path` (by its device number), or nil when udev has none.
  static func udevNode(path: String) -> UdevNode? {
    guard let number = deviceNumber(path), let udev = udev_new() else { return nil }
    defer { udev_unref(udev) }
    guard let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), number) else { return nil }
    defer { udev_device_unref(device) }
    return node(device)
  }

  /// Owns a udev monitor on the `udev` netlink group filtered to subsystem `input`, with its
  /// non-blocking socket. Confined to the thread or queue of its owner.
  final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer

    init() throws(Errno) {
      guard let udev = udev_new() else { throw Errno(Glibc.errno) }
      guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
        let code = Glibc.errno
        udev_unref(udev)
        throw Errno(code == 0 ? EPROTONOSUPPORT : code)
      }
      self.udev = udev
      self.monitor = monitor
      var status = udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
      if status >= 0 { status = udev_monitor_enable_receiving(monitor) }
      guard status >= 0 else {
        udev_monitor_unref(monitor)
        udev_unref(udev)
        throw Errno(-status)
      }
    }

    deinit {
      udev_monitor_unref(monitor)
      udev_unref(udev)
    }

    /// The monitor's socket; libudev creates it with SOCK_NONBLOCK | SOCK_CLOEXEC.
    var fileDescriptor: Int32 { udev_monitor_get_fd(monitor) }

    /// The next queued uevent, or nil when none is pending (never blocks).
    func receive() -> UdevNode? {
      guard let device = udev_monitor_receive_device(monitor) else { return nil }
      defer { udev_device_unref(device) }
      return node(device)
    }
  }

  /// Slots of an MT protocol B device (`libevdev_get_num_slots`), nil without ABS_MT_SLOT.
  static func slotCount(_ dev: OpaquePointer) -> Int? {
    let slots = libevdev_get_num_slots(dev)
    return slots > 0 ? Int(slots) : nil
  }
}
