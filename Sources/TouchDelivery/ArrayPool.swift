/// Working arrays lent for one use and given back empty with their capacity, so that a turn of
/// the arbiter allocates none of them once the pool has warmed up (docs/performance.md). Nested
/// turns (a touches method that starts another) borrow arrays of their own.
struct ArrayPool<Element> {
  private var free: [[Element]] = []

  /// An empty array, with the capacity of an earlier one when the pool has one.
  mutating func borrow() -> [Element] { free.popLast() ?? [] }

  /// Empties `array` (its elements are released), keeps its storage for the next borrower, and
  /// leaves `array` empty without storage.
  mutating func giveBack(_ array: inout [Element]) {
    array.removeAll(keepingCapacity: true)
    free.append(array)
    array = []
  }
}
