import TouchdInput

/// How a parser counts lines, for checking that an error's line lies in the input.
public enum LineBreaks {
  /// evemu: `\n` only (a `\r` before it is part of the line ending).
  case newline
  /// YAML (libyaml): `\n`, `\r`, `\r\n`, U+0085, U+2028 and U+2029.
  case yaml
}

/// The number of lines `text` has as a parser counting `breaks` numbers them: one more than its
/// line breaks, so an error at the very end (after a final newline) is still in range.
public func lineCount(_ text: String, breaks: LineBreaks) -> Int {
  var count = 1
  switch breaks {
  case .newline:
    for byte in text.utf8 where byte == 0x0A { count += 1 }
  case .yaml:
    var afterCR = false
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": if !afterCR { count += 1 }
      case "\r", "\u{85}", "\u{2028}", "\u{2029}": count += 1
      default: break
      }
      afterCR = scalar == "\r"
    }
  }
  return count
}

/// Checks that a recording error names its place: the file as given, a line of the input, a
/// message, and `file:line: message` as its text.
public func checkPlace(_ error: RecordingError, source: String, text: String, breaks: LineBreaks) {
  let lines = lineCount(text, breaks: breaks)
  guard error.file == source else { fuzzFailure("error names file '\(error.file)', not '\(source)': \(error)") }
  guard (1...lines).contains(error.line) else {
    fuzzFailure("error line \(error.line) is not a line of the input (1...\(lines)): \(error)")
  }
  guard !error.message.isEmpty, error.description == "\(source):\(error.line): \(error.message)" else {
    fuzzFailure("error without its place or message: \(error)")
  }
}

/// Replays `recordings` together as `touchctl replay` does without a scene (``MultiReplay``, each
/// recording read as ``MultiReplay/Reading/unscened(_:)`` says), checking every frame against the
/// assemblers' documented guarantees: a touch begins once, is listed in every frame while it is
/// down, ends or is cancelled once and never comes back, lies in 0...1; a key goes down before it
/// goes up or is cancelled; nothing is down after the final `cancelAll`.
public func replayChecked(_ recordings: [Recording]) {
  let replay = MultiReplay(recordings, readings: recordings.map(MultiReplay.Reading.unscened))
  var checkers = recordings.map { _ in FrameChecker() }
  replay.feed { index, frame in checkers[index].check(frame) }
  replay.cancelAll(at: replay.endTime ?? Timestamp(microseconds: 0)) { index, frame in checkers[index].check(frame) }
  for checker in checkers {
    guard checker.touchesDown.isEmpty else { fuzzFailure("touches \(checker.touchesDown) still down after cancelAll") }
    guard checker.keysDown.isEmpty else { fuzzFailure("keys \(checker.keysDown) still down after cancelAll") }
  }
}

/// The frame invariants of one device's replay (``replayChecked(_:)``).
public struct FrameChecker {
  public private(set) var touchesDown: Set<TouchID> = []
  public private(set) var keysDown: Set<UInt16> = []
  private var touchesOver: Set<TouchID> = []

  public init() {}

  public mutating func check(_ frame: DeviceFrame) {
    switch frame {
    case .touches(let touches): check(touches)
    case .keys(let keys): check(keys)
    }
  }

  public mutating func check(_ frame: TouchFrame) {
    let before = touchesDown
    var seen: Set<TouchID> = []
    for contact in frame.contacts {
      let id = contact.id
      guard seen.insert(id).inserted else { fuzzFailure("touch \(id) twice in one frame: \(frame)") }
      guard !touchesOver.contains(id) else { fuzzFailure("touch \(id) is back after it ended: \(frame)") }
      let down = touchesDown.contains(id)
      guard down == (contact.phase != .began) else {
        fuzzFailure("touch \(id) \(contact.phase) \(down ? "while down" : "before it began"): \(frame)")
      }
      guard (0...1).contains(contact.x), (0...1).contains(contact.y) else {
        fuzzFailure("touch \(id) at (\(contact.x), \(contact.y)), outside 0...1: \(frame)")
      }
      guard contact.majorRadius?.isFinite ?? true, contact.force?.isFinite ?? true else {
        fuzzFailure("touch \(id) with a non-finite radius or force: \(frame)")
      }
      if contact.phase.isTerminal {
        touchesDown.remove(id)
        touchesOver.insert(id)
      } else {
        touchesDown.insert(id)
      }
    }
    let missing = before.subtracting(seen)
    guard missing.isEmpty else { fuzzFailure("touches \(missing) down but missing from the frame: \(frame)") }
  }

  public mutating func check(_ frame: KeyFrame) {
    for change in frame.changes {
      switch change.phase {
      case .down:
        guard keysDown.insert(change.code).inserted else { fuzzFailure("key \(change.code) down twice: \(frame)") }
      case .up, .cancelled:
        guard keysDown.remove(change.code) != nil else {
          fuzzFailure("key \(change.code) \(change.phase) while not down: \(frame)")
        }
      }
    }
  }
}
