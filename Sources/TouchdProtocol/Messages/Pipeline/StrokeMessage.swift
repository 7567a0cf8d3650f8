/// One point of a signature's stroke: a kernel frame of its touch (UIKit's coalesced touches), in
/// the signature view's points, with its time and, for a pen, its force and angles.
public struct StrokePoint: Hashable, Sendable {
  public var x: Double
  public var y: Double
  /// Seconds: the frame's kernel timestamp.
  public var time: Double
  /// A pencil's force (0 to 4.166667) and angles (radians); nil (absent) for a finger.
  public var force: Double?
  public var altitudeAngle: Double?
  public var azimuthAngle: Double?

  @inlinable public init(
    x: Double, y: Double, time: Double, force: Double? = nil, altitudeAngle: Double? = nil, azimuthAngle: Double? = nil
  ) {
    self.x = x
    self.y = y
    self.time = time
    self.force = force
    self.altitudeAngle = altitudeAngle
    self.azimuthAngle = azimuthAngle
  }

  init(decoding f: CommandFields) throws(ProtocolError) {
    x = try f.requiredNumber("x")
    y = try f.requiredNumber("y")
    time = try f.requiredNumber("time")
    force = try f.number("force")
    altitudeAngle = try f.number("altitudeAngle")
    azimuthAngle = try f.number("azimuthAngle")
  }

  @inlinable func write(_ w: inout JSONLineWriter, first: Bool) {
    w.number(first ? #"{"x":"# : #",{"x":"#, x)
    w.number(#","y":"#, y)
    w.number(#","time":"#, time)
    if let force { w.number(#","force":"#, force) }
    if let altitudeAngle { w.number(#","altitudeAngle":"#, altitudeAngle) }
    if let azimuthAngle { w.number(#","azimuthAngle":"#, azimuthAngle) }
    w.raw("}")
  }

  @inlinable static func write(_ points: [StrokePoint], _ w: inout JSONLineWriter) {
    w.raw(#","points":["#)
    for (i, point) in points.enumerated() { point.write(&w, first: i == 0) }
    w.raw("]")
  }

  static func points(_ f: CommandFields) throws(ProtocolError) -> [StrokePoint] {
    var out: [StrokePoint] = []
    for object in try f.required(f.objects("points", "an array of points"), "points", "an array of points") {
      out.append(try StrokePoint(decoding: object))
    }
    return out
  }
}

/// `{"type":"stroke","seq":N,"view":V,"window":W,"time":T,"touchType":"pencil"|"direct","points":[…]}`:
/// a stroke on a signature view (a view with `signature:`, docs/pens.md) ended; `points` has a point
/// per kernel frame of its touch, from touch-down to lift, in the view's points; `time` is the lift's.
public struct StrokeMessage: WireMessage {
  public static var typeName: String { "stroke" }

  public var seq: Int
  public var view: String
  public var window: String
  public var time: Double
  /// What drew it: `pencil` (a pen's tip) or `direct` (a finger).
  public var touchType: String
  public var points: [StrokePoint]

  @inlinable public init(
    seq: Int, view: String, window: String, time: Double, touchType: String, points: [StrokePoint]
  ) {
    self.seq = seq
    self.view = view
    self.window = window
    self.time = time
    self.touchType = touchType
    self.points = points
  }

  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"stroke","seq":"#)
    w.integer(seq)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    w.string(#","touchType":"#, touchType)
    StrokePoint.write(points, &w)
    return w.finish()
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    view = try f.requiredString("view")
    window = try f.requiredString("window")
    time = try f.requiredNumber("time")
    touchType = try f.requiredString("touchType")
    points = try StrokePoint.points(f)
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}

/// `{"type":"signature","seq":N,"view":V,"window":W,"time":T,"strokes":[{"touchType":…,"points":[…]},…],
/// "bounds":{x,y,width,height}|null,"duration":D}`: a signature view's whole signature, published
/// when a client asks for it (`{"cmd":"signature","view":V,"do":"get"}`): its strokes in the order
/// drawn, the rectangle around every point (view points; null without strokes) and the seconds
/// from the first point to the last (0 without strokes).
public struct SignatureMessage: WireMessage {
  public static var typeName: String { "signature" }

  /// One stroke of the signature.
  public struct Stroke: Hashable, Sendable {
    public var touchType: String
    public var points: [StrokePoint]

    @inlinable public init(touchType: String, points: [StrokePoint]) {
      self.touchType = touchType
      self.points = points
    }
  }

  public var seq: Int
  public var view: String
  public var window: String
  public var time: Double
  public var strokes: [Stroke]
  public var bounds: WireRect?
  public var duration: Double

  @inlinable public init(
    seq: Int, view: String, window: String, time: Double, strokes: [Stroke], bounds: WireRect?, duration: Double
  ) {
    self.seq = seq
    self.view = view
    self.window = window
    self.time = time
    self.strokes = strokes
    self.bounds = bounds
    self.duration = duration
  }

  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"signature","seq":"#)
    w.integer(seq)
    w.string(#","view":"#, view)
    writeAfterView(&w)
    return w.finish()
  }

  /// The members from `view` on, without braces: the `signature` command's reply.
  public var fieldsJSON: String {
    var w = JSONLineWriter(#"{"view":"#)
    w.string(view)
    writeAfterView(&w)
    return w.finishMembers()
  }

  @inlinable func writeAfterView(_ w: inout JSONLineWriter) {
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    w.raw(#","strokes":["#)
    for (i, stroke) in strokes.enumerated() {
      w.string(i == 0 ? #"{"touchType":"# : #",{"touchType":"#, stroke.touchType)
      StrokePoint.write(stroke.points, &w)
      w.raw("}")
    }
    w.raw("]")
    if let bounds {
      w.number(#","bounds":{"x":"#, bounds.x)
      w.number(#","y":"#, bounds.y)
      w.number(#","width":"#, bounds.width)
      w.number(#","height":"#, bounds.height)
      w.raw("}")
    } else {
      w.raw(#","bounds":null"#)
    }
    w.number(#","duration":"#, duration)
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    view = try f.requiredString("view")
    window = try f.requiredString("window")
    time = try f.requiredNumber("time")
    strokes = []
    for object in try f.required(f.objects("strokes", "an array of strokes"), "strokes", "an array of strokes") {
      strokes.append(Stroke(touchType: try object.requiredString("touchType"), points: try StrokePoint.points(object)))
    }
    if case .null = f["bounds"] {
      bounds = nil
    } else if let b = try f.object("bounds", "a rectangle or null") {
      bounds = WireRect(
        x: try b.requiredNumber("x"), y: try b.requiredNumber("y"), width: try b.requiredNumber("width"),
        height: try b.requiredNumber("height"))
    } else {
      bounds = nil
    }
    duration = try f.requiredNumber("duration")
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}
