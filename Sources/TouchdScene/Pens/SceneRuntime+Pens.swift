// Telling the runtime which devices its frames come from, for pairing pens with the touchscreens
// of their panels (PenArbitration.swift).
import TouchdInput

extension SceneRuntime {
  /// Tells the runtime of the device whose frames come with `source` (``handle(_:inWindow:source:)``):
  /// a pen display is paired with the touchscreen of its panel (a window's `penPairs:`, udev's
  /// `LIBINPUT_DEVICE_GROUP` in `properties`, or equal bus, vendor and product), whose touches
  /// its pen then rejects while near. The daemon tells it of each device it opens, a replay of
  /// each recording.
  public func addInputDevice(
    source: Int, description: DeviceDescription, path: String? = nil, properties: [String: String] = [:]
  ) {
    penArbitration.add(source: source, .init(description: description, path: path, properties: properties))
  }

  /// Forgets the device of `source` (unplugged).
  public func removeInputDevice(source: Int) {
    penArbitration.remove(source: source)
  }
}
