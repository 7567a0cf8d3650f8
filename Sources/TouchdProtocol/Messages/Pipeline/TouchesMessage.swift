/// `{"type":"touches",…}`: one touches call on a view with `touches: true`, with exactly that
/// call's touches (docs/protocol.md, `touches`).
public struct TouchesMessage: WireMessage {
  public static var typeName: String { "touches" }

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

    @inlinable public init(id: Int, view: String, phase: String, x: Double, y: Double, tapCount: Int?) {
      self.id = id
      self.view = view
      self.phase = phase
      self.x = x
      self.y = y
      self.tapCount = tapCount
    }

    init(decoding f: CommandFields) throws(ProtocolError) {
      id = try f.requiredInteger("id")
      view = try f.requiredString("view")
      phase = try f.requiredString("phase")
      x = try f.requiredNumber("x")
      y = try f.requiredNumber("y")
      tapCount = try f.integer("tapCount")
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

  /// The message; `touches` are sorted by id.
  @inlinable public init(seq: Int, phase: String, view: String, window: String, time: Double, touches: [TouchInfo]) {
    self.seq = seq
    self.phase = phase
    self.view = view
    self.window = window
    self.time = time
    self.touches = touches.sorted { $0.id < $1.id }
  }

  @inlinable public var jsonLine: String { callJSONLine }

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
    w.number(#","x":"#, x)
    w.number(#","y":"#, y)
    if let tapCount { w.integer(#","tapCount":"#, tapCount) }
  }
}
