import Foundation
import Testing
import Yams

@testable import TouchdScene

@Suite("Scene schema and examples")
struct SceneSchemaTests {
  let schemaURL = configURL("scene.schema.json")

  func loadSchema() throws -> [String: Any] {
    let data = try Data(contentsOf: schemaURL)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func propertyNames(_ object: [String: Any]?) -> Set<String> {
    Set((object?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
  }

  @Test("config/scene.schema.json is the schema built from the format tables")
  func schemaFileIsCurrent() throws {
    let generated = SceneSchema.document.pretty
    if updatingGoldens { try generated.write(to: schemaURL, atomically: true, encoding: .utf8) }
    #expect(try readText(schemaURL) == generated, "run with TOUCHD_UPDATE_GOLDEN=1 to regenerate")
  }

  @Test("Each schema object lists exactly the Codable type's keys and forbids others")
  func schemaMatchesCodingKeys() throws {
    let schema = try loadSchema()
    let defs = try #require(schema["$defs"] as? [String: [String: Any]])
    #expect(propertyNames(schema) == Set(Scene.CodingKeys.allCases.map(\.rawValue)))
    #expect(schema["additionalProperties"] as? Bool == false)
    let expected: [String: Set<String>] = [
      "window": Set(Scene.Window.CodingKeys.allCases.map(\.rawValue)),
      "size": Set(Scene.Size.CodingKeys.allCases.map(\.rawValue)),
      "view": Set(Scene.View.CodingKeys.allCases.map(\.rawValue)),
      "frame": Set(Scene.Frame.CodingKeys.allCases.map(\.rawValue)),
    ]
    for (name, keys) in expected {
      #expect(propertyNames(defs[name]) == keys, "$defs/\(name)")
      #expect(defs[name]?["additionalProperties"] as? Bool == false, "$defs/\(name)")
    }
    let common = Set(Scene.Recognizer.CodingKeys.allCases.map(\.rawValue))
    #expect(propertyNames(defs["recognizer"]) == common)
    for type in RecognizerType.allCases {
      let def = defs[SceneSchema.definitionName(of: type)]
      let parameters = Set(SceneFormat.parameters(of: type).map(\.name))
      #expect(propertyNames(def) == common.union(parameters), "\(type)")
      #expect(def?["additionalProperties"] as? Bool == false)
    }
    let typeProperty = (defs["recognizer"]?["properties"] as? [String: Any])?["type"] as? [String: Any]
    #expect(
      typeProperty?["enum"] as? [String] == ["tap", "longPress", "pan", "swipe", "pinch", "rotation", "screenEdgePan"])
    // The Codable keys and the validator's tables agree too.
    #expect(Set(SceneFormat.keys(of: .view).map(\.name)) == expected["view"])
    #expect(Set(SceneFormat.keys(of: .window).map(\.name)) == expected["window"])
    #expect(Set(SceneFormat.keys(of: .recognizer).map(\.name)) == common)
  }

  @Test("Parameters a recognizer type does not take are rejected by the schema's per-type object")
  func perTypeParameters() throws {
    let defs = try #require(try loadSchema()["$defs"] as? [String: [String: Any]])
    #expect(propertyNames(defs["tapRecognizer"]).contains("numberOfTapsRequired"))
    #expect(!propertyNames(defs["tapRecognizer"]).contains("direction"))
    #expect(propertyNames(defs["swipeRecognizer"]).contains("direction"))
    #expect(propertyNames(defs["screenEdgePanRecognizer"]).contains("edges"))
    #expect(propertyNames(defs["longPressRecognizer"]).contains("minimumPressDuration"))
  }

  @Test("The example scenes are valid and config/scene.yaml is the kiosk", arguments: exampleScenes)
  func examplesParse(name: String) throws {
    let scene = try Scene.parse(try readText(configURL(name)), file: name)
    #expect(!scene.windows.isEmpty)
    if name == "scene.yaml" { #expect(try readText(configURL(name)) == readText(configURL("kiosk.yaml"))) }
  }

  @Test("The kiosk's admin gesture is a two-second five-finger long press on the root view")
  func kioskAdminGesture() throws {
    let scene = try Scene.parse(try readText(configURL("kiosk.yaml")))
    let root = try #require(scene.windows.first?.views.first)
    let admin = try #require(root.recognizers.first { $0.id == "admin" })
    #expect(admin.type == .longPress)
    #expect(admin.parameters["numberOfTouchesRequired"] == .integer(5))
    #expect(admin.parameter("minimumPressDuration")?.number == 2)
  }

  @Test("The examples validate against the schema with python3 jsonschema, and a bad scene does not")
  func examplesValidateAgainstSchema() throws {
    let probe = runPython("import jsonschema", [])
    guard let probe, probe.status == 0 else { return }  // no python3 jsonschema: nothing to cross-check with
    let script = """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(sys.argv[2])))
      for e in errors: print(e.message)
      sys.exit(1 if errors else 0)
      """
    for name in exampleScenes {
      let node = try #require(try Yams.compose(yaml: try readText(configURL(name))))
      let result = try #require(runPython(script, [schemaURL.path, jsonValue(node).compact]))
      #expect(result.status == 0, "\(name): \(result.output)")
    }
    let bad = """
      {"version":1,"windows":[{"id":"w","size":{"width":1,"height":1},"views":[{"id":"v",
      "frame":{"x":0,"y":0,"width":1,"height":1},"alpha":2,
      "recognizers":[{"id":"t","type":"tap","action":"a","direction":"left"}]}]}]}
      """
    let result = try #require(runPython(script, [schemaURL.path, bad]))
    #expect(result.status == 1)
    #expect(result.output.contains("2 is greater than the maximum of 1"))
    #expect(result.output.contains("'direction' was unexpected"))
  }
}
