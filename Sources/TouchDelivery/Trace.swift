import TouchdCore

/// One step of delivery and arbitration, with its cause: what `touchctl replay --explain` prints and
/// the daemon publishes as `trace` messages. Set ``Application/tracer`` to receive them; with no
/// tracer nothing is built (causes are autoclosures).
public enum TraceEvent {
  /// A recognizer's state changed: `from` → `to`, and why (a reset is `→ possible`).
  case recognizer(GestureRecognizer, from: GestureRecognizer.State, to: GestureRecognizer.State, cause: String)
  /// A recognition (`to`) is held back until `requirement` fails.
  case waiting(GestureRecognizer, to: GestureRecognizer.State, requirement: GestureRecognizer)
  /// A touch landed on `touch.view`: the recognizers it goes to, and notes on who does not get it
  /// and why (exclusiveTouch, multipleTouchEnabled, shouldReceive, a recognizer whose view
  /// contains the point but is not on the hit-test view's chain).
  case touchBegan(Touch, recognizers: [GestureRecognizer], notes: [String])
  /// A contact that is delivered to nobody for its whole life (ignoring interaction, nothing hit).
  case touchSwallowed(id: TouchID, window: Window?, location: Point, reason: String)
  /// A view delivery waits: `phase` of `touch`, held by `recognizers` (or behind an earlier held
  /// delivery when empty).
  case held(Touch, phase: TouchPhase, by: [GestureRecognizer])
  /// A held view delivery was made: `phase` of `touch`, at `location` (window points).
  case released(Touch, phase: TouchPhase, location: Point)
  /// A recognition took `touch` from its view (`cancelsTouchesInView`).
  case cancelledInView(Touch, by: GestureRecognizer)
  /// A key went down: the press, its responder (``Press/responder``) and the recognizers whose
  /// `allowedPressTypes` take it, as ``touchBegan(_:recognizers:notes:)`` lists a touch's.
  case pressBegan(Press, recognizers: [GestureRecognizer])
  /// A control followed its tracking touch (UIControl's `beginTracking`, `continueTracking`,
  /// `endTracking`, `cancelTracking` for `phase` began, moved, ended, cancelled): whether the
  /// touch is inside the tracking area, whether the control tracks on, and the events it sends.
  case controlTracking(Control, touch: Touch, phase: TouchPhase, tracking: Bool, events: ControlEvents)
}

extension GestureRecognizer {
  /// The recognizer's name for messages: ``name``, else its class.
  public var traceName: String { name ?? String(describing: type(of: self)) }
}

/// Numbers in causes: at most `decimals` decimals (1 for points: `46.2`; 3 for seconds:
/// `0.35`), no trailing zeros (`45`).
public func traceNumber(_ value: Double, decimals: Int = 1) -> String {
  var scale = 1
  for _ in 0..<max(0, min(decimals, 9)) { scale *= 10 }
  // A value too large for an Int once scaled (a scene's window 10^22 points wide) is written as
  // Swift writes a Double (`9.6e+21`).
  guard value.isFinite, abs(value) * Double(scale) < 9.0e18 else { return String(describing: value) }
  let scaled = Int((abs(value) * Double(scale)).rounded())
  guard scaled != 0 else { return "0" }
  var fraction = scaled % scale
  var digits = decimals
  while digits > 0 && fraction % 10 == 0 {
    fraction /= 10
    digits -= 1
  }
  let sign = value < 0 ? "-" : ""
  guard digits > 0 else { return "\(sign)\(scaled / scale)" }
  var fractionText = String(fraction)
  while fractionText.count < digits { fractionText = "0" + fractionText }
  return "\(sign)\(scaled / scale).\(fractionText)"
}

extension View {
  /// The view's name for messages: ``identifier``, else its class.
  public var traceName: String { identifier ?? String(describing: type(of: self)) }
}
