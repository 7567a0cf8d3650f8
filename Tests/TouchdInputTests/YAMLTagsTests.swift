import Testing
import TouchdInput
import Yams

/// `YAMLTags` decides the tag of a plain scalar without regular expressions; it must decide what
/// Yams' `Resolver.default` decides, scalar for scalar.
@Suite struct YAMLTagsTests {
  /// What Yams decides for an untagged plain scalar.
  static func yams(_ string: String) -> Yams.Tag.Name { Resolver.default.resolveTag(of: Node(string)) }

  @Test("each rule's edge cases resolve as Yams resolves them")
  func edgeCases() {
    let cases: [(String, Yams.Tag.Name)] = [
      ("yes", .bool), ("NO", .bool), ("On", .bool), ("oFF", .str), ("y", .str), ("true", .bool), ("truE", .str),
      ("0", .int), ("-0", .int), ("+7", .int), ("00", .int), ("0_", .int), ("0o17", .int), ("0o", .str),
      ("08", .float), ("0b101", .int), ("0b", .str), ("0b2", .str), ("0x1F", .int), ("0xg", .str),
      ("1_000", .int), ("1:30", .int), ("1:60", .str), ("1:5:59", .int), ("1:", .str), ("0:30", .str),
      ("1.5", .float), ("1.", .float), ("-1.5e+3", .float), ("1e5", .float), ("1e", .str), (".5", .float),
      ("._", .float), (".", .str), (".5e3", .str), (".5e-3", .float), ("+.5", .str), ("1.5.", .str),
      (".inf", .float), ("-.Inf", .float), ("+.INF", .float), (".nan", .float), ("-.nan", .str), (".NaN", .float),
      ("1:30.5", .float), ("1:30.", .float), ("<<", .merge), ("~", .null), ("", .null), ("Null", .null),
      ("nULL", .str), ("2001-12-14", .timestamp), ("2001-12-14t21:59:43.10-05:00", .timestamp),
      ("2001-12-14 21:59:43.10 -5", .timestamp), ("2001-1-4 1:59:43Z", .timestamp), ("2001-12-14 21:59:43 ", .str),
      ("2001-12-1", .str), ("=", .value), ("==", .str), ("true\n", .bool), ("7\r\n", .int), ("7\r", .int),
      ("7\u{85}", .int), ("7\u{2028}", .int), ("7\n\n", .str), ("\n", .null), ("١", .str), ("7 ", .str),
    ]
    for (string, expected) in cases {
      #expect(Self.yams(string) == expected, "the table is wrong about \(string.debugDescription)")
      #expect(YAMLTags.implicitName(of: string) == expected, "\(string.debugDescription)")
    }
  }

  @Test("a quarter of a million generated scalars resolve as Yams resolves them")
  func generated() {
    // Scalars built from the characters the rules look at, and pieces of the words they know.
    let pieces = [
      "0", "1", "5", "6", "7", "8", "9", "_", ".", ":", "e", "E", "+", "-", "b", "o", "x", "a", "F", "T", "t", "Z",
      " ", "\t", "~", "<", "=", "inf", "nan", "NaN", "null", "yes", "on", "2001-", "12-", "14", ":59", "\n", "\r",
      "\u{85}", "é",
    ]
    var generator = SplitMix(seed: 0x5EED)
    var mismatches: [String] = []
    for _ in 0..<250_000 {
      var string = ""
      for _ in 0..<Int(generator.next() % 9) { string += pieces[Int(generator.next() % UInt64(pieces.count))] }
      if YAMLTags.implicitName(of: string) != Self.yams(string) { mismatches.append(string) }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(20).map(\.debugDescription))")
  }

  @Test("quoted, block and explicitly tagged scalars keep Yams' tags; plain ones are resolved")
  func styles() throws {
    let yaml = """
      a: 7
      b: "7"
      c: '7'
      d: !!str 7
      e: !!int "7"
      f: ! 7
      g: |
        7
      h: [1.5, yes, ~, x]
      """
    let node = try #require(try Yams.compose(yaml: yaml, .basic))
    func name(_ key: String) -> String? { node.mapping?[key].map { YAMLTags.name(of: $0).rawValue } }
    #expect(name("a") == Yams.Tag.Name.int.rawValue)
    #expect(name("b") == Yams.Tag.Name.str.rawValue)
    #expect(name("c") == Yams.Tag.Name.str.rawValue)
    #expect(name("d") == Yams.Tag.Name.str.rawValue)
    #expect(name("e") == Yams.Tag.Name.int.rawValue)
    #expect(name("f") == Yams.Tag.Name.str.rawValue)
    #expect(name("g") == Yams.Tag.Name.str.rawValue)
    #expect(name("h") == Yams.Tag.Name.seq.rawValue)
    let items = node.mapping?["h"]?.sequence.map { Array($0) } ?? []
    #expect(items.map { YAMLTags.name(of: $0) } == [.float, .bool, .null, .str])
    // The same document under Yams' own resolver gives the same tags.
    let resolved = try #require(try Yams.compose(yaml: yaml))
    for (key, value) in resolved.mapping ?? [:] {
      let basic = try #require(node.mapping?[key.string ?? ""])
      #expect(YAMLTags.name(of: basic).rawValue == value.tag.rawValue, "\(key)")
    }
  }
}
