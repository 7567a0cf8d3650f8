// The legend that closes the document: a sample of each style drawn, with what it means.

/// The key to the styles, laid out in rows that wrap at the width.
struct Legend {
  enum Sample {
    case view(String), outset, touchPath, touchDown, touchUp, touchCancel, action, scrollIndicator
    case control(enabled: Bool), controlHit
  }

  let metrics: Metrics
  let items: [(Sample, String)]
  let rows: [[(Sample, String, Double)]]

  static let swatch = 3.0

  init(metrics m: Metrics, width: Double, hasTrace: Bool, hasScroll: Bool = false, hasControls: Bool = false) {
    self.metrics = m
    var items: [(Sample, String)] = [
      (.view("view"), "view (hit-testable)"),
      (.view("view dimmed"), "hidden or alpha ≤ 0.01: never hit"),
      (.view("view inert"), "userInteractionEnabled: false: never hit"),
      (.view("view blocked"), "inside a view that cannot be hit"),
      (.outset, "hitOutset: hit area beyond the frame"),
    ]
    if hasScroll {
      items += [
        (.view("view scroll"), "scroll view: content at its offset, clipped"),
        (.scrollIndicator, "scroll indicator: the visible part of the content"),
      ]
    }
    if hasControls {
      items += [
        (.control(enabled: true), "control in its state (the scene's, or where the recording left it)"),
        (.control(enabled: false), "enabled: false: dimmed; hit, but ignores touches"),
        (.controlHit, "where a touch grabs a slider's thumb"),
      ]
    }
    if hasTrace {
      items += [
        (.touchPath, "touch path (a colour each)"), (.touchDown, "touch down"), (.touchUp, "lift"),
        (.touchCancel, "cancelled"), (.action, "action: #seq gesture state → action"),
      ]
      if hasControls { items.append((.action, "control action: #seq control event → action (value)")) }
    }
    self.items = items
    var rows: [[(Sample, String, Double)]] = [[]]
    var x = 0.0
    let size = m.small
    for (sample, text) in items {
      let itemWidth = Self.swatch * size + size * 0.6 + Double(text.count) * size * 0.6 + size * 2
      if x + itemWidth > width, !rows[rows.count - 1].isEmpty {
        rows.append([])
        x = 0
      }
      rows[rows.count - 1].append((sample, text, x))
      x += itemWidth
    }
    self.rows = rows
  }

  var rowHeight: Double { metrics.small * 2 }
  var height: Double { metrics.small * 1.8 + Double(rows.count) * rowHeight }

  func draw(into w: inout SVGWriter) {
    let n = SVGWriter.number
    let size = metrics.small
    w.text("text", [("class", "legend-heading"), ("x", "0"), ("y", n(size)), ("font-size", n(size))], "Legend")
    for (r, row) in rows.enumerated() {
      let top = size * 1.8 + Double(r) * rowHeight
      let mid = top + size * 0.6
      for (sample, text, x) in row {
        let sw = Self.swatch * size
        w.open("g", [("class", "legend-item")])
        switch sample {
        case .view(let classes):
          w.empty(
            "rect",
            [("class", classes), ("x", n(x)), ("y", n(top)), ("width", n(sw)), ("height", n(size * 1.2))])
        case .outset:
          w.empty(
            "rect",
            [("class", "hit-outset"), ("x", n(x)), ("y", n(top)), ("width", n(sw)), ("height", n(size * 1.2))])
        case .touchPath:
          w.empty(
            "polyline",
            [
              ("class", "touch"), ("stroke", SceneRenderer.palette[0]),
              (
                "points",
                "\(n(x)),\(n(top + size)) \(n(x + sw / 2)),\(n(top + size * 0.2)) \(n(x + sw)),\(n(top + size))"
              ),
            ])
        case .touchDown:
          w.empty(
            "circle",
            [
              ("class", "touch-down"), ("fill", SceneRenderer.palette[1]), ("cx", n(x + sw / 2)), ("cy", n(mid)),
              ("r", n(metrics.dot)),
            ])
        case .touchUp:
          w.empty(
            "circle",
            [
              ("class", "touch-up"), ("stroke", SceneRenderer.palette[2]), ("cx", n(x + sw / 2)), ("cy", n(mid)),
              ("r", n(metrics.ring)),
            ])
        case .touchCancel:
          let (cx, r) = (x + sw / 2, metrics.ring)
          w.empty(
            "path",
            [
              ("class", "touch-cancel"), ("stroke", SceneRenderer.palette[3]),
              (
                "d",
                "M\(n(cx - r)),\(n(mid - r))L\(n(cx + r)),\(n(mid + r))M\(n(cx - r)),\(n(mid + r))L\(n(cx + r)),\(n(mid - r))"
              ),
            ])
        case .scrollIndicator:
          let t = metrics.base * 0.3
          let box = [("scroll-track", 0.0, sw), ("scroll-indicator", sw * 0.3, sw * 0.4)]
          for (cls, start, length) in box {
            w.empty(
              "rect",
              [
                ("class", cls), ("x", n(x + start)), ("y", n(mid - t / 2)), ("width", n(length)), ("height", n(t)),
                ("rx", n(metrics.base * 0.15)),
              ])
          }
        case .control(let enabled):
          SceneRenderer.drawLegendSwitch(x: x, top: top, width: sw, height: size * 1.2, enabled: enabled, into: &w)
        case .controlHit:
          w.empty(
            "rect",
            [("class", "control-hit"), ("x", n(x)), ("y", n(top)), ("width", n(sw)), ("height", n(size * 1.2))])
        case .action:
          let (cx, d) = (x + sw / 2, metrics.marker)
          w.empty(
            "path",
            [
              ("class", "action-marker"),
              ("d", "M\(n(cx)),\(n(mid - d))L\(n(cx + d)),\(n(mid))L\(n(cx)),\(n(mid + d))L\(n(cx - d)),\(n(mid))Z"),
            ])
        }
        w.text(
          "text",
          [("class", "legend-text"), ("x", n(x + sw + size * 0.6)), ("y", n(top + size)), ("font-size", n(size))],
          text)
        w.close()
      }
    }
  }
}
