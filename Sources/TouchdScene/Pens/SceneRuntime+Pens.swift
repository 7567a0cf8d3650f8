// Telling the runtime which devices its frames come from, for pairing pens with the touchscreens
// of their panels (PenArbitration.swift).
import TouchDelivery
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

  /// Forgets the device of `source` (unplugged): its barrel buttons held end cancelled.
  public func removeInputDevice(source: Int) {
    penArbitration.remove(source: source)
    if let held = penBarrels[source], !held.isEmpty, let index = penBarrelWindows[source] {
      deliver(
        Self.barrels.filter { held.contains($0.button) }.map {
          PressChange(device: source, code: $0.code, key: $0.key, type: $0.type, phase: .cancelled)
        }, at: now, inWindow: index)
    }
    penBarrels[source] = nil
    penBarrelWindows[source] = nil
  }

  /// A pen's barrel buttons as presses of their own types, for the window's first responder and
  /// the recognizers whose `allowedPressTypes` have them, as UIPencilInteraction reports Apple
  /// Pencil's own gestures to the app rather than as touches: `BTN_STYLUS` is `pencilBarrel`,
  /// `BTN_STYLUS2` `pencilBarrel2`, `BTN_STYLUS3` `pencilBarrel3` (touchd's names; UIKit has no
  /// press type for them). A press lasts while the button is held and the pen near; the pen leaving
  /// proximity ends it.
  static let barrels: [(button: PenButtons, code: UInt16, key: String, type: PressType)] = [
    (.barrel, BTN.stylus, "BTN_STYLUS", .pencilBarrel), (.barrel2, BTN.stylus2, "BTN_STYLUS2", .pencilBarrel2),
    (.barrel3, BTN.stylus3, "BTN_STYLUS3", .pencilBarrel3),
  ]

  /// The presses of the barrel buttons that changed since the pen's last frame (`buttons`: those
  /// held now), delivered to window `index`.
  func pressBarrels(_ buttons: PenButtons, source: Int, at time: Double, inWindow index: Int) {
    let held = penBarrels[source] ?? []
    guard buttons != held else { return }
    penBarrels[source] = buttons
    penBarrelWindows[source] = index
    let changes = Self.barrels.compactMap { barrel -> PressChange? in
      guard buttons.contains(barrel.button) != held.contains(barrel.button) else { return nil }
      return PressChange(
        device: source, code: barrel.code, key: barrel.key, type: barrel.type,
        phase: buttons.contains(barrel.button) ? .down : .up)
    }
    deliver(changes, at: time, inWindow: index)
  }
}
