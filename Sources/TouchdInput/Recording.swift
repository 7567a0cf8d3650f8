import Foundation

/// A device description and the events it produced, read from a recording file.
public struct Recording: Hashable, Sendable {
  public var description: DeviceDescription
  /// Events in file order, timestamps as recorded (relative or absolute).
  public var events: [InputEvent]
  /// Where the recording came from (a path), for messages.
  public var source: String

  public init(description: DeviceDescription, events: [InputEvent], source: String) {
    self.description = description
    self.events = events
    self.source = source
  }
}

extension Recording {
  /// The latest event time a recording may hold, in seconds: ten digits, over 300 years, so that
  /// every time fits ``Timestamp`` (microseconds in an `Int64`) with room to shift a looping
  /// replay. Live kernel times are far below it (`CLOCK_MONOTONIC` counts from boot).
  public static let maximumEventSeconds: Int64 = 9_999_999_999

  /// Why touchd would not take the recorded device live, nil when it would: touchd's copy of
  /// udev's `input_id` rule decides, as it does live where udev has no record of a device, so a
  /// replay and the live daemon take the same devices.
  public var notTouchscreenMessage: String? {
    guard let reason = description.touchscreenKind().reason else { return nil }
    return "\(source): the recorded device \"\(description.name)\" is not a touchscreen: \(reason); "
      + "touchd would not take it live either"
  }
}

/// A malformed or unreadable recording, located as `file:line: what is wrong`.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
  public var file: String
  /// 1-based line number.
  public var line: Int
  public var message: String

  public init(file: String, line: Int, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  /// `file:line: message`.
  public var description: String { "\(file):\(line): \(message)" }
}

/// The recording file formats touchd reads.
public enum RecordingFormat: Hashable, Sendable {
  /// evemu (`evemu-record`, `evemu-describe`): `N: I: P: B: A:` and `E:` lines.
  case evemu
  /// `libinput record` YAML.
  case libinputRecord

  /// Guesses the format from the content: YAML keys (`version:`, `ndevices:`, `devices:`,
  /// `libinput:`, `system:`) at the start of the first non-comment line mean `libinput record`;
  /// anything else is evemu.
  public static func detect(_ bytes: some Collection<UInt8>) -> RecordingFormat {
    var line: [UInt8] = []
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "\n") {
        if let format = classify(line) { return format }
        line.removeAll(keepingCapacity: true)
        continue
      }
      line.append(byte)
    }
    return classify(line) ?? .evemu
  }

  private static func classify(_ line: [UInt8]) -> RecordingFormat? {
    // Bytes, not Strings: the wacom recording has ~100 comment lines before its first key.
    var start = 0
    while start < line.count && (line[start] == 0x20 || (0x09...0x0D).contains(line[start])) { start += 1 }
    if start == line.count || line[start] == UInt8(ascii: "#") { return nil }
    let text = line[start...]
    for key in ["version:", "ndevices:", "devices:", "libinput:", "system:"] where text.starts(with: key.utf8) {
      return .libinputRecord
    }
    return .evemu
  }
}

/// Reads recordings of either format.
public enum RecordingReader {
  /// Reads the recording at `path`, detecting its format from the content.
  ///
  /// - Parameter descriptionPath: an evemu description (`.desc`) for an events-only evemu file; when
  ///   given it replaces any description the file has.
  public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> Recording {
    let bytes = try readFile(path)
    var description: DeviceDescription?
    if let descriptionPath {
      description = try EvemuParser.parseDescription(try readFile(descriptionPath), source: descriptionPath)
    }
    return try parse(bytes, source: path, description: description)
  }

  /// Parses recording bytes; `source` names them in errors.
  public static func parse(
    _ bytes: [UInt8], source: String, description: DeviceDescription? = nil
  ) throws(RecordingError) -> Recording {
    switch RecordingFormat.detect(bytes) {
    case .evemu:
      return try EvemuParser.parse(bytes, source: source, description: description)
    case .libinputRecord:
      var recording = try LibinputRecordParser.parse(bytes, source: source)
      if let description { recording.description = description }
      return recording
    }
  }

  /// Reads every device's recording in the file at `path`: one for an evemu file, one per
  /// `devices:` entry of a `libinput record` file (``LibinputRecordParser/parseAll(_:source:)``).
  ///
  /// - Parameter descriptionPath: an evemu description (`.desc`) for an events-only evemu file, or
  ///   to replace the description of a one-device file; refused for a file of several devices.
  public static func loadAll(path: String, descriptionPath: String? = nil) throws(RecordingError) -> [Recording] {
    let bytes = try readFile(path)
    switch RecordingFormat.detect(bytes) {
    case .evemu:
      return [try parse(bytes, source: path, description: try description(descriptionPath))]
    case .libinputRecord:
      var recordings = try LibinputRecordParser.parseAll(bytes, source: path)
      if let descriptionPath {
        guard recordings.count == 1 else {
          throw RecordingError(
            file: descriptionPath, line: 0,
            message: "a description replaces one device's, but \(path) holds \(recordings.count) devices")
        }
        recordings[0].description = try EvemuParser.parseDescription(
          try readFile(descriptionPath), source: descriptionPath)
      }
      return recordings
    }
  }

  /// Reads every recording of every file, in order (``loadAll(path:descriptionPath:)`` of each).
  public static func loadAll(paths: [String]) throws(RecordingError) -> [Recording] {
    var recordings: [Recording] = []
    for path in paths { recordings += try loadAll(path: path) }
    return recordings
  }

  private static func description(_ path: String?) throws(RecordingError) -> DeviceDescription? {
    guard let path else { return nil }
    return try EvemuParser.parseDescription(try readFile(path), source: path)
  }

  static func readFile(_ path: String) throws(RecordingError) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RecordingError(file: path, line: 0, message: "cannot read the file")
    }
    return [UInt8](data)
  }
}
