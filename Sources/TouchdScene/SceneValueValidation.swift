// The validator's checks of one value against its key's kind (``SceneValueKind``): a short
// dispatcher, one function per kind of value, and the scalars they read. The walk over objects and
// the scene-wide checks are in SceneValidation.swift.
import TouchdInput

extension SceneValidator {
  // MARK: Values

  /// Checks `node`, the value of `spec`'s key in `owner` (an object of kind `ownerObject`, with id
  /// `ownerID` when it has one), against the key's kind of value: one check per kind.
  mutating func validateValue(
    _ node: SceneNode, _ spec: SceneKey, owner: Owner, ownerID: String?, ownerObject: SceneObject
  ) {
    let key = spec.name
    switch spec.kind {
    case .string: validateString(node, key: key, owner: owner, ownerObject: ownerObject)
    case .bool: validateBool(node, key: key, owner: owner)
    case .integer(let minimum, let maximum):
      validateInteger(node, minimum: minimum, maximum: maximum, key: key, owner: owner)
    case .number(let minimum, let maximum):
      validateNumber(node, minimum: minimum, maximum: maximum, key: key, owner: owner)
    case .positiveNumber: validatePositiveNumber(node, key: key, owner: owner)
    case .stringList, .idList:
      validateStringList(node, key: key, owner: owner, isIDList: spec.kind == .idList, ownerID: ownerID)
    case .options(let names): validateOptions(node, names, key: key, owner: owner)
    case .choice(let names): validateChoice(node, names, key: key, owner: owner)
    case .boolOrChoice(let names):
      if node.tag != .bool { validateChoice(node, ["true", "false"] + names, key: key, owner: owner) }
    case .version: validateVersion(node, key: key, owner: owner)
    case .rotation: validateRotation(node, key: key, owner: owner)
    case .calibration: validateCalibration(node, key: key, owner: owner)
    case .object(let object): validateObject(node, object, context: .key(key, of: owner))
    case .list(let object): validateObjectList(node, object, key: key, owner: owner)
    case .decelerationRate: validateDecelerationRate(node, key: key, owner: owner)
    case .controlType: validateControlType(node, key: key, owner: owner)
    case .nonEmptyStringList: validateNonEmptyStringList(node, key: key, owner: owner)
    case .controlActions: validateControlActions(node, key: key, owner: owner)
    case .keyMap: validateKeyMap(node, key: key, owner: owner)
    case .pressTypes: validatePressTypes(node, key: key, owner: owner)
    case .viewID: validateViewID(node, key: key, owner: owner)
    case .recognizerType: validateRecognizerType(node, key: key, owner: owner)
    }
  }

  /// Reports that `node`, the value of `key` in `owner`, is not what the key takes:
  /// `'KEY' in OWNER must be EXPECTED, found VALUE`.
  private mutating func fail(_ node: SceneNode, key: String, owner: Owner, _ expected: String) {
    error(node.place, key: key, "'\(key)' in \(owner) must be \(expected), found \(describeValue(node))")
  }

  /// A non-empty string (a forwarded device's `name` no longer than uinput takes). An `id` is
  /// declared for the scene-wide checks: a window's, a view's (and its window's) or a recognizer's.
  private mutating func validateString(_ node: SceneNode, key: String, owner: Owner, ownerObject: SceneObject) {
    guard let s = scalarString(node) else { return fail(node, key: key, owner: owner, "a string") }
    if s.isEmpty { return fail(node, key: key, owner: owner, "a non-empty string") }
    if ownerObject == .forward, key == "name", s.utf8.count > VirtualTouchscreen.maximumNameBytes {
      return fail(
        node, key: key, owner: owner,
        "at most \(VirtualTouchscreen.maximumNameBytes) bytes long (a uinput device's name)")
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
  }

  /// `true` or `false`.
  private mutating func validateBool(_ node: SceneNode, key: String, owner: Owner) {
    guard node.tag == .bool else { return fail(node, key: key, owner: owner, "true or false") }
  }

  /// An integer at least `minimum`.
  private mutating func validateInteger(_ node: SceneNode, minimum: Int, maximum: Int?, key: String, owner: Owner) {
    guard let i = integer(node) else { return fail(node, key: key, owner: owner, "an integer") }
    if let maximum, i < minimum || i > maximum {
      fail(node, key: key, owner: owner, "an integer from \(minimum) to \(maximum)")
    } else if i < minimum {
      fail(node, key: key, owner: owner, "at least \(minimum)")
    }
  }

  /// A finite number within the bounds (inclusive; nil is unbounded).
  private mutating func validateNumber(
    _ node: SceneNode, minimum: Double?, maximum: Double?, key: String, owner: Owner
  ) {
    guard let d = number(node) else { return fail(node, key: key, owner: owner, "a number") }
    if let minimum, d < minimum {
      if let maximum {
        return fail(
          node, key: key, owner: owner, "between \(JSONFormat.number(minimum)) and \(JSONFormat.number(maximum))")
      }
      return fail(
        node, key: key, owner: owner,
        minimum == 0 ? "zero or more (negative sizes are not allowed)" : "at least \(minimum)")
    }
    if let maximum, d > maximum {
      if let minimum {
        return fail(
          node, key: key, owner: owner, "between \(JSONFormat.number(minimum)) and \(JSONFormat.number(maximum))")
      }
      return fail(node, key: key, owner: owner, "at most \(JSONFormat.number(maximum))")
    }
  }

  /// A finite number greater than zero.
  private mutating func validatePositiveNumber(_ node: SceneNode, key: String, owner: Owner) {
    guard let d = number(node) else { return fail(node, key: key, owner: owner, "a number") }
    if d <= 0 { fail(node, key: key, owner: owner, "greater than 0") }
  }

  /// A list of non-empty strings. Those of an id list (`isIDList`: `requireToFail`,
  /// `simultaneousWith`) are references from recognizer `ownerID`, checked once every id is known.
  private mutating func validateStringList(
    _ node: SceneNode, key: String, owner: Owner, isIDList: Bool, ownerID: String?
  ) {
    guard case .sequence(let items) = node.content else {
      return fail(node, key: key, owner: owner, "a list of strings")
    }
    for item in items {
      guard let s = scalarString(item), !s.isEmpty else {
        error(item.place, key: key, "'\(key)' in \(owner) must list strings, found \(describeValue(item))")
        continue
      }
      if isIDList, let ownerID {
        references.append(Reference(from: ownerID, to: s, key: key, place: item.place))
      }
    }
  }

  /// An option set: one of `names`, or a non-empty list of them; each wrong item is reported.
  private mutating func validateOptions(_ node: SceneNode, _ names: [String], key: String, owner: Owner) {
    let items: [SceneNode]
    if case .sequence(let seq) = node.content {
      items = Array(seq)
      if items.isEmpty {
        return fail(node, key: key, owner: owner, "one of \(names.joined(separator: ", ")) or a non-empty list of them")
      }
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
  }

  /// Exactly one of `names`.
  private mutating func validateChoice(_ node: SceneNode, _ names: [String], key: String, owner: Owner) {
    guard let s = scalarString(node), names.contains(s) else {
      var message =
        "'\(key)' in \(owner) must be one of \(names.joined(separator: ", ")), found \(describeValue(node))"
      if let s = scalarString(node), let guess = suggestion(for: s, in: names) {
        message += " (did you mean '\(guess)'?)"
      }
      return error(node.place, key: key, message)
    }
  }

  /// The format version this touchd reads (``SceneFormat/version``).
  private mutating func validateVersion(_ node: SceneNode, key: String, owner: Owner) {
    guard let v = integer(node) else { return fail(node, key: key, owner: owner, "an integer") }
    if v != SceneFormat.version {
      error(node.place, key: key, "unsupported scene version \(v) (this touchd reads version \(SceneFormat.version))")
    }
  }

  /// 0, 90, 180 or 270.
  private mutating func validateRotation(_ node: SceneNode, key: String, owner: Owner) {
    guard let r = integer(node), [0, 90, 180, 270].contains(r) else {
      return fail(node, key: key, owner: owner, "0, 90, 180 or 270")
    }
  }

  /// A 2x3 matrix: a list of six finite numbers.
  private mutating func validateCalibration(_ node: SceneNode, key: String, owner: Owner) {
    guard case .sequence(let items) = node.content, items.count == 6, items.allSatisfy({ number($0) != nil }) else {
      return fail(node, key: key, owner: owner, "a list of 6 numbers (a 2x3 matrix)")
    }
  }

  /// A list of objects of kind `object`, each walked as one.
  private mutating func validateObjectList(_ node: SceneNode, _ object: SceneObject, key: String, owner: Owner) {
    guard case .sequence(let items) = node.content else { return fail(node, key: key, owner: owner, "a list") }
    for item in items { validateObject(item, object, context: .kind(object.rawValue)) }
  }

  /// A scroll view's deceleration rate: a name of ``Scene/Scroll/decelerationRates`` or a number
  /// strictly between 0 and 1.
  private mutating func validateDecelerationRate(_ node: SceneNode, key: String, owner: Owner) {
    let names = Scene.Scroll.decelerationRates.sorted { $0.value > $1.value }.map(\.key)
    let expected = "\(names.joined(separator: ", ")) or a number between 0 and 1 (both excluded)"
    if let d = number(node) {
      if !(d > 0 && d < 1) { fail(node, key: key, owner: owner, expected) }
    } else if let s = scalarString(node), node.tag == .str {
      guard Scene.Scroll.decelerationRates[s] == nil else { return }
      var message = "'\(key)' in \(owner) must be \(expected), found \(describeValue(node))"
      if let guess = suggestion(for: s, in: names) { message += " (did you mean '\(guess)'?)" }
      error(node.place, key: key, message)
    } else {
      fail(node, key: key, owner: owner, expected)
    }
  }

  /// One of ``Scene/Control/Kind``'s names.
  private mutating func validateControlType(_ node: SceneNode, key: String, owner: Owner) {
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
  }

  /// A list of at least one non-empty string (a segmented control's titles).
  private mutating func validateNonEmptyStringList(_ node: SceneNode, key: String, owner: Owner) {
    guard case .sequence(let items) = node.content else {
      return fail(node, key: key, owner: owner, "a non-empty list of strings")
    }
    if items.isEmpty {
      return error(
        node.place, key: key, "'\(key)' in \(owner) must be a non-empty list of strings, found an empty list")
    }
    for item in items where scalarString(item).map(\.isEmpty) ?? true {
      error(item.place, key: key, "'\(key)' in \(owner) must list non-empty strings, found \(describeValue(item))")
    }
  }

  /// A control's `actions`: a mapping from control event names (``SceneFormat/controlEvents``) to
  /// action names.
  private mutating func validateControlActions(_ node: SceneNode, key: String, owner: Owner) {
    guard case .mapping(let mapping) = node.content else {
      return fail(node, key: key, owner: owner, "a mapping of control events to action names")
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
  }

  /// A view id: its window's first responder, checked to be one of the window's views once every
  /// view is known.
  private mutating func validateViewID(_ node: SceneNode, key: String, owner: Owner) {
    guard let s = scalarString(node), !s.isEmpty else { return fail(node, key: key, owner: owner, "a view id") }
    if !windows.isEmpty {
      windows[windows.count - 1].firstResponder = Declared(id: s, place: node.place)
    }
  }

  /// One of ``RecognizerType``'s names.
  private mutating func validateRecognizerType(_ node: SceneNode, key: String, owner: Owner) {
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

  // MARK: Presses

  /// A window's `keys.map`: a mapping from evdev key names (each a different key, none a touch or
  /// pointer code) to press types, which the window's keys make.
  private mutating func validateKeyMap(_ node: SceneNode, key: String, owner: Owner) {
    guard case .mapping(let mapping) = node.content else {
      return fail(node, key: key, owner: owner, "a mapping of evdev key names to press types")
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
  }

  /// A recognizer's `allowedPressTypes`: one press type or a list of them. Those of the scene's own
  /// are uses its window's keys must make, checked once the window is walked.
  private mutating func validatePressTypes(_ node: SceneNode, key: String, owner: Owner) {
    let items: [SceneNode]
    if case .sequence(let sequence) = node.content { items = Array(sequence) } else { items = [node] }
    for item in items {
      guard let type = pressType(item, key: key, what: "'\(key)' in \(owner)"),
        !SceneFormat.pressTypes.contains(type), !windows.isEmpty
      else { continue }
      windows[windows.count - 1].pressTypeUses.append(
        PressTypeUse(type: type, key: key, owner: owner, place: item.place))
    }
  }

  /// The press type `node` names, or nil after reporting why it names none. `what` names the value
  /// in the message: `'KEY_F1' in map of keys of window 'main'`.
  private mutating func pressType(_ node: SceneNode, key: String, what: String) -> String? {
    let own = "a name of letters, digits, '_' and '-' starting with a letter"
    let expected = "a press type (touchd's \(SceneFormat.pressTypes.joined(separator: ", ")), or \(own))"
    guard let name = scalarString(node), node.tag == .str, SceneFormat.isPressType(name) else {
      error(node.place, key: key, "\(what) must be \(expected), found \(describeValue(node))")
      return nil
    }
    if !SceneFormat.pressTypes.contains(name),
      let uikit = SceneFormat.pressTypes.first(where: { $0.lowercased() == name.lowercased() })
    {
      error(
        node.place, key: key,
        "\(what) names press type '\(name)'; touchd's is '\(uikit)' (press types are case-sensitive)")
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

  // MARK: Scalars

  func scalarString(_ node: SceneNode) -> String? { node.string }

  /// An integer as the scene takes one (``SceneNode/integer``): what the decoder reads too.
  func integer(_ node: SceneNode) -> Int? { node.integer }

  /// A finite number as the scene takes one (``SceneNode/finiteNumber``): what the decoder reads too.
  func number(_ node: SceneNode) -> Double? { node.finiteNumber }

  func describeValue(_ node: SceneNode) -> String {
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
