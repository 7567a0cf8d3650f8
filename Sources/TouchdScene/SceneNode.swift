import TouchdInput
import Yams

/// A scene's tree as ``SceneValidator`` walks it, each node with the place it starts: made from a
/// scene file's composed YAML (``init(_:)``) or from a pushed scene's JSON (``init(json:)``), so
/// that one validator, with one set of messages, checks both. A scalar keeps its text and the tag
/// YAML resolves for it (``YAMLTags``); its numbers are read as Yams reads them.
struct SceneNode: Sendable {
  /// Where a node starts: 1-based line and column (in Unicode scalars), as Yams' `Mark`. A JSON
  /// scene is placed in its compact text (``StrictJSON/compact``), one line.
  struct Place: Hashable, Sendable {
    var line: Int
    var column: Int
  }

  /// A scalar's resolved tag, as far as the validator tells them apart.
  enum Tag: Sendable {
    case null, bool, int, float, str
    /// Any other tag (`!!timestamp`, `!custom`, …).
    case other

    init(_ name: Yams.Tag.Name) {
      switch name {
      case .null: self = .null
      case .bool: self = .bool
      case .int: self = .int
      case .float: self = .float
      case .str: self = .str
      default: self = .other
      }
    }
  }

  /// A scalar: its text, its resolved tag, and whether it was written plain (Yams reads numbers
  /// only from plain scalars).
  struct Scalar: Sendable {
    var string: String
    var tag: Tag
    var isPlain: Bool
  }

  /// One entry of a mapping.
  struct Pair: Sendable {
    var key: SceneNode
    var value: SceneNode
    /// Whether the key is the plain name its text spells to YAML (no tag, and not quoted where
    /// the plain text is no string); a JSON key always is.
    var keyIsName: Bool
    /// The key's text: a scalar's (every key the validator looks up by name is one), empty for
    /// another node. Kept apart from `key`: the validator and the decoder compare it for every
    /// key they look up.
    let name: String

    init(key: SceneNode, value: SceneNode, keyIsName: Bool) {
      self.key = key
      self.value = value
      self.keyIsName = keyIsName
      if case .scalar(let scalar) = key.content { name = scalar.string } else { name = "" }
    }
  }

  enum Content: Sendable {
    case scalar(Scalar)
    case mapping([Pair])
    case sequence([SceneNode])
    /// An alias Yams left unresolved (composing resolves them).
    case alias
  }

  var content: Content
  var place: Place

  init(_ content: Content, at place: Place) {
    self.content = content
    self.place = place
  }

  // MARK: Reading

  var scalar: Scalar? {
    if case .scalar(let s) = content { return s }
    return nil
  }

  /// The scalar's tag; nil for a mapping, a sequence or an alias.
  var tag: Tag? { scalar?.tag }

  /// The scalar's text unless it is null.
  var string: String? {
    guard let s = scalar, s.tag != .null else { return nil }
    return s.string
  }

  /// Yams' `Node.bool` as the validator asks it (with the tag `bool`): `true`, `yes` or `on` in
  /// any case is true, their opposites false.
  var bool: Bool? {
    guard let s = scalar, s.tag != .str else { return nil }
    // JSON's and most YAML's spellings first, without lowercasing (a copy of the text).
    switch s.string {
    case "true": return true
    case "false": return false
    default: break
    }
    switch s.string.lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    default: return nil
    }
  }

  /// Yams' `Node.int`: plain decimals read directly, YAML's other spellings (`0x1F`, `1_000`,
  /// `017`, `1:30`, and `-0`, which Yams reads as an empty octal) by Yams.
  var int: Int? {
    guard let s = scalar, s.isPlain else { return nil }
    if SceneNode.isPlainInteger(s.string) { return Int(s.string) }
    // Yams' reading, without its trap on a sexagesimal integer out of range (YAMLInt).
    return YAMLInt.value(of: .scalar(Node.Scalar(s.string, Yams.Tag(.implicit), .plain)))
  }

  /// Yams' `Node.float`.
  var float: Double? {
    guard let s = scalar, s.isPlain else { return nil }
    return Double.construct(from: Node.Scalar(s.string, Yams.Tag(.implicit), .plain))
  }

  /// An integer as the scene takes one: a scalar YAML resolves as an int (JSON: a number
  /// without fraction or exponent), read as Yams reads it. The validator's reading and the decoder's.
  var integer: Int? {
    guard tag == .int else { return nil }
    return int
  }

  /// A finite number (YAML's `.inf` and `.nan` are not numbers a scene can use, nor JSON's): the
  /// validator's reading and the decoder's (SceneDecoding.swift).
  var finiteNumber: Double? {
    guard let scalar = scalar, scalar.tag == .int || scalar.tag == .float else { return nil }
    // Plain decimals (`12`, `-0.5`, `1e3`), nearly every number of a scene, read as Swift reads
    // them; YAML's other spellings (`1_000`, `1:30`, `0x1F`) as Yams reads a Double
    // (`Double.construct`). Not as Yams reads an Int: an integer only Int reads (`0o17`, YAML 1.2's
    // octal) once passed the validator, and the decoder of that time refused it (FuzzScene,
    // docs/reliability.md).
    if let value = Self.smallInteger(scalar.string) { return Double(value) }
    if Self.isPlainDecimal(scalar.string), let value = Double(scalar.string) { return value.isFinite ? value : nil }
    return float.flatMap { $0.isFinite ? $0 : nil }
  }

  /// Text of at most 15 digits after an optional `-`, not starting with 0 unless it is `0`: most
  /// numbers of a scene (`88`, `800`, `-20`). Its value, read from the bytes in place, which is
  /// exact as a `Double` (below 2^53) and what Swift and Yams read; nil for any other text, which
  /// ``finiteNumber`` reads as before. Skips `strtod`, which a frame's four numbers would call
  /// four times.
  static func smallInteger(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { bytes -> Int? in
      var i = 0
      let negative = bytes.count > 0 && bytes[0] == UInt8(ascii: "-")
      if negative { i = 1 }
      let digits = bytes.count - i
      guard digits >= 1, digits <= 15, bytes[i] != UInt8(ascii: "0") || digits == 1 else { return nil }
      var value = 0
      while i < bytes.count {
        let digit = Int(bytes[i]) - Int(UInt8(ascii: "0"))
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
        i += 1
      }
      // `-0` is Swift's and Yams' -0.0.
      if negative && value == 0 { return nil }
      return negative ? -value : value
    }
  }

  /// An optional sign, digits that do not start with a 0 unless it stands alone, an optional
  /// fraction and exponent: text that YAML and Swift read as the same number.
  static func isPlainDecimal(_ text: String) -> Bool {
    // On the text's bytes in place: every number of a scene comes here.
    var text = text
    return text.withUTF8 { bytes in
      var i = 0
      func isDigit(_ at: Int) -> Bool {
        at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9")
      }
      func skipDigits() { while isDigit(i) { i += 1 } }
      if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
      let integerStart = i
      skipDigits()
      guard i > integerStart, bytes[integerStart] != UInt8(ascii: "0") || i - integerStart == 1 else { return false }
      if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
        i += 1
        skipDigits()
      }
      if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
        i += 1
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        let exponentStart = i
        skipDigits()
        guard i > exponentStart else { return false }
      }
      return i == bytes.count
    }
  }

  /// `0` or digits not starting with 0, after an optional `-`: text Swift's `Int` and Yams read alike.
  static func isPlainInteger(_ text: String) -> Bool {
    var bytes = Substring(text).utf8[...]
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    guard let first = bytes.first else { return false }
    // `-0` is not: Yams reads it as an empty octal number, which is none.
    if first == UInt8(ascii: "0") { return text == "0" }
    return bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }
}

extension [SceneNode.Pair] {
  /// The first entry whose key is `name`, found as the decoder finds it: a key that is a name
  /// (``SceneNode/Pair/keyIsName``; the validator reports the others).
  func pair(named name: String) -> SceneNode.Pair? { index(named: name).map { self[$0] } }

  /// The place of ``pair(named:)``'s entry. By index: an entry is four nodes' worth of references,
  /// which a loop over the entries would copy (retain and release) for each key it compares.
  func index(named name: String) -> Int? {
    // Most keys asked for are not there (a view's `scroll`, a recognizer's `zoom`): comparing
    // lengths first settles most comparisons without comparing text.
    let length = name.utf8.count
    for i in indices where self[i].keyIsName && self[i].name.utf8.count == length && self[i].name == name {
      return i
    }
    return nil
  }

  /// The value of the first entry whose key is `name`.
  func value(of name: String) -> SceneNode? { index(named: name).map { self[$0].value } }
}

// MARK: From YAML

extension SceneNode {
  /// A composed YAML tree: tags resolved by ``YAMLTags``, places from the nodes' marks.
  init(_ node: Node) {
    let place = node.mark.map { Place(line: $0.line, column: $0.column) } ?? Place(line: 1, column: 1)
    switch node {
    case .scalar(let scalar):
      let tag = Tag(YAMLTags.name(of: node))
      let isPlain = scalar.style == .any || scalar.style == .plain
      self.init(.scalar(Scalar(string: scalar.string, tag: tag, isPlain: isPlain)), at: place)
    case .mapping(let mapping):
      let pairs = mapping.map { key, value in
        // The decoder finds a key as Yams looks a name up (`Node.Mapping.subscript(string:)`).
        let isName = key.scalar.map { key == Node($0.string, mapping.tag.copy(with: .implicit)) } ?? false
        return Pair(key: SceneNode(key), value: SceneNode(value), keyIsName: isName)
      }
      self.init(.mapping(pairs), at: place)
    case .sequence(let sequence):
      self.init(.sequence(sequence.map(SceneNode.init)), at: place)
    case .alias:
      self.init(.alias, at: place)
    }
  }
}

// MARK: From JSON

extension SceneNode {
  /// Keys that occur twice in one JSON object, as Yams reports them composing the object's text:
  /// at the first object to end that has any, all its duplicated keys in order, placed at the
  /// first occurrence of the first.
  struct DuplicateKeys: Error {
    var keys: [String]
    var place: Place
  }

  /// A JSON value, placed in its compact text (``StrictJSON/compact``) as Yams places the nodes it
  /// composes from that text; JSON's scalars take the tags YAML gives them (strings are quoted).
  init(json value: StrictJSON) throws(DuplicateKeys) {
    let made = SceneNode.make(json: value)
    if let duplicateKeys = made.duplicateKeys { throw duplicateKeys }
    self = made.node
  }

  /// ``init(json:)``'s tree, with the size of the value's compact text in UTF-8 bytes and the keys
  /// it has twice (nil: none): one walk gives all three, and a pushed scene's size is checked
  /// before its keys.
  static func make(json value: StrictJSON) -> (node: SceneNode, compactBytes: Int, duplicateKeys: DuplicateKeys?) {
    var walk = JSONWalk()
    let node = walk.make(value)
    return (node, walk.bytes, walk.duplicateKeys)
  }

  /// Where a walk over a JSON value is in its compact text, and the first duplicate keys found.
  private struct JSONWalk {
    /// The column the next value starts at, in Unicode scalars from 1.
    var column = 1
    /// The text's length so far, in UTF-8 bytes.
    var bytes = 0
    var duplicateKeys: DuplicateKeys?

    mutating func advance(by length: (bytes: Int, scalars: Int)) {
      bytes += length.bytes
      column += length.scalars
    }

    /// Advances over ASCII punctuation: `{`, `,`, `:` and the like.
    mutating func advance(by ascii: Int) {
      bytes += ascii
      column += ascii
    }

    /// An array's items or an object's members, each made by `make`: after the opening bracket,
    /// a comma apart, up to the closing one. Inlined, so that `make` is too (a scene has a list
    /// or an object for every few values).
    @inline(__always)
    mutating func list<Item, Node>(_ items: [Item], _ make: (inout JSONWalk, Item) -> Node) -> [Node] {
      advance(by: 1)
      var nodes: [Node] = []
      nodes.reserveCapacity(items.count)
      for (i, item) in items.enumerated() {
        if i > 0 { advance(by: 1) }
        nodes.append(make(&self, item))
      }
      advance(by: 1)
      return nodes
    }

    mutating func make(_ value: StrictJSON) -> SceneNode {
      let place = Place(line: 1, column: column)
      switch value {
      case .null:
        advance(by: 4)
        return SceneNode(.scalar(Scalar(string: "null", tag: .null, isPlain: true)), at: place)
      case .bool(let b):
        advance(by: b ? 4 : 5)
        return SceneNode(.scalar(Scalar(string: b ? "true" : "false", tag: .bool, isPlain: true)), at: place)
      case .number(let text):
        advance(by: text.utf8.count)
        // As a plain scalar: YAML's int (no fraction or exponent) or float. JSON's integers
        // (`-?(0|[1-9][0-9]*)`), nearly every number of a scene, are all YAML 1.1 ints (Yams'
        // `Resolver.default`): only the others are resolved.
        let tag =
          text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
          ? Tag(YAMLTags.implicitName(of: text)) : .int
        return SceneNode(.scalar(Scalar(string: text, tag: tag, isPlain: true)), at: place)
      case .string(let s):
        advance(by: compactLength(of: s))
        return SceneNode(.scalar(Scalar(string: s, tag: .str, isPlain: false)), at: place)
      case .array(let items):
        return SceneNode(.sequence(list(items) { walk, item in walk.make(item) }), at: place)
      case .object(let members):
        let pairs = list(members) { walk, member in
          let keyPlace = Place(line: 1, column: walk.column)
          walk.advance(by: compactLength(of: member.key))
          walk.advance(by: 1)
          let key = SceneNode(.scalar(Scalar(string: member.key, tag: .str, isPlain: false)), at: keyPlace)
          return Pair(key: key, value: walk.make(member.value), keyIsName: true)
        }
        // As Yams' composer, which stops at the first object to end with a key twice.
        if duplicateKeys == nil { duplicateKeys = SceneNode.duplicateKeys(in: pairs) }
        return SceneNode(.mapping(pairs), at: place)
      }
    }
  }

  /// The object's duplicated keys, as Yams' composer reports them; nil when it has none.
  private static func duplicateKeys(in pairs: [Pair]) -> DuplicateKeys? {
    guard pairs.count > 1 else { return nil }
    // An object of a scene has a few keys: comparing each with those before it costs less than
    // hashing them all, and finds none nearly always.
    if pairs.count <= 16 {
      var any = false
      search: for i in 1..<pairs.count {
        // A JSON key's name is its text.
        for j in 0..<i where pairs[i].name == pairs[j].name {
          any = true
          break search
        }
      }
      if !any { return nil }
    }
    var first: [String: Place] = [:]
    var duplicated: Set<String> = []
    first.reserveCapacity(pairs.count)
    for pair in pairs {
      guard case .scalar(let key) = pair.key.content else { continue }
      if first[key.string] == nil {
        first[key.string] = pair.key.place
      } else {
        duplicated.insert(key.string)
      }
    }
    guard !duplicated.isEmpty else { return nil }
    let keys = duplicated.sorted()
    return DuplicateKeys(keys: keys, place: first[keys[0]]!)
  }

  /// The length of `s` as ``JSONFormat/string(_:)`` writes it, quotes included, in UTF-8 bytes and
  /// in Unicode scalars.
  static func compactLength(of s: String) -> (bytes: Int, scalars: Int) {
    var bytes = 2
    var scalars = 2
    // On the string's bytes in place: every key and string of a pushed scene comes here.
    var s = s
    s.withUTF8 { utf8 in
      for byte in utf8 {
        switch byte {
        case 0x22, 0x5C, 0x0A, 0x0D, 0x09:
          bytes += 2
          scalars += 2
        case 0..<0x20:
          bytes += 6
          scalars += 6
        default:
          bytes += 1
          if byte & 0xC0 != 0x80 { scalars += 1 }
        }
      }
    }
    return (bytes, scalars)
  }

}
