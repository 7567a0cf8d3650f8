// A table with a value per case of an enumeration, for SceneFormat's key tables.

/// A value for each case of an enumeration, found by the case's place among `allCases` rather
/// than by hashing: the scene's enumerations are strings, and a dictionary keyed by one hashes
/// its text (`RawRepresentable`'s `hash(into:)`) for every object the validator, the decoder and
/// the runtime meet.
struct CaseTable<Key: CaseIterable & Equatable & Sendable, Value: Sendable>: Sendable {
  private let keys: [Key]
  private let values: [Value]

  init(_ make: (Key) -> Value) {
    keys = Array(Key.allCases)
    values = keys.map(make)
  }

  subscript(key: Key) -> Value {
    // Every case is among `allCases`.
    values[keys.firstIndex(of: key)!]
  }
}
