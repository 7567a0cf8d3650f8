/// The `update` command (``UpdateCommand``, declared by the protocol) as the scene applies it:
/// where it lands and the scene document it makes.
public typealias SceneUpdate = UpdateCommand

extension UpdateCommand {
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
