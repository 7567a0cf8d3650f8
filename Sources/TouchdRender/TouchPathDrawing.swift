// Drawing a recording's touches: each touch's path, where it went down and how it ended (lifted or
// cancelled), and its label kept clear of the others.
import TouchdScene

extension SceneRenderer {
  func drawTouch(
    _ touch: TouchPath, color: String, metrics m: Metrics, placed: inout [Box], into w: inout SVGWriter
  ) {
    let n = SVGWriter.number
    guard let first = touch.points.first, let last = touch.points.last else { return }
    let id = String(touch.id.rawValue)
    w.open("g", [("class", "touch-group"), ("data-touch", id), ("data-end", touch.end.rawValue)])
    w.empty(
      "polyline",
      [
        ("class", "touch"), ("data-touch", id), ("stroke", color),
        ("points", touch.points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")),
      ])
    w.empty(
      "circle",
      [("class", "touch-down"), ("fill", color), ("cx", n(first.x)), ("cy", n(first.y)), ("r", n(m.dot))])
    switch touch.end {
    case .lifted:
      w.empty(
        "circle", [("class", "touch-up"), ("stroke", color), ("cx", n(last.x)), ("cy", n(last.y)), ("r", n(m.ring))])
    case .cancelled:
      let r = m.ring
      w.empty(
        "path",
        [
          ("class", "touch-cancel"), ("stroke", color),
          (
            "d",
            "M\(n(last.x - r)),\(n(last.y - r))L\(n(last.x + r)),\(n(last.y + r))M\(n(last.x - r)),\(n(last.y + r))L\(n(last.x + r)),\(n(last.y - r))"
          ),
        ])
    case .down:
      break
    }
    let label = "t\(id)"
    let width = Double(label.count) * m.small * 0.65
    var box = Box(
      x: first.x - m.ring * 1.3 - width, y: first.y - m.ring * 0.9 - m.small, width: width, height: m.small * 1.1)
    var tries = 0
    while placed.contains(where: { $0.intersects(box) }), tries < 60 {
      box.y -= m.small * 1.1
      tries += 1
    }
    placed.append(box)
    w.text(
      "text",
      [
        ("class", "touch-label"), ("fill", color), ("x", n(box.x + width)), ("y", n(box.y + m.small)),
        ("font-size", n(m.small)),
      ], label)
    w.close()
  }
}
