// Which window takes a device's input: `devices` and `keys.devices` patterns (globs and udev
// `KEY=GLOB`), a recording's window for a replay, and how a window maps device-normalized positions.
import TouchDelivery
import TouchdInput

extension SceneRuntime {
  /// The index of the first window whose `devices` patterns match the device: globs over its
  /// name, its `vendor:product` in four-digit lowercase hex, or its path, and `KEY=GLOB` patterns
  /// over its udev `properties` (``devicePattern(_:matches:path:properties:)``).
  public func windowIndex(for device: DeviceDescription, path: String? = nil, properties: [String: String] = [:])
    -> Int?
  {
    scene.windows.firstIndex { window in
      window.devices.contains { Self.devicePattern($0, matches: device, path: path, properties: properties) }
    }
  }

  /// Whether a `devices` (or `keys.devices`) pattern takes a device. A pattern `KEY=GLOB` whose
  /// KEY is a udev property name (capitals, digits and `_`, starting with a capital:
  /// `ID_PATH=pci-0000:00:14.0-usb-0:3:1.0`, `TOUCHD_WINDOW=left`) matches when the device's udev
  /// property KEY exists and its value matches GLOB; it tells identical panels apart by where they
  /// are plugged in, their serial, or what a local rule sets. Any other pattern is a glob over the
  /// device's name, its `vendor:product` in four-digit lowercase hex, or its path.
  public static func devicePattern(
    _ pattern: String, matches device: DeviceDescription, path: String?, properties: [String: String]
  ) -> Bool {
    if let (key, glob) = propertyPattern(pattern) {
      guard let value = properties[key] else { return false }
      return globMatch(glob, value)
    }
    return globMatch(pattern, device.name) || globMatch(pattern, device.id.vendorProduct)
      || path.map { globMatch(pattern, $0) } ?? false
  }

  /// A `KEY=GLOB` pattern's property name and glob, nil for a plain glob.
  public static func propertyPattern(_ pattern: String) -> (key: String, glob: String)? {
    guard let equals = pattern.firstIndex(of: "="), equals != pattern.startIndex else { return nil }
    let key = pattern[..<equals]
    guard let first = key.unicodeScalars.first, ("A"..."Z").contains(first),
      key.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
    else { return nil }
    return (String(key), String(pattern[pattern.index(after: equals)...]))
  }

  /// How device-normalized positions map onto window `index`'s points.
  public func mapping(forWindow index: Int) -> ScreenMapping {
    let spec = scene.windows[index]
    return ScreenMapping(
      width: spec.size.width, height: spec.size.height, rotation: ScreenRotation(rawValue: spec.rotation) ?? .none,
      calibration: CalibrationMatrix(values: spec.calibration) ?? .identity)
  }

  /// The window a recording replays into: its device must be one touchd would take live
  /// (`Recording.notTouchscreenMessage`) and a window's `devices` must match it.
  public func replayWindow(for recording: Recording, path: String? = nil) throws(SceneRuntimeError) -> Int {
    if let message = recording.notTouchscreenMessage { throw .notTouchscreen(message) }
    guard let window = windowIndex(for: recording.description, path: path) else {
      throw .noWindow(device: recording.description.name)
    }
    return window
  }

  /// The index of the first window whose `keys.devices` patterns match the key device, as
  /// ``windowIndex(for:path:properties:)``'s; nil when no window takes its keys.
  public func keyWindowIndex(for device: DeviceDescription, path: String? = nil, properties: [String: String] = [:])
    -> Int?
  {
    scene.windows.firstIndex { window in
      window.keys?.devices.contains { Self.devicePattern($0, matches: device, path: path, properties: properties) }
        ?? false
    }
  }
}
