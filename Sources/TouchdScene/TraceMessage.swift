import TouchDelivery
import TouchdInput

/// `{"type":"trace",…}`: one step of delivery and arbitration with its cause (a ``TraceEvent``),
/// named by the scene's ids: what `touchctl replay --explain` prints and a daemon client
/// subscribed to type `trace` receives.
///
/// Trace messages take no `seq`: action and touches messages are numbered the same whether or not
/// someone traces.
public struct TraceMessage: Hashable, Sendable {
  /// A recognizer as trace messages name it.
  public struct RecognizerInfo: Hashable, Sendable {
    /// The scene's recognizer id.
    public var id: String
    /// Its type in the scene (nil for a recognizer that is not the scene's).
    public var gesture: RecognizerType?
    /// The view it is attached to, and that view's window.
    public var view: String
    public var window: String

    public init(id: String, gesture: RecognizerType?, view: String, window: String) {
      self.id = id
      self.gesture = gesture
      self.view = view
      self.window = window
    }
  }

  /// A touch as trace messages name it.
  public struct TouchInfo: Hashable, Sendable {
    public var id: UInt64
    /// The touch's hit-test view, and its window.
    public var view: String
    public var window: String

    public init(id: UInt64, view: String, window: String) {
      self.id = id
      self.view = view
      self.window = window
    }
  }

  /// What happened; the JSON `event` key is the case's name.
  public enum Event: Hashable, Sendable {
    /// A recognizer's state changed, and why (a reset is `→ possible`).
    case recognizer(RecognizerInfo, from: GestureRecognizer.State, to: GestureRecognizer.State, cause: String)
    /// A recognition (`to`) waits until the recognizer `requirement` fails.
    case waiting(RecognizerInfo, to: GestureRecognizer.State, requirement: String)
    /// A touch landed on its hit-test view at `location` (window points): the recognizers it goes
    /// to, and notes on who does not get it and why.
    case touchBegan(TouchInfo, location: Point, tapCount: Int, recognizers: [String], notes: [String])
    /// A contact delivered to nobody for its whole life (`window` nil when no window took it).
    case touchSwallowed(touch: UInt64, window: String?, location: Point, reason: String)
    /// A view delivery of `phase` waits, held by the recognizers `by` (empty: behind an earlier
    /// held delivery).
    case held(TouchInfo, phase: TouchPhase, by: [String])
    /// A held view delivery of `phase` was made, with the touch at `location` (window points).
    case released(TouchInfo, phase: TouchPhase, location: Point)
    /// A recognition took the touch from its view (`cancelsTouchesInView`).
    case cancelledInView(TouchInfo, by: String)

    /// The JSON `event` value.
    public var name: String {
      switch self {
      case .recognizer: "recognizer"
      case .waiting: "waiting"
      case .touchBegan: "touchBegan"
      case .touchSwallowed: "touchSwallowed"
      case .held: "held"
      case .released: "released"
      case .cancelledInView: "cancelledInView"
      }
    }
  }

  /// Seconds: the frame's kernel timestamp, or the clock time of a timer or command.
  public var time: Double
  public var event: Event

  public init(time: Double, event: Event) {
    self.time = time
    self.event = event
  }

  /// The view the message is about, for the daemon's `views` filter: the recognizer's view, the
  /// touch's hit-test view; nil for a swallowed touch.
  public var view: String? {
    switch event {
    case .recognizer(let r, _, _, _), .waiting(let r, _, _): r.view
    case .touchBegan(let t, _, _, _, _), .held(let t, _, _), .released(let t, _, _), .cancelledInView(let t, _):
      t.view
    case .touchSwallowed: nil
    }
  }

  /// The message for a delivery ``TraceEvent`` at `time`; `gestures` gives each scene recognizer
  /// id's type.
  public init(_ event: TraceEvent, time: Double, gestures: [String: RecognizerType]) {
    func recognizer(_ r: GestureRecognizer) -> RecognizerInfo {
      RecognizerInfo(
        id: r.traceName, gesture: r.name.flatMap { gestures[$0] }, view: r.view?.traceName ?? "",
        window: r.view?.window?.identifier ?? "")
    }
    func touch(_ t: Touch) -> TouchInfo {
      TouchInfo(id: t.id.rawValue, view: t.view?.traceName ?? "", window: t.window?.identifier ?? "")
    }
    self.time = time
    switch event {
    case .recognizer(let r, let from, let to, let cause):
      self.event = .recognizer(recognizer(r), from: from, to: to, cause: cause)
    case .waiting(let r, let to, let requirement):
      self.event = .waiting(recognizer(r), to: to, requirement: requirement.traceName)
    case .touchBegan(let t, let recognizers, let notes):
      self.event = .touchBegan(
        touch(t), location: t.locationInWindow, tapCount: t.tapCount, recognizers: recognizers.map(\.traceName),
        notes: notes)
    case .touchSwallowed(let id, let window, let location, let reason):
      self.event = .touchSwallowed(touch: id.rawValue, window: window?.identifier, location: location, reason: reason)
    case .held(let t, let phase, let by):
      self.event = .held(touch(t), phase: phase, by: by.map(\.traceName))
    case .released(let t, let phase, let location):
      self.event = .released(touch(t), phase: phase, location: location)
    case .cancelledInView(let t, let by):
      self.event = .cancelledInView(touch(t), by: by.traceName)
    }
  }

  /// The message as one line of JSON, keys in the documented order (docs/protocol.md).
  public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"trace","time":"#)
    w.number(time)
    w.string(#","event":"#, event.name)
    func recognizer(_ w: inout JSONLineWriter, _ r: RecognizerInfo) {
      w.string(#","recognizer":"#, r.id)
      w.optionalString(#","gesture":"#, r.gesture?.rawValue)
      w.string(#","view":"#, r.view)
      w.string(#","window":"#, r.window)
    }
    func touch(_ w: inout JSONLineWriter, _ t: TouchInfo) {
      w.integer(#","touch":"#, Int(clamping: t.id))
      w.string(#","view":"#, t.view)
      w.string(#","window":"#, t.window)
    }
    switch event {
    case .recognizer(let r, let from, let to, let cause):
      recognizer(&w, r)
      w.string(#","from":"#, from.rawValue)
      w.string(#","to":"#, to.rawValue)
      w.string(#","cause":"#, cause)
    case .waiting(let r, let to, let requirement):
      recognizer(&w, r)
      w.string(#","to":"#, to.rawValue)
      w.string(#","requirement":"#, requirement)
    case .touchBegan(let t, let location, let tapCount, let recognizers, let notes):
      touch(&w, t)
      w.point(#","location":"#, location)
      w.integer(#","tapCount":"#, tapCount)
      w.strings(#","recognizers":"#, recognizers)
      w.strings(#","notes":"#, notes)
    case .touchSwallowed(let id, let window, let location, let reason):
      w.integer(#","touch":"#, Int(clamping: id))
      w.optionalString(#","window":"#, window)
      w.point(#","location":"#, location)
      w.string(#","reason":"#, reason)
    case .held(let t, let phase, let by):
      touch(&w, t)
      w.string(#","phase":"#, phase.rawValue)
      w.strings(#","by":"#, by)
    case .released(let t, let phase, let location):
      touch(&w, t)
      w.string(#","phase":"#, phase.rawValue)
      w.point(#","location":"#, location)
    case .cancelledInView(let t, let by):
      touch(&w, t)
      w.string(#","by":"#, by)
    }
    return w.finish()
  }
}

extension SceneRuntime {
  /// Whether the runtime publishes ``TraceMessage``s to its sink: every recognizer state change
  /// with its cause, touches held and released, and so on. Off by default; while off the
  /// application has no tracer and no cause or message is built. Action and touches messages and
  /// their `seq` are the same either way.
  public var isTracing: Bool {
    get { application.tracer != nil }
    set {
      guard newValue != isTracing else { return }
      guard newValue else {
        application.tracer = nil
        return
      }
      var gestures: [String: RecognizerType] = [:]
      func visit(_ views: [Scene.View]) {
        for view in views {
          for r in view.recognizers { gestures[r.id] = r.type }
          visit(view.views)
        }
      }
      for window in scene.windows { visit(window.views) }
      application.tracer = { [weak self] event in
        guard let self else { return }
        sink(.trace(TraceMessage(event, time: now, gestures: gestures)))
      }
    }
  }
}
