import Yams

/// Parses `libinput record` YAML (libinput-record(1), file format version 1):
///
/// ```yaml
/// version: 1
/// ndevices: 1
/// devices:
/// - node: /dev/input/event5
///   evdev:
///     name: "Atmel maXTouch Touchscreen"
///     id: [24, 0, 0, 0]
///     codes:
///       0: [0, 1, 2, 3]
///       3: [0, 1, 47, 53, 54, 57]
///     absinfo:
///       0: [0, 799, 0, 0, 0]      # min, max, fuzz, flat, resolution
///     properties: [1]
///   events:
///   - evdev:
///     - [  0,      1,   3,  57,       0] # sec, usec, type, code, value
///   - libinput:                          # ignored
///     - {time: 0.000001, type: TOUCH_DOWN, ...}
/// ```
///
/// A file may hold several devices (`libinput record /dev/input/event3 /dev/input/event4`), each
/// with its own `evdev:` and `events:`; their timestamps share one clock (libinput record counts
/// them from the start of the recording). ``parseAll(_:source:)`` reads every device,
/// ``parse(_:source:)`` the first. A device's `events:` may be empty or absent. `ndevices:` is not
/// checked against the list, as `libinput replay` only warns about a truncated file.
public enum LibinputRecordParser {
  /// Parses the YAML text of a recording: its first device, its `source` the file's.
  public static func parse(_ bytes: [UInt8], source: String) throws(RecordingError) -> Recording {
    try parseAll(bytes, source: source, firstOnly: true)[0]
  }

  /// Parses the YAML text of a recording: every device, in file order. With several devices each
  /// recording's `source` is `source:LINE`, LINE the line of its `devices:` entry, so messages tell
  /// them apart; with one it is `source`.
  public static func parseAll(_ bytes: [UInt8], source: String) throws(RecordingError) -> [Recording] {
    try parseAll(bytes, source: source, firstOnly: false)
  }

  private static func parseAll(_ bytes: [UInt8], source: String, firstOnly: Bool) throws(RecordingError)
    -> [Recording]
  {
    let text = String(decoding: bytes, as: UTF8.self)
    // Before Yams composes the text (it hashes every mapping key): aliases that multiply it.
    if let alias = YAMLAliases.firstExcessiveAlias(in: text) {
      throw RecordingError(
        file: source, line: alias.line,
        message: "aliases expand the file to \(alias.nodes) YAML nodes at this one, more than twice those written out")
    }
    let root: Node
    do {
      // No tag-resolving regular expressions: plain scalars are resolved by `YAMLTags`.
      guard let node = try Yams.compose(yaml: text, .basic) else {
        throw RecordingError(file: source, line: 1, message: "empty libinput record file")
      }
      root = node
    } catch let error as RecordingError {
      throw error
    } catch let error as YamlError {
      throw RecordingError(
        file: source, line: YAMLPosition.clamped(line: line(of: error), column: 1, in: text).line,
        message: "invalid YAML: \(problem(of: error))")
    } catch {
      throw RecordingError(file: source, line: 1, message: "invalid YAML: \(error)")
    }
    let reader = Reader(source: source, text: text)
    guard let mapping = root.mapping else { throw reader.fail(root, "expected a mapping at the top level") }
    if let version = mapping["version"], YAMLInt.value(of: version) != 1 {
      throw reader.fail(version, "unsupported libinput record version \(version.string ?? "?") (1 is read)")
    }
    guard let devices = mapping["devices"] else { throw reader.fail(root, "no devices: list") }
    guard let list = devices.sequence, !list.isEmpty else {
      throw reader.fail(devices, "devices: must be a non-empty list")
    }
    let entries = firstOnly ? Array(list.prefix(1)) : Array(list)
    var recordings: [Recording] = []
    for device in entries {
      let name = list.count > 1 && !firstOnly ? "\(source):\(device.mark?.line ?? 1)" : source
      recordings.append(try reader.recording(device, source: name))
    }
    return recordings
  }

  private static func line(of error: YamlError) -> Int {
    switch error {
    case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
      return mark.line
    case .duplicatedKeysInMapping(_, let context):
      return context.mark.line
    case .reader(_, let offset?, _, let yaml):
      return YAMLPosition.position(ofCharacter: offset, in: yaml).line
    default:
      return 1
    }
  }

  private static func problem(of error: YamlError) -> String {
    switch error {
    case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _),
      .reader(let problem, _, _, _):
      return problem
    default:
      return "\(error)"
    }
  }

  private struct Reader {
    let source: String
    let text: String

    /// An error at `node`'s line. libyaml places an empty document's null at the line after a last
    /// line without a line break (`---` alone): such a place is clamped to the last line.
    func fail(_ node: Node, _ message: String) -> RecordingError {
      let line = node.mark.map { YAMLPosition.clamped(line: $0.line, column: $0.column, in: text).line } ?? 1
      return RecordingError(file: source, line: line, message: message)
    }

    func integers(_ node: Node, count: Int? = nil, what: String) throws(RecordingError) -> [Int] {
      guard let sequence = node.sequence else { throw fail(node, "\(what) must be a list of integers") }
      var values: [Int] = []
      for item in sequence {
        guard let value = YAMLInt.value(of: item) else {
          throw fail(item, "\(what): \"\(item.string ?? "?")\" is not an integer")
        }
        values.append(value)
      }
      if let count, values.count != count {
        throw fail(node, "\(what) must have \(count) integers, found \(values.count)")
      }
      return values
    }

    func int<T: FixedWidthInteger>(_ value: Int, _ node: Node, _ what: String) throws(RecordingError) -> T {
      guard let result = T(exactly: value) else { throw fail(node, "\(what) \(value) is out of range") }
      return result
    }

    /// One `devices:` entry: its `evdev:` description and the `evdev:` events of its `events:`
    /// (`libinput:` entries are libinput's own events and are skipped).
    func recording(_ device: Node, source name: String) throws(RecordingError) -> Recording {
      guard let deviceMapping = device.mapping else { throw fail(device, "a device must be a mapping") }
      guard let evdev = deviceMapping["evdev"] else { throw fail(device, "device without evdev:") }
      let description = try description(evdev)
      var events: [InputEvent] = []
      if let eventList = deviceMapping["events"], !isNull(eventList) {
        guard let entries = eventList.sequence else { throw fail(eventList, "events: must be a list") }
        for entry in entries {
          guard let entryMapping = entry.mapping else {
            throw fail(entry, "an events: entry must be a mapping (evdev: or libinput:)")
          }
          guard let evdevEvents = entryMapping["evdev"] else { continue }
          guard let items = evdevEvents.sequence else { throw fail(evdevEvents, "evdev: must be a list") }
          for item in items { events.append(try event(item)) }
        }
      }
      return Recording(description: description, events: events, source: name)
    }

    /// `events:` with nothing after it (a device that sent nothing while libinput record ran).
    func isNull(_ node: Node) -> Bool {
      node.scalar != nil && YAMLTags.name(of: node) == .null
    }

    func description(_ evdev: Node) throws(RecordingError) -> DeviceDescription {
      guard let mapping = evdev.mapping else { throw fail(evdev, "evdev: must be a mapping") }
      guard let nameNode = mapping["name"], let name = nameNode.string else {
        throw fail(evdev, "evdev: without name:")
      }
      guard let idNode = mapping["id"] else { throw fail(evdev, "evdev: without id:") }
      let idValues = try integers(idNode, count: 4, what: "id")
      let id = InputID(
        bustype: try int(idValues[0], idNode, "bus type"), vendor: try int(idValues[1], idNode, "vendor"),
        product: try int(idValues[2], idNode, "product"), version: try int(idValues[3], idNode, "version"))
      var events: [UInt16: Set<UInt16>] = [:]
      if let codes = mapping["codes"] {
        guard let codeMapping = codes.mapping else { throw fail(codes, "codes: must be a mapping") }
        for (key, value) in codeMapping {
          guard let typeValue = YAMLInt.value(of: key) else {
            throw fail(key, "codes: key \"\(key.string ?? "?")\" is not a type")
          }
          let type: UInt16 = try int(typeValue, key, "event type")
          var set = Set<UInt16>()
          for code in try integers(value, what: "codes") { set.insert(try int(code, value, "event code")) }
          if !set.isEmpty { events[type] = set }
        }
        // libinput record writes libevdev's answer for EV_SYN, which is yes to every SYN code. The
        // EV_SYN codes of a description are the type bitmap (evemu's `B: 00`, what udev's rule
        // tests), so rebuild it from the types listed, as `LinuxInput.describe` does live.
        if !events.isEmpty { events[EV.syn] = Set(events.keys).union([EV.syn]) }
      }
      var absInfo: [UInt16: AbsInfo] = [:]
      if let abs = mapping["absinfo"] {
        guard let absMapping = abs.mapping else { throw fail(abs, "absinfo: must be a mapping") }
        for (key, value) in absMapping {
          guard let codeValue = YAMLInt.value(of: key) else {
            throw fail(key, "absinfo: key \"\(key.string ?? "?")\" is not a code")
          }
          let code: UInt16 = try int(codeValue, key, "axis code")
          let numbers = try integers(value, count: 5, what: "absinfo")
          absInfo[code] = AbsInfo(
            minimum: try int(numbers[0], value, "minimum"), maximum: try int(numbers[1], value, "maximum"),
            fuzz: try int(numbers[2], value, "fuzz"), flat: try int(numbers[3], value, "flat"),
            resolution: try int(numbers[4], value, "resolution"))
        }
      }
      var properties = Set<UInt16>()
      if let props = mapping["properties"] {
        for value in try integers(props, what: "properties") { properties.insert(try int(value, props, "property")) }
      }
      return DeviceDescription(name: name, id: id, properties: properties, events: events, absInfo: absInfo)
    }

    func event(_ node: Node) throws(RecordingError) -> InputEvent {
      let values = try integers(node, count: 5, what: "an evdev event [sec, usec, type, code, value]")
      guard (0...Int(Recording.maximumEventSeconds)).contains(values[0]) else {
        throw fail(node, "event time \(values[0]) s is out of range (0 to \(Recording.maximumEventSeconds) s)")
      }
      guard (0..<1_000_000).contains(values[1]) else {
        throw fail(node, "event time: \(values[1]) is not a number of microseconds (0 to 999999)")
      }
      return InputEvent(
        time: Timestamp(seconds: Int64(values[0]), microseconds: Int64(values[1])),
        type: try int(values[2], node, "event type"), code: try int(values[3], node, "event code"),
        value: try int(values[4], node, "event value"))
    }
  }
}
