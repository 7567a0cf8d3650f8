import Logging
import TouchdDevices
import TouchdInput

/// Which input devices the scene takes, and how: a touchscreen's touches, a key device's keys,
/// or both (``Role``), grabbed or not; and the log lines that say why a device was not taken.
extension Daemon {
  /// Says why a device was not taken: at `notice` when it looks like a touch device (with what
  /// would change the decision), at `debug` for keyboards, mice and the like; a device with keys is
  /// reported at `info` too while the scene takes key devices.
  func reportNotTaken(path: String, description: DeviceDescription?, _ decision: DeviceDecision) {
    let metadata = decisionMetadata(path: path, name: description?.name, decision)
    if decision.looksLikeTouchDevice {
      logger.notice("touch device not taken", metadata: metadata)
    } else {
      logger.debug("ignoring a non-touchscreen", metadata: metadata)
    }
    guard let description, KeyAssembler.hasKeys(description), scene.windows.contains(where: { $0.keys != nil })
    else { return }
    logger.info(
      "key device not taken",
      metadata: [
        "device.path": "\(path)", "device.name": "\(description.name)",
        "device.id": "\(description.id.vendorProduct)",
        "reason": "no window's keys.devices matches its name, its id or its path",
        "remedy":
          "add a pattern that matches \"\(description.name)\", \(description.id.vendorProduct) or \(path) to a window's keys.devices in \(options.scenePath)",
      ])
  }

  /// The log fields of a decision: the device, who decided, why, and what would change it.
  func decisionMetadata(path: String, name: String?, _ decision: DeviceDecision) -> Logger.Metadata {
    var metadata: Logger.Metadata = [
      "device.path": "\(path)", "decidedBy": "\(decision.source.rawValue)", "reason": "\(decision.reason)",
    ]
    if let name { metadata["device.name"] = "\(name)" }
    if let remedy = decision.remedy { metadata["remedy"] = "\(remedy)" }
    return metadata
  }

  /// What the scene takes of a device: its touches, its keys, or both.
  struct Role: Equatable {
    /// The window of a touchscreen whose `devices` match it.
    var touchWindow: Int?
    /// The window whose `keys.devices` match a device touchd may read.
    var keyWindow: Int?
    var isEmpty: Bool { touchWindow == nil && keyWindow == nil }
  }

  /// Whether a device taken in `role` is grabbed: when a virtual touchscreen forwards its touches,
  /// or a window it feeds has `grab:`.
  func grabs(_ role: Role, forwards: Bool) -> Bool {
    forwards || [role.touchWindow, role.keyWindow].contains { $0.map { scene.windows[$0].grab } ?? false }
  }

  /// The first window whose `keys.devices` match the device, if it has keys that make presses.
  func keysNamedWindow(for description: DeviceDescription, path: String, properties: [String: String])
    -> Int?
  {
    KeyAssembler.hasKeys(description)
      ? runtime.keyWindowIndex(for: description, path: path, properties: properties) : nil
  }

  /// The role of a device: touches for a touchscreen a window's `devices` match; keys when a
  /// window's `keys.devices` name it and nothing keeps touchd off it (`TOUCHD_IGNORE`, touchd's own
  /// virtual devices, an unreadable node).
  func role(of probe: EvdevDevice) -> Role {
    let (description, path, decision) = (probe.description, probe.path, probe.decision)
    let properties = probe.udev?.values ?? [:]
    let touchWindow =
      decision.isTouchscreen ? runtime.windowIndex(for: description, path: path, properties: properties) : nil
    let keysAllowed: Bool =
      switch decision.source {
      case .udev, .touchdRule: true
      case .ignoreProperty, .ownDevice, .unreadable: false
      }
    return Role(
      touchWindow: touchWindow,
      keyWindow: keysAllowed ? keysNamedWindow(for: description, path: path, properties: properties) : nil)
  }
}
