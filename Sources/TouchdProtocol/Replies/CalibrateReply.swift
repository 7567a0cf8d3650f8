/// The fields of the reply to `calibrate` once its last target's touch lifted (docs/protocol.md,
/// "calibrate"): the fitted matrix, its errors, each target with where its touch landed, a warning
/// when the fit is poor, the device the touches came from and the matrix for its udev rule.
public struct CalibrateReply: Decodable, Hashable, Sendable {
  public var window: String
  /// The fit, libinput's 2x3 calibration matrix, to a millionth.
  public var matrix: [Double]
  /// Root-mean-square and largest distance, in window points (to a hundredth), between a target
  /// and where the fit puts its touch.
  public var rmsError: Double
  public var maxError: Double
  public var warning: String?
  public var points: [Point]
  /// The touchscreen the touches came from, nil when they came from a replay.
  public var device: Device?
  /// The matrix a udev rule gives the device: the fit after the device's own matrix.
  public var udevMatrix: [Double]

  /// A target, where its touch landed (to a hundredth of a point) and the distance between them.
  public struct Point: Decodable, Hashable, Sendable {
    public var at: WirePoint
    public var landed: WirePoint
    public var error: Double
    public init(at: WirePoint, landed: WirePoint, error: Double) {
      self.at = at
      self.landed = landed
      self.error = error
    }
  }

  /// A device by its node and name.
  public struct Device: Decodable, Hashable, Sendable {
    public var path: String
    public var name: String
    public init(path: String, name: String) {
      self.path = path
      self.name = name
    }
  }

  public init(
    window: String, matrix: [Double], rmsError: Double, maxError: Double, warning: String?, points: [Point],
    device: Device?, udevMatrix: [Double]
  ) {
    self.window = window
    self.matrix = matrix
    self.rmsError = rmsError
    self.maxError = maxError
    self.warning = warning
    self.points = points
    self.device = device
    self.udevMatrix = udevMatrix
  }

  /// The reply's members, encoded, for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String {
    var w = JSONLineWriter(#"{"window":"#)
    w.string(window)
    w.numbers(#","matrix":"#, matrix)
    w.number(#","rmsError":"#, rmsError)
    w.number(#","maxError":"#, maxError)
    w.optionalString(#","warning":"#, warning)
    w.raw(#","points":["#)
    for (i, point) in points.enumerated() {
      w.point(i == 0 ? #"{"at":"# : #",{"at":"#, x: point.at.x, y: point.at.y)
      w.point(#","landed":"#, x: point.landed.x, y: point.landed.y)
      w.number(#","error":"#, point.error)
      w.raw("}")
    }
    w.raw("]")
    if let device {
      w.string(#","device":{"path":"#, device.path)
      w.string(#","name":"#, device.name)
      w.raw("}")
    } else {
      w.raw(#","device":null"#)
    }
    w.numbers(#","udevMatrix":"#, udevMatrix)
    return w.finishMembers()
  }
}
