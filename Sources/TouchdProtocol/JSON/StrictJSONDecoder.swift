/// Decodes a `Decodable` from a parsed ``StrictJSON`` value, holding it to what Foundation's
/// `JSONDecoder` accepts from the same JSON's text: a string only from a string, a number only from
/// a number (a `Double` that fits, an integer written as one), a boolean only from `true` or
/// `false`, nil from `null`. It tells nothing about a failure but that there is one (no coding
/// path, no description): the caller decodes the text with `JSONDecoder` for the message.
public enum StrictJSONDecoder {
  /// The value could not be decoded as the type asked for.
  struct Mismatch: Error {}

  public static func decode<T: Decodable>(_ type: T.Type, from value: StrictJSON) throws -> T {
    try T(from: ValueDecoder(value: value))
  }

  /// Decodes one line of JSON text (a message the daemon wrote) strictly.
  public static func decode<T: Decodable>(_ type: T.Type, line: String) throws -> T {
    try decode(T.self, from: StrictJSON.parse(line))
  }

  static func isNull(_ value: StrictJSON) -> Bool {
    if case .null = value { return true }
    return false
  }

  static func bool(_ value: StrictJSON) throws -> Bool {
    guard case .bool(let b) = value else { throw Mismatch() }
    return b
  }

  static func string(_ value: StrictJSON) throws -> String {
    guard case .string(let s) = value else { throw Mismatch() }
    return s
  }

  static func float<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: StrictJSON) throws -> F {
    guard case .number(let text) = value, let f = F(text), f.isFinite else { throw Mismatch() }
    return f
  }

  static func integer<I: FixedWidthInteger>(_ value: StrictJSON) throws -> I {
    guard case .number(let text) = value, let i = I(text) else { throw Mismatch() }
    return i
  }
}

/// A value being decoded; it is its own single value container.
private struct ValueDecoder: Decoder, SingleValueDecodingContainer {
  let value: StrictJSON
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else { throw StrictJSONDecoder.Mismatch() }
    return KeyedDecodingContainer(ObjectContainer<Key>(members: members))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let items) = value else { throw StrictJSONDecoder.Mismatch() }
    return ArrayContainer(items: items)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { StrictJSONDecoder.isNull(value) }
  func decode(_ type: Bool.Type) throws -> Bool { try StrictJSONDecoder.bool(value) }
  func decode(_ type: String.Type) throws -> String { try StrictJSONDecoder.string(value) }
  func decode(_ type: Double.Type) throws -> Double { try StrictJSONDecoder.float(value) }
  func decode(_ type: Float.Type) throws -> Float { try StrictJSONDecoder.float(value) }
  func decode(_ type: Int.Type) throws -> Int { try StrictJSONDecoder.integer(value) }
  func decode(_ type: Int8.Type) throws -> Int8 { try StrictJSONDecoder.integer(value) }
  func decode(_ type: Int16.Type) throws -> Int16 { try StrictJSONDecoder.integer(value) }
  func decode(_ type: Int32.Type) throws -> Int32 { try StrictJSONDecoder.integer(value) }
  func decode(_ type: Int64.Type) throws -> Int64 { try StrictJSONDecoder.integer(value) }
  func decode(_ type: UInt.Type) throws -> UInt { try StrictJSONDecoder.integer(value) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try StrictJSONDecoder.integer(value) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try StrictJSONDecoder.integer(value) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try StrictJSONDecoder.integer(value) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try StrictJSONDecoder.integer(value) }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

/// An object's members, found by key.
private struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [StrictJSON.Member]
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

  private func find(_ key: Key) -> StrictJSON? {
    let name = key.stringValue
    // Most keys asked for are optional ones the object does not have (a scene's view has a dozen):
    // comparing lengths first settles most comparisons without comparing text.
    let length = name.utf8.count
    for member in members where member.key.utf8.count == length && member.key == name { return member.value }
    return nil
  }

  private func value(_ key: Key) throws -> StrictJSON {
    guard let value = find(key) else { throw StrictJSONDecoder.Mismatch() }
    return value
  }

  func contains(_ key: Key) -> Bool { find(key) != nil }
  func decodeNil(forKey key: Key) throws -> Bool { StrictJSONDecoder.isNull(try value(key)) }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try StrictJSONDecoder.bool(value(key)) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try StrictJSONDecoder.string(value(key)) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try StrictJSONDecoder.float(value(key)) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try StrictJSONDecoder.float(value(key)) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try StrictJSONDecoder.integer(value(key)) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try StrictJSONDecoder.integer(value(key)) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try T(from: ValueDecoder(value: value(key)))
  }

  // The optional keys (most of a scene's) in one look-up each, instead of the default's three.
  private func present(_ key: Key) -> StrictJSON? {
    guard let value = find(key), !StrictJSONDecoder.isNull(value) else { return nil }
    return value
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try present(key).map(StrictJSONDecoder.bool)
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try present(key).map(StrictJSONDecoder.string)
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try present(key).map(StrictJSONDecoder.float)
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try present(key).map(StrictJSONDecoder.integer)
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    // Not with `Optional.map`, which this generic code would call unspecialized, copying `T`
    // through its value witnesses.
    guard let value = present(key) else { return nil }
    return try T(from: ValueDecoder(value: value))
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try ValueDecoder(value: value(key)).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try ValueDecoder(value: value(key)).unkeyedContainer()
  }

  // Not used by the scene's types: the caller's `JSONDecoder` decodes them.
  func superDecoder() throws -> any Decoder { throw StrictJSONDecoder.Mismatch() }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw StrictJSONDecoder.Mismatch() }
}

/// An array's items, in order.
private struct ArrayContainer: UnkeyedDecodingContainer {
  let items: [StrictJSON]
  var currentIndex = 0
  var codingPath: [any CodingKey] { [] }
  var count: Int? { items.count }
  var isAtEnd: Bool { currentIndex >= items.count }

  init(items: [StrictJSON]) { self.items = items }

  private mutating func next() throws -> StrictJSON {
    guard currentIndex < items.count else { throw StrictJSONDecoder.Mismatch() }
    defer { currentIndex += 1 }
    return items[currentIndex]
  }

  mutating func decodeNil() throws -> Bool {
    guard currentIndex < items.count else { throw StrictJSONDecoder.Mismatch() }
    guard StrictJSONDecoder.isNull(items[currentIndex]) else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try StrictJSONDecoder.bool(next()) }
  mutating func decode(_ type: String.Type) throws -> String { try StrictJSONDecoder.string(next()) }
  mutating func decode(_ type: Double.Type) throws -> Double { try StrictJSONDecoder.float(next()) }
  mutating func decode(_ type: Float.Type) throws -> Float { try StrictJSONDecoder.float(next()) }
  mutating func decode(_ type: Int.Type) throws -> Int { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try StrictJSONDecoder.integer(next()) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try StrictJSONDecoder.integer(next()) }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: ValueDecoder(value: next())) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try ValueDecoder(value: next()).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try ValueDecoder(value: next()).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder { throw StrictJSONDecoder.Mismatch() }
}
