/// `{"type":"presses",…}`: one presses call on a view with `presses: true` (docs/protocol.md,
/// `presses`).
public struct PressesMessage: WireMessage {
  public static var typeName: String { "presses" }

  /// One press of the call.
  public struct PressInfo: Hashable, Sendable {
    /// The press's id, the same in every message about it (clamped to `Int` as it is written).
    public var id: Int
    /// The press type: the scene's `keys.map` value (`select`, `help`, …).
    public var type: String
    /// The evdev key name (`KEY_ENTER`).
    public var key: String
    /// `began`, `changed`, `ended` or `cancelled`.
    public var phase: String

    @inlinable public init(id: Int, type: String, key: String, phase: String) {
      self.id = id
      self.type = type
      self.key = key
      self.phase = phase
    }

    init(decoding f: CommandFields) throws(ProtocolError) {
      id = try f.requiredInteger("id")
      type = try f.requiredString("type")
      key = try f.requiredString("key")
      phase = try f.requiredString("phase")
    }
  }

  /// Its place in the numbering of the pipeline's messages.
  public var seq: Int
  /// The presses method called: `began`, `changed`, `ended` or `cancelled`.
  public var phase: String
  /// The view that handled the call.
  public var view: String
  public var window: String
  /// Seconds: the frame's kernel timestamp (CLOCK_MONOTONIC), the recording's in a replay.
  public var time: Double
  /// The presses of the call, sorted by id.
  public var presses: [PressInfo]

  /// The message; `presses` are sorted by id.
  @inlinable public init(seq: Int, phase: String, view: String, window: String, time: Double, presses: [PressInfo]) {
    self.seq = seq
    self.phase = phase
    self.view = view
    self.window = window
    self.time = time
    self.presses = presses.sorted { $0.id < $1.id }
  }

  @inlinable public var jsonLine: String { callJSONLine }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    phase = try f.requiredString("phase")
    view = try f.requiredString("view")
    window = try f.requiredString("window")
    time = try f.requiredNumber("time")
    presses = []
    for press in try f.required(f.objects("presses", "an array of presses"), "presses", "an array of presses") {
      presses.append(try PressInfo(decoding: press))
    }
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}

extension PressesMessage: ResponderCallMessage {
  @inlinable static var jsonPrefix: StaticString { #"{"type":"presses","seq":"# }
  @inlinable static var jsonListKey: StaticString { #","presses":["# }
  @inlinable var elements: [PressInfo] { presses }
}

extension PressesMessage.PressInfo: ResponderCallElement {
  @inlinable func writeFields(_ w: inout JSONLineWriter) {
    w.string(#","type":"#, type)
    w.string(#","key":"#, key)
    w.string(#","phase":"#, phase)
  }
}
