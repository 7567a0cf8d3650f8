/// `{"cmd":"calibrate","window":W,"targets":[[x,y],...],"timeout":S}`: the window's next touch on
/// each target (window points, 3 to 9) goes to a calibration, answered when the last one lifts or
/// after `timeout` seconds (default 120). docs/protocol.md, "calibrate".
public struct CalibrateCommand: Hashable, Sendable {
  /// The fields `calibrate` takes.
  public static let fields = ["window", "targets", "timeout"]
  /// How many targets a calibration takes: at least the three points that fix an affine map (the
  /// least-squares fit of CalibrationFit), at most a 3 × 3 grid.
  public static let targetCounts = 3...9
  /// The seconds a calibration waits for its touches when the command gives no `timeout`.
  public static let defaultTimeout = 120.0

  public var window: String
  public var targets: [WirePoint]
  /// The seconds to wait as the command gave them; nil: ``defaultTimeout``.
  public var timeout: Double?

  /// The seconds to wait for the touches.
  public var waitSeconds: Double { timeout ?? Self.defaultTimeout }

  public init(window: String, targets: [WirePoint], timeout: Double? = nil) {
    self.window = window
    self.targets = targets
    self.timeout = timeout
  }

  /// Decodes the command's fields with strict types; errors name the field (`targets[2]`).
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    window = try fields.required(fields.string("window"), "window", "a string: the window id")
    let expected = "an array of 3 to 9 targets, each [x, y] in window points"
    guard let value = fields["targets"] else { throw ProtocolError("missing field 'targets' (\(expected))") }
    guard case .array(let items) = value else { throw fields.mismatch("targets", expected, value) }
    guard Self.targetCounts.contains(items.count) else {
      throw ProtocolError("'targets' must be \(expected), found \(items.count) targets")
    }
    targets = []
    for (i, item) in items.enumerated() {
      guard case .array(let pair) = item, pair.count == 2 else {
        let found = if case .array(let a) = item { "an array of \(a.count) items" } else { item.shortDescription }
        throw ProtocolError("'targets[\(i)]' must be [x, y], two finite numbers, found \(found)")
      }
      let xy = try CommandFields.finiteNumbers(pair, path: "targets[\(i)]")
      targets.append(WirePoint(x: xy[0], y: xy[1]))
    }
    timeout = try fields.number("timeout")
    if let timeout, timeout <= 0 { throw ProtocolError("'timeout' must be above 0 seconds, found \(timeout)") }
  }

  /// The fields given.
  public var members: [JSONValue.Member] {
    var out: [JSONValue.Member] = [
      ("window", .string(window)), ("targets", .array(targets.map { .array([.number($0.x), .number($0.y)]) })),
    ]
    if let timeout { out.append(("timeout", .number(timeout))) }
    return out
  }
}
