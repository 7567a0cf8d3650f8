/// A ``StrictJSON`` value from any `Decoder` (a `JSONDecoder`'s, in the Swift client), so that a
/// message's `Decodable` conformance reads with the protocol's own strict reader
/// (``WireMessage/init(decodingFrom:)``). Booleans, numbers and strings stay distinct as far as the
/// decoder keeps them apart; an integer keeps its digits; an object's key order is the decoder's.
extension StrictJSON: Decodable {
  private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public init(from decoder: any Decoder) throws {
    if let object = try? decoder.container(keyedBy: AnyKey.self) {
      var members: [Member] = []
      for key in object.allKeys {
        members.append(Member(key: key.stringValue, value: try object.decode(StrictJSON.self, forKey: key)))
      }
      self = .object(members)
    } else if var array = try? decoder.unkeyedContainer() {
      var items: [StrictJSON] = []
      while !array.isAtEnd { items.append(try array.decode(StrictJSON.self)) }
      self = .array(items)
    } else {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let bool = try? single.decode(Bool.self) {
        self = .bool(bool)
      } else if let integer = try? single.decode(Int.self) {
        self = .number(String(integer))
      } else if let number = try? single.decode(Double.self) {
        self = .number(String(number))
      } else {
        self = .string(try single.decode(String.self))
      }
    }
  }
}
