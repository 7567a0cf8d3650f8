import Foundation
import TouchdProtocol

/// A JSON value: a reply's fields, a command's fields, a scene to push, the fields of a message
/// this version does not know.
///
/// Read it with the subscripts and the `…Value` accessors (`reply["counters"]?["actions"]?.intValue`);
/// write it with literals (`["hidden": true, "alpha": 0.5]`). Numbers are `Double`s: integers are
/// exact up to 2^53.
public enum TouchdJSON: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([TouchdJSON])
  case object([String: TouchdJSON])

  /// The value of `key` in an object; nil for another key or another kind of value.
  public subscript(key: String) -> TouchdJSON? {
    if case .object(let object) = self { return object[key] }
    return nil
  }

  /// The element at `index` of an array; nil out of range or for another kind of value.
  public subscript(index: Int) -> TouchdJSON? {
    if case .array(let array) = self, array.indices.contains(index) { return array[index] }
    return nil
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The number, if this is one.
  public var doubleValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The number, if this is one without a fraction that fits an `Int`.
  public var intValue: Int? {
    guard case .number(let value) = self, value.rounded() == value, abs(value) < 0x1p63 else { return nil }
    return Int(value)
  }

  /// The boolean, if this is one.
  public var boolValue: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The elements, if this is an array.
  public var arrayValue: [TouchdJSON]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The members, if this is an object.
  public var objectValue: [String: TouchdJSON]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// Whether this is `null`.
  public var isNull: Bool { self == .null }

  /// Parses JSON text (one value).
  public init(parsing text: String) throws {
    self = try JSONDecoder().decode(TouchdJSON.self, from: Data(text.utf8))
  }

  /// The JSON form of an `Encodable` value (as `JSONEncoder` writes it).
  public init(encoding value: some Encodable) throws {
    let data = try JSONEncoder().encode(value)
    self = try JSONDecoder().decode(TouchdJSON.self, from: data)
  }

  /// Compact JSON text; object members sorted by key (the protocol's client text,
  /// ``JSONValue/clientText``). Throws `EncodingError` for a number that is not finite (JSON has
  /// none).
  public func jsonText() throws -> String {
    guard let text = JSONValue(self).clientText else {
      let number = nonFinite ?? .nan
      throw EncodingError.invalidValue(
        number, .init(codingPath: [], debugDescription: "JSON has no \(number): touchd takes finite numbers only"))
    }
    return text
  }

  /// The first number in the value that is not finite.
  private var nonFinite: Double? {
    switch self {
    case .number(let n): n.isFinite ? nil : n
    case .array(let items): items.lazy.compactMap(\.nonFinite).first
    case .object(let members): members.keys.sorted().lazy.compactMap { members[$0]!.nonFinite }.first
    case .null, .bool, .string: nil
    }
  }
}

extension TouchdJSON: Codable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([TouchdJSON].self) {
      self = .array(value)
    } else if let value = try? container.decode([String: TouchdJSON].self) {
      self = .object(value)
    } else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}

extension TouchdJSON: CustomStringConvertible {
  /// Compact JSON text (`null` in place of a number that is not finite).
  public var description: String {
    (try? jsonText()) ?? "null"
  }
}

extension TouchdJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  public init(floatLiteral value: Double) { self = .number(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: TouchdJSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, TouchdJSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
}

extension JSONValue {
  /// A client's value as a document (its members in any order: the client's text sorts them).
  init(_ value: TouchdJSON) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let n): self = .number(n)
    case .string(let s): self = .string(s)
    case .array(let items): self = .array(items.map(JSONValue.init))
    case .object(let members): self = .object(members.map { ($0.key, JSONValue($0.value)) })
    }
  }
}

extension TouchdJSON {
  /// A protocol document as a value: the same numbers; members keyed (the client writes them sorted).
  init(_ value: JSONValue) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let n): self = .number(n)
    case .string(let s): self = .string(s)
    case .array(let items): self = .array(items.map(TouchdJSON.init))
    case .object(let members):
      self = .object(Dictionary(members.map { ($0.key, TouchdJSON($0.value)) }, uniquingKeysWith: { _, last in last }))
    }
  }
}

extension StrictJSON {
  /// A client's value as the protocol's commands carry it: members sorted by key, as the client
  /// writes them; numbers as ``JSONFormat/roundTripNumber(_:)`` spells them (an integral one
  /// without a fraction, so it also reads as an `Int`), which reads back exactly; a number that
  /// is not finite, which JSON cannot carry, as `null`.
  init(_ value: TouchdJSON) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .number(let n): self = JSONFormat.roundTripNumber(n).map(StrictJSON.number) ?? .null
    case .string(let s): self = .string(s)
    case .array(let items): self = .array(items.map(StrictJSON.init))
    case .object(let members):
      self = .object(members.keys.sorted().map { StrictJSON.Member(key: $0, value: StrictJSON(members[$0]!)) })
    }
  }
}
