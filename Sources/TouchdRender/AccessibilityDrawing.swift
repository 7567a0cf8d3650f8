// The accessibility elements drawn over a window (`touchctl render --accessibility`): each
// element's frame (`rect.element[data-view][data-order]`, a segment's with `data-segment`) and its
// place in VoiceOver's reading order (`text.element-order`), from the scene as built; and, with a
// recording, what VoiceOver did at each element and the gesture that did it (`g.voiceover`).
import TouchDelivery
import TouchdScene

/// The elements' styles: frames outlined in VoiceOver's focus colour, the order numbers in a badge.
let accessibilityCSS = """
  .element { fill: none; stroke: #6a1b9a; stroke-width: 3; stroke-dasharray: 2 3; }
  .element-order { fill: #ffffff; font-weight: bold; text-anchor: middle; dominant-baseline: central; }
  .element-badge { fill: #6a1b9a; }
  """

/// VoiceOver's marks: its focus colour, as the elements'.
let voiceOverCSS = """
  .voiceover .action-marker { fill: #6a1b9a; }
  """

extension SceneRenderer {
  /// The elements of window `index` in reading order, as ``SceneRuntime/accessibilityElements(inWindow:)``
  /// gives them for the scene as built (its scroll offsets and control states).
  static func accessibilityElements(of scene: Scene, window index: Int) -> [AccessibilityElement] {
    SceneRuntime(scene: scene, clock: VirtualClock()) { _ in }.accessibilityElements(inWindow: index)
  }

  func drawAccessibility(_ elements: [AccessibilityElement], metrics m: Metrics, into w: inout SVGWriter) {
    let n = SVGWriter.number
    w.open("g", [("class", "accessibility"), ("data-elements", String(elements.count))])
    for (order, element) in elements.enumerated() {
      let f = element.frame
      var attributes = [("class", "element"), ("data-view", element.view), ("data-order", String(order + 1))]
      if let segment = element.segment { attributes.append(("data-segment", String(segment))) }
      if let spoken = element.spoken() { attributes.append(("data-spoken", spoken)) }
      w.empty(
        "rect", attributes + [("x", n(f.minX)), ("y", n(f.minY)), ("width", n(f.width)), ("height", n(f.height))])
      // The badge at the frame's top-left corner (an element scrolled out of sight has an empty
      // frame: its badge marks where it would be).
      let r = m.small * 0.8
      w.empty(
        "circle", [("class", "element-badge"), ("cx", n(f.minX + r)), ("cy", n(f.minY + r)), ("r", n(r))])
      w.text(
        "text",
        [
          ("class", "element-order"), ("data-view", element.view), ("x", n(f.minX + r)), ("y", n(f.minY + r)),
          ("font-size", n(m.small)),
        ], String(order + 1))
    }
    w.close()
  }
}

extension SceneRenderer {
  /// A VoiceOver message about an element (RenderTrace's ``VoiceOverMark``): a diamond at the
  /// element's centre, labelled `#2 double tap → activate 'buy'`.
  func drawVoiceOver(
    _ mark: VoiceOverMark, at location: Point, windowWidth: Double, metrics m: Metrics, placed: inout [Box],
    into w: inout SVGWriter
  ) {
    let a = mark.message
    let view = a.view ?? ""
    drawMarker(
      at: location, text: "#\(a.seq) " + (mark.gesture.map { "\($0) → " } ?? "") + "\(a.event) '\(view)'",
      attributes: [
        ("class", "voiceover"), ("data-seq", String(a.seq)), ("data-event", a.event), ("data-view", view),
        ("data-gesture", mark.gesture ?? ""),
      ], windowWidth: windowWidth, metrics: m, placed: &placed, into: &w)
  }
}
