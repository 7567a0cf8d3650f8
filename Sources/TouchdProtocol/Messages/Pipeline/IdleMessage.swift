/// `{"type":"idle","seq":N,"state":"idle"|"active","time":T,"lastInput":T|null,"swallowed":B}`:
/// the scene's idle state changed (TouchdScene's `IdleMonitor`; docs/protocol.md, `idle`). `time`
/// is when it changed: for `idle`, the last input plus `after`; for `active`, the waking input's.
/// `swallowed` is true when the waking input was kept from the views (`wake: swallow`).
public struct IdleMessage: WireMessage {
  public static var typeName: String { "idle" }

  /// Its place in the numbering of the pipeline's messages.
  public var seq: Int
  /// `idle` or `active`.
  public var state: String
  public var time: Double
  /// The time of the last touch or press; nil (written `null`) before the first.
  public var lastInput: Double?
  /// Whether the waking input was kept from the views. The daemon always writes it; optional for
  /// clients that read lines of other writers (docs/proposals/0001, "Optionality rule").
  public var swallowed: Bool?

  @inlinable public init(seq: Int, state: String, time: Double, lastInput: Double?, swallowed: Bool?) {
    self.seq = seq
    self.state = state
    self.time = time
    self.lastInput = lastInput
    self.swallowed = swallowed
  }

  /// The daemon's message: `idle` when `isIdle`, else `active`.
  @inlinable public init(seq: Int, isIdle: Bool, time: Double, lastInput: Double?, swallowed: Bool) {
    self.init(seq: seq, state: isIdle ? "idle" : "active", time: time, lastInput: lastInput, swallowed: swallowed)
  }

  /// Whether the scene went idle (`state` `idle`).
  public var isIdle: Bool { state == "idle" }

  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"idle","seq":"#)
    w.integer(seq)
    w.string(#","state":"#, state)
    w.number(#","time":"#, time)
    if let lastInput { w.number(#","lastInput":"#, lastInput) } else { w.raw(#","lastInput":null"#) }
    if let swallowed { w.raw(swallowed ? #","swallowed":true"# : #","swallowed":false"#) }
    return w.finish()
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    state = try f.requiredString("state")
    time = try f.requiredNumber("time")
    lastInput = try f.nullableNumber("lastInput")
    swallowed = try f.bool("swallowed")
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}
