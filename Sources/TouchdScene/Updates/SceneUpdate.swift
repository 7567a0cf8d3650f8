/// `{"cmd":"update",…}` (issue #18): one change to the running scene's tree, made by the app that
/// owns the layout. One view subtree or one recognizer is added, replaced or removed:
///
///     {"cmd":"update","op":"add","parent":"list","index":0,"view":{"id":"row-7","frame":{…}}}
///     {"cmd":"update","op":"replace","view":{"id":"row-7","frame":{…},"recognizers":[…]}}
///     {"cmd":"update","op":"remove","view":"row-7"}
///     {"cmd":"update","op":"add","parent":"row-7","recognizer":{"id":"row-7-hold","type":"longPress",…}}
///     {"cmd":"update","op":"replace","recognizer":{"id":"row-7-hold",…}}
///     {"cmd":"update","op":"remove","recognizer":"row-7-hold"}
///
/// `parent` is a view id or a window id (views) or a view id (recognizers); `index` places a view
/// among its parent's subviews (0 is the backmost; absent: in front of them all), as UIKit's
/// `insertSubview(_:at:)`, whose index "cannot be greater than the number of subviews". The scene
/// as changed is validated whole (``edit(_:)``), so an update is held to the file's rules.
public struct SceneUpdate: Hashable, Sendable {
  public enum Operation: String, Hashable, Sendable, CaseIterable {
    case add, replace, remove
  }

  /// What is changed: a view subtree or a recognizer.
  public enum Target: String, Hashable, Sendable {
    case view, recognizer
  }

  public var operation: Operation
  public var target: Target
  /// The id of what is replaced or removed (for `add`, the new object's id).
  public var id: String
  /// The new view or recognizer, as JSON of the scene format (`add`, `replace`).
  public var object: StrictJSON?
  /// The view or window `add` puts it in.
  public var parent: String?
  /// Where `add` puts a view among its parent's subviews; nil: in front.
  public var index: Int?

  /// The fields `update` takes.
  public static let fields = ["op", "view", "recognizer", "parent", "index"]

  /// Decodes the command's fields with strict types.
  public static func decode(_ fields: CommandFields) throws(ProtocolError) -> SceneUpdate {
    try fields.rejectUnknown(Self.fields)
    let opName = try fields.required(try fields.string("op"), "op", "add, replace or remove")
    guard let operation = Operation(rawValue: opName) else {
      throw ProtocolError(
        "'op' must be add, replace or remove, found \(StrictJSON.string(opName).shortDescription)")
    }
    let present = [Target.view, .recognizer].filter { fields[$0.rawValue] != nil }
    guard present.count == 1, let target = present.first else {
      throw ProtocolError(
        present.isEmpty
          ? "missing field 'view' or 'recognizer' (what the update \(opName)s)"
          : "'update' takes 'view' or 'recognizer', not both (one update changes one of them)")
    }
    let key = target.rawValue
    let parent = try fields.string("parent")
    let index = try fields.integer("index")
    var update = SceneUpdate(operation: operation, target: target, id: "", object: nil, parent: parent, index: index)
    switch operation {
    case .remove:
      update.id = try fields.required(try fields.string(key), key, "a string: the \(key) id")
    case .add, .replace:
      guard let value = fields[key], case .object(let members) = value else {
        throw fields.mismatch(key, "an object: the \(key) as in a scene", fields[key] ?? .null)
      }
      guard let id = members.first(where: { $0.key == "id" })?.value, case .string(let name) = id else {
        throw ProtocolError("'\(key).id' must be a string: the \(key)'s id")
      }
      update.id = name
      update.object = value
    }
    if operation == .add {
      update.parent = try fields.required(parent, "parent", "a string: the view or window to add to")
    } else if parent != nil {
      throw ProtocolError("'parent' goes with op add only (\(opName) finds the \(key) by its id)")
    }
    if let index {
      guard operation == .add, target == .view else {
        throw ProtocolError("'index' goes with adding a view only")
      }
      guard index >= 0 else { throw ProtocolError("'index' must be 0 or more, found \(index)") }
    }
    return update
  }

  /// The command as one line of JSON, keys in a fixed order.
  public var json: String {
    var out = #"{"cmd":"update","op":"\#(operation.rawValue)""#
    if let parent { out += #","parent":"# + JSONFormat.string(parent) }
    if let index { out += #","index":\#(index)"# }
    out += #","\#(target.rawValue)":"# + (object?.compact ?? JSONFormat.string(id))
    return out + "}"
  }

  /// Where the change lands in the scene as changed: the parent (a window or view id) and the
  /// index of the view or recognizer among its siblings (for `remove`, where it was).
  public struct Place: Hashable, Sendable {
    public var parent: String
    public var parentIsWindow: Bool
    public var index: Int
  }

  /// `document` with the change made, and where it landed. Unknown ids and an index past the
  /// subviews are errors; the result is not validated yet (``Scene/parseDocument(json:name:)``).
  public func edit(_ document: StrictJSON) throws(ProtocolError) -> (json: StrictJSON, place: Place) {
    var root = document
    var place: Place?
    var known: [String] = []
    func visitViews(_ views: inout [StrictJSON], parent: String, isWindow: Bool) throws(ProtocolError) {
      if operation == .add, target == .view, parent == self.parent {
        let at = index ?? views.count
        guard at <= views.count else {
          throw ProtocolError(
            "'index' \(at) is past the \(views.count) subview\(views.count == 1 ? "" : "s") of '\(parent)'")
        }
        views.insert(object ?? .null, at: at)
        place = Place(parent: parent, parentIsWindow: isWindow, index: at)
        return
      }
      var i = 0
      while i < views.count {
        let viewID = views[i]["id"]?.stringValue ?? ""
        known.append(viewID)
        if target == .view, operation != .add, viewID == id {
          place = Place(parent: parent, parentIsWindow: isWindow, index: i)
          if operation == .remove { views.remove(at: i) } else { views[i] = object ?? .null }
          return
        }
        var view = views[i]
        if target == .recognizer, try visitRecognizers(&view, viewID: viewID) {
          views[i] = view
          return
        }
        if var children = view["views"]?.arrayValue {
          try visitViews(&children, parent: viewID, isWindow: false)
          if place != nil {
            view["views"] = .array(children)
            views[i] = view
            return
          }
        } else if operation == .add, target == .view, viewID == self.parent {
          view["views"] = .array([object ?? .null])
          guard (index ?? 0) == 0 else {
            throw ProtocolError("'index' \(index ?? 0) is past the 0 subviews of '\(viewID)'")
          }
          views[i] = view
          place = Place(parent: viewID, parentIsWindow: false, index: 0)
          return
        }
        i += 1
      }
    }
    /// Adds, replaces or removes the recognizer on `view`; true when it did.
    func visitRecognizers(_ view: inout StrictJSON, viewID: String) throws(ProtocolError) -> Bool {
      var recognizers = view["recognizers"]?.arrayValue ?? []
      if operation == .add {
        guard viewID == parent else { return false }
        recognizers.append(object ?? .null)
        place = Place(parent: viewID, parentIsWindow: false, index: recognizers.count - 1)
      } else {
        for r in recognizers.indices { known.append(recognizers[r]["id"]?.stringValue ?? "") }
        guard let at = recognizers.firstIndex(where: { $0["id"]?.stringValue == id }) else { return false }
        if operation == .remove { recognizers.remove(at: at) } else { recognizers[at] = object ?? .null }
        place = Place(parent: viewID, parentIsWindow: false, index: at)
      }
      view["recognizers"] = .array(recognizers)
      return true
    }
    var windows = root["windows"]?.arrayValue ?? []
    for w in windows.indices where place == nil {
      var window = windows[w]
      let windowID = window["id"]?.stringValue ?? ""
      var views = window["views"]?.arrayValue ?? []
      if operation == .add, target == .recognizer, parent == windowID {
        throw ProtocolError("'\(windowID)' is a window: a recognizer belongs to a view")
      }
      try visitViews(&views, parent: windowID, isWindow: true)
      if place != nil {
        window["views"] = .array(views)
        windows[w] = window
      }
      known.append(windowID)
    }
    guard let place else {
      let missing = operation == .add ? (parent ?? "") : id
      let kind = operation == .add ? (target == .view ? "view or window" : "view") : target.rawValue
      var message = "unknown \(kind) '\(missing)'"
      if let guess = closestMatch(to: missing, in: known) { message += " (did you mean '\(guess)'?)" }
      throw ProtocolError(message)
    }
    root["windows"] = .array(windows)
    return (root, place)
  }
}

extension StrictJSON {
  /// The member `key` of an object (nil for another value or a missing key); setting it replaces
  /// the member in place or appends it.
  subscript(key: String) -> StrictJSON? {
    get {
      guard case .object(let members) = self else { return nil }
      return members.first { $0.key == key }?.value
    }
    set {
      guard case .object(var members) = self else { return }
      if let at = members.firstIndex(where: { $0.key == key }) {
        if let newValue { members[at].value = newValue } else { members.remove(at: at) }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
      }
      self = .object(members)
    }
  }

  /// The string, for a string.
  var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The items, for an array.
  var arrayValue: [StrictJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }
}
