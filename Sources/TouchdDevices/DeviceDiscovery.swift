import TouchdInput

/// One evdev node found by `DeviceDiscovery`, opened once to read its description.
public struct DiscoveredDevice: Hashable, Sendable {
  /// The node, e.g. `/dev/input/event5`.
  public var path: String
  /// Its sysfs path, e.g. `/sys/devices/…/input/input7/event5`.
  public var syspath: String
  /// What udev's database says of it, nil when udev knows nothing of it (no udevd).
  public var udev: UdevProperties?
  /// Its physical path (`EVIOCGPHYS`), nil when it has none or could not be opened.
  public var phys: String?
  /// What the device is; nil when it could not be opened.
  public var description: DeviceDescription?
  /// Why it could not be opened (EACCES without the `input` group), nil when it was.
  public var openError: DeviceError?

  public init(
    path: String, syspath: String = "", udev: UdevProperties? = nil, phys: String? = nil,
    description: DeviceDescription?, openError: DeviceError? = nil
  ) {
    self.path = path
    self.syspath = syspath
    self.udev = udev
    self.phys = phys
    self.description = description
    self.openError = openError
  }

  /// Whether udev tagged it `ID_INPUT_TOUCHSCREEN=1`.
  public var udevTouchscreen: Bool { udev?.classes?.contains(.touchscreen) ?? false }
  /// udev's `LIBINPUT_CALIBRATION_MATRIX` (six values), nil when absent or invalid.
  public var calibrationMatrix: [Double]? { udev?.calibrationMatrix }

  /// Whether touchd takes it as a touchscreen, who decided, why, and what would change it.
  public var decision: DeviceDecision {
    DeviceDecision.decide(description: description, udev: udev, phys: phys, openError: openError)
  }

  /// The classification, or why the device is not a touchscreen (including "cannot open").
  public var kind: TouchscreenKind { decision.kind }

  /// Whether the device was opened and is a touchscreen.
  public var isTouchscreen: Bool { kind.isTouchscreen }
}

/// Finds evdev nodes through udev (`udev_enumerate`, subsystem `input`). Stateless; any thread.
public enum DeviceDiscovery {
  /// Every `/dev/input/event*` node udev knows, sorted by event number, each opened (not grabbed)
  /// once to read its description. Nodes that cannot be opened are listed with `openError`.
  /// A machine without input devices yields an empty list, not an error.
  public static func scan() throws(DeviceError) -> [DiscoveredDevice] {
    let nodes: [LinuxInput.UdevNode]
    switch LinuxInput.enumerateInput() {
    case .success(let found): nodes = found
    case .failure(let errno): throw .udev(what: "enumerate input devices", errno)
    }
    return
      nodes
      .compactMap { node -> (String, LinuxInput.UdevNode)? in
        guard let devnode = node.devnode, isEventNode(devnode) else { return nil }
        return (devnode, node)
      }
      .sorted { eventNumber($0.0) < eventNumber($1.0) }
      .map { devnode, node in
        do throws(DeviceError) {
          let device = try EvdevDevice(path: devnode)
          defer { device.close() }
          return DiscoveredDevice(
            path: devnode, syspath: node.syspath, udev: node.properties, phys: device.phys,
            description: device.description)
        } catch {
          return DiscoveredDevice(
            path: devnode, syspath: node.syspath, udev: node.properties, description: nil, openError: error)
        }
      }
  }

  /// Whether `devnode` is an evdev node, `/dev/input/event<N>` (not `mouse0`, `js0`, …).
  public static func isEventNode(_ devnode: String) -> Bool {
    let prefix = "/dev/input/event"
    guard devnode.hasPrefix(prefix) else { return false }
    let number = devnode.dropFirst(prefix.count)
    return !number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
  }

  static func eventNumber(_ devnode: String) -> Int {
    Int(devnode.dropFirst("/dev/input/event".count)) ?? Int.max
  }
}

/// A hotplug event for an evdev node.
public struct DeviceEvent: Hashable, Sendable {
  /// What happened.
  public enum Action: String, Hashable, Sendable {
    /// A node appeared; udev has run its rules (permissions, `ID_INPUT_*` are set).
    case add
    /// A node disappeared.
    case remove
    /// udev processed the node again (`udevadm trigger`, a changed rule): its properties, and so
    /// touchd's decision, may differ.
    case change
  }
  public var action: Action
  /// The node, e.g. `/dev/input/event5`.
  public var path: String
  /// Whether udev tagged the device `ID_INPUT_TOUCHSCREEN=1` (meaningful for `add`).
  public var udevTouchscreen: Bool

  public init(action: Action, path: String, udevTouchscreen: Bool = false) {
    self.action = action
    self.path = path
    self.udevTouchscreen = udevTouchscreen
  }
}

/// Watches udev's netlink group `udev` for input devices appearing and disappearing.
///
/// Not thread-safe: owned by the serial queue of the `DispatchSourceRead` on `fileDescriptor`.
/// Without a running udevd (containers) it opens fine and never reports anything.
public final class DeviceMonitor {
  private let monitor: LinuxInput.UdevMonitor

  /// Subscribes to subsystem `input` uevents.
  public init() throws(DeviceError) {
    do {
      monitor = try LinuxInput.UdevMonitor()
    } catch {
      throw .udev(what: "monitor input devices", error)
    }
  }

  /// The non-blocking netlink socket to watch for readability. Owned by the monitor.
  public var fileDescriptor: Int32 { monitor.fileDescriptor }

  /// The next add, remove or change of an evdev node, or nil when none is pending; never blocks.
  /// Other uevents (`bind`, the `inputN` parent, `mouseN`/`jsN` nodes) are consumed and skipped.
  /// Call until nil each time the fd is readable.
  public func receive() -> DeviceEvent? {
    while let node = monitor.receive() {
      if let event = Self.event(for: node) { return event }
    }
    return nil
  }

  static func event(for node: LinuxInput.UdevNode) -> DeviceEvent? {
    guard let devnode = node.devnode, DeviceDiscovery.isEventNode(devnode),
      let action = node.action.flatMap(DeviceEvent.Action.init(rawValue:))
    else { return nil }
    return DeviceEvent(action: action, path: devnode, udevTouchscreen: node.isTouchscreen)
  }
}
