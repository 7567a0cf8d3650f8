import Foundation
import TouchDelivery
import TouchdInput
import Yams

@testable import TouchdScene

/// The example scenes in config/.
let exampleScenes = [
  "kiosk.yaml", "photo-viewer.yaml", "carousel.yaml", "scene.yaml", "product-list.yaml", "kiosk-controls.yaml",
  "kiosk-forward.yaml",
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

/// Whether tests should rewrite checked-in expectations (goldens, the schema) instead of comparing.
var updatingGoldens: Bool { ProcessInfo.processInfo.environment["TOUCHD_UPDATE_GOLDEN"] == "1" }

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

/// The python3 with jsonschema, the scene schema's second validator: the one on the PATH, else
/// Debian's (scripts/setup.sh installs python3-jsonschema when neither has it). Throws when none
/// has it: the cross-check never passes by skipping.
let jsonSchemaPython: Result<String, MissingPython> = {
  for candidate in ["python3", "/usr/bin/python3"] {
    if let probe = try? run(["/usr/bin/env", candidate, "-c", "import jsonschema"]), probe.status == 0 {
      return .success(candidate)
    }
  }
  return .failure(MissingPython())
}()

struct MissingPython: Error, CustomStringConvertible {
  var description: String { "no python3 with jsonschema: run scripts/setup.sh (Debian's python3-jsonschema)" }
}

/// Runs `python3 -c script args…` with ``jsonSchemaPython``.
func runPython(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
  try run(["/usr/bin/env", try jsonSchemaPython.get(), "-c", script] + arguments)
}

/// Runs `command`, its standard output and error together.
private func run(_ command: [String]) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: command[0])
  process.arguments = Array(command.dropFirst())
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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
      case .touches(let t): log.append("\(t.view) \(t.phase.rawValue)")
      case .action(let a): log.append("\(a.action) \(a.state.rawValue)")
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
