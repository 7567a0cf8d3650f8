import TouchDelivery
import TouchdInput

/// A message touchd publishes: one JSON line on the daemon's socket and in `touchctl replay --scene`.
public enum Message: Hashable, Sendable {
  /// A recognizer fired (began, changed, ended or cancelled).
  case action(ActionMessage)
  /// A view with `touches: true` handled a touches call.
  case touches(TouchesMessage)
  /// A scroll view's delegate callback (its offset moved, a drag began or ended, …).
  case scroll(ScrollMessage)
  /// A control event the scene maps to an action (`type` `action`, `gesture` `control`).
  case controlAction(ControlActionMessage)
  /// A control's visible state changed.
  case control(ControlMessage)
  /// A view with `presses: true` handled a presses call.
  case presses(PressesMessage)
  /// One step of delivery and arbitration, with its cause; only while the runtime traces
  /// (``SceneRuntime/isTracing``).
  case trace(TraceMessage)
  /// The scene's idle state changed (`idle:`, ``IdleMessage``).
  case idle(IdleMessage)

  /// The message's sequence number: one more than the previous action or touches message's; nil
  /// for trace messages, which take none, so that the other messages are numbered the same
  /// whether or not someone traces.
  public var seq: Int? {
    switch self {
    case .action(let m): m.seq
    case .touches(let m): m.seq
    case .scroll(let m): m.seq
    case .controlAction(let m): m.seq
    case .control(let m): m.seq
    case .presses(let m): m.seq
    case .idle(let m): m.seq
    case .trace: nil
    }
  }

  /// Every message `type` (``type``), in the order errors and docs list them: what clients
  /// subscribe to.
  public static let typeNames = SubscribeCommand.messageTypes

  /// The message's `type` key: one of ``typeNames``.
  public var type: String {
    switch self {
    case .action: "action"
    case .touches: "touches"
    case .scroll: "scroll"
    case .controlAction: "action"
    case .control: "control"
    case .presses: "presses"
    case .idle: "idle"
    case .trace: "trace"
    }
  }

  /// The message's time in seconds (the clock of the recording or of the live devices).
  public var time: Double {
    switch self {
    case .action(let m): m.time
    case .touches(let m): m.time
    case .scroll(let m): m.time
    case .controlAction(let m): m.time
    case .control(let m): m.time
    case .presses(let m): m.time
    case .idle(let m): m.time
    case .trace(let m): m.time
    }
  }

  /// The message as one line of JSON, keys in the documented order, without the newline.
  public var jsonLine: String {
    switch self {
    case .action(let m): m.jsonLine
    case .touches(let m): m.jsonLine
    case .scroll(let m): m.jsonLine
    case .controlAction(let m): m.jsonLine
    case .control(let m): m.jsonLine
    case .presses(let m): m.jsonLine
    case .idle(let m): m.jsonLine
    case .trace(let m): m.jsonLine
    }
  }
}

/// What a gesture adds to its action message.
public enum GestureValues: Hashable, Sendable {
  /// Tap, long press: nothing more.
  case none
  /// Pan and screen-edge pan: translation and velocity in window points (per second).
  case pan(translation: Point, velocity: Point)
  /// Pinch: scale and its velocity (per second).
  case pinch(scale: Double, velocity: Double)
  /// Rotation: radians, clockwise positive, and radians per second.
  case rotation(rotation: Double, velocity: Double)
  /// Swipe: the direction recognized (`right`, `left`, `up`, `down`).
  case swipe(direction: String)
}

/// `{"type":"action",…}`: a recognizer's action.
public struct ActionMessage: Hashable, Sendable {
  public var seq: Int
  public var action: String
  public var gesture: RecognizerType
  /// began, changed, ended (discrete gestures too) or cancelled.
  public var state: GestureRecognizer.State
  public var view: String
  public var window: String
  public var recognizer: String
  /// Seconds: the frame's kernel timestamp, or the clock time a timer fired at.
  public var time: Double
  /// The recognizer's location in window points.
  public var location: Point
  public var numberOfTouches: Int
  public var values: GestureValues
  /// The press type, when presses (``GestureRecognizer/allowedPressTypes``) made the gesture.
  public var press: String?

  public init(
    seq: Int, action: String, gesture: RecognizerType, state: GestureRecognizer.State, view: String, window: String,
    recognizer: String, time: Double, location: Point, numberOfTouches: Int, values: GestureValues = .none,
    press: String? = nil
  ) {
    self.seq = seq
    self.action = action
    self.gesture = gesture
    self.state = state
    self.view = view
    self.window = window
    self.recognizer = recognizer
    self.time = time
    self.location = location
    self.numberOfTouches = numberOfTouches
    self.values = values
    self.press = press
  }

  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"action","seq":"#)
    w.integer(seq)
    w.string(#","action":"#, action)
    w.string(#","gesture":"#, gesture.rawValue)
    w.string(#","state":"#, state.rawValue)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.string(#","recognizer":"#, recognizer)
    w.number(#","time":"#, time)
    w.point(#","location":"#, location)
    w.integer(#","numberOfTouches":"#, numberOfTouches)
    if let press { w.string(#","press":"#, press) }
    switch values {
    case .none: break
    case .pan(let translation, let velocity):
      w.point(#","translation":"#, translation)
      w.point(#","velocity":"#, velocity)
    case .pinch(let scale, let velocity):
      w.number(#","scale":"#, scale)
      w.number(#","velocity":"#, velocity)
    case .rotation(let rotation, let velocity):
      w.number(#","rotation":"#, rotation)
      w.number(#","velocity":"#, velocity)
    case .swipe(let direction):
      w.string(#","direction":"#, direction)
    }
    return w.finish()
  }
}

/// `{"type":"touches",…}`: one touches call on a view with `touches: true`.
public struct TouchesMessage: Hashable, Sendable {
  /// One touch of the call.
  public struct TouchInfo: Hashable, Sendable {
    public var id: UInt64
    /// The touch's hit-test view (which may be a subview of the handling view).
    public var view: String
    public var phase: TouchPhase
    /// Window points.
    public var x: Double
    public var y: Double
    public var tapCount: Int

    public init(id: UInt64, view: String, phase: TouchPhase, x: Double, y: Double, tapCount: Int) {
      self.id = id
      self.view = view
      self.phase = phase
      self.x = x
      self.y = y
      self.tapCount = tapCount
    }
  }

  public var seq: Int
  /// The touches method called: began, moved, ended or cancelled.
  public var phase: TouchPhase
  /// The view that handled the call.
  public var view: String
  public var window: String
  public var time: Double
  /// Exactly the touches of the call, sorted by id.
  public var touches: [TouchInfo]

  public init(seq: Int, phase: TouchPhase, view: String, window: String, time: Double, touches: [TouchInfo]) {
    self.seq = seq
    self.phase = phase
    self.view = view
    self.window = window
    self.time = time
    self.touches = touches.sorted { $0.id < $1.id }
  }

  public var jsonLine: String { callJSONLine }
}

extension TouchesMessage: ResponderCallMessage {
  static var jsonPrefix: StaticString { #"{"type":"touches","seq":"# }
  static var jsonListKey: StaticString { #","touches":["# }
  var elements: [TouchInfo] { touches }
}

extension TouchesMessage.TouchInfo: ResponderCallElement {
  func writeFields(_ w: inout JSONLineWriter) {
    w.string(#","view":"#, view)
    w.string(#","phase":"#, phase.rawValue)
    w.number(#","x":"#, x)
    w.number(#","y":"#, y)
    w.integer(#","tapCount":"#, tapCount)
  }
}

/// `{"type":"scroll",…}`: a scroll view's delegate callback, named as in UIScrollViewDelegate.
public struct ScrollMessage: Hashable, Sendable {
  public var seq: Int
  public var phase: ScrollView.Phase
  public var view: String
  public var window: String
  /// Seconds: the frame's time during a drag, the display tick's while the content moves on.
  public var time: Double
  /// The content offset after the callback's change, in points.
  public var contentOffset: Point
  /// `willEndDragging`: the offset's velocity at release in points per millisecond (UIKit's unit),
  /// positive when the offset grows.
  public var velocity: Point?
  /// `willEndDragging`: where the content will come to rest.
  public var targetContentOffset: Point?
  /// `didEndDragging`: whether the content moves on after the lift.
  public var willDecelerate: Bool?

  public init(
    seq: Int, phase: ScrollView.Phase, view: String, window: String, time: Double, contentOffset: Point,
    velocity: Point? = nil, targetContentOffset: Point? = nil, willDecelerate: Bool? = nil
  ) {
    self.seq = seq
    self.phase = phase
    self.view = view
    self.window = window
    self.time = time
    self.contentOffset = contentOffset
    self.velocity = velocity
    self.targetContentOffset = targetContentOffset
    self.willDecelerate = willDecelerate
  }

  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"scroll","seq":"#)
    w.integer(seq)
    w.string(#","phase":"#, phase.rawValue)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    w.point(#","contentOffset":"#, contentOffset)
    if let velocity { w.point(#","velocity":"#, velocity) }
    if let targetContentOffset { w.point(#","targetContentOffset":"#, targetContentOffset) }
    if let willDecelerate { w.raw(willDecelerate ? #","willDecelerate":true"# : #","willDecelerate":false"#) }
    return w.finish()
  }
}
