/// One command line of the socket protocol, `{"cmd":NAME,"id":ANY,...}`: its JSON parsed strictly
/// (``StrictJSON``), `cmd` and `id` read, the other fields left to the command's decoder. The
/// daemon's socket and `touchctl replay --at` both read commands through it.
public struct CommandObject: Sendable {
  /// The command name (`cmd`).
  public var name: String
  /// The client's `id`, any JSON value; nil when absent.
  public var id: StrictJSON?
  /// Every field, `cmd` and `id` included (they are allowed in every command).
  public var fields: CommandFields

  /// The `id` as the reply echoes it: the client's value in compact JSON, `null` when absent.
  public var idJSON: String { id?.compact ?? "null" }

  /// Why a line is not a command: the error, and the `id` to echo when the line got far enough to
  /// have one.
  public struct Failure: Error, Sendable {
    public var id: StrictJSON?
    public var error: ProtocolError
    public var idJSON: String { id?.compact ?? "null" }
  }

  /// Reads one line (without its newline). Errors: `not JSON at column N: <problem>` (N counts
  /// bytes from 1), `a command must be a JSON object, found …`, `duplicate field '…'`,
  /// `missing field 'cmd' (…)`, `'cmd' must be a string, found …`.
  public static func parse(_ line: some Collection<UInt8>) throws(Failure) -> CommandObject {
    let value: StrictJSON
    do {
      value = try StrictJSON.parse(line)
    } catch {
      throw Failure(id: nil, error: ProtocolError("not JSON \(error)"))
    }
    guard case .object(let members) = value else {
      throw Failure(
        id: nil, error: ProtocolError("a command must be a JSON object, found \(value.shortDescription)"))
    }
    // The id first: every later error echoes it.
    let id = members.first { $0.key == "id" }?.value
    do throws(ProtocolError) {
      var fields = try CommandFields(members, owner: "the command", implicit: ["cmd", "id"])
      let name = try fields.required(fields.string("cmd"), "cmd", "a string: the command name")
      fields.owner = name
      return CommandObject(name: name, id: id, fields: fields)
    } catch {
      throw Failure(id: id, error: error)
    }
  }

  /// Reads one line given as a string.
  public static func parse(_ line: String) throws(Failure) -> CommandObject {
    try parse(Array(line.utf8))
  }
}

/// The fields of a command object (or of an object inside one, like `set`'s `frame`), read with
/// strict types: a boolean must be `true` or `false` (1 is not), an integer a number without a
/// fraction, a number finite, a string a string. Every error names the field by its path
/// (`hidden`, `frame.width`, `types[1]`), and says what was expected and what was found:
///
/// - `'hidden' must be true or false, found 1`
/// - `'frame.width' must be a number, found "wide"`
/// - `'selectedSegmentIndex' must be an integer, found 1.5`
/// - `'alpha' must be a finite number, found 1e400`
/// - `missing field 'view' (a string: the view id)`
/// - `unknown field 'hiden' (did you mean 'hidden'? set takes view, hidden, …)`
/// - `duplicate field 'hidden'`
public struct CommandFields: Sendable {
  /// What takes these fields, in messages: the command name, or the field (`frame`).
  public var owner: String
  /// The path of these fields in messages: empty at the top, `frame.` inside `frame`.
  public let prefix: String
  /// Fields every object of this kind allows without listing them (`cmd`, `id` at the top).
  public let implicit: Set<String>
  /// The members, in the order written.
  public let members: [StrictJSON.Member]
  private let values: [String: StrictJSON]

  /// Fields from an object's members; a name given twice is an error.
  public init(
    _ members: [StrictJSON.Member], owner: String, prefix: String = "", implicit: Set<String> = []
  ) throws(ProtocolError) {
    var values: [String: StrictJSON] = [:]
    for member in members {
      guard values.updateValue(member.value, forKey: member.key) == nil else {
        throw ProtocolError("duplicate field '\(prefix + StrictJSON.shortened(member.key))'")
      }
    }
    self.owner = owner
    self.prefix = prefix
    self.implicit = implicit
    self.members = members
    self.values = values
  }

  /// The field's name as messages give it: its path from the command.
  public func path(_ key: String) -> String { prefix + key }

  /// The raw value of a field, nil when absent.
  public subscript(key: String) -> StrictJSON? { values[key] }

  /// `'<path>' must be <expected>, found <value>`.
  public func mismatch(_ key: String, _ expected: String, _ value: StrictJSON) -> ProtocolError {
    ProtocolError("'\(path(key))' must be \(expected), found \(value.shortDescription)")
  }

  /// A present field's value, or `missing field '<path>' (<expected>)`.
  public func required<T>(_ value: T?, _ key: String, _ expected: String) throws(ProtocolError) -> T {
    guard let value else { throw ProtocolError("missing field '\(path(key))' (\(expected))") }
    return value
  }

  /// Rejects any field but `known` (and the implicit ones): `unknown field '<path>' (did you mean
  /// '<close one>'? <owner> takes <known>)`.
  public func rejectUnknown(_ known: [String]) throws(ProtocolError) {
    guard let unknown = members.first(where: { !known.contains($0.key) && !implicit.contains($0.key) })?.key else {
      return
    }
    let takes: String
    if known.isEmpty {
      takes = "\(owner) takes no fields besides " + implicit.sorted().joined(separator: " and ")
    } else {
      takes = "\(owner) takes " + known.joined(separator: ", ")
    }
    let name = StrictJSON.shortened(unknown)
    let hint = closestMatch(to: name, in: known).map { "did you mean '\($0)'? " } ?? ""
    throw ProtocolError("unknown field '\(path(name))' (\(hint)\(takes))")
  }

  /// A boolean field: `true` or `false`, nothing else.
  public func bool(_ key: String) throws(ProtocolError) -> Bool? {
    guard let value = values[key] else { return nil }
    guard case .bool(let b) = value else { throw mismatch(key, "true or false", value) }
    return b
  }

  /// A number field, finite (`1e400` overflows a Double and is refused).
  public func number(_ key: String) throws(ProtocolError) -> Double? {
    guard let value = values[key] else { return nil }
    guard let n = value.numberValue else { throw mismatch(key, "a number", value) }
    guard n.isFinite else { throw mismatch(key, "a finite number", value) }
    return n
  }

  /// An integer field: a number without a fraction (`2`, `2.0`, `2e0`), within Int's range.
  public func integer(_ key: String) throws(ProtocolError) -> Int? {
    guard let value = values[key] else { return nil }
    guard case .number(let text) = value else { throw mismatch(key, "an integer", value) }
    if let exact = Int(text) { return exact }
    guard let n = Double(text), n.rounded() == n, n.magnitude < 0x1p53 else {
      throw mismatch(key, "an integer", value)
    }
    return Int(n)
  }

  /// A string field.
  public func string(_ key: String) throws(ProtocolError) -> String? {
    guard let value = values[key] else { return nil }
    guard case .string(let s) = value else { throw mismatch(key, "a string", value) }
    return s
  }

  /// A string or an array of strings (one string is a list of one); an element of another type is
  /// an error naming it: `'types[1]' must be a string, found 3`.
  public func strings(_ key: String) throws(ProtocolError) -> [String]? {
    guard let value = values[key] else { return nil }
    switch value {
    case .string(let s): return [s]
    case .array(let items):
      var out: [String] = []
      for (i, item) in items.enumerated() {
        guard case .string(let s) = item else {
          throw ProtocolError("'\(path(key))[\(i)]' must be a string, found \(item.shortDescription)")
        }
        out.append(s)
      }
      return out
    default: throw mismatch(key, "a string or an array of strings", value)
    }
  }

  /// An object field, as fields of its own (their paths start with `key.`); `expected` describes
  /// it in the error for another type.
  public func object(_ key: String, _ expected: String) throws(ProtocolError) -> CommandFields? {
    guard let value = values[key] else { return nil }
    guard case .object(let members) = value else { throw mismatch(key, expected, value) }
    return try CommandFields(members, owner: path(key), prefix: path(key) + ".")
  }

  /// An array of finite numbers, nil when absent; `counts` bounds its length:
  /// `'calibration' must be an array of 6 numbers, found [1,0]`, `'calibration[2]' must be a
  /// finite number, found "x"`.
  public func numberList(_ key: String, counts: ClosedRange<Int>, _ expected: String) throws(ProtocolError)
    -> [Double]?
  {
    guard let value = values[key] else { return nil }
    guard case .array(let items) = value else { throw mismatch(key, expected, value) }
    guard counts.contains(items.count) else {
      throw ProtocolError("'\(path(key))' must be \(expected), found an array of \(items.count) items")
    }
    return try Self.finiteNumbers(items, path: path(key))
  }

  /// The elements of an array as finite numbers; the first that is not one is the error
  /// `'<path>[i]' must be a finite number, found …`.
  public static func finiteNumbers(_ items: [StrictJSON], path: String) throws(ProtocolError) -> [Double] {
    var out: [Double] = []
    for (i, item) in items.enumerated() {
      guard let n = item.numberValue, n.isFinite else {
        throw ProtocolError("'\(path)[\(i)]' must be a finite number, found \(item.shortDescription)")
      }
      out.append(n)
    }
    return out
  }

  /// An object field of exactly the number fields `names` (returned in that order), nil when
  /// absent: `'frame' must be an object {"x":..,"y":..}`, `missing field 'frame.y' (a number)`,
  /// `unknown field 'frame.z' (frame takes x, y)`.
  public func numbers(_ key: String, _ names: [String]) throws(ProtocolError) -> [Double]? {
    let shape = "an object {" + names.map { "\"\($0)\":.." }.joined(separator: ",") + "}"
    guard let object = try object(key, shape) else { return nil }
    try object.rejectUnknown(names)
    var out: [Double] = []
    for name in names { out.append(try object.required(object.number(name), name, "a number")) }
    return out
  }
}
