// Drawing the actions a recording produced: a marker where each happened and its label, moved clear
// of the labels placed before it.
import TouchDelivery
import TouchdScene

extension SceneRenderer {
  func drawAction(
    _ a: ActionMessage, windowWidth: Double, metrics m: Metrics, placed: inout [Box], into w: inout SVGWriter
  ) {
    // A recognizer's action (RenderTrace keeps controls' apart) always has a location.
    guard let location = a.locationPoint else { return }
    drawMarker(
      at: location, text: Self.actionText(a),
      attributes: [
        ("class", "action"), ("data-seq", String(a.seq)), ("data-gesture", a.gesture),
        ("data-state", a.state ?? ""), ("data-action", a.action), ("data-view", a.view),
      ], windowWidth: windowWidth, metrics: m, placed: &placed, into: &w)
  }

  /// An action's diamond at `location` in a group with `attributes`, and its label `text` beside
  /// it, moved down (with a leader line) clear of the labels `placed` so far.
  func drawMarker(
    at location: Point, text: String, attributes: [SVGWriter.Attribute], windowWidth: Double, metrics m: Metrics,
    placed: inout [Box], into w: inout SVGWriter
  ) {
    let n = SVGWriter.number
    let size = m.label
    let textWidth = Double(text.count) * size * 0.6
    let gap = m.ring * 1.6
    var box = Box(x: location.x + gap, y: location.y - size * 0.35 - size, width: textWidth, height: size * 1.3)
    if box.x + box.width > windowWidth { box.x = location.x - gap - textWidth }
    let startY = box.y
    var tries = 0
    while placed.contains(where: { $0.intersects(box) }), tries < 60 {
      box.y += size * 1.35
      tries += 1
    }
    placed.append(box)
    let d = m.marker
    let (x, y) = (location.x, location.y)
    w.open("g", attributes)
    w.empty(
      "path",
      [
        ("class", "action-marker"),
        ("d", "M\(n(x)),\(n(y - d))L\(n(x + d)),\(n(y))L\(n(x)),\(n(y + d))L\(n(x - d)),\(n(y))Z"),
      ])
    let baseline = box.y + size
    if box.y != startY {
      let lx = box.x < x ? box.x + box.width : box.x
      w.empty(
        "line",
        [("class", "action-leader"), ("x1", n(x)), ("y1", n(y)), ("x2", n(lx)), ("y2", n(baseline - size * 0.35))])
    }
    w.text(
      "text", [("class", "action-label"), ("x", n(box.x)), ("y", n(baseline)), ("font-size", n(size))], text)
    w.close()
  }

  /// `#3 tap ended → buy-ticket (show-map)`: sequence number, gesture, state, action, and the
  /// view when it is not obvious from the location, plus the gesture's values at its end.
  static func actionText(_ a: ActionMessage) -> String {
    var text = "#\(a.seq) \(a.gesture) \(a.state ?? "") → \(a.action)"
    switch a.values {
    case .none: break
    case .pan(let translation, _) where a.gestureState != .began:
      text += " (Δ \(fmt(translation.x)), \(fmt(translation.y)))"
    case .pinch(let scale, _) where a.gestureState != .began: text += " (scale \(fmt(scale)))"
    case .rotation(let rotation, _) where a.gestureState != .began:
      text += " (\(fmt(rotation * 180 / Double.pi))°)"
    case .swipe(let direction): text += " (\(direction))"
    case .hover(let zOffset, _, _): text += " (z \(fmt(zOffset)))"
    default: break
    }
    if let touches = a.numberOfTouches, touches > 1 { text += " · \(touches) fingers" }
    return text
  }
}
