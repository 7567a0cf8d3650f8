import Foundation
import Testing
import TouchdTestKit
import Yams

@testable import TouchdScene

/// Every scene in config/ (the examples and config/scene.yaml), so a new example is checked
/// without being listed anywhere.
let bundledScenes: [String] = {
  let names =
    (try? FileManager.default.contentsOfDirectory(
      atPath: TestPaths.repositoryRoot.appendingPathComponent("config").path))
  return (names ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
}()

@Suite("Scene schema and examples")
struct SceneSchemaTests {
  let schemaURL = TestPaths.config("scene.schema.json")

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
      "scroll": Set(Scene.Scroll.CodingKeys.allCases.map(\.rawValue)),
      "point": Set(Scene.Point.CodingKeys.allCases.map(\.rawValue)),
      "insets": Set(Scene.Insets.CodingKeys.allCases.map(\.rawValue)),
      "keys": Set(Scene.Keys.CodingKeys.allCases.map(\.rawValue)),
      "idle": Set(Scene.Idle.CodingKeys.allCases.map(\.rawValue)),
      "forward": Set(Scene.Forward.CodingKeys.allCases.map(\.rawValue)),
      "health": Set(Scene.Health.CodingKeys.allCases.map(\.rawValue)),
      "zoom": Set(Scene.Zoom.CodingKeys.allCases.map(\.rawValue)),
      "accessibility": Set(Scene.Accessibility.CodingKeys.allCases.map(\.rawValue)),
      "speech": Set(Scene.Speech.CodingKeys.allCases.map(\.rawValue)),
      "voiceOverActions": Set(Scene.VoiceOverActions.CodingKeys.allCases.map(\.rawValue)),
      "penPair": Set(Scene.PenPair.CodingKeys.allCases.map(\.rawValue)),
      "signature": Set(Scene.Signature.CodingKeys.allCases.map(\.rawValue)),
    ]
    #expect(Set(defs.keys).isSuperset(of: expected.keys))
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
      typeProperty?["enum"] as? [String] == [
        "tap", "longPress", "pan", "swipe", "pinch", "rotation", "screenEdgePan", "hover",
      ])
    // The Codable keys and the validator's tables agree too, for every object of the format.
    #expect(Set(SceneFormat.keys(of: .scene).map(\.name)) == Set(Scene.CodingKeys.allCases.map(\.rawValue)))
    for object in SceneObject.allCases where ![.scene, .recognizer, .control].contains(object) {
      #expect(Set(SceneFormat.keys(of: object).map(\.name)) == expected[object.rawValue], "\(object)")
    }
    #expect(Set(SceneFormat.keys(of: .recognizer).map(\.name)) == common)
    // A control: the common keys in `control`, each type's own in its definition, and together
    // every key of Scene.Control.
    let controlCommon = Set(SceneFormat.keys(of: .control).map(\.name))
    #expect(propertyNames(defs["control"]) == controlCommon)
    var controlKeys = controlCommon
    for type in Scene.Control.Kind.allCases {
      let def = defs[SceneSchema.definitionName(of: type)]
      let properties = Set(SceneFormat.properties(of: type).map(\.name))
      #expect(propertyNames(def) == controlCommon.union(properties), "\(type)")
      #expect(def?["additionalProperties"] as? Bool == false)
      controlKeys.formUnion(properties)
    }
    #expect(controlKeys == Set(Scene.Control.CodingKeys.allCases.map(\.rawValue)))
  }

  @Test("The scroll keys' schema: decelerationRate is a name or a number in (0, 1), frameRate is positive")
  func scrollSchema() throws {
    let defs = try #require(try loadSchema()["$defs"] as? [String: [String: Any]])
    let scroll = try #require(defs["scroll"]?["properties"] as? [String: [String: Any]])
    let rate = try #require(scroll["decelerationRate"]?["anyOf"] as? [[String: Any]])
    #expect(rate.count == 2)
    #expect(rate.first?["enum"] as? [String] == ["normal", "fast"])
    #expect(rate.last?["exclusiveMinimum"] as? Double == 0)
    #expect(rate.last?["exclusiveMaximum"] as? Double == 1)
    #expect(scroll["decelerationRate"]?["default"] as? String == "normal")
    #expect(scroll["delaysContentTouches"]?["default"] as? Bool == true)
    #expect(scroll["contentSize"]?["$ref"] as? String == "#/$defs/size")
    #expect(scroll["contentOffset"]?["$ref"] as? String == "#/$defs/point")
    #expect(scroll["contentInset"]?["$ref"] as? String == "#/$defs/insets")
    #expect(defs["point"]?["required"] as? [String] == ["x", "y"])
    #expect(defs["insets"]?["required"] == nil)
    let view = try #require(defs["view"]?["properties"] as? [String: [String: Any]])
    #expect(view["scroll"]?["$ref"] as? String == "#/$defs/scroll")
    let window = try #require(defs["window"]?["properties"] as? [String: [String: Any]])
    #expect(window["frameRate"]?["exclusiveMinimum"] as? Double == 0)
    #expect(window["frameRate"]?["default"] as? Double == 60)
    // The zoom keys: scales above 0, UIScrollView.h's defaults 1 and 1.
    for key in ["minimumZoomScale", "maximumZoomScale", "zoomScale"] {
      #expect(scroll[key]?["exclusiveMinimum"] as? Double == 0, "\(key)")
      #expect(scroll[key]?["default"] as? Double == 1, "\(key)")
    }
    #expect(scroll["bouncesZoom"]?["default"] as? Bool == true)
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

  @Test("Every scene in config/ is checked, including the older hand-kept list")
  func everyBundledSceneIsChecked() {
    #expect(bundledScenes.contains("product-list.yaml"))
    #expect(Set(exampleScenes).isSubset(of: bundledScenes))
  }

  @Test("The example scenes are valid and config/scene.yaml is the kiosk", arguments: bundledScenes)
  func examplesParse(name: String) throws {
    let scene = try Scene.parse(try readText(TestPaths.config(name)), file: name)
    #expect(!scene.windows.isEmpty)
    if name == "scene.yaml" {
      #expect(try readText(TestPaths.config(name)) == readText(TestPaths.config("kiosk.yaml")))
    }
  }

  @Test("The kiosk's admin gesture is a two-second five-finger long press on the root view")
  func kioskAdminGesture() throws {
    let scene = try Scene.parse(try readText(TestPaths.config("kiosk.yaml")))
    let root = try #require(scene.windows.first?.views.first)
    let admin = try #require(root.recognizers.first { $0.id == "admin" })
    #expect(admin.type == .longPress)
    #expect(admin.parameters["numberOfTouchesRequired"] == .integer(5))
    #expect(admin.parameter("minimumPressDuration")?.number == 2)
  }

  @Test("The examples validate against the schema with python3 jsonschema, and a bad scene does not")
  func examplesValidateAgainstSchema() throws {
    let script = """
      import json, sys, jsonschema
      schema = json.load(open(sys.argv[1]))
      jsonschema.Draft202012Validator.check_schema(schema)
      errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(sys.argv[2])))
      for e in errors: print(e.message)
      sys.exit(1 if errors else 0)
      """
    for name in bundledScenes {
      let node = try #require(try Yams.compose(yaml: try readText(TestPaths.config(name))))
      let result = try runPython(script, [schemaURL.path, jsonValue(node).compact])
      #expect(result.status == 0, "\(name): \(result.output)")
    }
    let bad = """
      {"version":1,"windows":[{"id":"w","size":{"width":1,"height":1},"views":[{"id":"v",
      "frame":{"x":0,"y":0,"width":1,"height":1},"alpha":2,
      "recognizers":[{"id":"t","type":"tap","action":"a","direction":"left"}]}]}]}
      """
    let result = try runPython(script, [schemaURL.path, bad])
    #expect(result.status == 1)
    #expect(result.output.contains("2 is greater than the maximum of 1"))
    #expect(result.output.contains("'direction' was unexpected"))
    let badScroll = """
      {"version":1,"windows":[{"id":"w","size":{"width":1,"height":1},"frameRate":0,"views":[{"id":"v",
      "frame":{"x":0,"y":0,"width":1,"height":1},
      "scroll":{"contentSize":{"width":-1,"height":1},"decelerationRate":"slow","zoomScale":-2,"zoom":1}}]}]}
      """
    let scrollResult = try runPython(script, [schemaURL.path, badScroll])
    #expect(scrollResult.status == 1)
    #expect(scrollResult.output.contains("0 is less than or equal to the minimum of 0"))
    #expect(scrollResult.output.contains("-1 is less than the minimum of 0"))
    #expect(scrollResult.output.contains("'slow' is not valid under any of the given schemas"))
    #expect(scrollResult.output.contains("-2 is less than or equal to the minimum of 0"))
    #expect(scrollResult.output.contains("'zoom' was unexpected"))
  }

  @Test("The product list: a vertical list of 30 buyable rows and a paged carousel of offers")
  func productList() throws {
    let scene = try Scene.parse(try readText(TestPaths.config("product-list.yaml")), file: "product-list.yaml")
    let window = try #require(scene.windows.first)
    #expect(scene.windows.count == 1)
    #expect(window.size == Scene.Size(width: 1280, height: 800))
    #expect(window.devices == ["*"])
    let list = try #require(window.views.first { $0.id == "products" })
    let listScroll = try #require(list.scroll)
    #expect(listScroll.contentSize.height > list.frame.height)
    #expect(!listScroll.pagingEnabled && listScroll.delaysContentTouches)
    #expect(list.views.count == 30)
    #expect(list.views.allSatisfy { $0.touches && $0.recognizers.count == 1 && $0.recognizers[0].type == .tap })
    #expect(list.views.map { $0.recognizers[0].action } == (1...30).map { "buy-\($0 < 10 ? "0" : "")\($0)" })
    // Every row lies inside the content.
    #expect(list.views.allSatisfy { $0.frame.y + $0.frame.height <= listScroll.contentSize.height })
    let carousel = try #require(window.views.first { $0.id == "offers" })
    let carouselScroll = try #require(carousel.scroll)
    #expect(carouselScroll.pagingEnabled)
    #expect(carouselScroll.decelerationRate == 0.99)
    #expect(carousel.frame.x >= list.frame.x + list.frame.width)
    // Pages are the view's size, so paging stops on each of them.
    #expect(carouselScroll.contentSize.width == Double(carousel.views.count) * carousel.frame.width)
    #expect((3...4).contains(carousel.views.count))
    #expect(carousel.views.allSatisfy { $0.frame.width == carousel.frame.width && $0.recognizers.first?.type == .tap })
  }
}
