// The scene validator: its walk over a scene's tree (each object's keys against ``SceneFormat``,
// the checks between a control's values) and the scene-wide checks once the walk is done
// (duplicate ids, references between recognizers, each window's first responder and press types).
// Each value is checked in SceneValueValidation.swift.

/// Walks a scene's tree (``SceneNode``: a file's YAML or a pushed scene's JSON) against
/// ``SceneFormat``, collecting every problem with its position.
struct SceneValidator {
  let file: String
  private(set) var diagnostics: [SceneDiagnostic] = []

  struct Declared {
    var id: String
    var place: SceneNode.Place
  }
  struct Reference {
    var from: String
    var to: String
    var key: String
    var place: SceneNode.Place
  }
  /// A press type a recognizer allows (`allowedPressTypes`) that is not one of UIKit's.
  struct PressTypeUse {
    var type: String
    var key: String
    var owner: Owner
    var place: SceneNode.Place
  }
  /// What the window-wide checks need of one window: its views, the press types its keys make,
  /// the press types its recognizers allow and its first responder.
  struct WindowScope {
    var id: String?
    var viewIDs: [String] = []
    var pressTypesMade: [String] = []
    var pressTypeUses: [PressTypeUse] = []
    var firstResponder: Declared?
  }
  var windowIDs: [Declared] = []
  var viewIDs: [Declared] = []
  var recognizerIDs: [Declared] = []
  /// `requireToFail` and `simultaneousWith`: from a recognizer to recognizers.
  var references: [Reference] = []
  /// From an object to a view: a recognizer's `zoom:` view (key `zoom`), a page control's `pages:`
  /// (key `pages`); each checked by its own scene-wide check.
  var viewReferences: [Reference] = []
  /// The scroll views that zoom (a zoomView and limits that differ), for recognizers' `zoom:`.
  var zoomingViews: [String] = []
  /// The scroll views, and those with `pagingEnabled: true`, for page controls' `pages:`.
  var scrollViews: [String] = []
  var pagingViews: [String] = []
  /// One per window, in file order; the last is the window being validated.
  var windows: [WindowScope] = []

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
  func suggestion(for name: String, in candidates: [String]) -> String? {
    guard suggestions.remaining > 0 else { return nil }
    suggestions.remaining -= 1
    return closestMatch(to: name, in: candidates)
  }

  mutating func validate(_ root: SceneNode) {
    validateObject(root, .scene, context: .kind("scene"))
    checkDuplicates(windowIDs, kind: "window")
    checkDuplicates(viewIDs, kind: "view")
    checkDuplicates(recognizerIDs, kind: "recognizer")
    checkReferences()
    checkZoomTargets()
    checkPageTargets()
    checkWindows()
  }

  // MARK: Objects

  mutating func error(_ place: SceneNode.Place, key: String?, _ message: String) {
    diagnostics.append(
      SceneDiagnostic(file: file, line: place.line, column: place.column, key: key, message: message))
  }

  /// What a message names as the owner of a key: `view 'buy'`, `tap recognizer 'double'`,
  /// `frame of view 'buy'`, `scene`. Written out only when a message is: a valid scene of thousands
  /// of objects needs none of these texts.
  // Only `key` is indirect: an indirect enum boxes every case with a payload, and the validator
  // makes an owner for every object of the scene.
  enum Owner: CustomStringConvertible {
    /// A window, view or recognizer, by its kind (a recognizer's with its type) and its id.
    case named(SceneObject, id: String?, recognizerType: RecognizerType? = nil)
    /// An object by what it is: the `scene`, or a list's item before its id is read (`view`).
    case kind(String)
    /// A nested object by its key in its owner: `frame of view 'buy'`.
    indirect case key(String, of: Owner)

    var description: String {
      switch self {
      case .named(let object, let id, let recognizerType):
        let name =
          object == .recognizer
          ? (recognizerType.map { "\($0.rawValue) recognizer" } ?? "recognizer") : object.rawValue
        return id.map { "\(name) '\($0)'" } ?? name
      case .kind(let name): return name
      case .key(let key, let owner): return "\(key) of \(owner)"
      }
    }
  }

  mutating func validateObject(_ node: SceneNode, _ object: SceneObject, context: Owner) {
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
    // The entries whose keys are found by their names: every entry of a JSON object, and of a YAML
    // mapping nearly always.
    var pairs = mapping
    if mapping.indices.contains(where: { !mapping[$0].keyIsName }) {
      pairs = []
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
        pairs.append(entry)
      }
    }
    let id = pairs.value(of: "id")?.string
    var recognizerType: RecognizerType?
    var typeKnown = true
    if object == .recognizer, let typeNode = pairs.value(of: "type") {
      recognizerType = typeNode.scalar.flatMap { RecognizerType(rawValue: $0.string) }
      typeKnown = recognizerType != nil
    }
    // A control's properties depend on its type; without a known type they are not checked (the
    // missing or unknown type is reported on its own).
    var controlType: Scene.Control.Kind?
    if object == .control {
      controlType = pairs.value(of: "type")?.scalar.flatMap { Scene.Control.Kind(rawValue: $0.string) }
      typeKnown = controlType != nil
    }
    if object == .window { windows.append(WindowScope(id: id)) }
    // Objects with an id are named by it; the others (size, frame, scroll, …) by where they are.
    let isNamed = object == .window || object == .view || object == .recognizer
    let name = isNamed ? Owner.named(object, id: id, recognizerType: recognizerType) : context
    let keys = SceneFormat.keys(of: object, recognizerType: recognizerType, controlType: controlType)

    // The required keys given, a bit each (by their place among `keys`, the first 64). Entries
    // and keys are read in place, by index: each is several references, which a loop over them
    // would retain and release for every object of the scene.
    var requiredGiven: UInt64 = 0
    var requiredCount = 0
    for k in keys.indices where keys[k].isRequired { requiredCount += 1 }
    for i in pairs.indices {
      let pairName = pairs[i].name
      let length = pairName.utf8.count
      if let spec = keys.indices.first(where: { keys[$0].name.utf8.count == length && keys[$0].name == pairName }) {
        if keys[spec].isRequired && spec < 64 { requiredGiven |= 1 << UInt64(spec) }
        validateValue(pairs[i].value, keys[spec], owner: name, ownerID: id, ownerObject: object)
      } else if object == .recognizer && !typeKnown && SceneFormat.allParameterNames.contains(pairName) {
        continue  // a parameter of some type: the unknown type is reported on its own
      } else if object == .control && !typeKnown && SceneFormat.allControlPropertyNames.contains(pairName) {
        continue  // a property of some control type: the missing or unknown type is reported on its own
      } else {
        unknownKey(pairs[i], in: name, recognizerType: recognizerType, controlType: controlType, keys: keys)
      }
    }
    // Looked for one by one only when some are missing: a valid scene has them all.
    if requiredGiven.nonzeroBitCount < requiredCount {
      for spec in keys where spec.isRequired && pairs.value(of: spec.name) == nil {
        error(node.place, key: spec.name, "missing required key '\(spec.name)' in \(name)")
      }
    }
    if object == .view {
      checkControlView(pairs, name: name)
      checkZoom(pairs, id: id, name: name)
      notePaging(pairs, id: id)
    }
    if object == .recognizer { noteZoom(pairs, id: id) }
    if object == .window, let mode = pairs.value(of: "voiceOver"), mode.tag == .str, scalarString(mode) == "headphones",
      pairs.value(of: "keys") == nil
    {
      error(
        mode.place, key: "voiceOver",
        "'voiceOver: headphones' in \(name) needs keys.devices naming the sound card's input device whose switch reports headphones (SW_HEADPHONE_INSERT); the window has no keys"
      )
    }
    if let controlType { checkControl(pairs, controlType, name: name) }
  }

  /// Reports a key `object` does not take, saying which types take it when some do, and the key
  /// it most likely meant.
  private mutating func unknownKey(
    _ pair: SceneNode.Pair, in name: Owner, recognizerType: RecognizerType?, controlType: Scene.Control.Kind?,
    keys: [SceneKey]
  ) {
    var message = "unknown key '\(pair.name)' in \(name)"
    let owners = RecognizerType.allCases.filter { type in
      SceneFormat.parameters(of: type).contains { $0.name == pair.name }
    }
    if recognizerType != nil && !owners.isEmpty {
      let list = owners.map(\.rawValue).joined(separator: ", ")
      message = "'\(pair.name)' is not a parameter of \(name) (only of \(list) recognizers)"
    }
    let controlOwners = Scene.Control.Kind.allCases.filter { type in
      SceneFormat.properties(of: type).contains { $0.name == pair.name }
    }
    if let controlType, !controlOwners.isEmpty {
      let list = listed(controlOwners.map(SceneFormat.controlTypeName))
      message =
        "'\(pair.name)' in \(name) is a \(list) property; this control is a \(SceneFormat.controlTypeName(controlType))"
    }
    if let guess = suggestion(for: pair.name, in: keys.map(\.name)) { message += " (did you mean '\(guess)'?)" }
    error(pair.key.place, key: pair.name, message)
  }

  /// `a`, `a and b`, `a, b and c`.
  private func listed(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }

  /// Whether a key is found by its name, as the decoder looks it up (``SceneNode/Pair/keyIsName``),
  /// in an object or in a mapping decoded as a dictionary (a window's `keys.map`, a control's
  /// `actions`); when not (a key with a tag of its own, `!!float KEY_F1`), the error names it at its
  /// place. `key`: the diagnostic's key.
  mutating func keyIsName(_ entry: SceneNode.Pair, in context: @autoclosure () -> String, key: String?) -> Bool {
    guard !entry.keyIsName else { return true }
    let name = scalarString(entry.key) ?? ""
    error(
      entry.key.place, key: key,
      "key '\(name)' in \(context()) is not the name \(name) to YAML: write it plain, without quotes or a tag")
    return false
  }

  // MARK: Controls

  /// A control is neither a scroll view nor a view that handles its own touches.
  private mutating func checkControlView(_ pairs: [SceneNode.Pair], name: Owner) {
    guard let control = pairs.pair(named: "control") else { return }
    if pairs.value(of: "scroll") != nil {
      error(
        control.key.place, key: "control",
        "'control' in \(name) is not allowed with 'scroll': a view is either a control or a scroll view")
    }
    if let touches = pairs.value(of: "touches"), touches.bool == true, touches.tag == .bool {
      error(
        touches.place, key: "touches",
        "'touches' in \(name) must be false: a control handles its own touches; subscribe to control messages")
    }
  }

  /// The checks between a control's values: UIKit's `minimumValue < maximumValue` (UIStepper.h:
  /// "must be less than maximumValue"), a value within them, a selected segment that exists.
  /// Values reported wrong already are not checked again.
  private mutating func checkControl(
    _ pairs: [SceneNode.Pair], _ type: Scene.Control.Kind, name: Owner
  ) {
    func node(_ key: String) -> SceneNode? { pairs.value(of: key) }
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
    case .pageControl:
      checkPageControl(pairs, name: name)
    case .button, .switch:
      break
    }
  }

  // MARK: Scene-wide checks

  private mutating func checkDuplicates(_ declared: [Declared], kind: String) {
    var first: [String: SceneNode.Place] = [:]
    first.reserveCapacity(declared.count)
    for d in declared {
      if let earlier = first[d.id] {
        error(d.place, key: "id", "duplicate \(kind) id '\(d.id)' (first defined at \(earlier.line):\(earlier.column))")
      } else {
        first[d.id] = d.place
      }
    }
  }

  private mutating func checkReferences() {
    // A list of thousands of rows with a tap each has no references: no table of ids to make.
    guard !references.isEmpty else { return }
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
    guard !edges.isEmpty else { return }
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
      let owner = Owner.named(.window, id: window.id)
      if let first = window.firstResponder, !window.viewIDs.contains(first.id) {
        if let other = windows.first(where: { $0.viewIDs.contains(first.id) }) {
          error(
            first.place, key: "firstResponder",
            "'firstResponder' in \(owner) names view '\(first.id)' of \(Owner.named(.window, id: other.id)); it must be a view of this window"
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
}
