import Foundation
import Testing
import TouchdProtocol
import TouchdTestKit

/// docs/protocol.md against the protocol's declarations: its command table names every command and
/// each command's every field, its "Strict types" table gives the errors the decoder gives, its
/// trace table each event's keys in the encoder's order, its scroll table the scroll message's
/// optional keys, and its examples of the session's messages read as their types and are written
/// back byte for byte. (The scroll table's phases are held to the pipeline in TouchdSceneTests'
/// ScrollPhaseTableTests.)
@Suite("docs/protocol.md matches the protocol")
struct ProtocolDocTests {
  static func document() throws -> DocTables { try DocTables("docs/protocol.md") }

  @Test("The command table names every command, and each row every field its command takes")
  func commandTable() throws {
    let rows = try Self.document().table("| cmd | fields |")
    let names = rows.map {
      $0[0].replacingOccurrences(of: "`", with: "").replacingOccurrences(of: " (window)", with: "")
    }
    #expect(Set(names) == Set(Command.names))
    #expect(names.count == Command.names.count + 1, "set has a row for a view and one for a window")
    let fields: [String: [String]] = [
      "`set`": SetViewCommand.fields, "`set` (window)": SetWindowCommand.fields,
      "`subscribe`": SubscribeCommand.fields, "`calibrate`": CalibrateCommand.fields,
      "`ignoreInteraction`": IgnoreInteractionCommand.fields, "`scene`": PushSceneCommand.fields,
      "`update`": UpdateCommand.fields, "`ping`": [], "`reload`": [], "`status`": [], "`metrics`": [],
      "`health`": [], "`announce`": AnnounceCommand.fields, "`signature`": SignatureCommand.fields,
    ]
    for row in rows {
      let declared = try #require(fields[row[0]], "a row for \(row[0])")
      for field in declared { #expect(row[1].contains("`\(field)`"), "\(row[0]) does not name its field \(field)") }
      if declared.isEmpty { #expect(row[1].isEmpty, "\(row[0]) takes no fields") }
    }
  }

  @Test("The status row names every part of the status reply and every counter")
  func statusRow() throws {
    let rows = try Self.document().table("| cmd | fields |")
    let status = try #require(rows.first { $0[0] == "`status`" })[2]
    let reply = Mirror(reflecting: StatusReply.example).children.compactMap(\.label)
    let counters = Mirror(reflecting: StatusReply.Counters()).children.compactMap(\.label)
    #expect(reply.count == 13 && counters.count == 20)
    for key in reply + counters { #expect(status.contains("`\(key)`"), "status's row does not name \(key)") }
  }

  @Test("The health row names every key of the health reply, nested ones too")
  func healthRow() throws {
    let rows = try Self.document().table("| cmd | fields |")
    let health = try #require(rows.first { $0[0] == "`health`" })[2]
    let example = HealthReply(windows: [
      .init(
        id: "main", heatmap: true, touchDowns: 1, grid: .init(columns: 1, rows: 1, counts: [1]),
        deadCells: [.init(column: 0, row: 0)], ghosts: .init(burst: 0, pinned: 0, idle: 0),
        jitter: .init(samples: 0, p95: nil),
        drift: .init(taps: 0, x: nil, y: nil, threshold: 8, minimumTaps: 50, drifted: false),
        nearMisses: [.init(view: "v", left: 1, right: 0, above: 0, below: 0)])
    ])
    var keys: Set<String> = []
    func collect(_ value: StrictJSON) {
      switch value {
      case .object(let members):
        for member in members {
          keys.insert(member.key)
          collect(member.value)
        }
      case .array(let items): items.forEach(collect)
      default: break
      }
    }
    collect(try StrictJSON.parse("{\(example.fieldsJSON)}"))
    #expect(keys.count == 32)
    for key in keys { #expect(health.contains("`\(key)`"), "health's row does not name \(key)") }
  }

  @Test("Every line of the Strict types table gets the error the table gives")
  func strictTypesTable() throws {
    let rows = try Self.document().table("| line | error message |")
    #expect(rows.count >= 18)
    for row in rows {
      // `{"cmd":"set","view":"a` + byte 0xFF + `"}`: the line is the pieces, the byte between.
      let pieces = row[0].components(separatedBy: " + byte 0xFF + ")
      var line: [UInt8] = []
      for (i, piece) in pieces.enumerated() {
        if i > 0 { line.append(0xFF) }
        line += Array(piece.dropFirst().dropLast().utf8)
      }
      let expected = String(row[1].dropFirst().dropLast())
      let message: String
      do {
        let object = try CommandObject.parse(line)
        _ = try Command.decode(object)
        message = "(no error)"
      } catch let failure as CommandObject.Failure {
        message = failure.error.message
      } catch {
        message = "\(error)"
      }
      // The table cuts long lists with "…".
      if let cut = expected.firstIndex(of: "…") {
        #expect(message.hasPrefix(expected[..<cut]), "\(row[0])")
      } else {
        #expect(message == expected, "\(row[0])")
      }
    }
  }

  /// The session's messages as the daemon writes them, one of each type.
  static let sessionExamples: [String: String] = [
    "hello": HelloMessage(
      instance: "5f0c9a3e7d21b486", windows: [.init(id: "main", width: 1920, height: 1080)], views: 12
    )
    .jsonLine,
    "reloaded": ReloadedMessage(source: "file", windows: [], views: 3).jsonLine,
    "gap": GapMessage(skipped: 4).jsonLine,
    "shutdown": ShutdownMessage().jsonLine,
    "calibration": CalibrationMessage(
      window: "main", target: 1, targets: 5, at: .init(x: 1, y: 2), touched: .init(x: 3, y: 4)
    ).jsonLine,
    "error": ReplyMessage.accessDenied.jsonLine,
    "updated": UpdatedMessage(
      .add, .view, id: "bell", parent: "main", index: 3, views: 4, recognizers: 3
    ).jsonLine,
    "windowChanged": WindowChangedMessage(
      window: "main", width: 1280, height: 720, rotation: 90, calibration: [1, 0, 0, 0, 1, 0]
    ).jsonLine,
  ]

  /// The keys of a JSON object's top level, in order, from its text (placeholders such as `N` or
  /// `[...]` in place of values are skipped over).
  static func topLevelKeys(_ text: String) -> [String] {
    var keys: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var current = ""
    var afterKeyStart = false
    for character in text {
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
        if inString { current.append(character) }
        continue
      }
      switch character {
      case "\"":
        inString = true
        afterKeyStart = depth == 1 && (keys.isEmpty && current.isEmpty || afterKeyStart)
        current = ""
      case ":":
        if depth == 1 && afterKeyStart { keys.append(current) }
        afterKeyStart = false
      case ",": afterKeyStart = depth == 1
      case "{", "[":
        depth += 1
        afterKeyStart = depth == 1
      case "}", "]": depth -= 1
      default: break
      }
    }
    return keys
  }

  @Test("The session's examples, whole or with placeholders, have the keys the protocol writes, in its order")
  func sessionExamples() throws {
    var checked: Set<String> = []
    for line in try Self.document().lines {
      // Examples in ```json blocks are whole lines; in the text, `{"type":…}` code spans.
      var examples: [String] = []
      if line.hasPrefix("{\"type\":") { examples.append(line) }
      var rest = Substring(line)
      while let open = rest.range(of: "`{\"type\":") {
        let after = rest[open.upperBound...]
        guard let close = after.firstIndex(of: "`") else { break }
        examples.append("{\"type\":" + after[..<close])
        rest = after[close...].dropFirst()
      }
      for example in examples {
        let keys = Self.topLevelKeys(example)
        guard keys.first == "type", let type = example.split(separator: "\"").dropFirst(3).first,
          let written = Self.sessionExamples[String(type)]
        else { continue }
        #expect(keys == Self.topLevelKeys(written), "\(example) against \(written)")
        // A whole example reads back as its type and is written as it was.
        if let value = try? StrictJSON.parse(example) {
          let rewritten: String? =
            switch type {
            case "hello": try StrictJSONDecoder.decode(HelloMessage.self, from: value).jsonLine
            case "shutdown": try StrictJSONDecoder.decode(ShutdownMessage.self, from: value).jsonLine
            case "gap": try StrictJSONDecoder.decode(GapMessage.self, from: value).jsonLine
            default: nil
            }
          if let rewritten { #expect(rewritten == example) }
        }
        checked.insert(String(type))
      }
    }
    #expect(checked == Set(Self.sessionExamples.keys), "\(checked)")
  }

  @Test("The trace table lists every event the protocol writes, each with its keys after `event`, in order")
  func traceTable() throws {
    var documented: [String: [String]] = [:]
    for row in try Self.document().table("| `event` | keys after `event` |") {
      let event = try #require(DocTables.codeSpans(row[0]).first)
      // `location{x,y}` is the key `location`.
      documented[event] = DocTables.codeSpans(row[1]).map { String($0.prefix { $0 != "{" }) }
    }
    var written: [String: [String]] = [:]
    for example in ProtocolSchema.examples where example.name.hasPrefix("trace-") {
      let keys = Self.topLevelKeys(example.full)
      #expect(Array(keys.prefix(3)) == ["type", "time", "event"], "\(example.full)")
      written[String(example.name.dropFirst("trace-".count))] = Array(keys.dropFirst(3))
    }
    #expect(documented == written)
    #expect(documented.count == 10)
  }

  @Test("The scroll table's extra keys are the keys only some scroll messages have")
  func scrollTableKeys() throws {
    let rows = try Self.document().table("| `phase` | when | extra keys |")
    let documented = rows.flatMap { row in
      DocTables.codeSpans(row[2]).filter { !$0.contains(" ") }.map { String($0.prefix { $0 != "{" }) }
    }
    let scroll = try #require(ProtocolSchema.examples.first { $0.name == "scroll" })
    let always = Set(Self.topLevelKeys(scroll.minimal))
    #expect(documented == Self.topLevelKeys(scroll.full).filter { !always.contains($0) })
    #expect(documented == ["velocity", "targetContentOffset", "willDecelerate", "zoomScale"])
  }

  @Test("Top-level keys are read past nested objects, arrays and placeholders")
  func keysOfTemplates() {
    #expect(
      Self.topLevelKeys(
        #"{"type":"calibration","window":ID,"at":{"x":..,"y":..},"touched":{"x":1},"list":[{"a":1}],"s":"a:b,\"c\":"}"#)
        == ["type", "window", "at", "touched", "list", "s"])
  }
}

extension StatusReply {
  /// A status with every part, for the names of its keys.
  static let example = StatusReply(
    scene: "s", windows: [], devices: [], replay: nil, touchesDown: 0,
    latency: .init(
      frames: 0, window: 0, wake: nil, assembled: nil, encoded: nil, forwarded: nil, delivered: nil, handed: nil),
    idle: nil, ignoring: 0, tracing: false, clients: 0, webSocket: nil,
    limits: .init(
      clients: 0, clientsPerUser: 0, lineBytes: 0, clientBufferBytes: 0, sceneBytes: 0, openFiles: 0,
      firstLineSeconds: 0, partialLineSeconds: 0),
    counters: .init())
}
