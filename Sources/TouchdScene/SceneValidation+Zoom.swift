// The validator's zoom checks: a scroll view's zoom keys between themselves and its zoomView among
// its subviews, and each recognizer's `zoom:` naming a scroll view that zooms (scene-wide, once
// the walk is done). The walk is in SceneValidation.swift.

extension SceneValidator {
  /// A scroll view's zoom keys: `minimumZoomScale` at most `maximumZoomScale`, `zoomScale` within
  /// them, and `zoomView` one of the view's own subviews (UIKit zooms the view its delegate returns
  /// from `viewForZooming(in:)`, one of the scroll view's subviews). Records a scroll view with a
  /// zoom view for ``checkZoomTargets()``. Values reported wrong already are not checked again.
  mutating func checkZoom(_ pairs: [SceneNode.Pair], id: String?, name: Owner) {
    guard case .mapping(let scroll)? = pairs.value(of: "scroll")?.content else { return }
    func node(_ key: String) -> SceneNode? { scroll.value(of: key) }
    let minimumNode = node("minimumZoomScale")
    let maximumNode = node("maximumZoomScale")
    let scaleNode = node("zoomScale")
    let given = [minimumNode, maximumNode, scaleNode].compactMap { $0 }
    if given.contains(where: { number($0).map { $0 <= 0 } ?? true }) { return }  // reported by its key
    let minimum = minimumNode.flatMap(number) ?? 1
    let maximum = maximumNode.flatMap(number) ?? 1
    if minimum > maximum, let place = (maximumNode ?? minimumNode)?.place {
      error(
        place, key: maximumNode == nil ? "minimumZoomScale" : "maximumZoomScale",
        "'maximumZoomScale' in scroll of \(name) must be at least minimumZoomScale (\(JSONFormat.number(minimum))), found \(JSONFormat.number(maximum))"
      )
      return
    }
    if let scaleNode, let scale = number(scaleNode), !(minimum...maximum).contains(scale) {
      error(
        scaleNode.place, key: "zoomScale",
        "'zoomScale' in scroll of \(name) must be within minimumZoomScale...maximumZoomScale (\(JSONFormat.number(minimum))...\(JSONFormat.number(maximum))), found \(JSONFormat.number(scale))"
      )
    }
    guard let zoomNode = node("zoomView"), let zoomView = scalarString(zoomNode), !zoomView.isEmpty else { return }
    var subviews: [String] = []
    if case .sequence(let views)? = pairs.value(of: "views")?.content {
      for view in views {
        guard case .mapping(let keys) = view.content, let id = keys.value(of: "id") else { continue }
        if let s = scalarString(id) { subviews.append(s) }
      }
    }
    guard subviews.contains(zoomView) else {
      var message = "'zoomView' in scroll of \(name) names '\(zoomView)', which is not one of its subviews"
      if let guess = suggestion(for: zoomView, in: subviews) { message += " (did you mean '\(guess)'?)" }
      error(zoomNode.place, key: "zoomView", message)
      return
    }
    if let id, minimum < maximum { zoomingViews.append(id) }
  }

  /// Records a recognizer's `zoom:` for ``checkZoomTargets()``.
  mutating func noteZoom(_ pairs: [SceneNode.Pair], id: String?) {
    guard case .mapping(let zoom)? = pairs.value(of: "zoom")?.content,
      let viewNode = zoom.value(of: "view"), let view = scalarString(viewNode)
    else { return }
    viewReferences.append(Reference(from: id ?? "", to: view, key: "zoom", place: viewNode.place))
  }

  /// Each recognizer's `zoom:` names a scroll view that zooms: a `zoomView` and
  /// `maximumZoomScale` above `minimumZoomScale`.
  mutating func checkZoomTargets() {
    for ref in viewReferences where ref.key == "zoom" && !zoomingViews.contains(ref.to) {
      var message = "'view' in zoom of recognizer '\(ref.from)' names '\(ref.to)', "
      if viewIDs.contains(where: { $0.id == ref.to }) {
        message += "which does not zoom (a scroll view needs a zoomView and maximumZoomScale above minimumZoomScale)"
      } else {
        message += "an unknown view"
        if let guess = suggestion(for: ref.to, in: zoomingViews) { message += " (did you mean '\(guess)'?)" }
      }
      error(ref.place, key: "view", message)
    }
  }
}
