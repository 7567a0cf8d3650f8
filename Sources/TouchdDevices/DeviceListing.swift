import Foundation
import TouchdInput

/// What `touchctl devices` prints about one device, built from its description alone so it can be
/// tested without hardware. A value; any thread.
public struct DeviceReport: Codable, Hashable, Sendable {
  /// One position axis.
  public struct Axis: Codable, Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    /// Units per millimetre, nil when the device reports 0.
    public var resolution: Int32?
    /// `(maximum - minimum) / resolution`, nil without a resolution.
    public var sizeMillimetres: Double?
  }

  public var path: String
  public var name: String?
  /// Vendor and product as four hex digits each, e.g. "04f3".
  public var vendor: String?
  public var product: String?
  /// The bus name (`usb`, `i2c`, `virtual`, …) or its hex number.
  public var bus: String?
  public var touchscreen: Bool
  /// "B", "A" or "single-touch"; nil for non-touchscreens.
  public var touchProtocol: String?
  /// Protocol B slots.
  public var slots: Int?
  public var x: Axis?
  public var y: Axis?
  /// udev's `LIBINPUT_CALIBRATION_MATRIX`, nil when none.
  public var calibrationMatrix: [Double]?
  /// udev's `ID_INPUT_TOUCHSCREEN`.
  public var udevTouchscreen: Bool
  /// udev's classes (`ID_INPUT_*`), e.g. "touchscreen" or "mouse+touchscreen"; nil when udev has
  /// no record of the device.
  public var udev: String?
  /// The pointer classes touchd's copy of udev's `input_id` rule gives the device, to compare with
  /// `udev`; nil when the device could not be read.
  public var touchdRule: String?
  /// What decided: "udev", "touchd-rule", "TOUCHD_IGNORE", "own-device" or "unreadable".
  public var decidedBy: String
  /// Why the device is (or is not) a touchscreen for touchd, or why it could not be opened.
  public var reason: String
  /// What would change the decision, when something would.
  public var remedy: String?
  /// Whether the device looks like a touch device (absolute axes and a sign of touch).
  public var looksLikeTouchDevice: Bool
  /// `devices:` patterns by udev property that tell this device from others of its model, ready to
  /// paste into a scene: `ID_PATH=…`, `ID_SERIAL=…`, a local rule's `TOUCHD_*=…`
  /// (``UdevProperties/identifying``); empty without udev.
  public var match: [String]

  enum CodingKeys: String, CodingKey {
    case path, name, vendor, product, bus, touchscreen
    case touchProtocol = "protocol"
    case slots, x, y, calibrationMatrix, udevTouchscreen, udev, touchdRule, decidedBy, reason, remedy
    case looksLikeTouchDevice, match
  }

  /// The report of a discovered device.
  public init(_ device: DiscoveredDevice) {
    path = device.path
    udevTouchscreen = device.udevTouchscreen
    calibrationMatrix = device.calibrationMatrix
    udev = device.udev?.classes.map { "\($0)" }
    let decision = device.decision
    decidedBy = decision.source.rawValue
    reason = decision.reason
    remedy = decision.remedy
    looksLikeTouchDevice = decision.looksLikeTouchDevice
    match = device.udev?.identifying.map { "\($0.key)=\($0.value)" } ?? []
    touchscreen = decision.isTouchscreen
    switch decision.kind {
    case .multitouchB(let count):
      touchProtocol = "B"
      slots = count
    case .multitouchA: touchProtocol = "A"
    case .singleTouch: touchProtocol = "single-touch"
    case .pen: touchProtocol = "pen"
    case .notTouchscreen: break
    }
    guard let description = device.description else { return }
    touchdRule = "\(description.udevInputClasses.classes)"
    name = description.name
    vendor = InputID.hex4(description.id.vendor)
    product = InputID.hex4(description.id.product)
    bus = Self.busName(description.id.bustype)
    let multitouch = description.has(type: EV.abs, code: ABS.mtPositionX)
    x = description.absInfo[multitouch ? ABS.mtPositionX : ABS.x].map(Self.axis)
    y = description.absInfo[multitouch ? ABS.mtPositionY : ABS.y].map(Self.axis)
  }

  static func axis(_ info: AbsInfo) -> Axis {
    let resolution = info.resolution > 0 ? info.resolution : nil
    let size = resolution.map { Double(Int64(info.maximum) - Int64(info.minimum)) / Double($0) }
    return Axis(minimum: info.minimum, maximum: info.maximum, resolution: resolution, sizeMillimetres: size)
  }

  /// `BUS_*` names from <linux/input.h>, as `libinput list-devices` and evtest spell them.
  static func busName(_ bustype: UInt16) -> String {
    let names: [UInt16: String] = [
      0x01: "pci", 0x02: "isapnp", 0x03: "usb", 0x04: "hil", 0x05: "bluetooth", 0x06: "virtual",
      0x10: "isa", 0x11: "i8042", 0x12: "xtkbd", 0x13: "rs232", 0x14: "gameport", 0x15: "parport",
      0x16: "amiga", 0x17: "adb", 0x18: "i2c", 0x19: "host", 0x1a: "gsc", 0x1b: "atari", 0x1c: "spi",
      0x1d: "rmi", 0x1e: "cec", 0x1f: "intel-ishtp", 0x20: "amd-sfh",
    ]
    return names[bustype] ?? "0x" + InputID.hex4(bustype)
  }
}

/// Formats `touchctl devices` output. Stateless; any thread.
public enum DeviceListing {
  /// Human-readable text: every touchscreen touchd takes, in full; then every other input device
  /// with udev's classification, touchd's decision and its reason (and, for one that looks like a
  /// touch device, what would make touchd take it). With `all` the others show their axes too.
  /// Ends with a hint when nothing was found or nodes could not be opened.
  public static func text(_ devices: [DiscoveredDevice], all: Bool) -> String {
    let reports = devices.map(DeviceReport.init)
    let touchscreens = reports.filter(\.touchscreen)
    var lines: [String] = []
    for (index, report) in touchscreens.enumerated() {
      if index > 0 { lines.append("") }
      lines += touchscreenLines(report)
    }
    if touchscreens.isEmpty {
      lines.append(devices.isEmpty ? "No input devices found." : "No touchscreen taken.")
    }
    // Touch-like devices first: they are the ones a reader is looking for.
    let others = reports.filter { !$0.touchscreen }.sorted { $0.looksLikeTouchDevice && !$1.looksLikeTouchDevice }
    if !others.isEmpty {
      lines.append("")
      lines.append("Not taken:")
      for report in others {
        lines += otherLines(report, axes: all)
      }
    }
    if let hint = hint(devices) {
      lines.append("")
      lines.append(hint)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Why the list may be short, or nil when every node was read.
  public static func hint(_ devices: [DiscoveredDevice]) -> String? {
    if devices.isEmpty {
      return "udev lists no /dev/input/event* nodes: this machine (or container) has no input devices."
    }
    let denied = devices.filter { $0.openError?.isPermissionDenied ?? false }
    guard !denied.isEmpty else { return nil }
    return "\(denied.count) of \(devices.count) input devices could not be opened (permission denied): "
      + "run as root or join the `input` group (sudo usermod -aG input $USER, then log in again)."
  }

  /// The reports as a JSON array; with `all` false only touchscreens.
  public static func json(_ devices: [DiscoveredDevice], all: Bool) throws -> String {
    let reports = devices.map(DeviceReport.init).filter { all || $0.touchscreen }
    if reports.isEmpty { return "[]\n" }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(reports), as: UTF8.self) + "\n"
  }

  static func touchscreenLines(_ report: DeviceReport) -> [String] {
    var lines = ["\(report.path): \"\(report.name ?? "")\""]
    let proto =
      switch report.touchProtocol {
      case "B": "multitouch protocol B, \(report.slots ?? 0) slots"
      case "A": "multitouch protocol A"
      case "pen": "pen (its tip makes pencil touches)"
      default: "single-touch"
      }
    lines.append("  id:          \(report.vendor ?? "????"):\(report.product ?? "????") on \(report.bus ?? "?")")
    lines.append("  protocol:    \(proto)")
    for (label, axis) in [("X", report.x), ("Y", report.y)] {
      lines.append("  \(label) axis:      \(axis.map(describe) ?? "none")")
    }
    let matrix = report.calibrationMatrix.map { $0.map(number).joined(separator: " ") } ?? "none"
    lines.append("  calibration: \(matrix)")
    lines.append("  udev:        \(udevText(report))")
    if let match = matchText(report) { lines.append("  match:       \(match)") }
    lines.append("  touchd:      taken: \(report.reason)")
    return lines
  }

  static func otherLines(_ report: DeviceReport, axes: Bool) -> [String] {
    var lines = ["\(report.path)\(report.name.map { ": \"\($0)\"" } ?? "")"]
    if axes {
      for (label, axis) in [("X", report.x), ("Y", report.y)] where axis != nil {
        lines.append("  \(label) axis:      \(axis.map(describe) ?? "none")")
      }
    }
    lines.append("  udev:        \(udevText(report))")
    if axes, let match = matchText(report) { lines.append("  match:       \(match)") }
    lines.append("  touchd:      not taken: \(report.reason)")
    if report.looksLikeTouchDevice, let remedy = report.remedy {
      lines.append("  to take it:  \(remedy)")
    }
    return lines
  }

  /// The report's `match` patterns as a YAML flow list of double-quoted strings, to paste as a
  /// window's `devices:` (one of them is enough), nil when there are none.
  static func matchText(_ report: DeviceReport) -> String? {
    guard !report.match.isEmpty else { return nil }
    return "[" + report.match.map(LibinputRecordWriter.quoted).joined(separator: ", ") + "]"
  }

  /// udev's classes, or that udev has no record, then with the classes of touchd's copy of its rule.
  static func udevText(_ report: DeviceReport) -> String {
    guard let udev = report.udev else {
      return "no record (no udevd?)" + (report.touchdRule.map { "; touchd's copy of its rule: \($0)" } ?? "")
    }
    return udev
  }

  static func describe(_ axis: DeviceReport.Axis) -> String {
    var text = "\(axis.minimum)..\(axis.maximum)"
    if let resolution = axis.resolution {
      text += ", \(resolution) units/mm"
      if let size = axis.sizeMillimetres { text += ", " + String(format: "%.1f mm", size) }
    } else {
      text += ", resolution unknown"
    }
    return text
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}
