import Foundation
import TouchdInput
import Yams

extension Scene {
  /// Parses and validates a scene. Every problem in the file is reported at once, sorted by position.
  /// - Parameter file: the name diagnostics use for the file.
  public static func parse(_ yaml: String, file: String = "scene.yaml") throws(SceneError) -> Scene {
    let root = try validatedNode(yaml, file: file)
    do {
      return try YAMLDecoder().decode(Scene.self, from: root)
    } catch {
      throw decodingFailure(error, root: root, file: file)
    }
  }

  private static func decodingFailure(_ error: Error, root: Node, file: String) -> SceneError {
    let mark = root.mark
    return SceneError(diagnostics: [
      SceneDiagnostic(
        file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, message: "cannot decode the scene: \(error)")
    ])
  }

  /// The scene's YAML tree once it has passed the validator: what ``parse(_:file:)`` decodes.
  static func validatedNode(_ yaml: String, file: String) throws(SceneError) -> Node {
    // Before Yams composes the text: aliases that multiply it would take it (hashing keys) and the
    // validator (walking the tree) time exponential in the size of the file.
    if let alias = YAMLAliases.firstExcessiveAlias(in: yaml) {
      throw SceneError(diagnostics: [
        SceneDiagnostic(
          file: file, line: alias.line, column: alias.column,
          message: "aliases expand the scene to \(alias.nodes) YAML nodes at this one, more than twice those written "
            + "out: anchors and aliases must not multiply the file")
      ])
    }
    let root: Node
    do {
      // No tag-resolving regular expressions: plain scalars are resolved by `YAMLTags`.
      guard let node = try Yams.compose(yaml: yaml, .basic) else {
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
    validator.validate(SceneNode(root))
    guard validator.diagnostics.isEmpty else {
      // libyaml places an empty document's null (`---` alone) on the line after a last line
      // without a line break: every place is clamped to the text, as syntax errors' are.
      let end = YAMLPosition.end(of: yaml)
      throw SceneError(
        diagnostics: validator.diagnostics.map { diagnostic in
          var d = diagnostic
          (d.line, d.column) = YAMLPosition.clamped(line: d.line, column: d.column, toEnd: end)
          return d
        })
    }
    return root
  }

  /// The largest scene touchd reads: 256 KiB, 38 times the largest example scene, room for about
  /// 2,000 views with a recognizer each. Parsing and validating a scene that large takes about
  /// 0.7 s (release build), time a reload holds the pipeline; 1 MiB took 2.8 s. A file
  /// (`touchd --scene`, `reload`, SIGHUP) or a scene pushed by a client that is larger is refused
  /// before it is parsed.
  public static let maximumFileBytes = 256 * 1024

  /// Reads, parses and validates the scene file at `path`; diagnostics name the file as given. A
  /// file larger than `maximumBytes` is refused unparsed (`the file is N bytes, more than the limit
  /// of M bytes`), and at most `maximumBytes + 1` bytes are ever read.
  public static func load(path: String, maximumBytes: Int = maximumFileBytes) throws(SceneError) -> Scene {
    try parse(try readText(path: path, maximumBytes: maximumBytes), file: path)
  }

  /// ``load(path:maximumBytes:)`` with the file's tree as JSON: what `update` edits (Updates/).
  public static func loadDocument(path: String, maximumBytes: Int = maximumFileBytes) throws(SceneError)
    -> SceneDocument
  {
    try parseDocument(try readText(path: path, maximumBytes: maximumBytes), file: path)
  }

  /// ``parse(_:file:)`` with the YAML tree as JSON: what `update` edits (Updates/).
  public static func parseDocument(_ yaml: String, file: String = "scene.yaml") throws(SceneError) -> SceneDocument {
    let root = try validatedNode(yaml, file: file)
    do {
      return SceneDocument(scene: try YAMLDecoder().decode(Scene.self, from: root), json: SceneDocument.json(of: root))
    } catch {
      throw decodingFailure(error, root: root, file: file)
    }
  }

  /// The text of the scene file at `path`, read as ``load(path:maximumBytes:)`` says.
  private static func readText(path: String, maximumBytes: Int) throws(SceneError) -> String {
    func failure(_ message: String) -> SceneError {
      SceneError(diagnostics: [SceneDiagnostic(file: path, line: 0, column: 0, message: message)])
    }
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
    } catch {
      throw failure("cannot read the file: \(error.localizedDescription)")
    }
    guard data.count <= maximumBytes else {
      // The size, when the file has one (a device or a pipe that keeps giving bytes has none).
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 }
        .flatMap { $0 > maximumBytes ? $0 : nil }
      throw failure(
        "the file is \(size.map { "\($0) bytes, " } ?? "")more than the limit of \(maximumBytes) bytes for a scene")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw failure("cannot read the file: it is not UTF-8 text")
    }
    return text
  }

  /// Keys that occur twice in one mapping (`duplicates`, sorted), placed at the first of the first.
  static func duplicateKeysDiagnostic(_ duplicates: [String], line: Int, column: Int, file: String)
    -> SceneDiagnostic
  {
    SceneDiagnostic(
      file: file, line: line, column: column, key: duplicates.first,
      message: "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping")
  }

  private static func syntaxDiagnostic(_ error: Error, file: String) -> SceneDiagnostic {
    guard let yamlError = error as? YamlError else {
      return SceneDiagnostic(file: file, line: 1, column: 1, message: "YAML syntax error: \(error)")
    }
    switch yamlError {
    case .scanner(let context, let problem, let mark, let yaml), .parser(let context, let problem, let mark, let yaml),
      .composer(let context, let problem, let mark, let yaml):
      let detail = context.map { "\(problem) \($0.text)" } ?? problem
      // An error at the end of a text without a final newline is at the end of its last line.
      let (line, column) = YAMLPosition.clamped(line: mark.line, column: mark.column, in: yaml)
      return SceneDiagnostic(file: file, line: line, column: column, message: "YAML syntax error: \(detail)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return duplicateKeysDiagnostic(duplicates, line: context.mark.line, column: context.mark.column, file: file)
    case .reader(let problem, let offset, _, let yaml):
      // Lines end as libyaml ends them (`\r\n`, `\r`…), columns count Unicode scalars.
      let (line, column) = offset.map { YAMLPosition.position(ofCharacter: $0, in: yaml) } ?? (1, 1)
      return SceneDiagnostic(file: file, line: line, column: column, message: "YAML reader error: \(problem)")
    default:
      return SceneDiagnostic(file: file, line: 1, column: 1, message: "YAML error: \(yamlError)")
    }
  }
}

/// Walks a scene's tree (``SceneNode``: a file's YAML or a pushed scene's JSON) against
/// ``SceneFormat``, collecting every problem with its position.
struct SceneValidator {
  let file: String
  private(set) var diagnostics: [SceneDiagnostic] = []

  private struct Declared {
    var id: String
    var place: SceneNode.Place
  }
  private struct Reference {
    var from: String
    var to: String
    var key: String
    var place: SceneNode.Place
  }
  /// A press type a recognizer allows (`allowedPressTypes`) that is not one of UIKit's.
  private struct PressTypeUse {
    var type: String
    var key: String
    var owner: String
    var place: SceneNode.Place
  }
  /// What the window-wide checks need of one window: its views, the press types its keys make,
  /// the press types its recognizers allow and its first responder.
  private struct WindowScope {
    var id: String?
    var viewIDs: [String] = []
    var pressTypesMade: [String] = []
    var pressTypeUses: [PressTypeUse] = []
    var firstResponder: Declared?
  }
  private var windowIDs: [Declared] = []
  private var viewIDs: [Declared] = []
  private var recognizerIDs: [Declared] = []
  private var references: [Reference] = []
  /// One per window, in file order; the last is the window being validated.
  private var windows: [WindowScope] = []

  init(file: String) { self.file = file }

  /// The deepest views may nest: every stage after the validator (decoding, building the runtime,
  /// hit-testing, rendering) walks the view tree recursively, and the validator itself does.
  /// Nesting beyond it is an error at the first view too deep (and nothing within it is checked).
  static let maximumViewDepth = 32
  private var viewDepth = 0

  /// How many diagnostics get a `did you mean` suggestion: each compares a name with every
  /// candidate, so the suggestions for a hostile scene of thousands of misspelt names among
  /// thousands of ids would take time quadratic in its size. Later diagnostics go without.
  static let maximumSuggestions = 100
  private final class SuggestionBudget {
    var remaining = SceneValidator.maximumSuggestions
  }
  private let suggestions = SuggestionBudget()

  /// ``closestMatch(to:in:)`` while the suggestion budget lasts, nil after it.
  private func suggestion(for name: String, in candidates: [String]) -> String? {
    guard suggestions.remaining > 0 else { return nil }
    suggestions.remaining -= 1
    return closestMatch(to: name, in: candidates)
  }

  mutating func validate(_ root: SceneNode) {
    validateObject(root, .scene, context: "scene")
    checkDuplicates(windowIDs, kind: "window")
    checkDuplicates(viewIDs, kind: "view")
    checkDuplicates(recognizerIDs, kind: "recognizer")
    checkReferences()
    checkWindows()
  }

  // MARK: Objects

  private mutating func error(_ place: SceneNode.Place, key: String?, _ message: String) {
    diagnostics.append(
      SceneDiagnostic(file: file, line: place.line, column: place.column, key: key, message: message))
  }

  private func describe(_ object: SceneObject, id: String?, recognizerType: RecognizerType? = nil) -> String {
    let name =
      object == .recognizer ? (recognizerType.map { "\($0.rawValue) recognizer" } ?? "recognizer") : object.rawValue
    return id.map { "\(name) '\($0)'" } ?? name
  }

  private mutating func validateObject(_ node: SceneNode, _ object: SceneObject, context: String) {
    if object == .view {
      // Everything that follows walks the view tree recursively, the validator first.
      guard viewDepth < SceneValidator.maximumViewDepth else {
        error(
          node.place, key: nil,
          "views nested more than \(SceneValidator.maximumViewDepth) deep (a view within a view within …)")
        return
      }
      viewDepth += 1
    }
    defer { if object == .view { viewDepth -= 1 } }
    guard case .mapping(let mapping) = node.content else {
      error(node.place, key: nil, "expected a mapping for the \(context), found \(describeValue(node))")
      return
    }
    var pairs: [(key: String, keyNode: SceneNode, value: SceneNode)] = []
    pairs.reserveCapacity(mapping.count)
    for entry in mapping {
      let keyNode = entry.key
      guard case .scalar(let scalar) = keyNode.content else {
        error(keyNode.place, key: nil, "keys must be names in the \(context)")
        continue
      }
      // The decoder finds a key as Yams looks a name up (`Node.Mapping.subscript(string:)`), as a
      // plain scalar: a key with a tag (`!!float x`), or quoted where the plain text is no string
      // (`"on"`, which plain is a boolean), is not found by its name (``SceneNode/Pair/keyIsName``).
      guard keyIsName(entry, in: "the \(context)", key: scalar.string) else { continue }
      pairs.append((scalar.string, keyNode, entry.value))
    }
    let id = pairs.first { $0.key == "id" }?.value.string
    var recognizerType: RecognizerType?
    var typeKnown = true
    if object == .recognizer, let typeNode = pairs.first(where: { $0.key == "type" })?.value {
      recognizerType = typeNode.scalar.flatMap { RecognizerType(rawValue: $0.string) }
      typeKnown = recognizerType != nil
    }
    // A control's properties depend on its type; without a known type they are not checked (the
    // missing or unknown type is reported on its own).
    var controlType: Scene.Control.Kind?
    if object == .control {
      controlType = pairs.first { $0.key == "type" }?.value.scalar.flatMap { Scene.Control.Kind(rawValue: $0.string) }
      typeKnown = controlType != nil
    }
    if object == .window { windows.append(WindowScope(id: id)) }
    // Objects with an id are named by it; the others (size, frame, scroll, …) by where they are.
    let isNamed = object == .window || object == .view || object == .recognizer
    let name = isNamed ? describe(object, id: id, recognizerType: recognizerType) : context
    var keys = SceneFormat.keys(of: object)
    if let recognizerType { keys += SceneFormat.parameters(of: recognizerType) }
    if let controlType { keys += SceneFormat.properties(of: controlType) }

    for pair in pairs {
      if let spec = keys.first(where: { $0.name == pair.key }) {
        validateValue(pair.value, spec, owner: name, ownerID: id, ownerObject: object)
      } else if object == .recognizer && !typeKnown && SceneFormat.allParameterNames.contains(pair.key) {
        continue  // a parameter of some type: the unknown type is reported on its own
      } else if object == .control && !typeKnown && SceneFormat.allControlPropertyNames.contains(pair.key) {
        continue  // a property of some control type: the missing or unknown type is reported on its own
      } else {
        var message = "unknown key '\(pair.key)' in \(name)"
        let owners = RecognizerType.allCases.filter { type in
          SceneFormat.parameters(of: type).contains { $0.name == pair.key }
        }
        if recognizerType != nil && !owners.isEmpty {
          let list = owners.map(\.rawValue).joined(separator: ", ")
          message = "'\(pair.key)' is not a parameter of \(name) (only of \(list) recognizers)"
        }
        let controlOwners = Scene.Control.Kind.allCases.filter { type in
          SceneFormat.properties(of: type).contains { $0.name == pair.key }
        }
        if let controlType, !controlOwners.isEmpty {
          let list = listed(controlOwners.map(SceneFormat.controlTypeName))
          message =
            "'\(pair.key)' in \(name) is a \(list) property; this control is a \(SceneFormat.controlTypeName(controlType))"
        }
        if let guess = suggestion(for: pair.key, in: keys.map(\.name)) { message += " (did you mean '\(guess)'?)" }
        error(pair.keyNode.place, key: pair.key, message)
      }
    }
    for spec in keys where spec.isRequired && !pairs.contains(where: { $0.key == spec.name }) {
      error(node.place, key: spec.name, "missing required key '\(spec.name)' in \(name)")
    }
    if object == .view { checkControlView(pairs, name: name) }
    if let controlType { checkControl(pairs, controlType, name: name) }
  }

  /// `a`, `a and b`, `a, b and c`.
  private func listed(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }

  // MARK: Controls

  /// A control is neither a scroll view nor a view that handles its own touches.
  private mutating func checkControlView(_ pairs: [(key: String, keyNode: SceneNode, value: SceneNode)], name: String) {
    guard let control = pairs.first(where: { $0.key == "control" }) else { return }
    if pairs.contains(where: { $0.key == "scroll" }) {
      error(
        control.keyNode.place, key: "control",
        "'control' in \(name) is not allowed with 'scroll': a view is either a control or a scroll view")
    }
    if let touches = pairs.first(where: { $0.key == "touches" }), touches.value.bool == true,
      touches.value.tag == .bool
    {
      error(
        touches.value.place, key: "touches",
        "'touches' in \(name) must be false: a control handles its own touches; subscribe to control messages")
    }
  }

  /// The checks between a control's values: UIKit's `minimumValue < maximumValue` (UIStepper.h:
  /// "must be less than maximumValue"), a value within them, a selected segment that exists.
  /// Values reported wrong already are not checked again.
  private mutating func checkControl(
    _ pairs: [(key: String, keyNode: SceneNode, value: SceneNode)], _ type: Scene.Control.Kind, name: String
  ) {
    func node(_ key: String) -> SceneNode? { pairs.first { $0.key == key }?.value }
    switch type {
    case .slider, .stepper:
      let minimumNode = node("minimumValue")
      let maximumNode = node("maximumValue")
      if let minimumNode, number(minimumNode) == nil { return }
      if let maximumNode, number(maximumNode) == nil { return }
      let minimum = minimumNode.flatMap(number) ?? 0
      let maximum = maximumNode.flatMap(number) ?? Scene.Control.defaultMaximum(for: type)
      guard minimum < maximum else {
        if let maximumNode {
          error(
            maximumNode.place, key: "maximumValue",
            "'maximumValue' in \(name) must be greater than minimumValue (\(JSONFormat.number(minimum))), found \(JSONFormat.number(maximum))"
          )
        } else if let minimumNode {
          error(
            minimumNode.place, key: "minimumValue",
            "'minimumValue' in \(name) must be less than maximumValue (\(JSONFormat.number(maximum)), a \(type.rawValue)'s default), found \(JSONFormat.number(minimum))"
          )
        }
        return
      }
      if let valueNode = node("value"), let value = number(valueNode), !(minimum...maximum).contains(value) {
        error(
          valueNode.place, key: "value",
          "'value' in \(name) must be within minimumValue...maximumValue (\(JSONFormat.number(minimum))...\(JSONFormat.number(maximum))), found \(JSONFormat.number(value))"
        )
      }
    case .segmented:
      guard let indexNode = node("selectedSegmentIndex"), let index = integer(indexNode), index >= 0,
        case .sequence(let segments)? = node("segments")?.content, !segments.isEmpty, index >= segments.count
      else { return }
      error(
        indexNode.place, key: "selectedSegmentIndex",
        "'selectedSegmentIndex' in \(name) must be -1 (no segment) or less than the number of segments (\(segments.count)), found \(index)"
      )
    case .button, .switch:
      break
    }
  }

  // MARK: Presses

  /// The press type `node` names, or nil after reporting why it names none. `what` names the value
  /// in the message: `'KEY_F1' in map of keys of window 'main'`.
  private mutating func pressType(_ node: SceneNode, key: String, what: String) -> String? {
    let own = "a name of letters, digits, '_' and '-' starting with a letter"
    let expected = "a press type (UIKit's \(SceneFormat.pressTypes.joined(separator: ", ")), or \(own))"
    guard let name = scalarString(node), node.tag == .str, SceneFormat.isPressType(name) else {
      error(node.place, key: key, "\(what) must be \(expected), found \(describeValue(node))")
      return nil
    }
    if !SceneFormat.pressTypes.contains(name),
      let uikit = SceneFormat.pressTypes.first(where: { $0.lowercased() == name.lowercased() })
    {
      error(
        node.place, key: key,
        "\(what) names press type '\(name)'; UIKit's is '\(uikit)' (press types are case-sensitive)")
      return nil
    }
    return name
  }

  /// The name a misspelt evdev key name most likely meant: the same name in capitals, with its
  /// `KEY_` prefix, or the closest key name.
  private func keyNameSuggestion(_ name: String) -> String? {
    let upper = name.uppercased()
    for candidate in [upper, "KEY_" + upper] where EventNames.keyCode(named: candidate) != nil { return candidate }
    return suggestion(for: name, in: SceneFormat.keyNames)
  }

  private mutating func validateValue(
    _ node: SceneNode, _ spec: SceneKey, owner: String, ownerID: String?, ownerObject: SceneObject
  ) {
    let key = spec.name
    func fail(_ expected: String) {
      error(node.place, key: key, "'\(key)' in \(owner) must be \(expected), found \(describeValue(node))")
    }
    switch spec.kind {
    case .string:
      guard let s = scalarString(node) else { return fail("a string") }
      if s.isEmpty { return fail("a non-empty string") }
      if ownerObject == .forward, key == "name", s.utf8.count > VirtualTouchscreen.maximumNameBytes {
        return fail("at most \(VirtualTouchscreen.maximumNameBytes) bytes long (a uinput device's name)")
      }
      if key == "id" {
        let place = node.place
        switch ownerObject {
        case .window: windowIDs.append(Declared(id: s, place: place))
        case .view:
          viewIDs.append(Declared(id: s, place: place))
          if !windows.isEmpty { windows[windows.count - 1].viewIDs.append(s) }
        case .recognizer: recognizerIDs.append(Declared(id: s, place: place))
        default: break
        }
      }
    case .bool:
      guard node.tag == .bool else { return fail("true or false") }
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
      guard case .sequence(let items) = node.content else { return fail("a list of strings") }
      for item in items {
        guard let s = scalarString(item), !s.isEmpty else {
          error(item.place, key: key, "'\(key)' in \(owner) must list strings, found \(describeValue(item))")
          continue
        }
        if spec.kind == .idList, let ownerID {
          references.append(Reference(from: ownerID, to: s, key: key, place: item.place))
        }
      }
    case .options(let names):
      let items: [SceneNode]
      if case .sequence(let seq) = node.content {
        items = Array(seq)
        if items.isEmpty { return fail("one of \(names.joined(separator: ", ")) or a non-empty list of them") }
      } else {
        items = [node]
      }
      for item in items {
        guard let s = scalarString(item), names.contains(s) else {
          var message =
            "'\(key)' in \(owner) must be one of \(names.joined(separator: ", ")) (or a list of them), found \(describeValue(item))"
          if let s = scalarString(item), let guess = suggestion(for: s, in: names) {
            message += " (did you mean '\(guess)'?)"
          }
          error(item.place, key: key, message)
          continue
        }
      }
    case .choice(let names):
      guard let s = scalarString(node), names.contains(s) else {
        var message =
          "'\(key)' in \(owner) must be one of \(names.joined(separator: ", ")), found \(describeValue(node))"
        if let s = scalarString(node), let guess = suggestion(for: s, in: names) {
          message += " (did you mean '\(guess)'?)"
        }
        return error(node.place, key: key, message)
      }
    case .version:
      guard let v = integer(node) else { return fail("an integer") }
      if v != SceneFormat.version {
        error(node.place, key: key, "unsupported scene version \(v) (this touchd reads version \(SceneFormat.version))")
      }
    case .rotation:
      guard let r = integer(node), [0, 90, 180, 270].contains(r) else { return fail("0, 90, 180 or 270") }
    case .calibration:
      guard case .sequence(let items) = node.content, items.count == 6, items.allSatisfy({ number($0) != nil }) else {
        return fail("a list of 6 numbers (a 2x3 matrix)")
      }
    case .object(let object):
      validateObject(node, object, context: "\(key) of \(owner)")
    case .list(let object):
      guard case .sequence(let items) = node.content else { return fail("a list") }
      for item in items { validateObject(item, object, context: object.rawValue) }
    case .decelerationRate:
      let names = Scene.Scroll.decelerationRates.sorted { $0.value > $1.value }.map(\.key)
      let expected = "\(names.joined(separator: ", ")) or a number between 0 and 1 (both excluded)"
      if let d = number(node) {
        if !(d > 0 && d < 1) { fail(expected) }
      } else if let s = scalarString(node), node.tag == .str {
        guard Scene.Scroll.decelerationRates[s] == nil else { return }
        var message = "'\(key)' in \(owner) must be \(expected), found \(describeValue(node))"
        if let guess = suggestion(for: s, in: names) { message += " (did you mean '\(guess)'?)" }
        error(node.place, key: key, message)
      } else {
        fail(expected)
      }
    case .controlType:
      let names = Scene.Control.Kind.allCases.map(\.rawValue)
      guard let s = scalarString(node), Scene.Control.Kind(rawValue: s) != nil else {
        var message = "unknown control type \(describeValue(node)) in \(owner)"
        if let s = scalarString(node), let guess = suggestion(for: s, in: names) {
          message += " (did you mean '\(guess)'?)"
        } else {
          message += " (expected one of \(names.joined(separator: ", ")))"
        }
        return error(node.place, key: key, message)
      }
    case .nonEmptyStringList:
      guard case .sequence(let items) = node.content else { return fail("a non-empty list of strings") }
      if items.isEmpty {
        return error(
          node.place, key: key, "'\(key)' in \(owner) must be a non-empty list of strings, found an empty list")
      }
      for item in items where scalarString(item).map(\.isEmpty) ?? true {
        error(item.place, key: key, "'\(key)' in \(owner) must list non-empty strings, found \(describeValue(item))")
      }
    case .controlActions:
      guard case .mapping(let mapping) = node.content else {
        return fail("a mapping of control events to action names")
      }
      for entry in mapping {
        let (eventNode, actionNode) = (entry.key, entry.value)
        guard keyIsName(entry, in: "\(key) of \(owner)", key: nil) else { continue }
        guard let event = scalarString(eventNode), SceneFormat.controlEvents.contains(event) else {
          var message = "unknown control event \(describeValue(eventNode)) in \(key) of \(owner)"
          if let s = scalarString(eventNode), let guess = suggestion(for: s, in: SceneFormat.controlEvents) {
            message += " (did you mean '\(guess)'?)"
          } else {
            message += " (expected one of \(SceneFormat.controlEvents.joined(separator: ", ")))"
          }
          error(eventNode.place, key: key, message)
          continue
        }
        if scalarString(actionNode).map(\.isEmpty) ?? true {
          error(
            actionNode.place, key: key,
            "'\(event)' in \(key) of \(owner) must be an action name (a non-empty string), found \(describeValue(actionNode))"
          )
        }
      }
    case .keyMap:
      guard case .mapping(let mapping) = node.content else {
        return fail("a mapping of evdev key names to press types")
      }
      var seen: [UInt16: String] = [:]
      for entry in mapping {
        let (keyNode, typeNode) = (entry.key, entry.value)
        guard keyIsName(entry, in: "\(key) of \(owner)", key: nil) else { continue }
        let keyName = scalarString(keyNode) ?? ""
        let what = "'\(keyName)' in \(key) of \(owner)"
        if let code = EventNames.keyCode(named: keyName) {
          if EventNames.isPointerCode(code) {
            error(keyNode.place, key: key, "\(what) is a touch/pointer code, never a press")
          } else if let other = seen[code] {
            error(keyNode.place, key: key, "\(what) is the same key as '\(other)' (code \(code))")
          } else {
            seen[code] = keyName
          }
        } else {
          var message = "unknown evdev key name \(describeValue(keyNode)) in \(key) of \(owner)"
          if !keyName.isEmpty, let guess = keyNameSuggestion(keyName) { message += " (did you mean '\(guess)'?)" }
          error(keyNode.place, key: key, message)
        }
        if let type = pressType(typeNode, key: key, what: what), !windows.isEmpty {
          windows[windows.count - 1].pressTypesMade.append(type)
        }
      }
    case .pressTypes:
      let items: [SceneNode]
      if case .sequence(let sequence) = node.content { items = Array(sequence) } else { items = [node] }
      for item in items {
        guard let type = pressType(item, key: key, what: "'\(key)' in \(owner)"),
          !SceneFormat.pressTypes.contains(type), !windows.isEmpty
        else { continue }
        windows[windows.count - 1].pressTypeUses.append(
          PressTypeUse(type: type, key: key, owner: owner, place: item.place))
      }
    case .viewID:
      guard let s = scalarString(node), !s.isEmpty else { return fail("a view id") }
      if !windows.isEmpty {
        windows[windows.count - 1].firstResponder = Declared(id: s, place: node.place)
      }
    case .recognizerType:
      let names = RecognizerType.allCases.map(\.rawValue)
      guard let s = scalarString(node), RecognizerType(rawValue: s) != nil else {
        var message = "unknown recognizer type \(describeValue(node)) in \(owner)"
        if let s = scalarString(node), let guess = suggestion(for: s, in: names) {
          message += " (did you mean '\(guess)'?)"
        } else {
          message += " (expected one of \(names.joined(separator: ", ")))"
        }
        return error(node.place, key: key, message)
      }
    }
  }

  /// Whether a key is found by its name, as the decoder looks it up (``SceneNode/Pair/keyIsName``),
  /// in an object or in a mapping decoded as a dictionary (a window's `keys.map`, a control's
  /// `actions`); when not (a key with a tag of its own, `!!float KEY_F1`), the error names it at its
  /// place. `key`: the diagnostic's key.
  private mutating func keyIsName(_ entry: SceneNode.Pair, in context: String, key: String?) -> Bool {
    guard !entry.keyIsName else { return true }
    let name = scalarString(entry.key) ?? ""
    error(
      entry.key.place, key: key,
      "key '\(name)' in \(context) is not the name \(name) to YAML: write it plain, without quotes or a tag")
    return false
  }

  // MARK: Scene-wide checks

  private mutating func checkDuplicates(_ declared: [Declared], kind: String) {
    var first: [String: SceneNode.Place] = [:]
    for d in declared {
      if let earlier = first[d.id] {
        error(d.place, key: "id", "duplicate \(kind) id '\(d.id)' (first defined at \(earlier.line):\(earlier.column))")
      } else {
        first[d.id] = d.place
      }
    }
  }

  private mutating func checkReferences() {
    let known = Set(recognizerIDs.map(\.id))
    var edges: [String: [Reference]] = [:]
    for ref in references {
      guard known.contains(ref.to) else {
        var message = "'\(ref.key)' in recognizer '\(ref.from)' names unknown recognizer '\(ref.to)'"
        if let guess = suggestion(for: ref.to, in: recognizerIDs.map(\.id)) {
          message += " (did you mean '\(guess)'?)"
        }
        error(ref.place, key: ref.key, message)
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
              error(first.place, key: "requireToFail", "requireToFail cycle: \(names)")
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

  /// Each window's first responder is one of its views, and each press type of the scene's own
  /// that its recognizers allow is one its keys make.
  private mutating func checkWindows() {
    for window in windows {
      let owner = describe(.window, id: window.id)
      if let first = window.firstResponder, !window.viewIDs.contains(first.id) {
        if let other = windows.first(where: { $0.viewIDs.contains(first.id) }) {
          error(
            first.place, key: "firstResponder",
            "'firstResponder' in \(owner) names view '\(first.id)' of \(describe(.window, id: other.id)); it must be a view of this window"
          )
        } else {
          var message = "'firstResponder' in \(owner) names unknown view '\(first.id)'"
          if let guess = suggestion(for: first.id, in: window.viewIDs) { message += " (did you mean '\(guess)'?)" }
          error(first.place, key: "firstResponder", message)
        }
      }
      for use in window.pressTypeUses where !window.pressTypesMade.contains(use.type) {
        var message =
          "'\(use.key)' in \(use.owner) names press type '\(use.type)', which no key in the keys map of \(owner) makes"
        if let guess = suggestion(for: use.type, in: SceneFormat.pressTypes + window.pressTypesMade) {
          message += " (did you mean '\(guess)'?)"
        }
        error(use.place, key: use.key, message)
      }
    }
  }

  // MARK: Scalars

  private func scalarString(_ node: SceneNode) -> String? { node.string }

  private func integer(_ node: SceneNode) -> Int? {
    guard node.tag == .int else { return nil }
    return node.int
  }

  /// A finite number (YAML's `.inf` and `.nan` are not numbers a scene can use, nor JSON's), read
  /// as the decoder reads a `Double`.
  private func number(_ node: SceneNode) -> Double? {
    guard let scalar = node.scalar, scalar.tag == .int || scalar.tag == .float else { return nil }
    // Plain decimals (`12`, `-0.5`, `1e3`), nearly every number of a scene, read as Swift reads
    // them; YAML's other spellings (`1_000`, `1:30`, `0x1F`) as Yams reads a Double
    // (`Double.construct`), which is what the decoder does. Not as Yams reads an Int: an integer
    // only Int reads (`0o17`, YAML 1.2's octal) passed the validator, and the decoder refused it
    // (FuzzScene, docs/reliability.md).
    if Self.isPlainDecimal(scalar.string), let value = Double(scalar.string) { return value.isFinite ? value : nil }
    return node.float.flatMap { $0.isFinite ? $0 : nil }
  }

  /// An optional sign, digits that do not start with a 0 unless it stands alone, an optional
  /// fraction and exponent: text that YAML and Swift read as the same number.
  static func isPlainDecimal(_ text: String) -> Bool {
    var bytes = Substring(text).utf8[...]
    if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
    func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    let integer = bytes.prefix(while: isDigit)
    guard !integer.isEmpty, integer.first != UInt8(ascii: "0") || integer.count == 1 else { return false }
    bytes = bytes.dropFirst(integer.count)
    if bytes.first == UInt8(ascii: ".") {
      bytes = bytes.dropFirst()
      bytes = bytes.drop(while: isDigit)
    }
    if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
      let exponent = bytes.prefix(while: isDigit)
      guard !exponent.isEmpty else { return false }
      bytes = bytes.dropFirst(exponent.count)
    }
    return bytes.isEmpty
  }

  private func describeValue(_ node: SceneNode) -> String {
    switch node.content {
    case .scalar(let s):
      if s.tag == .null { return "nothing" }
      if s.tag == .str { return "'\(s.string)'" }
      return s.string
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .alias: return "an alias"
    }
  }
}
