// The typed side of the pipeline's messages: the protocol (Sources/TouchdProtocol/Messages/Pipeline)
// declares each message once with string vocabularies and `WirePoint`s, so that it depends on no
// layer of the pipeline; here the scene builds them from its own types (a recognizer's
// `RecognizerType` and `GestureRecognizer.State`, a `TouchPhase`, a `ScrollView.Phase`, a
// `PressPhase`, TouchDelivery's `Point`), storing each enum's raw value (an immortal literal: no
// allocation), and reads them back typed (`recognizerType`, `gestureState`, …) for TouchdRender,
// Explanation and the tests.
import TouchDelivery
import TouchdInput

extension WirePoint {
  /// TouchDelivery's point, as messages carry it.
  @inlinable public init(_ p: Point) { self.init(x: p.x, y: p.y) }
}

extension Point {
  /// A message's point as TouchDelivery's.
  @inlinable public init(_ p: WirePoint) { self.init(x: p.x, y: p.y) }
}

extension GestureValues {
  /// Pan and screen-edge pan's values from TouchDelivery's points.
  @inlinable public static func pan(translation: Point, velocity: Point) -> GestureValues {
    .pan(translation: WirePoint(translation), velocity: WirePoint(velocity))
  }
}

extension ControlValue {
  /// The control's current value.
  public init(of control: Control) {
    switch control {
    case let s as Switch: self = .on(s.isOn)
    case let s as Slider: self = .value(s.value)
    case let s as Stepper: self = .value(s.value)
    case let s as SegmentedControl: self = .selectedSegmentIndex(s.selectedSegmentIndex)
    case let p as PageControl: self = .currentPage(p.currentPage)
    default: self = .none
    }
  }
}

/// The scene's name of a control's type (`button`, `switch`, …).
func controlTypeName(_ control: Control) -> String {
  switch control {
  case is Switch: "switch"
  case is Slider: "slider"
  case is Stepper: "stepper"
  case is SegmentedControl: "segmented"
  case is PageControl: "pageControl"
  default: "button"
  }
}

extension ActionMessage {
  /// A recognizer's action.
  @inlinable public init(
    seq: Int, action: String, gesture: RecognizerType, state: GestureRecognizer.State, view: String, window: String,
    recognizer: String, time: Double, location: Point, numberOfTouches: Int, values: GestureValues = .none,
    press: String? = nil, locationInView: Point? = nil
  ) {
    self.init(
      seq: seq, action: action, view: view, window: window, time: time,
      detail: .recognizer(
        gesture: gesture.rawValue, state: state.rawValue, recognizer: recognizer, location: WirePoint(location),
        numberOfTouches: numberOfTouches, press: press, values: values),
      locationInView: locationInView.map(WirePoint.init))
  }

  /// The recognizer's type; nil for a control's action (or a type this scene format lacks).
  public var recognizerType: RecognizerType? { RecognizerType(rawValue: gesture) }

  /// The recognizer's state; nil for a control's action.
  public var gestureState: GestureRecognizer.State? { state.flatMap(GestureRecognizer.State.init(rawValue:)) }

  /// The recognizer's location as TouchDelivery's point; nil for a control's action.
  public var locationPoint: Point? { location.map(Point.init) }
}

extension TouchesMessage.TouchInfo {
  /// A touch of the call, its id clamped to `Int` as it has always been written.
  @inlinable public init(
    id: UInt64, view: String, phase: TouchPhase, x: Double, y: Double, tapCount: Int, locationInView: Point? = nil,
    type: TouchType = .direct, pen: PenFields? = nil
  ) {
    self.init(
      id: Int(clamping: id), view: view, phase: phase.rawValue, x: x, y: y, tapCount: tapCount,
      locationInView: locationInView.map(WirePoint.init), type: type.rawValue, pen: pen)
  }

  /// The message's entry for `touch` (its hit-test view named `view`).
  init(_ touch: Touch, view: String, locationInView: Point?) {
    self.init(
      id: touch.id.rawValue, view: view, phase: touch.phase, x: touch.locationInWindow.x,
      y: touch.locationInWindow.y, tapCount: touch.tapCount, locationInView: locationInView, type: touch.type,
      pen: touch.type == .pencil
        ? PenFields(
          force: touch.force, altitudeAngle: touch.altitudeAngle, azimuthAngle: touch.azimuthAngle,
          eraser: touch.isEraser)
        : nil)
  }

  /// The touch's phase; nil for a word this version lacks.
  public var touchPhase: TouchPhase? { TouchPhase(rawValue: phase) }
}

extension TouchesMessage {
  /// The message of one touches call; `touches` are sorted by id.
  @inlinable public init(
    seq: Int, phase: TouchPhase, view: String, window: String, time: Double, touches: [TouchInfo]
  ) {
    self.init(seq: seq, phase: phase.rawValue, view: view, window: window, time: time, touches: touches)
  }

  /// The touches method called; nil for a word this version lacks.
  public var touchPhase: TouchPhase? { TouchPhase(rawValue: phase) }
}

extension ScrollMessage {
  /// A scroll view's callback, with TouchDelivery's points.
  @inlinable public init(
    seq: Int, phase: ScrollView.Phase, view: String, window: String, time: Double, contentOffset: Point,
    zoomScale: Double? = nil, velocity: Point? = nil, targetContentOffset: Point? = nil, willDecelerate: Bool? = nil
  ) {
    self.init(
      seq: seq, phase: phase.rawValue, view: view, window: window, time: time,
      contentOffset: WirePoint(contentOffset), zoomScale: zoomScale, velocity: velocity.map(WirePoint.init),
      targetContentOffset: targetContentOffset.map(WirePoint.init), willDecelerate: willDecelerate)
  }

  /// The callback; nil for a word this version lacks.
  public var scrollPhase: ScrollView.Phase? { ScrollView.Phase(rawValue: phase) }
}

extension PressesMessage.PressInfo {
  /// A press of the call, its id clamped to `Int` as it has always been written.
  @inlinable public init(id: UInt64, type: String, key: String, phase: PressPhase) {
    self.init(id: Int(clamping: id), type: type, key: key, phase: phase.rawValue)
  }
}

extension PressesMessage {
  /// The message of one presses call; `presses` are sorted by id.
  @inlinable public init(
    seq: Int, phase: PressPhase, view: String, window: String, time: Double, presses: [PressInfo]
  ) {
    self.init(seq: seq, phase: phase.rawValue, view: view, window: window, time: time, presses: presses)
  }

  /// The presses method called; nil for a word this version lacks.
  public var pressPhase: PressPhase? { PressPhase(rawValue: phase) }
}

extension TraceMessage.RecognizerInfo {
  /// A recognizer with its scene type (nil for a recognizer that is not the scene's).
  @inlinable public init(id: String, gesture: RecognizerType?, view: String, window: String) {
    self.init(id: id, gesture: gesture?.rawValue, view: view, window: window)
  }
}

extension TraceMessage.Event {
  /// `recognizer` with TouchDelivery's states.
  public static func recognizer(
    _ r: TraceMessage.RecognizerInfo, from: GestureRecognizer.State, to: GestureRecognizer.State, cause: String
  ) -> Self {
    .recognizer(r, from: from.rawValue, to: to.rawValue, cause: cause)
  }

  /// `waiting` with TouchDelivery's state.
  public static func waiting(
    _ r: TraceMessage.RecognizerInfo, to: GestureRecognizer.State, requirement: String
  ) -> Self {
    .waiting(r, to: to.rawValue, requirement: requirement)
  }

  /// `touchBegan` at TouchDelivery's point.
  public static func touchBegan(
    _ t: TraceMessage.TouchInfo, location: Point, tapCount: Int, recognizers: [String], notes: [String]
  ) -> Self {
    .touchBegan(t, location: WirePoint(location), tapCount: tapCount, recognizers: recognizers, notes: notes)
  }

  /// `touchSwallowed` for a `TouchID`'s raw value (clamped to `Int` as written) at TouchDelivery's point.
  public static func touchSwallowed(touch: UInt64, window: String?, location: Point, reason: String) -> Self {
    .touchSwallowed(touch: Int(clamping: touch), window: window, location: WirePoint(location), reason: reason)
  }

  /// `held` with a `TouchPhase`.
  public static func held(_ t: TraceMessage.TouchInfo, phase: TouchPhase, by: [String]) -> Self {
    .held(t, phase: phase.rawValue, by: by)
  }

  /// `released` with a `TouchPhase` at TouchDelivery's point.
  public static func released(_ t: TraceMessage.TouchInfo, phase: TouchPhase, location: Point) -> Self {
    .released(t, phase: phase.rawValue, location: WirePoint(location))
  }
}

extension TraceMessage {
  /// The message for a delivery ``TraceEvent`` at `time`; `gestures` gives each scene recognizer
  /// id's type.
  public init(_ event: TraceEvent, time: Double, gestures: [String: RecognizerType]) {
    func recognizer(_ r: GestureRecognizer) -> RecognizerInfo {
      RecognizerInfo(
        id: r.traceName, gesture: r.name.flatMap { gestures[$0] }, view: r.view?.traceName ?? "",
        window: r.view?.window?.identifier ?? "")
    }
    func touch(_ t: Touch) -> TouchInfo {
      TouchInfo(id: Int(clamping: t.id.rawValue), view: t.view?.traceName ?? "", window: t.window?.identifier ?? "")
    }
    let message: Event
    switch event {
    case .recognizer(let r, let from, let to, let cause):
      message = .recognizer(recognizer(r), from: from, to: to, cause: cause)
    case .waiting(let r, let to, let requirement):
      message = .waiting(recognizer(r), to: to, requirement: requirement.traceName)
    case .touchBegan(let t, let recognizers, let notes):
      message = .touchBegan(
        touch(t), location: t.locationInWindow, tapCount: t.tapCount, recognizers: recognizers.map(\.traceName),
        notes: notes)
    case .touchSwallowed(let id, let window, let location, let reason):
      message = .touchSwallowed(touch: id.rawValue, window: window?.identifier, location: location, reason: reason)
    case .held(let t, let phase, let by):
      message = .held(touch(t), phase: phase, by: by.map(\.traceName))
    case .released(let t, let phase, let location):
      message = .released(touch(t), phase: phase, location: location)
    case .cancelledInView(let t, let by):
      message = .cancelledInView(touch(t), by: by.traceName)
    case .pressBegan(let p, let recognizers):
      message = .pressBegan(
        press: Int(clamping: p.id), key: p.key, pressType: p.type.rawValue,
        view: (p.responder as? View)?.traceName, window: p.window?.identifier ?? "",
        recognizers: recognizers.map(\.traceName))
    case .controlTracking(let control, let t, let phase, let tracking, let events):
      message = .controlTracking(
        TouchInfo(
          id: Int(clamping: t.id.rawValue), view: control.traceName, window: control.window?.identifier ?? ""),
        phase: phase.rawValue, inside: control.isTouchInside, tracking: tracking,
        events: ControlEvents.named.filter { events.contains($0.event) }.map(\.name))
    }
    self.init(time: time, event: message)
  }
}
