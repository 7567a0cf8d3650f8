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
/// Only the first device is read.
public enum LibinputRecordParser {
  /// Parses the YAML text of a recording.
  public static func parse(_ bytes: [UInt8], source: String) throws(RecordingError) -> Recording {
    let text = String(decoding: bytes, as: UTF8.self)
    let root: Node
    do {
      guard let node = try Yams.compose(yaml: text) else {
        throw RecordingError(file: source, line: 1, message: "empty libinput record file")
      }
      root = node
    } catch let error as RecordingError {
      throw error
    } catch let error as YamlError {
      throw RecordingError(file: source, line: line(of: error), message: "invalid YAML: \(problem(of: error))")
    } catch {
      throw RecordingError(file: source, line: 1, message: "invalid YAML: \(error)")
    }
    let reader = Reader(source: source)
    guard let mapping = root.mapping else { throw reader.fail(root, "expected a mapping at the top level") }
    if let version = mapping["version"], version.int != 1 {
      throw reader.fail(version, "unsupported libinput record version \(version.string ?? "?") (1 is read)")
    }
    guard let devices = mapping["devices"] else { throw reader.fail(root, "no devices: list") }
    guard let list = devices.sequence, let device = list.first else {
      throw reader.fail(devices, "devices: must be a non-empty list")
    }
    guard let deviceMapping = device.mapping else { throw reader.fail(device, "a device must be a mapping") }
    guard let evdev = deviceMapping["evdev"] else { throw reader.fail(device, "device without evdev:") }
    let description = try reader.description(evdev)
    var events: [InputEvent] = []
    if let eventList = deviceMapping["events"] {
      guard let entries = eventList.sequence else { throw reader.fail(eventList, "events: must be a list") }
      for entry in entries {
        guard let entryMapping = entry.mapping else {
          throw reader.fail(entry, "an events: entry must be a mapping (evdev: or libinput:)")
        }
        guard let evdevEvents = entryMapping["evdev"] else { continue }
        guard let items = evdevEvents.sequence else { throw reader.fail(evdevEvents, "evdev: must be a list") }
        for item in items { events.append(try reader.event(item)) }
      }
    }
    return Recording(description: description, events: events, source: source)
  }

  private static func line(of error: YamlError) -> Int {
    switch error {
    case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
      return mark.line
    case .duplicatedKeysInMapping(_, let context):
      return context.mark.line
    default:
      return 1
    }
  }

  private static func problem(of error: YamlError) -> String {
    switch error {
    case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
      return problem
    default:
      return "\(error)"
    }
  }

  private struct Reader {
    let source: String

    func fail(_ node: Node, _ message: String) -> RecordingError {
      RecordingError(file: source, line: node.mark?.line ?? 1, message: message)
    }

    func integers(_ node: Node, count: Int? = nil, what: String) throws(RecordingError) -> [Int] {
      guard let sequence = node.sequence else { throw fail(node, "\(what) must be a list of integers") }
      var values: [Int] = []
      for item in sequence {
        guard let value = item.int else { throw fail(item, "\(what): \"\(item.string ?? "?")\" is not an integer") }
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
          guard let typeValue = key.int else { throw fail(key, "codes: key \"\(key.string ?? "?")\" is not a type") }
          let type: UInt16 = try int(typeValue, key, "event type")
          var set = Set<UInt16>()
          for code in try integers(value, what: "codes") { set.insert(try int(code, value, "event code")) }
          if !set.isEmpty { events[type] = set }
        }
      }
      var absInfo: [UInt16: AbsInfo] = [:]
      if let abs = mapping["absinfo"] {
        guard let absMapping = abs.mapping else { throw fail(abs, "absinfo: must be a mapping") }
        for (key, value) in absMapping {
          guard let codeValue = key.int else { throw fail(key, "absinfo: key \"\(key.string ?? "?")\" is not a code") }
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
      guard values[0] >= 0, (0..<1_000_000).contains(values[1]) else {
        throw fail(node, "bad event time \(values[0]).\(values[1])")
      }
      return InputEvent(
        time: Timestamp(seconds: Int64(values[0]), microseconds: Int64(values[1])),
        type: try int(values[2], node, "event type"), code: try int(values[3], node, "event code"),
        value: try int(values[4], node, "event value"))
    }
  }
}
