// Reading and editing a strictly read value in place: a scene update edits the scene's document
// with these, and a client peeks at a line's `type` and `id`.

extension StrictJSON {
  /// The member `key` of an object (nil for another value or a missing key); setting it replaces
  /// the member in place or appends it.
  public subscript(key: String) -> StrictJSON? {
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
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The items, for an array.
  public var arrayValue: [StrictJSON]? {
    if case .array(let items) = self { return items }
    return nil
  }
}
