// The touch-down grid of touchscreen health drawn over a window (`touchctl render --heatmap`):
// `g.heatmap` holding a `rect.heat-cell[data-column][data-row][data-count]` per cell with a
// touch-down, shaded by its share of the busiest cell's, and `rect.dead-cell` for each dead cell.
import TouchdProtocol
import TouchdScene

extension SceneRenderer {
  func drawHeatmap(_ health: HealthReply.Window, window: Scene.Size, metrics m: Metrics, into w: inout SVGWriter) {
    guard let grid = health.grid, grid.columns > 0, grid.rows > 0 else { return }
    let n = SVGWriter.number
    let width = window.width / Double(grid.columns)
    let height = window.height / Double(grid.rows)
    let busiest = max(grid.counts.max() ?? 0, 1)
    w.open(
      "g", [("class", "heatmap"), ("data-columns", String(grid.columns)), ("data-rows", String(grid.rows))])
    for (index, count) in grid.counts.enumerated() where count > 0 {
      let (row, column) = index.quotientAndRemainder(dividingBy: grid.columns)
      w.empty(
        "rect",
        [
          ("class", "heat-cell"), ("data-column", String(column)), ("data-row", String(row)),
          ("data-count", String(count)), ("x", n(Double(column) * width)), ("y", n(Double(row) * height)),
          ("width", n(width)), ("height", n(height)),
          // At most 0.6, so the views stay readable under the busiest cell.
          ("fill-opacity", n((0.6 * Double(count) / Double(busiest) * 1000).rounded() / 1000)),
        ])
    }
    for cell in health.deadCells {
      let x = Double(cell.column) * width
      let y = Double(cell.row) * height
      w.empty(
        "rect",
        [
          ("class", "dead-cell"), ("data-column", String(cell.column)), ("data-row", String(cell.row)),
          ("x", n(x)), ("y", n(y)), ("width", n(width)), ("height", n(height)),
        ])
      w.text(
        "text",
        [("class", "dead-label"), ("x", n(x + width / 2)), ("y", n(y + height / 2)), ("font-size", n(m.small))],
        "dead")
    }
    w.close()
  }
}
