import Foundation
import TouchDelivery
import TouchdInput
import Yams

@testable import TouchdScene

/// The example scenes in config/.
let exampleScenes = [
  "kiosk.yaml", "photo-viewer.yaml", "carousel.yaml", "scene.yaml", "product-list.yaml", "kiosk-controls.yaml",
  "kiosk-forward.yaml", "museum-map.yaml",
]

func readText(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

/// The diagnostics `yaml` gets from the scene loader (as `file`), one line each; none when it loads.
func sceneDiagnostics(_ yaml: String, file: String = "scene.yaml") -> [String] {
  do {
    _ = try Scene.parse(yaml, file: file)
    return []
  } catch {
    return error.diagnostics.map(\.description)
  }
}

/// A YAML tree as JSON, for handing scenes to a JSON Schema validator.
func jsonValue(_ node: Node) -> JSONValue {
  switch node {
  case .scalar(let s):
    switch node.tag.description {
    case "tag:yaml.org,2002:null": return .null
    case "tag:yaml.org,2002:bool": return .bool(node.bool ?? false)
    case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float": return .number(node.float ?? 0)
    default: return .string(s.string)
    }
  case .mapping(let m): return .object(m.map { ($0.key.string ?? "", jsonValue($0.value)) })
  case .sequence(let s): return .array(s.map(jsonValue))
  case .alias: return .null
  }
}

/// A scene's runtime on a virtual clock, fed frames into window 0, logging `touches` messages as
/// `view phase` and actions as `action state`.
final class RuntimeHarness {
  let clock = VirtualClock(now: 0)
  var log: [String] = []
  var runtime: SceneRuntime!
  private var nextID: UInt64 = 1000

  /// A runtime of `scene`, or of `document` (which takes `update` commands).
  init(scene: Scene? = nil, document: SceneDocument? = nil) {
    let sink: (Message) -> Void = { [unowned self] message in
      switch message {
      case .touches(let t): log.append("\(t.view) \(t.phase)")
      case .action(let a): log.append("\(a.action) \(a.state ?? "")")
      default: break
      }
    }
    if let document {
      runtime = SceneRuntime(document: document, clock: clock, sink: sink)
    } else {
      runtime = SceneRuntime(scene: scene ?? Scene(windows: []), clock: clock, sink: sink)
    }
  }

  /// One frame of `contacts` at `time` (seconds), the clock advanced to it first.
  func frame(_ time: Double, _ contacts: [Contact]) {
    clock.advance(to: time)
    runtime.handle(TouchFrame(time: Timestamp(microseconds: Int64(time * 1e6)), contacts: contacts), inWindow: 0)
  }

  /// A tap at device-normalized (x, y): down at `time`, up 50 ms later.
  func tap(_ time: Double, _ x: Double, _ y: Double) {
    let id = TouchID(rawValue: nextID)
    nextID += 1
    frame(time, [Contact(id: id, phase: .began, x: x, y: y)])
    frame(time + 0.05, [Contact(id: id, phase: .ended, x: x, y: y)])
  }
}
