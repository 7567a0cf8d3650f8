import TouchDelivery

extension SceneRuntime {
  /// Makes `update` (already made to the document and validated: `newScene` is the scene as
  /// changed, `place` where it landed) in the running objects, leaving the rest as it is: touches on
  /// other views go on. A view that leaves (removed, or replaced by a new subtree) has its touches
  /// cancelled first, as UIKit cancels the touches of a view removed from its window (Apple's
  /// `UIResponder.touchesCancelled(_:with:)` documentation); a recognizer that leaves is detached
  /// mid-gesture as `removeGestureRecognizer` does. Windows keep their run-time `set` changes.
  func apply(_ update: SceneUpdate, place: SceneUpdate.Place, newScene: Scene) {
    let reason = "\(update.target.rawValue) '\(update.id)' was \(update.operation == .remove ? "removed" : "replaced")"
    switch update.target {
    case .view:
      var index = place.index
      if update.operation != .add, let old = viewsByID[update.id] {
        index = old.superview?.subviews.firstIndex { $0 === old } ?? place.index
        removeView(old, reason: reason)
      }
      if update.operation != .remove, let (spec, window) = Self.find(view: update.id, in: newScene),
        let parent = place.parentIsWindow
          ? windows.first(where: { $0.identifier == place.parent }) : viewsByID[place.parent]
      {
        var pending: [(GestureRecognizer, Scene.Recognizer)] = []
        let view = build(spec, window: window, pending: &pending)
        parent.insertSubview(view, at: index)
        // A new zoom view takes its scroll view's zoom (the scroll view's zoomView names it).
        if let scrollView = parent as? ScrollView,
          Self.find(view: place.parent, in: newScene)?.0.scroll?.zoomView == spec.id
        {
          scrollView.zoomView = view
        }
        wire(pending)
        // Every new recognizer, not only the pending ones that name others: others may name it.
        rewireReferences(to: Self.recognizerIDs(in: spec), in: newScene)
      }
    case .recognizer:
      if update.operation != .add, let old = recognizersByID[update.id] {
        removeRecognizer(old, id: update.id, reason: reason)
      }
      if update.operation != .remove, let view = viewsByID[place.parent],
        let (spec, window) = Self.find(view: place.parent, in: newScene),
        let recognizerSpec = spec.recognizers.first(where: { $0.id == update.id })
      {
        let recognizer = addRecognizer(recognizerSpec, to: view, viewID: spec.id, windowID: window.id)
        wire([(recognizer, recognizerSpec)])
        rewireReferences(to: [update.id], in: newScene)
      }
    }
    // The document's windows are the file's or the client's; `set` may have changed their mapping
    // since, and an update changes no window: only the view trees are taken.
    var merged = scene
    for (i, window) in newScene.windows.enumerated() where i < merged.windows.count {
      merged.windows[i].views = window.views
    }
    scene = merged
    // Either side of a `pages:` binding may be new.
    bindPageControls()
  }

  /// The ids of the recognizers of `spec` and of its subviews.
  private static func recognizerIDs(in spec: Scene.View) -> [String] {
    var ids = spec.recognizers.map(\.id)
    for child in spec.views { ids += recognizerIDs(in: child) }
    return ids
  }

  /// Cancels the touches on `view`'s tree, detaches its recognizers, forgets its ids, and takes it
  /// out of its window (a first responder within it gives way to the window).
  private func removeView(_ view: TouchDelivery.View, reason: String) {
    application.cancelTouches(inViewTree: view, reason: reason)
    if let window = view.window, let first = window.firstResponder,
      first.isDescendant(of: view)
    {
      window.firstResponder = nil
    }
    func forget(_ v: TouchDelivery.View) {
      (v as? ScrollView)?.stopMotion(at: application.clock.now)
      // The scene's recognizers carry their id as their name (a scroll view's own do not count).
      for recognizer in v.gestureRecognizers {
        if let id = recognizer.name, recognizersByID[id] === recognizer {
          removeRecognizer(recognizer, id: id, reason: reason)
        }
      }
      if let id = v.identifier, viewsByID[id] === v { viewsByID[id] = nil }
      for child in v.subviews { forget(child) }
    }
    forget(view)
    view.removeFromSuperview()
  }

  /// Detaches `recognizer` from its view (mid-gesture: out of arbitration, reset) and forgets it.
  private func removeRecognizer(_ recognizer: GestureRecognizer, id: String, reason: String) {
    recognizer.view?.removeGestureRecognizer(recognizer)
    simultaneity.forget(recognizer)
    for other in recognizersByID.values { other.removeFailureRequirement(recognizer) }
    if recognizersByID[id] === recognizer { recognizersByID[id] = nil }
  }

  /// Links the recognizers already running whose `requireToFail` or `simultaneousWith` name one
  /// of `ids` (new objects that replaced old ones of the same id) to the new objects.
  private func rewireReferences(to ids: [String], in scene: Scene) {
    guard !ids.isEmpty else { return }
    let names = Set(ids)
    var pending: [(GestureRecognizer, Scene.Recognizer)] = []
    func visit(_ views: [Scene.View]) {
      for view in views {
        for spec in view.recognizers where !names.contains(spec.id) {
          let referenced = Set(spec.requireToFail + spec.simultaneousWith)
          if !referenced.isDisjoint(with: names), let recognizer = recognizersByID[spec.id] {
            pending.append((recognizer, spec))
          }
        }
        visit(view.views)
      }
    }
    for window in scene.windows { visit(window.views) }
    wire(pending)
  }

  /// The view `id` in `scene` and its window.
  static func find(view id: String, in scene: Scene) -> (Scene.View, Scene.Window)? {
    func search(_ views: [Scene.View]) -> Scene.View? {
      for view in views {
        if view.id == id { return view }
        if let found = search(view.views) { return found }
      }
      return nil
    }
    for window in scene.windows {
      if let view = search(window.views) { return (view, window) }
    }
    return nil
  }
}

/// An `update` edited into a scene's document and validated, ready to be made in the running
/// objects (``SceneRuntime/commit(_:)``). Preparing needs only the document, so a daemon does it
/// off its touch pipeline: validating a large scene takes tens of milliseconds.
public struct PreparedUpdate: Sendable {
  public let update: SceneUpdate
  /// The document as changed.
  public let json: StrictJSON
  public let place: SceneUpdate.Place
  /// The scene as changed.
  public let scene: Scene
}

extension SceneUpdate {
  /// Edits `document` and validates the whole scene as changed (the file's rules and messages,
  /// problems placed by path: `update rejected, the scene stays:
  /// scene.windows[0].views[2].recognizers[0].type: error: …`). Touches no runtime.
  public func prepare(on document: StrictJSON) throws(SceneRuntimeError) -> PreparedUpdate {
    let edited: (json: StrictJSON, place: SceneUpdate.Place)
    do {
      edited = try edit(document)
    } catch {
      throw .invalidValue(error.message)
    }
    do {
      let scene = try Scene.parse(json: edited.json, name: "scene")
      return PreparedUpdate(update: self, json: edited.json, place: edited.place, scene: scene)
    } catch {
      throw .invalidValue(error.message(prefix: "update rejected, the scene stays: "))
    }
  }
}

extension SceneRuntimeError {
  /// An `update` for a runtime built from a ``Scene`` alone, without the JSON it was read from.
  public static let noDocument = SceneRuntimeError.invalidValue(
    "update needs the scene's document; this runtime was built from a Scene alone")
}

extension SceneRuntime {
  /// Carries out an `update` at once: ``SceneUpdate/prepare(on:)`` on ``document``, then
  /// ``commit(_:)``. Nothing changes on an error.
  func apply(_ update: SceneUpdate) throws(SceneRuntimeError) -> UpdatedMessage {
    guard let document else { throw .noDocument }
    return commit(try update.prepare(on: document))
  }

  /// Makes a prepared update in the running objects (``apply(_:place:newScene:)``) and takes its
  /// document. It must have been prepared on this runtime's current ``document``
  /// (``documentVersion`` tells whether it changed since). Returns the reply (and every client's
  /// notice): `op`, the target's id, `parent`, `index`, and the scene's `views` and `recognizers` now.
  public func commit(_ prepared: PreparedUpdate) -> UpdatedMessage {
    let update = prepared.update
    apply(update, place: prepared.place, newScene: prepared.scene)
    document = prepared.json
    documentVersion += 1
    let counts = scene.counts
    return UpdatedMessage(
      update.operation, update.target, id: update.id, parent: prepared.place.parent, index: prepared.place.index,
      views: counts.views, recognizers: counts.recognizers)
  }
}
