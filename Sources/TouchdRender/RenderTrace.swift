import TouchDelivery
import TouchdInput
import TouchdScene

/// What a recording did in one window, ready to draw: each touch's path in window points, the
/// actions the scene published, and where it left the scroll views it moved.
public struct RenderTrace: Hashable, Sendable {
  /// The window the recording feeds.
  public var windowID: String
  /// Touches in the order they went down.
  public var touches: [TouchPath]
  /// Action messages in order (every state; the renderer picks what it draws).
  public var actions: [ActionMessage]
  /// The content offset of each scroll view the recording moved, by view id, at the end of the
  /// replay (its last `scroll` message). Scroll views not listed keep the scene's offset.
  public var contentOffsets: [String: Point]

  public init(windowID: String, touches: [TouchPath], actions: [ActionMessage], contentOffsets: [String: Point] = [:]) {
    self.windowID = windowID
    self.touches = touches
    self.actions = actions
    self.contentOffsets = contentOffsets
  }

  /// Replays `recording` through `scene`: the window and its screen mapping are the ones the scene
  /// runtime picks for the recording's device (its `devices` globs), and the actions and scroll
  /// offsets are ``ScenePlayer``'s messages (the replay runs until every scroll view is at rest).
  public static func replaying(
    _ recording: Recording, scene: Scene, devicePath: String? = nil
  ) throws(SceneRuntimeError) -> RenderTrace {
    let runtime = SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }
    let index = try runtime.replayWindow(for: recording, path: devicePath)
    let touches = TouchPath.paths(Replay.frames(of: recording), mapping: runtime.mapping(forWindow: index))
    var actions: [ActionMessage] = []
    var offsets: [String: Point] = [:]
    for message in try ScenePlayer.replay(recording, scene: scene, devicePath: devicePath) {
      switch message {
      case .action(let action): actions.append(action)
      case .scroll(let scroll): offsets[scroll.view] = scroll.contentOffset
      default: break
      }
    }
    return RenderTrace(
      windowID: scene.windows[index].id, touches: touches, actions: actions, contentOffsets: offsets)
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
