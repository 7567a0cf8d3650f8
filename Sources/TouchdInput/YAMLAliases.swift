import CYaml  // libyaml, which Yams is built on: its event parser

/// A guard against YAML whose aliases multiply it ("billion laughs"): ten lines of anchors, each a
/// list of ten aliases of the one before, stand for 10⁸ nodes. Yams composes aliases as copies of
/// the anchored node, so the copies cost nothing to make, but anything that walks or hashes the
/// tree walks all of them: Yams itself hashes every mapping key to look for duplicates, so a
/// 560-byte scene with such a key kept `touchctl check` busy for minutes.
///
/// ``firstExcessiveAlias(in:)`` counts the nodes of each document with every alias expanded, on
/// libyaml's event stream (no tree is built), before the text is composed.
package enum YAMLAliases {
  /// The nodes aliases may add to a document beyond those written out: as many as are written, and
  /// 10,000 more (a frame reused on a thousand views adds 9,000), so a document of N written nodes
  /// stands for at most 2N + 10,000.
  package static func allowance(written: Int) -> Int { written + 10_000 }

  /// The place (1-based line and column, as Yams numbers them) of the first alias at which its
  /// document passes ``allowance(written:)``, and the number of nodes it then stands for; nil when
  /// no document does, or when the text is not YAML libyaml reads (composing it reports that).
  package static func firstExcessiveAlias(in text: String) -> (line: Int, column: Int, nodes: Int)? {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return nil }
    defer { yaml_parser_delete(&parser) }
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer -> (line: Int, column: Int, nodes: Int)? in
      yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      // The collections open around the current event: their anchors and expanded sizes so far.
      var open: [(anchor: String?, nodes: Int)] = []
      var sizes: [String: Int] = [:]  // each anchor's expanded size
      var written = 0  // nodes written out in the current document
      var expanded = 0  // nodes the current document stands for
      func add(_ nodes: Int) {
        expanded += nodes
        if !open.isEmpty { open[open.count - 1].nodes += nodes }
      }
      func name(_ anchor: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        anchor.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
      }
      while true {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
        defer { yaml_event_delete(&event) }
        switch event.type {
        case YAML_STREAM_END_EVENT:
          return nil
        case YAML_DOCUMENT_START_EVENT:
          (written, expanded) = (0, 0)
          sizes = [:]
        case YAML_SCALAR_EVENT:
          written += 1
          add(1)
          if let anchor = name(event.data.scalar.anchor) { sizes[anchor] = 1 }
        case YAML_SEQUENCE_START_EVENT:
          written += 1
          expanded += 1
          open.append((name(event.data.sequence_start.anchor), 1))
        case YAML_MAPPING_START_EVENT:
          written += 1
          expanded += 1
          open.append((name(event.data.mapping_start.anchor), 1))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
          guard let closed = open.popLast() else { return nil }
          if let anchor = closed.anchor { sizes[anchor] = closed.nodes }
          if !open.isEmpty { open[open.count - 1].nodes += closed.nodes }
        case YAML_ALIAS_EVENT:
          written += 1
          // An undefined alias is composing's error to report.
          add(name(event.data.alias.anchor).flatMap { sizes[$0] } ?? 1)
          if expanded - written > allowance(written: written) {
            let mark = event.start_mark
            return (Int(mark.line) + 1, Int(mark.column) + 1, expanded)
          }
        default:
          break
        }
      }
    }
  }
}
