/// `{"type":"touches",…}`: one touches call on a view with `touches: true`, with exactly that
/// call's touches (docs/protocol.md, `touches`), and for a subscriber that asks for them the
/// touches' coalesced and predicted positions (UIEvent's `coalescedTouches(for:)` and
/// `predictedTouches(for:)`; docs/protocol.md, "Coalesced and predicted touches").
public struct TouchesMessage: WireMessage {
  public static var typeName: String { "touches" }

  /// The optional entries of a touches message a subscriber asks for (`subscribe`'s `coalesced`
  /// and `predicted`).
  public struct Entries: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `coalesced`: every kernel frame of the call's moving touches since their last message.
    public static let coalesced = Entries(rawValue: 1)
    /// `predicted`: positions ahead of each touch still down, from its recent motion.
    public static let predicted = Entries(rawValue: 2)
  }

  /// One position of a touch at a time: a kernel frame's (`coalesced`) or a prediction's
  /// (`predicted`).
  public struct Sample: Hashable, Sendable {
    /// The touch's id, as in ``TouchInfo/id``.
    public var id: Int
    /// Window points.
    public var x: Double
    public var y: Double
    /// Seconds, on the clock of the message's `time`: the frame's kernel timestamp, or the time a
    /// prediction is for.
    public var time: Double

    @inlinable public init(id: Int, x: Double, y: Double, time: Double) {
      self.id = id
      self.x = x
      self.y = y
      self.time = time
    }

    init(decoding f: CommandFields) throws(ProtocolError) {
      id = try f.requiredInteger("id")
      x = try f.requiredNumber("x")
      y = try f.requiredNumber("y")
      time = try f.requiredNumber("time")
    }

    @inlinable func write(_ w: inout JSONLineWriter, first: Bool) {
      w.integer(first ? #"{"id":"# : #",{"id":"#, id)
      w.number(#","x":"#, x)
      w.number(#","y":"#, y)
      w.number(#","time":"#, time)
      w.raw("}")
    }
  }

  /// One touch of the call.
  public struct TouchInfo: Hashable, Sendable {
    /// The touch's id, the same in every message about it (the daemon's `TouchID`, clamped to
    /// `Int` as it is written).
    public var id: Int
    /// The touch's hit-test view (which may be a subview of the handling view).
    public var view: String
    /// `began`, `moved`, `stationary`, `ended` or `cancelled`.
    public var phase: String
    /// Window points.
    public var x: Double
    public var y: Double
    /// Taps in a row at this place, this one included. The daemon always writes it; optional for
    /// clients that read lines of other writers (docs/proposals/0001, "Optionality rule").
    public var tapCount: Int?
    /// The touch's location in its view's own points, for a view inside zoomed content (a scroll
    /// view's zoom view or a view within it, scaled: its points are not the window's); nil
    /// (absent) otherwise. As ``ActionMessage/locationInView``.
    public var locationInView: WirePoint?
    /// What made the touch (UIKit's `UITouch.TouchType`): `direct` (a finger) or `pencil` (a pen's
    /// tip). The daemon always writes it; nil for lines of writers before it.
    public var type: String?
    /// A pencil's: its pressure, 0 to UIKit's `maximumPossibleForce` for a pencil (4.166667), and
    /// its `altitudeAngle` and `azimuthAngle` (radians, in the window); nil (absent) for a finger.
    public var pen: PenFields?

    /// A pencil touch's own keys.
    public struct PenFields: Hashable, Sendable {
      public var force: Double
      public var altitudeAngle: Double
      public var azimuthAngle: Double
      /// The pen's eraser end (`BTN_TOOL_RUBBER`); written only when true.
      public var eraser: Bool

      @inlinable public init(force: Double, altitudeAngle: Double, azimuthAngle: Double, eraser: Bool = false) {
        self.force = force
        self.altitudeAngle = altitudeAngle
        self.azimuthAngle = azimuthAngle
        self.eraser = eraser
      }
    }

    @inlinable public init(
      id: Int, view: String, phase: String, x: Double, y: Double, tapCount: Int?, locationInView: WirePoint? = nil,
      type: String? = nil, pen: PenFields? = nil
    ) {
      self.id = id
      self.view = view
      self.phase = phase
      self.x = x
      self.y = y
      self.tapCount = tapCount
      self.locationInView = locationInView
      self.type = type
      self.pen = pen
    }

    init(decoding f: CommandFields) throws(ProtocolError) {
      id = try f.requiredInteger("id")
      view = try f.requiredString("view")
      phase = try f.requiredString("phase")
      type = try f.string("type")
      x = try f.requiredNumber("x")
      y = try f.requiredNumber("y")
      tapCount = try f.integer("tapCount")
      // A pencil's keys; a finger's `force` from another writer is not a pen's (it is ignored).
      if let altitude = try f.number("altitudeAngle") {
        pen = PenFields(
          force: try f.requiredNumber("force"), altitudeAngle: altitude,
          azimuthAngle: try f.requiredNumber("azimuthAngle"), eraser: try f.bool("eraser") ?? false)
      }
      locationInView = try f.point("locationInView")
    }
  }

  /// Its place in the numbering of the pipeline's messages.
  public var seq: Int
  /// The touches method called: `began`, `moved`, `ended` or `cancelled`.
  public var phase: String
  /// The view that handled the call.
  public var view: String
  public var window: String
  /// Seconds: the frame's kernel timestamp (CLOCK_MONOTONIC), the recording's in a replay.
  public var time: Double
  /// Exactly the touches of the call, sorted by id.
  public var touches: [TouchInfo]
  /// The kernel frames of the call's touches since each touch's last touches message, by touch id
  /// then time; nil when not asked for (docs/protocol.md, "Coalesced and predicted touches").
  public var coalesced: [Sample]?
  /// Predicted positions of the call's touches still down, by touch id then time; nil when not
  /// asked for.
  public var predicted: [Sample]?

  /// The message; `touches` are sorted by id.
  @inlinable public init(
    seq: Int, phase: String, view: String, window: String, time: Double, touches: [TouchInfo],
    coalesced: [Sample]? = nil, predicted: [Sample]? = nil
  ) {
    self.seq = seq
    self.phase = phase
    self.view = view
    self.window = window
    self.time = time
    self.touches = touches.sorted { $0.id < $1.id }
    self.coalesced = coalesced
    self.predicted = predicted
  }

  @inlinable public var jsonLine: String { jsonLineWithEntries.line }

  /// The JSON line and where its optional entries are in it (UTF-8 offsets): `coalesced` and
  /// `predicted` come last, before the closing brace, so a subscriber that did not ask for one is
  /// sent the line without its bytes (`Sources/TouchdDaemon`'s fan-out) and gets what it got
  /// before the entries existed.
  @inlinable public var jsonLineWithEntries: (line: String, coalesced: Range<Int>?, predicted: Range<Int>?) {
    var w = JSONLineWriter(Self.jsonPrefix)
    writeCall(&w)
    var ranges: (Range<Int>?, Range<Int>?) = (nil, nil)
    if let coalesced {
      let start = w.byteCount
      Self.write(#","coalesced":["#, coalesced, &w)
      ranges.0 = start..<w.byteCount
    }
    if let predicted {
      let start = w.byteCount
      Self.write(#","predicted":["#, predicted, &w)
      ranges.1 = start..<w.byteCount
    }
    return (w.finish(), ranges.0, ranges.1)
  }

  @inlinable static func write(_ key: StaticString, _ samples: [Sample], _ w: inout JSONLineWriter) {
    w.raw(key)
    for (i, sample) in samples.enumerated() { sample.write(&w, first: i == 0) }
    w.raw("]")
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    phase = try f.requiredString("phase")
    view = try f.requiredString("view")
    window = try f.requiredString("window")
    time = try f.requiredNumber("time")
    touches = []
    for touch in try f.required(f.objects("touches", "an array of touches"), "touches", "an array of touches") {
      touches.append(try TouchInfo(decoding: touch))
    }
    coalesced = try Self.samples(f, "coalesced")
    predicted = try Self.samples(f, "predicted")
  }

  /// An optional entry's samples, nil when the line has none.
  static func samples(_ f: CommandFields, _ key: String) throws(ProtocolError) -> [Sample]? {
    guard let objects = try f.objects(key, "an array of {id, x, y, time}") else { return nil }
    var out: [Sample] = []
    for object in objects { out.append(try Sample(decoding: object)) }
    return out
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}

extension TouchesMessage: ResponderCallMessage {
  @inlinable static var jsonPrefix: StaticString { #"{"type":"touches","seq":"# }
  @inlinable static var jsonListKey: StaticString { #","touches":["# }
  @inlinable var elements: [TouchInfo] { touches }
}

extension TouchesMessage.TouchInfo: ResponderCallElement {
  @inlinable func writeFields(_ w: inout JSONLineWriter) {
    w.string(#","view":"#, view)
    w.string(#","phase":"#, phase)
    if let type { w.string(#","type":"#, type) }
    w.number(#","x":"#, x)
    w.number(#","y":"#, y)
    if let tapCount { w.integer(#","tapCount":"#, tapCount) }
    if let pen {
      w.number(#","force":"#, pen.force)
      w.number(#","altitudeAngle":"#, pen.altitudeAngle)
      w.number(#","azimuthAngle":"#, pen.azimuthAngle)
      if pen.eraser { w.bool(#","eraser":"#, true) }
    }
    if let locationInView { w.point(#","locationInView":"#, locationInView) }
  }
}
