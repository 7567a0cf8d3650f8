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
public struct UpdateCommand: Hashable, Sendable {
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
  public static func decode(_ fields: CommandFields) throws(ProtocolError) -> UpdateCommand {
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
    var update = UpdateCommand(operation: operation, target: target, id: "", object: nil, parent: parent, index: index)
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

  public init(
    operation: Operation, target: Target, id: String, object: StrictJSON? = nil, parent: String? = nil,
    index: Int? = nil
  ) {
    self.operation = operation
    self.target = target
    self.id = id
    self.object = object
    self.parent = parent
    self.index = index
  }

  /// Decodes the command's fields with strict types.
  public init(decoding fields: CommandFields) throws(ProtocolError) { self = try Self.decode(fields) }

  /// The fields, in ``json``'s order.
  public var members: [JSONValue.Member] {
    var out: [JSONValue.Member] = [("op", .string(operation.rawValue))]
    if let parent { out.append(("parent", .string(parent))) }
    if let index { out.append(("index", .number(Double(index)))) }
    out.append((target.rawValue, object.map(JSONValue.init) ?? .string(id)))
    return out
  }
}
