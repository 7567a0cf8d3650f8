import Foundation
import Testing
import TouchdProtocol
import TouchdTestKit

/// docs/protocol.schema.json is the schema the protocol's encoders give (ProtocolSchema), and the
/// daemon's lines in the documentation and in the golden files (every pipeline and session type)
/// validate against it.
@Suite("The messages' JSON Schema")
struct ProtocolSchemaTests {
  static let schemaPath = TestPaths.repository("docs/protocol.schema.json")

  /// Validates each line given (one JSON object per argument) and prints the errors, `index: message`.
  static let validator = """
    import json, sys, jsonschema
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for i, line in enumerate(sys.argv[2:]):
        for e in validator.iter_errors(json.loads(line)):
            bad += 1
            print(f"{i}: {e.message}")
    sys.exit(1 if bad else 0)
    """

  @Test("docs/protocol.schema.json is the schema built from the protocol's encoders")
  func schemaFileIsCurrent() throws {
    let generated = ProtocolSchema.document.pretty
    if updatingGoldens { try generated.write(toFile: Self.schemaPath, atomically: true, encoding: .utf8) }
    #expect(
      try String(contentsOfFile: Self.schemaPath, encoding: .utf8) == generated, "run with TOUCHD_UPDATE_GOLDEN=1")
  }

  @Test("Every example line validates, and a line with a wrong type or a missing key does not")
  func examplesValidate() throws {
    let lines = ProtocolSchema.examples.flatMap { [$0.full, $0.minimal] }
    let good = try runPython(Self.validator, [Self.schemaPath] + lines)
    #expect(good.status == 0, "\(good.output)")
    let bad = try runPython(
      Self.validator,
      [Self.schemaPath, #"{"type":"gap","skipped":"2"}"#, #"{"type":"hello","version":1,"views":2}"#])
    #expect(bad.status == 1)
    #expect(
      bad.output.contains("0: {'type': 'gap', 'skipped': '2'} is not valid under any of the given schemas"),
      "\(bad.output)")
    #expect(bad.output.contains("1: "), "\(bad.output)")
  }

  @Test("The daemon's lines in docs/protocol.md and in the golden files validate")
  func daemonLinesValidate() throws {
    let defined = Set(ProtocolSchema.examples.map { $0.name.split(separator: "-")[0] }.map(String.init))
    var lines: [String] = []
    var types: Set<String> = []
    let golden = TestPaths.repository("Tests/TouchdSceneTests/Golden")
    let files = try FileManager.default.contentsOfDirectory(atPath: golden).filter { $0.hasSuffix(".jsonl") }.sorted()
    #expect(!files.isEmpty)
    var texts = try files.map { try String(contentsOfFile: golden + "/" + $0, encoding: .utf8) }
    texts.append(try String(contentsOfFile: TestPaths.repository("docs/protocol.md"), encoding: .utf8))
    for text in texts {
      for line in text.split(separator: "\n") where line.hasPrefix("{\"type\":") {
        guard let value = try? StrictJSON.parse(String(line)), let type = value["type"]?.stringValue,
          defined.contains(type)
        else { continue }
        lines.append(String(line))
        types.insert(type)
      }
    }
    // Every type a client subscribes to has a definition, and the lines checked hold most of them.
    #expect(defined.isSuperset(of: SubscribeCommand.messageTypes), "\(defined)")
    #expect(types.isSuperset(of: ["hello", "action", "touches", "scroll", "control", "presses", "trace"]), "\(types)")
    let result = try runPython(Self.validator, [Self.schemaPath] + lines)
    #expect(result.status == 0, "\(result.output)")
  }
}
