import Foundation
import Testing
import TouchdInput
import TouchdTestKit
import Yams

@testable import TouchdScene

/// The validator's tree made from a pushed scene's JSON is the tree Yams composes from the JSON's
/// compact text (places, tags, texts), its duplicate keys are Yams', and the scene decoded from the
/// JSON is the one decoded from the same scene's YAML.
@Suite("Scene push: the JSON tree the validator walks")
struct SceneNodeTests {
  /// The example scenes as JSON, and values whose compact text takes escapes and wide characters.
  static var samples: [StrictJSON] {
    var samples = exampleScenes.map { name -> StrictJSON in
      let node = try! Yams.compose(yaml: try! readText(TestPaths.config(name)))!
      return try! StrictJSON.parse(jsonValue(node).compact)
    }
    samples.append(
      try! StrictJSON.parse(
        #"{"a\"b":["m\u00e4in","\ud83d\ude00\t\u0001x",-0,1e3,2.5E-2,true,false,null,{},[]],"#
          + #""é":{"k\\":"\u001f","n":12345678901234567890},"":[[1],{"x":"\u00a0"}]}"#))
    return samples
  }

  /// `a` and `b` are the same tree: kinds, places, scalars' texts, tags and styles.
  func expectSame(_ a: SceneNode, _ b: SceneNode, at path: String = "") {
    #expect(a.place == b.place, "\(path): \(a.place) vs \(b.place)")
    switch (a.content, b.content) {
    case (.scalar(let x), .scalar(let y)):
      #expect(x.string == y.string && x.tag == y.tag && x.isPlain == y.isPlain, "\(path): \(x) vs \(y)")
    case (.sequence(let x), .sequence(let y)):
      #expect(x.count == y.count, "\(path)")
      for (i, (p, q)) in zip(x, y).enumerated() { expectSame(p, q, at: path + "[\(i)]") }
    case (.mapping(let x), .mapping(let y)):
      #expect(x.count == y.count, "\(path)")
      for (p, q) in zip(x, y) {
        #expect(p.keyIsName == q.keyIsName, "\(path)")
        expectSame(p.key, q.key, at: path + ".key")
        expectSame(p.value, q.value, at: path + "." + (p.key.string ?? "?"))
      }
    default:
      Issue.record("\(path): \(a.content) vs \(b.content)")
    }
  }

  @Test("The tree from JSON is the tree Yams composes from its compact text", arguments: samples)
  func sameAsComposed(value: StrictJSON) throws {
    let text = value.compact
    let composed = try #require(try Yams.compose(yaml: text, .basic))
    expectSame(try SceneNode(json: value), SceneNode(composed))
    #expect(SceneNode.make(json: value).compactBytes == text.utf8.count)
  }

  @Test("Duplicate keys are reported as Yams reports them: the first object to end, its keys sorted")
  func duplicateKeys() throws {
    let cases: [(String, [String], Int)] = [
      (#"{"b":1,"a":2,"b":3,"a":4}"#, ["a", "b"], 8),
      (#"{"x":{"k":1,"k":2},"x":0}"#, ["k"], 7),
      (#"{"w":[{"id":"a"},{"id":"a","n":1,"id":"b"}]}"#, ["id"], 19),
    ]
    for (json, keys, column) in cases {
      let value = try StrictJSON.parse(json)
      do {
        _ = try SceneNode(json: value)
        Issue.record("\(json): no duplicate found")
      } catch {
        #expect(error.keys == keys, "\(json)")
        #expect(error.place == SceneNode.Place(line: 1, column: column), "\(json)")
      }
      // As Yams composing the text.
      do {
        _ = try Yams.compose(yaml: value.compact, .basic)
        Issue.record("\(json): Yams found no duplicate")
      } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
        #expect(duplicates == keys && context.mark.column == column, "\(json)")
      }
    }
    #expect(throws: Never.self) { try SceneNode(json: StrictJSON.parse(#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#)) }
  }

  @Test("A pushed scene with a key twice is refused at the key's path")
  func duplicateKeyMessage() {
    do {
      _ = try Scene.parse(
        json: StrictJSON.parse(#"{"version":1,"windows":[{"id":"m","size":{"width":1,"height":1},"id":"n"}]}"#))
      Issue.record("accepted")
    } catch let error as SceneError {
      #expect(error.description == "scene.windows[0].id: error: duplicate key 'id' in one mapping")
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test("The scene decoded from a pushed JSON is the one decoded from the same scene's YAML file")
  func sameAsYAMLFile() throws {
    for name in exampleScenes {
      let yaml = try readText(TestPaths.config(name))
      let json = try StrictJSON.parse(jsonValue(try #require(try Yams.compose(yaml: yaml))).compact)
      #expect(try Scene.parse(json: json) == Scene.parse(yaml, file: name), "\(name)")
    }
  }

  @Test(
    "A pushed scene's values read as YAML reads its text: a numeric id is the string it spells, a string for a number is refused"
  )
  func valuesAsYAMLReadsThem() throws {
    let frame = #""frame":{"x":0,"y":0,"width":10,"height":10}"#
    func scene(_ id: String, x: String = "0") throws -> StrictJSON {
      try StrictJSON.parse(
        #"{"version":1,"windows":[{"id":"# + id + #","size":{"width":1,"height":1},"views":[{"id":"v","#
          + frame.replacingOccurrences(of: #""x":0"#, with: #""x":"# + x) + "}]}]}")
    }
    #expect(try Scene.parse(json: try scene(#""w""#, x: "-0.5")).windows[0].views[0].frame.x == -0.5)
    // A number where a string goes is the text YAML reads it as (`id: 12` in a file is the id
    // "12"); before the scene had one decoder (SceneDecoding.swift), a pushed scene's was refused
    // with Foundation's `DecodingError.typeMismatch` as its message.
    let numeric = try scene("12")
    #expect(try Scene.parse(json: numeric).windows[0].id == "12")
    #expect(try Scene.parse(json: numeric) == Scene.parse(numeric.compact))
    // A string where a number goes is the validator's error, at the value's path.
    do {
      _ = try Scene.parse(json: try scene(#""w""#, x: #""1""#))
      Issue.record("accepted")
    } catch let error as SceneError {
      #expect(
        error.description
          == "scene.windows[0].views[0].frame.x: error: 'x' in frame of view 'v' must be a number, found '1'"
      )
    }
  }

  @Test("A scalar's integer and number are Yams' own, with the fast path for plain integers")
  func numbersAsYams() {
    for text in [
      "0", "-0", "7", "-12", "+7", "017", "0x1F", "1_000", "1:30", "9223372036854775808", "1.5", "1e3", ".inf",
    ] {
      let node = SceneNode(Node(text))
      #expect(node.int == Node(text).int, "\(text)")
      #expect(node.float == Node(text).float || (node.float?.isNaN ?? false), "\(text)")
    }
  }

  @Test("A pushed scene's strings are JSON's, also where YAML would read their raw text otherwise")
  func stringsAsJSONMeansThem() throws {
    // Raw in the compact text, U+2028 is a line break to YAML (folded into a space) and U+007F a
    // character libyaml refuses; as JSON, both are a view's id like any other.
    for id in [#"a\u2028b"#, #"a\u007fb"#] {
      let scene = try Scene.parse(
        json: StrictJSON.parse(
          #"{"version":1,"windows":[{"id":"w","size":{"width":9,"height":9},"views":[{"id":""# + id
            + #"","frame":{"x":0,"y":0,"width":1,"height":1}}]}]}"#))
      #expect(scene.windows[0].views[0].id == (id == #"a\u2028b"# ? "a\u{2028}b" : "a\u{7F}b"))
    }
  }

  @Test("A number's small-integer reading is the one Swift and Yams give, and declines the rest")
  func smallIntegers() {
    var texts = ["0", "-0", "7", "-7", "88", "800", "-20", "007", "+5", "1e3", "1.5", "", "-", "12a", "9x"]
    texts += ["999999999999999", "-999999999999999", "1000000000000000", "18446744073709551616"]
    var seed: UInt64 = 43
    for _ in 0..<2_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let digits = Int(seed >> 60) + 1
      texts.append((seed >> 63 == 1 ? "-" : "") + String(String(seed >> 8).prefix(digits)))
    }
    for text in texts {
      let node = SceneNode(.scalar(.init(string: text, tag: .int, isPlain: true)), at: .init(line: 1, column: 1))
      let expected: Double? =
        SceneNode.isPlainDecimal(text) ? Double(text).flatMap { $0.isFinite ? $0 : nil } : node.float
      if let small = SceneNode.smallInteger(text) {
        #expect(Double(small) == expected && Double(small).sign == expected?.sign, "\(text)")
      } else {
        let plainInteger = !text.isEmpty && text.count <= 15 && text.allSatisfy(\.isNumber) && text.first != "0"
        #expect(!plainInteger, "declined \(text)")
      }
      #expect(node.finiteNumber == expected && node.finiteNumber?.sign == expected?.sign, "\(text)")
    }
    #expect(SceneNode.smallInteger("-0") == nil && SceneNode.smallInteger("1000000000000000") == nil)
    #expect(SceneNode.smallInteger("-20") == -20 && SceneNode.smallInteger("0") == 0)
  }
}
