import TouchdSystem

/// Why a device could not be opened, read or watched. Every case names the device path it is about.
public enum DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `open(2)` of the node failed (EACCES: not in the `input` group; ENOENT: no such node).
  case open(path: String, Errno)
  /// libevdev could not read the device's capabilities (`libevdev_new_from_fd`).
  case evdev(path: String, Errno)
  /// Exclusive access (`EVIOCGRAB`) was refused, usually because another process holds it.
  case grab(path: String, Errno)
  /// Reading events failed with an error other than EAGAIN, EINTR or ENODEV.
  case read(path: String, Errno)
  /// udev could not enumerate or monitor input devices.
  case udev(what: String, Errno)
  /// The device is not a touchscreen, and why (from `DeviceDescription.touchscreenKind()`).
  case notTouchscreen(path: String, reason: String)
  /// Keys were asked of a device without keys that make presses (`KeyAssembler.hasKeys`): no
  /// `EV_KEY`, or only touch and pointer buttons.
  case noKeys(path: String)
  /// The epoll set that watches the devices (``DevicePoll``) could not be made, or the device could
  /// not join it (`path` nil: the set itself).
  case poll(path: String?, Errno)
  /// A virtual device could not be created through uinput (`path`: `/dev/uinput`): ENOENT without
  /// the uinput module, EACCES without access to the node.
  case uinput(path: String, Errno)

  /// The device path the error is about, nil for udev-wide errors.
  public var path: String? {
    switch self {
    case .open(let path, _), .evdev(let path, _), .grab(let path, _), .read(let path, _),
      .notTouchscreen(let path, _), .noKeys(let path):
      path
    case .poll(let path, _): path
    case .uinput(let path, _): path
    case .udev: nil
    }
  }

  /// The errno behind the error, nil for `.notTouchscreen` and `.noKeys`.
  public var errno: Errno? {
    switch self {
    case .open(_, let errno), .evdev(_, let errno), .grab(_, let errno), .read(_, let errno),
      .udev(_, let errno), .poll(_, let errno), .uinput(_, let errno):
      errno
    case .notTouchscreen, .noKeys: nil
    }
  }

  /// Whether the error is a permission problem (EACCES, EPERM) the `input` group solves.
  public var isPermissionDenied: Bool { errno == .permissionDenied || errno == .notPermitted }

  public var description: String {
    let text =
      switch self {
      case .open(let path, let errno): "cannot open \(path): \(errno)"
      case .evdev(let path, let errno): "cannot read the capabilities of \(path): \(errno)"
      case .grab(let path, let errno): "cannot grab \(path) (another process may hold it): \(errno)"
      case .read(let path, let errno): "cannot read events from \(path): \(errno)"
      case .udev(let what, let errno): "udev: cannot \(what): \(errno)"
      case .notTouchscreen(let path, let reason): "\(path) is not a touchscreen: \(reason)"
      case .poll(let path?, let errno): "cannot watch \(path) for input (epoll): \(errno)"
      case .poll(nil, let errno): "cannot make the epoll set that watches input devices: \(errno)"
      case .noKeys(let path): "\(path) has no keys that make presses (only touch and pointer buttons, or none)"
      case .uinput(let path, let errno):
        "cannot create a virtual touchscreen through \(path): \(errno)"
          + (errno == .noSuchFile ? " (load the uinput module: modprobe uinput)" : "")
      }
    guard isPermissionDenied else { return text }
    if case .uinput = self {
      return text
        + " (creating virtual devices needs write access to /dev/uinput: see docs/forward.md, \"Permissions\")"
    }
    return text + " (reading input devices needs root or membership in the `input` group)"
  }
}
