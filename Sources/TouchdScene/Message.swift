import TouchDelivery
import TouchdInput

/// A message touchd publishes: one JSON line on the daemon's socket and in `touchctl replay --scene`.
public enum Message: Hashable, Sendable {
  /// A recognizer fired (began, changed, ended or cancelled).
  case action(ActionMessage)
  /// A view with `touches: true` handled a touches call.
  case touches(TouchesMessage)

  /// The message's sequence number: one more than the previous message's.
  public var seq: Int {
    switch self {
    case .action(let m): m.seq
    case .touches(let m): m.seq
    }
  }

  /// The message as one line of JSON, keys in the documented order, without the newline.
  public var jsonLine: String {
    switch self {
    case .action(let m): m.jsonLine
    case .touches(let m): m.jsonLine
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

  public init(
    seq: Int, action: String, gesture: RecognizerType, state: GestureRecognizer.State, view: String, window: String,
    recognizer: String, time: Double, location: Point, numberOfTouches: Int, values: GestureValues = .none
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
  }

  public var jsonLine: String {
    var w = JSONLineWriter()
    w.string("type", "action")
    w.integer("seq", seq)
    w.string("action", action)
    w.string("gesture", gesture.rawValue)
    w.string("state", state.rawValue)
    w.string("view", view)
    w.string("window", window)
    w.string("recognizer", recognizer)
    w.number("time", time)
    w.point("location", location)
    w.integer("numberOfTouches", numberOfTouches)
    switch values {
    case .none: break
    case .pan(let translation, let velocity):
      w.point("translation", translation)
      w.point("velocity", velocity)
    case .pinch(let scale, let velocity):
      w.number("scale", scale)
      w.number("velocity", velocity)
    case .rotation(let rotation, let velocity):
      w.number("rotation", rotation)
      w.number("velocity", velocity)
    case .swipe(let direction):
      w.string("direction", direction)
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

  public var jsonLine: String {
    var w = JSONLineWriter()
    w.string("type", "touches")
    w.integer("seq", seq)
    w.string("phase", phase.rawValue)
    w.string("view", view)
    w.string("window", window)
    w.number("time", time)
    let items = touches.map { t in
      var tw = JSONLineWriter()
      tw.integer("id", Int(clamping: t.id))
      tw.string("view", t.view)
      tw.string("phase", t.phase.rawValue)
      tw.number("x", t.x)
      tw.number("y", t.y)
      tw.integer("tapCount", t.tapCount)
      return tw.finish()
    }
    w.raw("touches", "[" + items.joined(separator: ",") + "]")
    return w.finish()
  }
}

/// Writes one JSON object, keys in call order, numbers as ``JSONFormat/number(_:)``.
struct JSONLineWriter {
  private var out = "{"

  mutating func raw(_ key: String, _ json: String) {
    if out.count > 1 { out += "," }
    out += JSONFormat.string(key) + ":" + json
  }
  mutating func string(_ key: String, _ value: String) { raw(key, JSONFormat.string(value)) }
  mutating func integer(_ key: String, _ value: Int) { raw(key, String(value)) }
  mutating func number(_ key: String, _ value: Double) { raw(key, JSONFormat.number(value)) }
  mutating func point(_ key: String, _ p: Point) {
    raw(key, "{\"x\":\(JSONFormat.number(p.x)),\"y\":\(JSONFormat.number(p.y))}")
  }
  func finish() -> String { out + "}" }
}
