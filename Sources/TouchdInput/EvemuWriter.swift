/// Writes evemu files the way `evemu-record` (file format 1.3) does: the commented description, the
/// `N: I: P: B: A:` lines, then one `E:` line per event with its `# EV_TYPE / CODE value` comment.
///
/// Unlike evemu, which always writes `B: 00 0b ...`, the EV_SYN line carries the description's own
/// EV_SYN codes (`0b` when it has none below 64), so that descriptions survive a round trip unchanged.
public struct EvemuWriter {
  private var lastSyncMilliseconds: Int64 = 0

  public init() {}

  /// A whole recording as evemu text.
  public static func write(_ recording: Recording) -> String {
    var writer = EvemuWriter()
    var text = header(for: recording.description)
    for event in recording.events { text += writer.line(for: event) }
    return text
  }

  /// The description block and the "Waiting for events" banner.
  public static func header(for device: DeviceDescription, kernel: String? = nil) -> String {
    var out = "# EVEMU 1.3\n"
    if let kernel { out += "# Kernel: \(kernel)\n" }
    // A name is one line: a newline in it (a device's name is whatever its driver or USB
    // descriptor says) would end the N: line and start a line of its own, an E: line even.
    let name = String(String.UnicodeScalarView(device.name.unicodeScalars.map { $0 == "\n" ? " " : $0 }))
    out += "# Input device name: \"\(name)\"\n"
    out +=
      "# Input device ID: bus \(alternateHex(device.id.bustype)) vendor \(alternateHex(device.id.vendor))"
      + " product \(alternateHex(device.id.product)) version \(alternateHex(device.id.version))\n"
    if let x = device.absInfo[ABS.x], let y = device.absInfo[ABS.y], x.resolution != 0, y.resolution != 0,
      device.has(type: EV.abs, code: ABS.x), device.has(type: EV.abs, code: ABS.y)
    {
      let w = (x.maximum - x.minimum) / x.resolution
      let h = (y.maximum - y.minimum) / y.resolution
      if w != 0 && h != 0 { out += "# Size in mm: \(w)x\(h)\n" }
    }
    out += "# Supported events:\n"
    for type in device.events.keys.sorted() {
      guard let codes = device.events[type], !codes.isEmpty, EventNames.maxCode(type: type) != nil else { continue }
      out += "#   Event type \(type) (\(EventNames.type(type) ?? "(null)"))\n"
      for code in codes.sorted() {
        out += "#     Event code \(code) (\(EventNames.code(type: type, code: code) ?? "(null)"))\n"
        if type == EV.abs {
          let info = device.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
          out += "#       Value   \(pad(info.value, 6))\n"
          out += "#       Min     \(pad(info.minimum, 6))\n"
          out += "#       Max     \(pad(info.maximum, 6))\n"
          out += "#       Fuzz    \(pad(info.fuzz, 6))\n"
          out += "#       Flat    \(pad(info.flat, 6))\n"
          out += "#       Resolution \(pad(info.resolution, 3))\n"
        }
      }
    }
    out += "# Properties:\n"
    for property in device.properties.sorted() where property <= InputProp.max {
      out += "#   Property  type \(property) (\(EventNames.property(property) ?? "(null)"))\n"
    }
    out += "N: \(name)\n"
    out +=
      "I: \(hex(device.id.bustype, 4)) \(hex(device.id.vendor, 4)) \(hex(device.id.product, 4)) \(hex(device.id.version, 4))\n"
    var propertyMask = [UInt8](repeating: 0, count: 8)
    for property in device.properties where property < 64 { propertyMask[Int(property / 8)] |= 1 << (property % 8) }
    out += "P: " + propertyMask.map { hex($0, 2) }.joined(separator: " ") + "\n"
    // The line holds codes below 64: a description with none there (none at all, or only codes a
    // second `B: 00` line held) is written as evemu writes every device.
    var synCodes = (device.events[EV.syn] ?? []).filter { $0 < 64 }
    if synCodes.isEmpty { synCodes = [SYN.report, SYN.config, SYN.dropped] }
    var synMask = [UInt8](repeating: 0, count: 8)
    for code in synCodes { synMask[Int(code / 8)] |= 1 << (code % 8) }
    out += "B: 00 " + synMask.map { hex($0, 2) }.joined(separator: " ") + "\n"
    for type in UInt16(1)...EV.max {
      guard let max = EventNames.maxCode(type: type) else { continue }
      let byteCount = (Int(max) + 1 + 7) / 8
      var mask = [UInt8](repeating: 0, count: (byteCount + 7) / 8 * 8)
      for code in device.events[type] ?? [] where Int(code) < mask.count * 8 {
        mask[Int(code / 8)] |= 1 << (code % 8)
      }
      var offset = 0
      while offset < byteCount {
        out += "B: \(hex(type, 2)) " + mask[offset..<offset + 8].map { hex($0, 2) }.joined(separator: " ") + "\n"
        offset += 8
      }
    }
    for code in device.absInfo.keys.sorted() where device.has(type: EV.abs, code: code) {
      let info = device.absInfo[code]!
      out += "A: \(hex(code, 2)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)\n"
    }
    out += "################################\n#      Waiting for events      #\n################################\n"
    return out
  }

  /// One `E:` line with its comment, newline-terminated.
  public mutating func line(for event: InputEvent) -> String {
    let micros = event.time.microseconds
    let sign = micros < 0 ? "-" : ""
    let magnitude = micros.magnitude
    var out = "E: \(sign)\(magnitude / 1_000_000).\(pad(UInt64(magnitude % 1_000_000), 6, zero: true))"
    out += " \(hex(event.type, 4)) \(hex(event.code, 4)) \(zeroPad(event.value))\t"
    let codeName = EventNames.code(type: event.type, code: event.code) ?? "(null)"
    if event.type == EV.syn {
      if event.code == SYN.mtReport {
        out += "# ++++++++++++ \(codeName) (\(event.value)) ++++++++++\n"
      } else {
        let ms = micros / 1000
        let dt = ms - lastSyncMilliseconds
        lastSyncMilliseconds = ms
        out += "# ------------ \(codeName) (\(event.value)) ---------- \(dt >= 0 ? "+" : "")\(dt)ms\n"
      }
    } else {
      let typeName = EventNames.type(event.type) ?? "(null)"
      let padded = codeName.count < 20 ? codeName + String(repeating: " ", count: 20 - codeName.count) : codeName
      out += "# \(typeName) / \(padded) \(event.value)\n"
    }
    return out
  }

  /// C's `%04d`: at least 4 characters, zero-padded after the sign.
  private func zeroPad(_ value: Int32) -> String {
    let digits = String(value.magnitude)
    let sign = value < 0 ? "-" : ""
    let width = 4 - sign.count
    return sign + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
  }

  private static func pad(_ value: Int32, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: " ", count: Swift.max(0, width - text.count)) + text
  }

  private func pad(_ value: UInt64, _ width: Int, zero: Bool) -> String {
    let text = String(value)
    return String(repeating: zero ? "0" : " ", count: Swift.max(0, width - text.count)) + text
  }

  private func hex(_ value: UInt16, _ width: Int) -> String { Self.hex(value, width) }

  private static func hex<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
  }

  /// C's `%#04x`: `0000` for zero, otherwise `0x` and at least two digits.
  private static func alternateHex(_ value: UInt16) -> String {
    value == 0 ? "0000" : "0x" + hex(value, 2)
  }
}
