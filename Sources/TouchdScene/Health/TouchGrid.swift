/// Touch-downs per cell of a coarse grid over a touchscreen, over a rolling window: the window is
/// cut into periods, each cell counts per period, and the oldest period is cleared as a new one
/// starts. Storage is allocated once; counting a touch-down allocates nothing.
struct TouchGrid {
  let columns: Int
  let rows: Int
  let periods: Int
  let periodLength: Double
  /// `periods` blocks of `columns * rows` counts.
  private var counts: [UInt32]
  /// The period each block holds (its start time divided by `periodLength`), -1 when empty.
  private var periodOfBlock: [Int]

  init(columns: Int, rows: Int, window: Double, periods: Int) {
    self.columns = columns
    self.rows = rows
    self.periods = periods
    self.periodLength = window / Double(periods)
    counts = Array(repeating: 0, count: columns * rows * periods)
    periodOfBlock = Array(repeating: -1, count: periods)
  }

  /// The cell of a position in 0...1 on both axes (clamped onto the grid).
  func cell(x: Double, y: Double) -> Int {
    let column = min(max(Int(x * Double(columns)), 0), columns - 1)
    let row = min(max(Int(y * Double(rows)), 0), rows - 1)
    return row * columns + column
  }

  /// Counts a touch-down at a position in 0...1 at `time`.
  mutating func countTouchDown(x: Double, y: Double, at time: Double) {
    let block = self.block(at: time)
    counts[block * columns * rows + cell(x: x, y: y)] &+= 1
  }

  /// The block of the period `time` falls in, cleared first when it held an older period.
  private mutating func block(at time: Double) -> Int {
    let period = Int((time / periodLength).rounded(.down))
    let block = ((period % periods) + periods) % periods
    if periodOfBlock[block] != period {
      let start = block * columns * rows
      for i in start..<start + columns * rows { counts[i] = 0 }
      periodOfBlock[block] = period
    }
    return block
  }

  /// Each cell's touch-downs within the window that ends at `time`, row by row from the top left.
  func cellCounts(at time: Double) -> [Int] {
    let now = Int((time / periodLength).rounded(.down))
    var sums = Array(repeating: 0, count: columns * rows)
    for block in 0..<periods {
      let period = periodOfBlock[block]
      guard period >= 0, period > now - periods, period <= now else { continue }
      let start = block * columns * rows
      for cell in 0..<columns * rows { sums[cell] += Int(counts[start + cell]) }
    }
    return sums
  }

  /// The dead cells of `counts` (``cellCounts(at:)``): no touch-down while at least half the cells
  /// within two cells of it had `busy` or more (``HealthSettings/busyCellTouchDowns``).
  func deadCells(_ counts: [Int], busy: Int) -> [Int] {
    var dead: [Int] = []
    for row in 0..<rows {
      for column in 0..<columns where counts[row * columns + column] == 0 {
        var neighbours = 0
        var busyNeighbours = 0
        for r in max(row - 2, 0)...min(row + 2, rows - 1) {
          for c in max(column - 2, 0)...min(column + 2, columns - 1) where r != row || c != column {
            neighbours += 1
            if counts[r * columns + c] >= busy { busyNeighbours += 1 }
          }
        }
        if busyNeighbours * 2 >= neighbours { dead.append(row * columns + column) }
      }
    }
    return dead
  }
}
