// Reading a message's fields: the strict reader of commands (CommandFields) with the few shapes
// only messages have: points, lists of objects, `null` for "none". Types stay strict (`"seq":"1"` is
// refused); keys a message does not know are ignored (a later daemon may add some, docs/protocol.md,
// "Compatibility"), so a message decoder never calls `rejectUnknown`.

extension CommandFields {
  /// The fields of one message line: the line parsed strictly, an object whose `type` is `type`.
  /// Errors: `not JSON …`, `a message must be a JSON object, found …`, `duplicate field '…'`,
  /// `'type' must be "<type>", found …`.
  public static func message(_ line: some Collection<UInt8>, type: String) throws(ProtocolError) -> CommandFields {
    let value: StrictJSON
    do {
      value = try StrictJSON.parse(line)
    } catch {
      throw ProtocolError("not JSON \(error)")
    }
    return try message(value, type: type)
  }

  /// The fields of one message already parsed (``StrictJSON``), an object whose `type` is `type`.
  public static func message(_ value: StrictJSON, type: String) throws(ProtocolError) -> CommandFields {
    guard case .object(let members) = value else {
      throw ProtocolError("a message must be a JSON object, found \(value.shortDescription)")
    }
    let fields = try CommandFields(members, owner: type)
    let found = try fields.required(fields.string("type"), "type", "a string: the message type")
    guard found == type else { throw ProtocolError("'type' must be \"\(type)\", found \(JSONFormat.string(found))") }
    return fields
  }

  /// Whether the field is present and `null` (a message writes `null` for "none": idle's
  /// `lastInput`, trace's `gesture` and `window`).
  public func isNull(_ key: String) -> Bool { self[key] == .null }

  /// A string field that may be `null`: nil when absent or `null`.
  public func nullableString(_ key: String) throws(ProtocolError) -> String? {
    if isNull(key) { return nil }
    return try string(key)
  }

  /// A number field that may be `null`: nil when absent or `null`.
  public func nullableNumber(_ key: String) throws(ProtocolError) -> Double? {
    if isNull(key) { return nil }
    return try number(key)
  }

  /// A point field, `{"x":X,"y":Y}` (other keys in it ignored), nil when absent.
  public func point(_ key: String) throws(ProtocolError) -> WirePoint? {
    guard let object = try object(key, #"an object {"x":..,"y":..}"#) else { return nil }
    return WirePoint(
      x: try object.required(object.number("x"), "x", "a number"),
      y: try object.required(object.number("y"), "y", "a number"))
  }

  /// An array of objects, each as fields of its own (paths `touches[0].id`), nil when absent.
  public func objects(_ key: String, _ expected: String) throws(ProtocolError) -> [CommandFields]? {
    guard let value = self[key] else { return nil }
    guard case .array(let items) = value else { throw mismatch(key, expected, value) }
    var out: [CommandFields] = []
    out.reserveCapacity(items.count)
    for (i, item) in items.enumerated() {
      let itemPath = "\(path(key))[\(i)]"
      guard case .object(let members) = item else {
        throw ProtocolError("'\(itemPath)' must be an object, found \(item.shortDescription)")
      }
      out.append(try CommandFields(members, owner: itemPath, prefix: itemPath + "."))
    }
    return out
  }

  /// An array of strings (one string is not a list here), nil when absent.
  public func stringArray(_ key: String) throws(ProtocolError) -> [String]? {
    guard let value = self[key] else { return nil }
    guard case .array = value else { throw mismatch(key, "an array of strings", value) }
    return try strings(key)
  }

  /// `required(string(key), key, "a string")`: the most common field of a message.
  public func requiredString(_ key: String) throws(ProtocolError) -> String {
    try required(string(key), key, "a string")
  }

  /// A required number field.
  public func requiredNumber(_ key: String) throws(ProtocolError) -> Double {
    try required(number(key), key, "a number")
  }

  /// A required integer field.
  public func requiredInteger(_ key: String) throws(ProtocolError) -> Int {
    try required(integer(key), key, "an integer")
  }

  /// A required boolean field.
  public func requiredBool(_ key: String) throws(ProtocolError) -> Bool {
    try required(bool(key), key, "true or false")
  }

  /// A required point field.
  public func requiredPoint(_ key: String) throws(ProtocolError) -> WirePoint {
    try required(point(key), key, #"an object {"x":..,"y":..}"#)
  }
}
