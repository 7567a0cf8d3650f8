/// `{"type":"accessibility","seq":N,"event":E,"window":W,"view":V,"segment":S,"label":L,"value":X,
/// "traits":[…],"spoken":T,"on":B,"time":T}`: what VoiceOver did in a window (TouchdScene's
/// Accessibility/; docs/accessibility.md), so that an app draws the focus and a test checks it
/// without audio; `spoken` is what VoiceOver says for it (speech-dispatcher says the same). `event`:
/// - `focus`: an element got the focus (`spoken`: label, value, trait words, hint);
/// - `activate`: it was activated; `adjust`: an adjustable element's value stepped (`spoken`: the
///   new value);
/// - `scroll`: three fingers scrolled the scroll view `view` by a page (`value` and `spoken`: its
///   position, "page 2 of 5");
/// - `announce`: something said that is not an element's utterance (a client's `announce`, a hint
///   asked for with the keypad's help key);
/// - `pause`, `resume`: a two-finger tap paused or resumed speech; `readAll`: a two-finger flick
///   reads every element from `view` on (`spoken`: all of it);
/// - `escape`, `magicTap`: VoiceOver's escape (two-finger scrub, the keypad's menu key) and magic
///   tap (two-finger double tap), about the focused element;
/// - `passthrough`: a double tap's second finger held, an ordinary touch of the window until it
///   lifts;
/// - `boundary`: a flick found no element beyond the focus (`spoken`: "end" or "beginning");
///   `position`: a three-finger tap said where the focus is ("3 of 7");
/// - `voiceOver`: VoiceOver turned on or off (`on`).
///
/// The element's keys (`view`, `segment`, `label`, `value`, `traits`) are those of the element the
/// event is about, absent when it is about none; `segment` only for a segmented control's segment,
/// `label` and `value` only when the element has them.
public struct AccessibilityMessage: WireMessage {
  public static var typeName: String { "accessibility" }

  /// The events a message may carry, in the order docs list them.
  public static let events = [
    "focus", "activate", "adjust", "scroll", "announce", "pause", "resume", "readAll", "escape", "magicTap",
    "passthrough", "boundary", "position", "voiceOver",
  ]

  /// Its place in the numbering of the pipeline's messages.
  public var seq: Int
  /// One of ``events``.
  public var event: String
  public var window: String
  /// The element's view id; nil for `voiceOver` and `escape`.
  public var view: String?
  /// A segmented control's segment (from 0).
  public var segment: Int?
  public var label: String?
  public var value: String?
  /// UIAccessibilityTraits names.
  public var traits: [String]?
  /// What a screen reader says of the element: label, value, trait words, then hint.
  public var spoken: String?
  /// Whether VoiceOver is on now (`voiceOver` events only).
  public var on: Bool?
  /// Seconds: the time of the frame (or command) that made the event.
  public var time: Double

  @inlinable public init(
    seq: Int, event: String, window: String, view: String? = nil, segment: Int? = nil, label: String? = nil,
    value: String? = nil, traits: [String]? = nil, spoken: String? = nil, on: Bool? = nil, time: Double
  ) {
    self.seq = seq
    self.event = event
    self.window = window
    self.view = view
    self.segment = segment
    self.label = label
    self.value = value
    self.traits = traits
    self.spoken = spoken
    self.on = on
    self.time = time
  }

  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"accessibility","seq":"#)
    w.integer(seq)
    w.string(#","event":"#, event)
    w.string(#","window":"#, window)
    if let view { w.string(#","view":"#, view) }
    if let segment { w.integer(#","segment":"#, segment) }
    if let label { w.string(#","label":"#, label) }
    if let value { w.string(#","value":"#, value) }
    if let traits { w.strings(#","traits":"#, traits) }
    if let spoken { w.string(#","spoken":"#, spoken) }
    if let on { w.bool(#","on":"#, on) }
    w.number(#","time":"#, time)
    return w.finish()
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    event = try f.requiredString("event")
    window = try f.requiredString("window")
    view = try f.string("view")
    segment = try f.integer("segment")
    label = try f.string("label")
    value = try f.string("value")
    traits = try f.strings("traits")
    spoken = try f.string("spoken")
    on = try f.bool("on")
    time = try f.requiredNumber("time")
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}
