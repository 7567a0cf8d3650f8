/// The JSON Schema (draft 2020-12) of the messages the daemon writes, docs/protocol.schema.json.
///
/// It is read off the protocol's own encoders, not written by hand: each ``Example`` is one kind of
/// line twice, once with every key the encoder can write (`full`) and once with only those it
/// always writes (`minimal`). A key of `full` is a property, typed by its value there; a key of
/// `minimal` is required; a key `minimal` writes as `null` may be null. Nested objects and arrays
/// are read the same way. Clients must accept keys they do not know (docs/protocol.md), so no
/// object forbids others. A test keeps the file identical to ``document`` and validates the
/// documentation's examples and the golden lines against it.
public enum ProtocolSchema {
  /// One kind of line, as the daemon writes it with every key and with the fewest.
  public struct Example: Sendable {
    /// The definition's name in `$defs` (the `type`, or `type-variant`: `action-control`).
    public var name: String
    public var full: String
    public var minimal: String

    public init(_ name: String, full: String, minimal: String) {
      self.name = name
      self.full = full
      self.minimal = minimal
    }
  }

  /// Every kind of line the daemon writes, in the order the schema lists them.
  public static var examples: [Example] { sessionExamples + pipelineExamples }

  /// The schema: any of the definitions, each by its `type`.
  public static var document: JSONValue {
    var definitions: [JSONValue.Member] = []
    for example in examples {
      guard let full = try? StrictJSON.parse(example.full), let minimal = try? StrictJSON.parse(example.minimal) else {
        preconditionFailure("the protocol's example of \(example.name) is not JSON")
      }
      definitions.append((example.name, schema(of: full, minimal: minimal, line: true)))
    }
    return .object([
      ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
      (
        "title", .string("touchd socket protocol, version \(HelloMessage.protocolVersion): the lines the daemon writes")
      ),
      (
        "description",
        .string("Generated from Sources/TouchdProtocol (ProtocolSchema): do not edit; see docs/protocol.md.")
      ),
      ("anyOf", .array(definitions.map { .object([("$ref", .string("#/$defs/\($0.key)"))]) })),
      ("$defs", .object(definitions)),
    ])
  }

  /// The schema of `full`, with what `minimal` (the same place in the fewest-keys line; nil where
  /// it has nothing) says of required keys and nulls. `line`: `full` is a whole line, whose `type`
  /// is the definition's constant and whose `id` (a reply's) is any value.
  static func schema(of full: StrictJSON, minimal: StrictJSON?, line: Bool = false) -> JSONValue {
    let nullable = minimal.map { if case .null = $0 { true } else { false } } ?? false
    func typed(_ name: String) -> JSONValue {
      .object([("type", nullable ? .array([.string(name), .string("null")]) : .string(name))])
    }
    switch full {
    case .null: return .object([("type", .string("null"))])
    case .bool: return typed("boolean")
    case .number: return typed("number")
    case .string: return typed("string")
    case .array(let items):
      var members: [JSONValue.Member] = [
        ("type", nullable ? .array([.string("array"), .string("null")]) : .string("array"))
      ]
      if let first = items.first {
        let minimalFirst: StrictJSON? = if case .array(let m) = minimal, let f = m.first { f } else { nil }
        members.append(("items", schema(of: first, minimal: minimalFirst ?? first)))
      }
      return .object(members)
    case .object(let fields):
      let minimalFields: [StrictJSON.Member] = if case .object(let m) = minimal { m } else { [] }
      var properties: [JSONValue.Member] = []
      for field in fields {
        let inMinimal = minimalFields.first { $0.key == field.key }?.value
        if line, field.key == "type", case .string(let type) = field.value {
          properties.append(("type", .object([("const", .string(type))])))
        } else if line, field.key == "id" {
          // A reply's `id` is the command's, echoed as written: any JSON value.
          properties.append(("id", .object([("description", .string("the command's id, as the client wrote it"))])))
        } else {
          // A key absent from the fewest-keys line is optional; its own parts are read from `full`.
          properties.append((field.key, schema(of: field.value, minimal: inMinimal ?? (nullable ? nil : field.value))))
        }
      }
      return .object([
        ("type", nullable ? .array([.string("object"), .string("null")]) : .string("object")),
        ("properties", .object(properties)),
        ("required", .array(minimalFields.map { .string($0.key) })),
      ])
    }
  }
}
