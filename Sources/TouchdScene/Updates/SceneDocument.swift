import TouchdInput
import Yams

/// A validated scene and the JSON it was read from: a client's `scene` as sent, or the scene
/// file's YAML tree written as JSON. An `update` edits the JSON and validates the whole of it again
/// (``SceneUpdate/edit(_:)``), so an update is held to every rule a file is.
public struct SceneDocument: Hashable, Sendable {
  public var scene: Scene
  public var json: StrictJSON

  public init(scene: Scene, json: StrictJSON) {
    self.scene = scene
    self.json = json
  }

  /// A validated YAML tree as JSON: each scalar as the tag YAML gives it (``YAMLTags``) reads.
  /// Numbers JSON cannot write (`.inf`, `.nan`) stay strings, which the validator refuses where a
  /// number belongs, as it refuses them in the file.
  static func json(of node: Node) -> StrictJSON {
    switch node {
    case .scalar(let scalar):
      switch YAMLTags.name(of: node) {
      case .null: return .null
      case .bool: return Bool.construct(from: scalar).map(StrictJSON.bool) ?? .string(scalar.string)
      case .int:
        if let value = Int.construct(from: scalar) { return .number(String(value)) }
        return .string(scalar.string)
      case .float:
        if let value = Double.construct(from: scalar), value.isFinite { return .number(JSONFormat.number(value)) }
        return .string(scalar.string)
      default: return .string(scalar.string)
      }
    case .mapping(let mapping):
      return .object(mapping.map { StrictJSON.Member(key: $0.key.string ?? "", value: json(of: $0.value)) })
    case .sequence(let sequence):
      return .array(sequence.map(json(of:)))
    case .alias:
      // Compose resolves aliases to their nodes; an unresolved one reads as nothing.
      return .null
    }
  }
}

extension Scene {
  /// ``parse(json:name:)`` keeping the JSON: a client's scene, for later updates.
  public static func parseDocument(json value: StrictJSON, name: String = "scene") throws(SceneError)
    -> SceneDocument
  {
    SceneDocument(scene: try parse(json: value, name: name), json: value)
  }
}
