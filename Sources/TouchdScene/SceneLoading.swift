import Foundation
import Yams

extension Scene {
  /// Parses and validates a scene. Every problem in the file is reported at once, sorted by position.
  /// - Parameter file: the name diagnostics use for the file.
  public static func parse(_ yaml: String, file: String = "scene.yaml") throws(SceneError) -> Scene {
    let root: Node
    do {
      guard let node = try Yams.compose(yaml: yaml) else {
        throw SceneError(diagnostics: [
          SceneDiagnostic(file: file, line: 1, column: 1, message: "the scene is empty")
        ])
      }
      root = node
    } catch let error as SceneError {
      throw error
    } catch {
      throw SceneError(diagnostics: [syntaxDiagnostic(error, file: file)])
    }
    var validator = SceneValidator(file: file)
    validator.validate(root)
    guard validator.diagnostics.isEmpty else { throw SceneError(diagnostics: validator.diagnostics) }
    do {
      return try YAMLDecoder().decode(Scene.self, from: root)
    } catch {
      let mark = root.mark
      throw SceneError(diagnostics: [
        SceneDiagnostic(
          file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, message: "cannot decode the scene: \(error)")
      ])
    }
  }

  /// Reads, parses and validates the scene file at `path`; diagnostics name the file as given.
  public static func load(path: String) throws(SceneError) -> Scene {
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw SceneError(diagnostics: [
        SceneDiagnostic(file: path, line: 0, column: 0, message: "cannot read the file: \(error.localizedDescription)")
      ])
    }
    return try parse(text, file: path)
  }

  private static func syntaxDiagnostic(_ error: Error, file: String) -> SceneDiagnostic {
    guard let yamlError = error as? YamlError else {
      return SceneDiagnostic(file: file, line: 1, column: 1, message: "YAML syntax error: \(error)")
    }
    switch yamlError {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let detail = context.map { "\(problem) \($0.text)" } ?? problem
      return SceneDiagnostic(
        file: file, line: mark.line, column: mark.column, message: "YAML syntax error: \(detail)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return SceneDiagnostic(
        file: file, line: context.mark.line, column: context.mark.column, key: duplicates.first,
        message: "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping")
    case .reader(let problem, let offset, _, let yaml):
      var line = 1
      var column = 1
      if let offset {
        for ch in yaml.prefix(offset) {
          if ch == "\n" {
            line += 1
            column = 1
          } else {
            column += 1
          }
        }
      }
      return SceneDiagnostic(file: file, line: line, column: column, message: "YAML reader error: \(problem)")
    default:
      return SceneDiagnostic(file: file, line: 1, column: 1, message: "YAML error: \(yamlError)")
    }
  }
}

/// Walks the composed YAML tree against ``SceneFormat``, collecting every problem with its position.
struct SceneValidator {
  let file: String
  private(set) var diagnostics: [SceneDiagnostic] = []

  private struct Declared {
    var id: String
    var mark: Mark
  }
  private struct Reference {
    var from: String
    var to: String
    var key: String
    var mark: Mark
  }
  private var windowIDs: [Declared] = []
  private var viewIDs: [Declared] = []
  private var recognizerIDs: [Declared] = []
  private var references: [Reference] = []

  init(file: String) { self.file = file }

  mutating func validate(_ root: Node) {
    validateObject(root, .scene, context: "scene")
    checkDuplicates(windowIDs, kind: "window")
    checkDuplicates(viewIDs, kind: "view")
    checkDuplicates(recognizerIDs, kind: "recognizer")
    checkReferences()
  }

  // MARK: Objects

  private mutating func error(_ mark: Mark?, key: String?, _ message: String) {
    diagnostics.append(
      SceneDiagnostic(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, key: key, message: message))
  }

  private func describe(_ object: SceneObject, id: String?, recognizerType: RecognizerType? = nil) -> String {
    let name =
      object == .recognizer ? (recognizerType.map { "\($0.rawValue) recognizer" } ?? "recognizer") : object.rawValue
    return id.map { "\(name) '\($0)'" } ?? name
  }

  private mutating func validateObject(_ node: Node, _ object: SceneObject, context: String) {
    guard case .mapping(let mapping) = node else {
      error(node.mark, key: nil, "expected a mapping for the \(context), found \(describeValue(node))")
      return
    }
    var pairs: [(key: String, keyNode: Node, value: Node)] = []
    for (keyNode, value) in mapping {
      guard case .scalar(let scalar) = keyNode else {
        error(keyNode.mark, key: nil, "keys must be names in the \(context)")
        continue
      }
      pairs.append((scalar.string, keyNode, value))
    }
    let id = pairs.first { $0.key == "id" }.flatMap { pair -> String? in
      if case .scalar(let s) = pair.value, tagName(pair.value) != .null { return s.string }
      return nil
    }
    var recognizerType: RecognizerType?
    var typeKnown = true
    if object == .recognizer, let typeNode = pairs.first(where: { $0.key == "type" })?.value {
      recognizerType = typeNode.scalar.flatMap { RecognizerType(rawValue: $0.string) }
      typeKnown = recognizerType != nil
    }
    // Objects with an id are named by it; the others (size, frame, scroll, …) by where they are.
    let named: Set<SceneObject> = [.window, .view, .recognizer]
    let name = named.contains(object) ? describe(object, id: id, recognizerType: recognizerType) : context
    var keys = SceneFormat.keys(of: object)
    if let recognizerType { keys += SceneFormat.parameters(of: recognizerType) }

    for pair in pairs {
      if let spec = keys.first(where: { $0.name == pair.key }) {
        validateValue(pair.value, spec, owner: name, ownerID: id, ownerObject: object)
      } else if object == .recognizer && !typeKnown && SceneFormat.allParameterNames.contains(pair.key) {
        continue  // a parameter of some type: the unknown type is reported on its own
      } else {
        var message = "unknown key '\(pair.key)' in \(name)"
        let owners = RecognizerType.allCases.filter { type in
          SceneFormat.parameters(of: type).contains { $0.name == pair.key }
        }
        if recognizerType != nil && !owners.isEmpty {
          let list = owners.map(\.rawValue).joined(separator: ", ")
          message = "'\(pair.key)' is not a parameter of \(name) (only of \(list) recognizers)"
        }
        if let guess = closestMatch(to: pair.key, in: keys.map(\.name)) { message += " (did you mean '\(guess)'?)" }
        error(pair.keyNode.mark, key: pair.key, message)
      }
    }
    for spec in keys where spec.isRequired && !pairs.contains(where: { $0.key == spec.name }) {
      error(node.mark, key: spec.name, "missing required key '\(spec.name)' in \(name)")
    }
  }

  private mutating func validateValue(
    _ node: Node, _ spec: SceneKey, owner: String, ownerID: String?, ownerObject: SceneObject
  ) {
    let key = spec.name
    func fail(_ expected: String) {
      error(node.mark, key: key, "'\(key)' in \(owner) must be \(expected), found \(describeValue(node))")
    }
    switch spec.kind {
    case .string:
      guard let s = scalarString(node) else { return fail("a string") }
      if s.isEmpty { return fail("a non-empty string") }
      if key == "id", let mark = node.mark {
        switch ownerObject {
        case .window: windowIDs.append(Declared(id: s, mark: mark))
        case .view: viewIDs.append(Declared(id: s, mark: mark))
        case .recognizer: recognizerIDs.append(Declared(id: s, mark: mark))
        default: break
        }
      }
    case .bool:
      guard tagName(node) == .bool else { return fail("true or false") }
    case .integer(let minimum):
      guard let i = integer(node) else { return fail("an integer") }
      if i < minimum { fail("at least \(minimum)") }
    case .number(let minimum, let maximum):
      guard let d = number(node) else { return fail("a number") }
      if let minimum, d < minimum {
        if let maximum { return fail("between \(JSONFormat.number(minimum)) and \(JSONFormat.number(maximum))") }
        return fail(minimum == 0 ? "zero or more (negative sizes are not allowed)" : "at least \(minimum)")
      }
      if let maximum, d > maximum {
        if let minimum { return fail("between \(JSONFormat.number(minimum)) and \(JSONFormat.number(maximum))") }
        return fail("at most \(JSONFormat.number(maximum))")
      }
    case .positiveNumber:
      guard let d = number(node) else { return fail("a number") }
      if d <= 0 { fail("greater than 0") }
    case .stringList, .idList:
      guard case .sequence(let items) = node else { return fail("a list of strings") }
      for item in items {
        guard let s = scalarString(item), !s.isEmpty else {
          error(item.mark, key: key, "'\(key)' in \(owner) must list strings, found \(describeValue(item))")
          continue
        }
        if spec.kind == .idList, let ownerID, let mark = item.mark {
          references.append(Reference(from: ownerID, to: s, key: key, mark: mark))
        }
      }
    case .options(let names):
      let items: [Node]
      if case .sequence(let seq) = node {
        items = Array(seq)
        if items.isEmpty { return fail("one of \(names.joined(separator: ", ")) or a non-empty list of them") }
      } else {
        items = [node]
      }
      for item in items {
        guard let s = scalarString(item), names.contains(s) else {
          var message =
            "'\(key)' in \(owner) must be one of \(names.joined(separator: ", ")) (or a list of them), found \(describeValue(item))"
          if let s = scalarString(item), let guess = closestMatch(to: s, in: names) {
            message += " (did you mean '\(guess)'?)"
          }
          error(item.mark, key: key, message)
          continue
        }
      }
    case .version:
      guard let v = integer(node) else { return fail("an integer") }
      if v != SceneFormat.version {
        error(node.mark, key: key, "unsupported scene version \(v) (this touchd reads version \(SceneFormat.version))")
      }
    case .rotation:
      guard let r = integer(node), [0, 90, 180, 270].contains(r) else { return fail("0, 90, 180 or 270") }
    case .calibration:
      guard case .sequence(let items) = node, items.count == 6, items.allSatisfy({ number($0) != nil }) else {
        return fail("a list of 6 numbers (a 2x3 matrix)")
      }
    case .object(let object):
      validateObject(node, object, context: "\(key) of \(owner)")
    case .list(let object):
      guard case .sequence(let items) = node else { return fail("a list") }
      for item in items { validateObject(item, object, context: object.rawValue) }
    case .decelerationRate:
      let names = Scene.Scroll.decelerationRates.sorted { $0.value > $1.value }.map(\.key)
      let expected = "\(names.joined(separator: ", ")) or a number between 0 and 1 (both excluded)"
      if let d = number(node) {
        if !(d > 0 && d < 1) { fail(expected) }
      } else if let s = scalarString(node), tagName(node) == .str {
        guard Scene.Scroll.decelerationRates[s] == nil else { return }
        var message = "'\(key)' in \(owner) must be \(expected), found \(describeValue(node))"
        if let guess = closestMatch(to: s, in: names) { message += " (did you mean '\(guess)'?)" }
        error(node.mark, key: key, message)
      } else {
        fail(expected)
      }
    case .recognizerType:
      let names = RecognizerType.allCases.map(\.rawValue)
      guard let s = scalarString(node), RecognizerType(rawValue: s) != nil else {
        var message = "unknown recognizer type \(describeValue(node)) in \(owner)"
        if let s = scalarString(node), let guess = closestMatch(to: s, in: names) {
          message += " (did you mean '\(guess)'?)"
        } else {
          message += " (expected one of \(names.joined(separator: ", ")))"
        }
        return error(node.mark, key: key, message)
      }
    }
  }

  // MARK: Scene-wide checks

  private mutating func checkDuplicates(_ declared: [Declared], kind: String) {
    var first: [String: Mark] = [:]
    for d in declared {
      if let earlier = first[d.id] {
        error(d.mark, key: "id", "duplicate \(kind) id '\(d.id)' (first defined at \(earlier.line):\(earlier.column))")
      } else {
        first[d.id] = d.mark
      }
    }
  }

  private mutating func checkReferences() {
    let known = Set(recognizerIDs.map(\.id))
    var edges: [String: [Reference]] = [:]
    for ref in references {
      guard known.contains(ref.to) else {
        var message = "'\(ref.key)' in recognizer '\(ref.from)' names unknown recognizer '\(ref.to)'"
        if let guess = closestMatch(to: ref.to, in: recognizerIDs.map(\.id)) {
          message += " (did you mean '\(guess)'?)"
        }
        error(ref.mark, key: ref.key, message)
        continue
      }
      if ref.key == "requireToFail" { edges[ref.from, default: []].append(ref) }
    }
    // Each cycle is reported once, at the reference that closes it from its smallest id.
    var reported = Set<[String]>()
    for start in recognizerIDs.map(\.id).sorted() {
      var path: [Reference] = []
      var onPath: Set<String> = [start]
      func search(_ id: String) {
        for edge in edges[id] ?? [] {
          if edge.to == start {
            let cycle = [start] + path.map(\.to)
            if cycle.min() == start && reported.insert(cycle).inserted {
              let names = (cycle + [start]).map { "'\($0)'" }.joined(separator: " -> ")
              let first = path.first ?? edge
              error(first.mark, key: "requireToFail", "requireToFail cycle: \(names)")
            }
          } else if !onPath.contains(edge.to) && edge.to > start {
            onPath.insert(edge.to)
            path.append(edge)
            search(edge.to)
            path.removeLast()
            onPath.remove(edge.to)
          }
        }
      }
      search(start)
    }
  }

  // MARK: Scalars

  private func scalarString(_ node: Node) -> String? {
    guard case .scalar(let s) = node, tagName(node) != .null else { return nil }
    return s.string
  }

  /// The resolved tag of a node (`int`, `float`, `str`, `null`, …).
  private func tagName(_ node: Node) -> Tag.Name { Tag.Name(rawValue: node.tag.description) }

  private func integer(_ node: Node) -> Int? {
    guard case .scalar = node, tagName(node) == .int else { return nil }
    return node.int
  }

  /// A finite number (YAML's `.inf` and `.nan` are not numbers a scene can use, nor JSON's).
  private func number(_ node: Node) -> Double? {
    guard case .scalar = node, tagName(node) == .int || tagName(node) == .float else { return nil }
    return (node.float ?? node.int.map(Double.init)).flatMap { $0.isFinite ? $0 : nil }
  }

  private func describeValue(_ node: Node) -> String {
    switch node {
    case .scalar(let s):
      if tagName(node) == .null { return "nothing" }
      if tagName(node) == .str { return "'\(s.string)'" }
      return s.string
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .alias: return "an alias"
    }
  }
}
