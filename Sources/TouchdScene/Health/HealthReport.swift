import TouchdProtocol

extension TouchHealth {
  /// Each window's health as the `health` command answers it, the rolling windows ending at `time`
  /// (the daemon's clock; by default the last frame's time).
  public func report(at time: Double? = nil) -> HealthReply {
    let now = time ?? lastFrameTime
    return HealthReply(
      windows: states.indices.map { s in
        let state = states[s]
        var grid: HealthReply.Grid?
        var dead: [HealthReply.Cell] = []
        if state.heatmap {
          let counts = state.grid.cellCounts(at: now)
          grid = HealthReply.Grid(columns: state.grid.columns, rows: state.grid.rows, counts: counts)
          dead = state.grid.deadCells(counts, busy: settings.busyCellTouchDowns).map {
            HealthReply.Cell(column: $0 % state.grid.columns, row: $0 / state.grid.columns)
          }
        }
        let jitter = state.jitter.percentile95(at: now)
        let mean = state.drift.mean
        let drifted =
          state.drift.taps >= settings.driftMinimumTaps
          && (abs(mean?.x ?? 0) > settings.driftThreshold || abs(mean?.y ?? 0) > settings.driftThreshold)
        let misses = state.heatmap ? state.misses.byView : [:]
        return HealthReply.Window(
          id: windowIDs[s], heatmap: state.heatmap, touchDowns: state.touchDowns, grid: grid, deadCells: dead,
          ghosts: HealthReply.Ghosts(
            burst: state.ghosts.counts[.burst] ?? 0, pinned: state.ghosts.counts[.pinned] ?? 0,
            idle: state.ghosts.counts[.idle] ?? 0),
          jitter: HealthReply.Jitter(samples: jitter.samples, p95: jitter.points),
          drift: HealthReply.Drift(
            taps: state.drift.taps, x: mean?.x, y: mean?.y, threshold: settings.driftThreshold,
            minimumTaps: settings.driftMinimumTaps, drifted: drifted),
          nearMisses: misses.map { view, sides in
            HealthReply.NearMiss(
              view: view, left: sides[.left] ?? 0, right: sides[.right] ?? 0, above: sides[.above] ?? 0,
              below: sides[.below] ?? 0)
          }.sorted { ($0.count, $1.view) > ($1.count, $0.view) })
      })
  }
}
