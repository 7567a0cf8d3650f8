/// Writes `libinput record` YAML (libinput-record(1), file format version 1) the way libinput's
/// `tools/libinput-record.c` does: the header, then per device `- node:`, its `evdev:` description
/// and its `events:`, one `- evdev:` list per frame (up to and including its `SYN_REPORT`), each
/// event `[sec, usec, type, code, value]` with a comment naming it.
///
/// A file of several devices is what `touchctl record DEV1 DEV2` writes and `libinput record DEV1
/// DEV2` writes: one clock for all devices, so a replay merges them by time. As libinput does, the
/// first device's events can be streamed while recording and the others appended at the end.
///
/// `EV_SYN`'s codes are written as libevdev answers for them, every code up to `SYN_MAX`, so
/// `libinput replay` can create the device; ``LibinputRecordParser`` rebuilds the type bitmap.
public struct LibinputRecordWriter {
  private var groupOpen = false
  private var lastSyncMilliseconds: Int64?

  public init() {}

  /// A whole file: the header and every device with its events.
  public static func write(_ devices: [(recording: Recording, node: String)], kernel: String? = nil) -> String {
    var text = header(deviceCount: devices.count, kernel: kernel)
    for (recording, node) in devices {
      text += device(recording.description, node: node)
      var writer = LibinputRecordWriter()
      for event in recording.events { text += writer.lines(for: event) }
    }
    return text
  }

  /// A recording of several devices written while it happens, as libinput record writes one: the
  /// header and the first device's description at once, the first device's events as they come,
  /// the other devices (description and events) when the recording stops. Times are written
  /// relative to `zero`, the recording's start (a time before it is written as 0).
  public struct Stream {
    private let devices: [(description: DeviceDescription, node: String)]
    private let zero: Timestamp
    private let kernel: String?
    private var writers: [LibinputRecordWriter]
    private var kept: [[InputEvent]]

    /// A recording of `devices` (at least one) counting time from `zero`.
    public init(devices: [(description: DeviceDescription, node: String)], zero: Timestamp, kernel: String? = nil) {
      precondition(!devices.isEmpty, "a recording of no device")
      self.devices = devices
      self.zero = zero
      self.kernel = kernel
      writers = devices.map { _ in LibinputRecordWriter() }
      kept = devices.map { _ in [] }
    }

    /// The text that starts the file: the header and the first device up to its `events:` key.
    public func start() -> String {
      LibinputRecordWriter.header(deviceCount: devices.count, kernel: kernel)
        + LibinputRecordWriter.device(devices[0].description, node: devices[0].node)
    }

    /// Records events of device `index`: the first device's text to write now, "" for another
    /// device (kept for ``finish()``).
    public mutating func record(_ events: [InputEvent], device index: Int) -> String {
      let relative = events.map { event in
        var shifted = event
        shifted.time = Timestamp(microseconds: event.time.microseconds - zero.microseconds)
        return shifted
      }
      guard index == 0 else {
        kept[index] += relative
        return ""
      }
      var text = ""
      for event in relative { text += writers[0].lines(for: event) }
      return text
    }

    /// The text that ends the file: every other device with its events.
    public mutating func finish() -> String {
      var text = ""
      for index in devices.indices.dropFirst() {
        text += LibinputRecordWriter.device(devices[index].description, node: devices[index].node)
        for event in kept[index] { text += writers[index].lines(for: event) }
        kept[index] = []
      }
      return text
    }
  }

  /// `version:`, `ndevices:`, `system:` and the `devices:` key; the devices follow.
  public static func header(deviceCount: Int, kernel: String? = nil) -> String {
    var out = "# libinput record format (libinput-record(1)), written by touchctl record\n"
    out += "version: 1\n"
    out += "ndevices: \(deviceCount)\n"
    if let kernel {
      out += "system:\n"
      out += "  kernel: \(quoted(kernel))\n"
    }
    out += "devices:\n"
    return out
  }

  /// One `devices:` entry up to and including its `events:` key; its event lines follow.
  public static func device(_ device: DeviceDescription, node: String) -> String {
    var out = "- node: \(node)\n"
    out += "  evdev:\n"
    out += "    # Name: \(commentText(device.name))\n"
    out += "    name: \(quoted(device.name))\n"
    out += "    id: [\(device.id.bustype), \(device.id.vendor), \(device.id.product), \(device.id.version)]\n"
    out += "    codes:\n"
    // libevdev_has_event_code(dev, EV_SYN, code) is 1 for every code up to SYN_MAX (0xf,
    // <linux/input-event-codes.h>): libinput record writes all of them.
    let synMax: UInt16 = 0x0f
    out += "      0: [" + (0...synMax).map(String.init).joined(separator: ", ") + "] # EV_SYN\n"
    for type in device.events.keys.sorted() where type != EV.syn {
      guard let codes = device.events[type], !codes.isEmpty else { continue }
      out += "      \(type): [" + codes.sorted().map(String.init).joined(separator: ", ") + "]"
      out += " # \(EventNames.type(type) ?? "(null)")\n"
    }
    let axes = device.absInfo.sorted { $0.key < $1.key }.filter { device.has(type: EV.abs, code: $0.key) }
    if !axes.isEmpty {
      out += "    absinfo:\n"
      for (code, info) in axes {
        out += "      \(code): [\(info.minimum), \(info.maximum), \(info.fuzz), \(info.flat), \(info.resolution)]\n"
      }
    }
    out += "    properties: [" + device.properties.sorted().map(String.init).joined(separator: ", ") + "]\n"
    out += "  events:\n"
    return out
  }

  /// The lines of one event, newline-terminated: a new `- evdev:` list begins with the first event
  /// of a frame. Times are written as given, a negative one as 0 (the format has no sign): make
  /// them relative to the recording's start first.
  public mutating func lines(for event: InputEvent) -> String {
    var out = ""
    if !groupOpen {
      out += "  - evdev:\n"
      groupOpen = true
    }
    let micros = max(0, event.time.microseconds)
    let seconds = pad(String(micros / 1_000_000), 3)
    let fraction = pad(String(micros % 1_000_000), 6)
    out += "    - [\(seconds), \(fraction), \(pad(String(event.type), 3)), \(pad(String(event.code), 3)), "
    out += "\(pad(String(event.value), 5))] # \(comment(event, milliseconds: micros / 1000))\n"
    if event.type == EV.syn && event.code == SYN.report { groupOpen = false }
    return out
  }

  /// libinput record's event comment: `EV_KEY / KEY_ENTER              1`, or the SYN line with the
  /// milliseconds since the previous one.
  private mutating func comment(_ event: InputEvent, milliseconds: Int64) -> String {
    let codeName = EventNames.code(type: event.type, code: event.code) ?? "(null)"
    if event.type == EV.syn && event.code == SYN.mtReport {
      return "++++++++++++ \(codeName) (\(event.value)) ++++++++++"
    }
    if event.type == EV.syn {
      let dt = milliseconds - (lastSyncMilliseconds ?? milliseconds)
      lastSyncMilliseconds = milliseconds
      return "------------ \(codeName) (\(event.value)) ---------- \(dt >= 0 ? "+" : "")\(dt)ms"
    }
    let typeName = EventNames.type(event.type) ?? "(null)"
    let padded = codeName.count < 20 ? codeName + String(repeating: " ", count: 20 - codeName.count) : codeName
    return "\(typeName) / \(padded) \(pad(String(event.value), 4))"
  }

  private func pad(_ text: String, _ width: Int) -> String { Self.pad(text, width) }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: Swift.max(0, width - text.count)) + text
  }

  /// A YAML double-quoted scalar: backslash, double quote and every character YAML does not take
  /// as it is (``isUnprintable(_:)``) escaped. `touchctl devices` writes its `match:` patterns so.
  package static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\u{85}": out += "\\N"
      case "\u{2028}": out += "\\L"
      case "\u{2029}": out += "\\P"
      default:
        if !isUnprintable(scalar) {
          out.unicodeScalars.append(scalar)
        } else if scalar.value <= 0xff {
          out += "\\x" + hex(scalar.value, digits: 2)
        } else {
          out += "\\u" + hex(scalar.value, digits: 4)
        }
      }
    }
    return out + "\""
  }

  /// Whether YAML takes `scalar` only escaped: the C0 and C1 controls, U+FFFE and U+FFFF (not
  /// printable: libyaml refuses them, even in a comment), and NEL, U+2028 and U+2029 (line breaks,
  /// which end a comment and which a quoted scalar folds into a space).
  static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7f...0x9f, 0x2028, 0x2029, 0xfffe, 0xffff: true
    default: false
    }
  }

  /// `text` for a comment: without the characters ``isUnprintable(_:)`` names but the tab.
  static func commentText(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars where scalar == "\t" || !isUnprintable(scalar) {
      out.unicodeScalars.append(scalar)
    }
    return out
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
