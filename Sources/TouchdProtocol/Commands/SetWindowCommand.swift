/// `{"cmd":"set","window":ID,…}`: changes how a window maps its touchscreens (`rotation`,
/// `calibration`) and its size, as for a display rotated while running, or turns VoiceOver on or
/// off (`voiceOver`); the window's touches in progress are cancelled. docs/protocol.md, "set".
public struct SetWindowCommand: Hashable, Sendable {
  /// The fields `set` takes with `window`.
  public static let fields = ["window", "rotation", "calibration", "size", "voiceOver"]

  public var window: String
  public var change: WindowChange

  public init(window: String, change: WindowChange) {
    self.window = window
    self.change = change
  }

  /// Decodes the fields of a `set` with `window`, with strict types.
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    window = try fields.required(fields.string("window"), "window", "a string: the window id")
    change = WindowChange()
    if let rotation = try fields.integer("rotation") {
      guard WindowChange.rotations.contains(rotation) else {
        throw ProtocolError("'rotation' must be 0, 90, 180 or 270, found \(rotation)")
      }
      change.rotation = rotation
    }
    change.calibration = try fields.numberList(
      "calibration", counts: 6...6, "an array of 6 numbers (a 2x3 matrix, LIBINPUT_CALIBRATION_MATRIX's meaning)")
    if let n = try fields.numbers("size", ["width", "height"]) {
      guard n[0] > 0, n[1] > 0 else { throw ProtocolError("'size' must be above 0 points wide and high") }
      change.size = WireSize(width: n[0], height: n[1])
    }
    change.voiceOver = try fields.bool("voiceOver")
    guard !change.isEmpty else {
      throw ProtocolError("'set' with 'window' changes at least one of rotation, calibration, size, voiceOver")
    }
  }

  /// The fields given, in ``fields``' order.
  public var members: [JSONValue.Member] {
    var out: [JSONValue.Member] = [("window", .string(window))]
    if let rotation = change.rotation { out.append(("rotation", .number(Double(rotation)))) }
    if let calibration = change.calibration { out.append(("calibration", .array(calibration.map(JSONValue.number)))) }
    if let size = change.size { out.append(("size", .size(size))) }
    if let voiceOver = change.voiceOver { out.append(("voiceOver", .bool(voiceOver))) }
    return out
  }
}

/// What a `set` command changes in a window; nil leaves a property as it is.
public struct WindowChange: Hashable, Sendable {
  /// The rotations a window takes, degrees clockwise: the scene's `rotation` (TouchdInput's
  /// `ScreenRotation`, whose cases a test holds this list to).
  public static let rotations = [0, 90, 180, 270]

  /// 0, 90, 180 or 270 degrees clockwise (the scene's `rotation`).
  public var rotation: Int?
  /// Six numbers, libinput's calibration matrix (the scene's `calibration`).
  public var calibration: [Double]?
  /// The window's size in points.
  public var size: WireSize?
  /// VoiceOver on or off in the window (the scene's `voiceOver`).
  public var voiceOver: Bool?

  public init(rotation: Int? = nil, calibration: [Double]? = nil, size: WireSize? = nil, voiceOver: Bool? = nil) {
    self.rotation = rotation
    self.calibration = calibration
    self.size = size
    self.voiceOver = voiceOver
  }

  /// Whether the command changes nothing of the window.
  public var isEmpty: Bool { rotation == nil && calibration == nil && size == nil && voiceOver == nil }

  /// Whether the command changes how the window maps its touchscreens (rotation, calibration, size).
  public var changesMapping: Bool { rotation != nil || calibration != nil || size != nil }
}
