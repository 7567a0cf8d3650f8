/// `{"type":"calibration","window":W,"target":N,"targets":M,"at":{…},"touched":{…}}`: a running
/// calibration collected its N-th target's touch (docs/protocol.md, "calibrate"); every client
/// gets it, so a kiosk app can show the next target.
public struct CalibrationMessage: Decodable, Hashable, Sendable {
  public var window: String
  /// The target collected, counted from 1.
  public var target: Int
  /// How many targets the calibration has.
  public var targets: Int
  /// The target, in window points.
  public var at: WirePoint
  /// The touch, device-normalized (0…1), before the window's calibration.
  public var touched: WirePoint

  public init(window: String, target: Int, targets: Int, at: WirePoint, touched: WirePoint) {
    self.window = window
    self.target = target
    self.targets = targets
    self.at = at
    self.touched = touched
  }

  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"calibration","window":"#)
    w.string(window)
    w.integer(#","target":"#, target)
    w.integer(#","targets":"#, targets)
    w.point(#","at":"#, x: at.x, y: at.y)
    w.point(#","touched":"#, x: touched.x, y: touched.y)
    return w.finish()
  }
}
