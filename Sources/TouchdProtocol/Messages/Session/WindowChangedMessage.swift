/// `{"type":"windowChanged","window":W,"width":X,"height":Y,"rotation":R,"calibration":[…]}`: a
/// client's `set` changed a window's rotation, calibration or size; every client gets it, and its
/// fields are the `set` reply's (docs/protocol.md, "set on a window").
public struct WindowChangedMessage: Decodable, Hashable, Sendable {
  /// The window's id.
  public var window: String
  /// Points, as the window is now.
  public var width: Double
  /// Points, as the window is now.
  public var height: Double
  /// Degrees clockwise: 0, 90, 180 or 270 (``WindowChange/rotations``).
  public var rotation: Int
  /// The six numbers of the window's calibration matrix (libinput's 2×3 matrix).
  public var calibration: [Double]

  public init(window: String, width: Double, height: Double, rotation: Int, calibration: [Double]) {
    self.window = window
    self.width = width
    self.height = height
    self.rotation = rotation
    self.calibration = calibration
  }

  /// The `set` reply's members, encoded, for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String { writer(#"{"window":"#).finishMembers() }

  /// The notice every client gets.
  public var jsonLine: String { writer(#"{"type":"windowChanged","window":"#).finish() }

  private func writer(_ prefix: StaticString) -> JSONLineWriter {
    var w = JSONLineWriter(prefix)
    w.string(window)
    w.number(#","width":"#, width)
    w.number(#","height":"#, height)
    w.integer(#","rotation":"#, rotation)
    w.numbers(#","calibration":"#, calibration)
    return w
  }
}
