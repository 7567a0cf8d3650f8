/// The fields of the reply to `health` (docs/operations.md, "Touchscreen health"): each window's
/// touchscreen as aggregates only (counts per cell and per view, no sequence or time of a single
/// touch). What `touchctl health` prints and `touchctl render --heatmap` draws.
public struct HealthReply: Decodable, Hashable, Sendable {
  /// Each window the daemon has seen since it started, in that order (a reload keeps them).
  public var windows: [Window]

  public init(windows: [Window]) { self.windows = windows }

  public struct Window: Decodable, Hashable, Sendable {
    /// The window's id.
    public var id: String
    /// Whether the window keeps a grid (its `health: {heatmap: false}` turns it, its dead cells and
    /// its near misses off).
    public var heatmap: Bool
    /// Touch-downs since the daemon started.
    public var touchDowns: Int
    /// The touch-downs per cell over the grid's rolling window; nil with `heatmap: false`.
    public var grid: Grid?
    /// Cells with no touch-down while their neighbourhood is busy.
    public var deadCells: [Cell]
    public var ghosts: Ghosts
    public var jitter: Jitter
    public var drift: Drift
    /// The views people miss, most missed first.
    public var nearMisses: [NearMiss]

    public init(
      id: String, heatmap: Bool, touchDowns: Int, grid: Grid?, deadCells: [Cell], ghosts: Ghosts, jitter: Jitter,
      drift: Drift, nearMisses: [NearMiss]
    ) {
      self.id = id
      self.heatmap = heatmap
      self.touchDowns = touchDowns
      self.grid = grid
      self.deadCells = deadCells
      self.ghosts = ghosts
      self.jitter = jitter
      self.drift = drift
      self.nearMisses = nearMisses
    }
  }

  /// `columns` × `rows` cells over the window, `counts` row by row from the top left.
  public struct Grid: Decodable, Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public var counts: [Int]
    public init(columns: Int, rows: Int, counts: [Int]) {
      self.columns = columns
      self.rows = rows
      self.counts = counts
    }
  }

  /// A cell of the grid, from 0 at the left and top.
  public struct Cell: Decodable, Hashable, Sendable {
    public var column: Int
    public var row: Int
    public init(column: Int, row: Int) {
      self.column = column
      self.row = row
    }
  }

  /// Ghost touches since the daemon started, by kind.
  public struct Ghosts: Decodable, Hashable, Sendable {
    public var burst: Int
    public var pinned: Int
    public var idle: Int
    public init(burst: Int, pinned: Int, idle: Int) {
      self.burst = burst
      self.pinned = pinned
      self.idle = idle
    }
  }

  /// The jitter of stationary fingers: how many moves were measured and their 95th percentile
  /// distance in points (nil without one).
  public struct Jitter: Decodable, Hashable, Sendable {
    public var samples: Int
    public var p95: Double?
    public init(samples: Int, p95: Double?) {
      self.samples = samples
      self.p95 = p95
    }
  }

  /// Calibration drift: the mean offset, in points, of the last `taps` recognized single-finger
  /// taps from their view's centre (nil before a tap); `drifted` once an axis is past `threshold`
  /// with at least `minimumTaps` taps.
  public struct Drift: Decodable, Hashable, Sendable {
    public var taps: Int
    public var x: Double?
    public var y: Double?
    public var threshold: Double
    public var minimumTaps: Int
    public var drifted: Bool
    public init(taps: Int, x: Double?, y: Double?, threshold: Double, minimumTaps: Int, drifted: Bool) {
      self.taps = taps
      self.x = x
      self.y = y
      self.threshold = threshold
      self.minimumTaps = minimumTaps
      self.drifted = drifted
    }
  }

  /// A view's near misses: taps nobody's recognizer took that landed outside it but close, by the
  /// side they landed on.
  public struct NearMiss: Decodable, Hashable, Sendable {
    public var view: String
    public var count: Int
    public var left: Int
    public var right: Int
    public var above: Int
    public var below: Int
    public init(view: String, left: Int, right: Int, above: Int, below: Int) {
      self.view = view
      self.count = left + right + above + below
      self.left = left
      self.right = right
      self.above = above
      self.below = below
    }
  }

  /// The reply's members, encoded, for ``ReplyMessage/ok(idJSON:fieldsJSON:)``.
  public var fieldsJSON: String {
    var w = JSONLineWriter(#"{"windows":["#)
    for (i, window) in windows.enumerated() {
      w.string(i == 0 ? #"{"id":"# : #",{"id":"#, window.id)
      w.bool(#","heatmap":"#, window.heatmap)
      w.integer(#","touchDowns":"#, window.touchDowns)
      if let grid = window.grid {
        w.integer(#","grid":{"columns":"#, grid.columns)
        w.integer(#","rows":"#, grid.rows)
        w.raw(#","counts":["#)
        for (j, count) in grid.counts.enumerated() {
          if j > 0 { w.raw(",") }
          w.integer(count)
        }
        w.raw("]}")
      } else {
        w.raw(#","grid":null"#)
      }
      w.raw(#","deadCells":["#)
      for (j, cell) in window.deadCells.enumerated() {
        w.integer(j == 0 ? #"{"column":"# : #",{"column":"#, cell.column)
        w.integer(#","row":"#, cell.row)
        w.raw("}")
      }
      w.integer(#"],"ghosts":{"burst":"#, window.ghosts.burst)
      w.integer(#","pinned":"#, window.ghosts.pinned)
      w.integer(#","idle":"#, window.ghosts.idle)
      w.integer(#"},"jitter":{"samples":"#, window.jitter.samples)
      w.optionalNumber(#","p95":"#, window.jitter.p95)
      w.integer(#"},"drift":{"taps":"#, window.drift.taps)
      w.optionalNumber(#","x":"#, window.drift.x)
      w.optionalNumber(#","y":"#, window.drift.y)
      w.number(#","threshold":"#, window.drift.threshold)
      w.integer(#","minimumTaps":"#, window.drift.minimumTaps)
      w.bool(#","drifted":"#, window.drift.drifted)
      w.raw(#"},"nearMisses":["#)
      for (j, miss) in window.nearMisses.enumerated() {
        w.string(j == 0 ? #"{"view":"# : #",{"view":"#, miss.view)
        w.integer(#","count":"#, miss.count)
        w.integer(#","left":"#, miss.left)
        w.integer(#","right":"#, miss.right)
        w.integer(#","above":"#, miss.above)
        w.integer(#","below":"#, miss.below)
        w.raw("}")
      }
      w.raw("]}")
    }
    w.raw("]")
    return w.finishMembers()
  }
}
