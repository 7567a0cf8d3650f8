// A signature pad's strokes (`stroke` messages): each drawn point to point, a pen's segments as
// wide as its pressure, over the pad where they were drawn.
import TouchdScene

/// The strokes' style: ink.
let strokeCSS = """
  .stroke-segment { stroke: #0d47a1; stroke-linecap: round; fill: none; }
  """

extension SceneRenderer {
  /// Draws `strokes` (points in their pad's points) at their pad's place in the window: a
  /// segment per pair of consecutive points (`g.stroke[data-view][data-points]`), a pen's as wide
  /// as its force (from a fifth to two fifths of the label size, over 0 to UIKit's maximum for a
  /// pencil), a finger's at a fifth.
  func drawStrokes(
    _ strokes: [StrokeMessage], views: [String: PlacedView], metrics m: Metrics, into w: inout SVGWriter
  ) {
    guard !strokes.isEmpty else { return }
    let n = SVGWriter.number
    w.open("g", [("class", "strokes")])
    for stroke in strokes {
      guard let frame = views[stroke.view]?.frame else { continue }
      w.open(
        "g",
        [
          ("class", "stroke"), ("data-view", stroke.view), ("data-touch-type", stroke.touchType),
          ("data-points", String(stroke.points.count)),
        ])
      for (a, b) in zip(stroke.points, stroke.points.dropFirst()) {
        let pressure = min(1, max(0, (b.force ?? 0) / 4.166667))
        let width = m.label * (b.force == nil ? 0.2 : 0.2 + 0.2 * pressure)
        w.empty(
          "line",
          [
            ("class", "stroke-segment"), ("x1", n(frame.x + a.x)), ("y1", n(frame.y + a.y)), ("x2", n(frame.x + b.x)),
            ("y2", n(frame.y + b.y)), ("stroke-width", n(width)),
          ])
      }
      w.close()
    }
    w.close()
  }
}
