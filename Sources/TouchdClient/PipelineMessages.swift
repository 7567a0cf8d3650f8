// The pipeline's messages, as the Swift client names them: the protocol's types
// (Sources/TouchdProtocol/Messages/Pipeline), declared once for the daemon that writes them and
// the clients that read them, decoded with the protocol's strict reader (types checked, unknown
// keys ignored). Where this client's own structs were flat and the protocol's type holds an enum
// (`Action`'s detail, `Control`'s value, `Trace`'s event), get-only accessors keep the old names and
// types, so code that read them compiles unchanged (docs/proposals/0001, "TouchdClient stays
// source-compatible"); only code that assigned to a received message's field does not.
import TouchdProtocol

extension TouchdClient {
  /// A point in window points, or a 2-D vector.
  public typealias Point = WirePoint
  /// `action`: a recognizer fired (began, changed, ended or cancelled), or a control sent an event
  /// (``ActionMessage/Detail``). Per gesture only some of the flat accessors are set: `translation`
  /// and a vector `velocity` for pan and screenEdgePan; `scale` and a scalar `velocity` for pinch;
  /// `rotation` and a scalar `velocity` for rotation; `direction` for swipe; `event`, `control` and
  /// `value` for a control (`gesture` `control`, without `state`, `recognizer`, `location`,
  /// `numberOfTouches`); `press` for a tap or long press that presses made.
  public typealias Action = ActionMessage
  /// What a gesture adds to its action (``ActionMessage/values``).
  public typealias GestureValues = TouchdProtocol.GestureValues
  /// A control's value (``ActionMessage/controlValue``, ``ControlMessage/controlValue``).
  public typealias ControlValue = TouchdProtocol.ControlValue
  /// `touches`: one touches call of a view with `touches: true`, with exactly that call's touches.
  public typealias Touches = TouchesMessage
  /// `scroll`: a scroll view's delegate callback, named by `phase` (`didScroll`, `willEndDragging`, …).
  public typealias Scroll = ScrollMessage
  /// `control`: a control's visible state after it changed.
  public typealias Control = ControlMessage
  /// `presses`: one presses call of a view with `presses: true`.
  public typealias Presses = PressesMessage
  /// `idle`: the scene went idle (`state` `idle`) or active again (`active`).
  public typealias Idle = IdleMessage
  /// `accessibility`: VoiceOver focused, activated or adjusted an element, or turned on or off
  /// (`event`).
  public typealias Accessibility = AccessibilityMessage
  /// `trace`: one step of delivery and arbitration (docs/explain.md); the fields set depend on
  /// `event` (`recognizer`, `waiting`, `touchBegan`, `touchSwallowed`, `held`, `released`,
  /// `cancelledInView`).
  public typealias Trace = TraceMessage
}

extension ActionMessage {
  /// An action's `velocity`: a vector (pan) or a number (pinch, rotation).
  public enum Velocity: Sendable, Hashable, Decodable {
    case vector(WirePoint)
    case scalar(Double)

    public init(from decoder: any Decoder) throws {
      if let number = try? decoder.singleValueContainer().decode(Double.self) {
        self = .scalar(number)
      } else {
        self = .vector(try WirePoint(from: decoder))
      }
    }

    /// The vector, for pan and screenEdgePan.
    public var vector: WirePoint? {
      if case .vector(let point) = self { return point }
      return nil
    }

    /// The number, for pinch and rotation.
    public var scalar: Double? {
      if case .scalar(let number) = self { return number }
      return nil
    }
  }

  /// Pan, screenEdgePan: points per second; pinch: scale per second; rotation: radians per second.
  public var velocity: Velocity? {
    switch values {
    case .pan(_, let velocity): .vector(velocity)
    case .pinch(_, let velocity), .rotation(_, let velocity): .scalar(velocity)
    case .none, .swipe, .hover: nil
    }
  }

  /// Control: the switch's `on` (a boolean), the slider's or stepper's value, the segmented
  /// control's selected index, the page control's page; absent for a button.
  public var value: TouchdJSON? {
    guard let controlValue else { return nil }
    switch controlValue {
    case .on(let on): return .bool(on)
    case .value(let value): return .number(value)
    case .selectedSegmentIndex(let index), .currentPage(let index): return .number(Double(index))
    case .none: return nil
    }
  }
}

extension TouchesMessage {
  /// One touch of a touches call.
  public typealias Touch = TouchInfo
}

extension TouchesMessage.TouchInfo {
  /// `x` and `y`.
  public var location: WirePoint { WirePoint(x: x, y: y) }
}

extension PressesMessage {
  /// One press of a presses call.
  public typealias Press = PressInfo
}

extension ControlMessage {
  /// A message with the value under its own name, as this client's `Control` was built.
  init(
    seq: Int, control: String, view: String, window: String, time: Double, enabled: Bool, highlighted: Bool,
    selected: Bool, on: Bool?, value: Double?, selectedSegmentIndex: Int?
  ) {
    var state = ControlValue.none
    if let on {
      state = .on(on)
    } else if let selectedSegmentIndex {
      state = .selectedSegmentIndex(selectedSegmentIndex)
    } else if let value {
      state = .value(value)
    }
    self.init(
      seq: seq, control: control, view: view, window: window, time: time, enabled: enabled, highlighted: highlighted,
      selected: selected, value: state)
  }

  /// A switch's state.
  public var on: Bool? {
    if case .on(let on) = controlValue { on } else { nil }
  }

  /// A slider's or stepper's value.
  public var value: Double? {
    if case .value(let value) = controlValue { value } else { nil }
  }

  /// A segmented control's selection (-1 for none).
  public var selectedSegmentIndex: Int? {
    if case .selectedSegmentIndex(let index) = controlValue { index } else { nil }
  }

  /// A page control's page.
  public var currentPage: Int? {
    if case .currentPage(let page) = controlValue { page } else { nil }
  }
}
