import TouchDelivery
import TouchdInput
import TouchdScene

/// What a recording did in one window, ready to draw: each touch's path in window points, the
/// actions the scene published, where it left the scroll views it moved and the controls it changed.
public struct RenderTrace: Hashable, Sendable {
  /// The window the recording feeds.
  public var windowID: String
  /// Touches in the order they went down.
  public var touches: [TouchPath]
  /// Recognizers' action messages in order (every state; the renderer picks what it draws).
  public var actions: [ActionMessage]
  /// The content offset of each scroll view the recording moved, by view id, at the end of the
  /// replay (its last `scroll` message). Scroll views not listed keep the scene's offset.
  public var contentOffsets: [String: Point]
  /// The last `control` message of each control the recording changed, by view id: its state at
  /// the end of the replay. Controls not listed keep the scene's state.
  public var controls: [String: ControlMessage]
  /// The control events the scene maps to actions (`"gesture":"control"` action messages), in order.
  public var controlActions: [ControlAction]
  /// VoiceOver's messages about an element (a focus, an activation, an adjustment…), in order, each
  /// with the VoiceOver gesture that made it.
  public var voiceOver: [VoiceOverMark]
  /// The strokes signature views kept (`stroke` messages), in order.
  public var strokes: [StrokeMessage]

  public init(
    windowID: String, touches: [TouchPath], actions: [ActionMessage], contentOffsets: [String: Point] = [:],
    controls: [String: ControlMessage] = [:], controlActions: [ControlAction] = [], voiceOver: [VoiceOverMark] = [],
    strokes: [StrokeMessage] = []
  ) {
    self.windowID = windowID
    self.touches = touches
    self.actions = actions
    self.contentOffsets = contentOffsets
    self.controls = controls
    self.controlActions = controlActions
    self.voiceOver = voiceOver
    self.strokes = strokes
  }

  /// Replays `recording` through `scene`: the window and its screen mapping are the ones the scene
  /// runtime picks for the recording's device (its `devices` globs), and the actions, scroll
  /// offsets and control states are ``ScenePlayer``'s messages (the replay runs until every scroll
  /// view is at rest). A control action is placed at the finger that made it: of the touches in the
  /// last frame at or before the action's time, the one nearest the control's frame (as the scene
  /// places it). An accessibility message about an element takes the `voiceOverGesture` traced just
  /// before it at its time, if any (a key press's has none).
  public static func replaying(
    _ recording: Recording, scene: Scene, devicePath: String? = nil, health: TouchHealth? = nil
  ) throws(SceneRuntimeError) -> RenderTrace {
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    let index = try runtime.replayWindow(for: recording, path: devicePath)
    let mapping = runtime.mapping(forWindow: index)
    let frames = Replay.frames(of: recording)
    let touches = TouchPath.paths(frames, mapping: mapping)
    var actions: [ActionMessage] = []
    var offsets: [String: Point] = [:]
    var controls: [String: ControlMessage] = [:]
    var controlMessages: [ActionMessage] = []
    var voiceOver: [VoiceOverMark] = []
    var strokes: [StrokeMessage] = []
    var gesture: (time: Double, words: String)?
    // The gestures come from trace messages, built only for a window whose VoiceOver may be on.
    let traced = scene.windows[index].voiceOver || scene.windows[index].voiceOverFollowsHeadphones
    for message in try ScenePlayer.replay(
      recording, scene: scene, devicePath: devicePath, trace: traced, health: health)
    {
      switch message {
      case .action(let action) where action.control != nil: controlMessages.append(action)
      case .action(let action): actions.append(action)
      case .scroll(let scroll): offsets[scroll.view] = Point(scroll.contentOffset)
      case .control(let control): controls[control.view] = control
      case .trace(let t):
        if case .voiceOverGesture(let name, let fingers, let direction, _) = t.detail {
          gesture = (t.time, Explanation.voiceOverGesture(name, fingers: fingers, direction: direction))
        }
      case .accessibility(let a) where a.view != nil:
        voiceOver.append(VoiceOverMark(message: a, gesture: gesture.flatMap { $0.time == a.time ? $0.words : nil }))
      case .stroke(let s): strokes.append(s)
      default: break
      }
    }
    let window = scene.windows[index]
    var remaining = frames[...]
    var current: TouchFrame?
    let placed = SceneRenderer.flatten(window.views)
    let controlActions = controlMessages.map { message -> ControlAction in
      while let next = remaining.first, next.time.seconds <= message.time {
        current = next
        remaining.removeFirst()
      }
      let frame = placed.first { $0.spec.id == message.view }?.frame
      let nearest = current?.contacts.map { contact -> (TouchID, Point, Double) in
        let (x, y) = mapping.map(contact)
        return (contact.id, Point(x: x, y: y), frame.map { distance(from: Point(x: x, y: y), to: $0) } ?? 0)
      }.min { $0.2 < $1.2 }
      return ControlAction(message: message, location: nearest?.1, touch: nearest?.0)
    }
    return RenderTrace(
      windowID: window.id, touches: touches, actions: actions, contentOffsets: offsets, controls: controls,
      controlActions: controlActions, voiceOver: voiceOver, strokes: strokes)
  }

  /// How far `p` is from `frame` (0 inside).
  private static func distance(from p: Point, to frame: Scene.Frame) -> Double {
    let dx = max(frame.x - p.x, 0, p.x - (frame.x + frame.width))
    let dy = max(frame.y - p.y, 0, p.y - (frame.y + frame.height))
    return (dx * dx + dy * dy).squareRoot()
  }
}

/// A control event the scene maps to an action, and the finger that made it.
public struct ControlAction: Hashable, Sendable {
  /// The action message, of a control (``ActionMessage/Detail/control(event:control:value:)``).
  public var message: ActionMessage
  /// Where that finger was (window points) when the control sent the event; nil when no finger
  /// was down (the renderer then marks the control's centre).
  public var location: Point?
  /// That finger's touch, nil with `location`.
  public var touch: TouchID?

  public init(message: ActionMessage, location: Point? = nil, touch: TouchID? = nil) {
    self.message = message
    self.location = location
    self.touch = touch
  }
}

/// A VoiceOver message about an element, and the VoiceOver gesture that made it.
public struct VoiceOverMark: Hashable, Sendable {
  public var message: AccessibilityMessage
  /// The gesture in words (`double tap`, `flick right`), as `--explain` writes it; nil for one a
  /// key press or a command made.
  public var gesture: String?

  public init(message: AccessibilityMessage, gesture: String? = nil) {
    self.message = message
    self.gesture = gesture
  }
}

/// One touch from touch-down to its end, in window points.
public struct TouchPath: Hashable, Sendable {
  /// How the touch finished.
  public enum End: String, Hashable, Sendable {
    /// The finger lifted.
    case lifted
    /// The system cancelled the touch (palm, dropped events, end of the recording).
    case cancelled
    /// Still down when the frames ran out.
    case down
  }

  public var id: TouchID
  /// Every position the touch had, the first at touch-down; repeats are dropped.
  public var points: [Point]
  public var end: End

  public init(id: TouchID, points: [Point], end: End) {
    self.id = id
    self.points = points
    self.end = end
  }

  /// Collects frames of device-normalized contacts into paths mapped with `mapping`.
  public static func paths(_ frames: [TouchFrame], mapping: ScreenMapping) -> [TouchPath] {
    var paths: [TouchPath] = []
    var index: [TouchID: Int] = [:]
    for frame in frames {
      for contact in frame.contacts {
        let (x, y) = mapping.map(contact)
        let point = Point(x: x, y: y)
        let i: Int
        if let existing = index[contact.id] {
          i = existing
        } else {
          i = paths.count
          index[contact.id] = i
          paths.append(TouchPath(id: contact.id, points: [], end: .down))
        }
        if paths[i].points.last != point { paths[i].points.append(point) }
        switch contact.phase {
        case .ended: paths[i].end = .lifted
        case .cancelled: paths[i].end = .cancelled
        default: break
        }
      }
    }
    return paths
  }
}
