/// An input device's identity (`struct input_id`).
public struct InputID: Hashable, Sendable {
  public var bustype: UInt16
  public var vendor: UInt16
  public var product: UInt16
  public var version: UInt16
  public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
    self.bustype = bustype
    self.vendor = vendor
    self.product = product
    self.version = version
  }

  /// Vendor and product as udev and `lsusb` write them, four lowercase hex digits each:
  /// "04f3:2b7c". Scene `devices:` patterns match it.
  public var vendorProduct: String { Self.hex4(vendor) + ":" + Self.hex4(product) }

  /// Four lowercase hex digits, zero-padded.
  public static func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits
  }
}

/// One absolute axis (`struct input_absinfo`).
public struct AbsInfo: Hashable, Sendable {
  public var value: Int32
  public var minimum: Int32
  public var maximum: Int32
  public var fuzz: Int32
  public var flat: Int32
  /// Units per millimetre (0 when unknown).
  public var resolution: Int32
  public init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0)
  {
    self.value = value
    self.minimum = minimum
    self.maximum = maximum
    self.fuzz = fuzz
    self.flat = flat
    self.resolution = resolution
  }
}

/// What a device is: the same data whether read from a live node through libevdev or from a
/// recording's `N: I: P: B: A:` lines (or a `libinput record` header).
public struct DeviceDescription: Hashable, Sendable {
  public var name: String
  public var id: InputID
  /// `INPUT_PROP_*` bits that are set.
  public var properties: Set<UInt16>
  /// Supported codes per event type (`EV_KEY` → `BTN_TOUCH`, …).
  public var events: [UInt16: Set<UInt16>]
  /// Axis ranges for every supported `EV_ABS` code.
  public var absInfo: [UInt16: AbsInfo]

  public init(
    name: String, id: InputID, properties: Set<UInt16> = [], events: [UInt16: Set<UInt16>] = [:],
    absInfo: [UInt16: AbsInfo] = [:]
  ) {
    self.name = name
    self.id = id
    self.properties = properties
    self.events = events
    self.absInfo = absInfo
  }

  /// Whether the device reports `type` events at all.
  public func has(type: UInt16) -> Bool { !(events[type]?.isEmpty ?? true) }
  /// Whether the device reports `code` events of `type`.
  public func has(type: UInt16, code: UInt16) -> Bool { events[type]?.contains(code) ?? false }
  /// Whether the `INPUT_PROP_*` bit `property` is set.
  public func has(property: UInt16) -> Bool { properties.contains(property) }
}
