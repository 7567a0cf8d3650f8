/// The closest of `candidates` to a misspelt `name`, if one is close enough to suggest (scene
/// keys and ids, the daemon's options).
///
/// Takes time linear in the lengths: a suggestion is at most 3 edits away, so only that band of
/// the edit distance is worked out (after the common start and end are skipped), and a hostile
/// name of thousands of characters against ids as long costs little more than reading them.
public func closestMatch(to name: String, in candidates: [String]) -> String? {
  let lower = Array(name.lowercased().unicodeScalars)
  let limit = max(1, min(3, name.count / 3))
  var best: (String, Int)?
  for candidate in candidates {
    let c = Array(candidate.lowercased().unicodeScalars)
    var distance = editDistance(lower, c, limit: limit) ?? Int.max
    // Two neighbouring letters swapped ("mian") is one slip, though Levenshtein counts it as two.
    if distance > 1 && isOneTransposition(lower, c) { distance = 1 }
    if lower.count >= 4 && distance > 2 && (c.starts(with: lower) || lower.starts(with: c)) { distance = 2 }
    if distance <= limit && distance < (best?.1 ?? .max) { best = (candidate, distance) }
  }
  return best?.0
}

/// Whether `b` is `a` with two neighbouring scalars swapped.
func isOneTransposition(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
  guard a.count == b.count, let i = a.indices.first(where: { a[$0] != b[$0] }), i + 1 < a.count else {
    return false
  }
  return a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
}

/// The Levenshtein distance between two strings (in Unicode scalars) when it is at most `limit`,
/// nil when it is more. The common start and end are skipped, and of the rest only the cells within
/// `limit` of the diagonal are worked out (a cheaper path never leaves them): time proportional to
/// the length times `limit`.
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
  if abs(a.count - b.count) > limit { return nil }
  var start = 0
  while start < a.count && start < b.count && a[start] == b[start] { start += 1 }
  var aEnd = a.count
  var bEnd = b.count
  while aEnd > start && bEnd > start && a[aEnd - 1] == b[bEnd - 1] {
    aEnd -= 1
    bEnd -= 1
  }
  let a = a[start..<aEnd]
  let b = b[start..<bEnd]
  if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
  let over = limit + 1  // any distance beyond the limit
  var previous = [Int](repeating: over, count: b.count + 1)
  for j in 0...min(b.count, limit) { previous[j] = j }
  var current = [Int](repeating: over, count: b.count + 1)
  for i in 1...a.count {
    let low = max(1, i - limit)
    let high = min(b.count, i + limit)
    current[low - 1] = low == 1 && i < over ? i : over
    var rowBest = current[low - 1]
    let ai = a[a.startIndex + i - 1]
    for j in low...high {
      var cell = previous[j - 1] + (ai == b[b.startIndex + j - 1] ? 0 : 1)
      if previous[j] + 1 < cell { cell = previous[j] + 1 }
      if current[j - 1] + 1 < cell { cell = current[j - 1] + 1 }
      if cell > over { cell = over }
      current[j] = cell
      if cell < rowBest { rowBest = cell }
    }
    if high < b.count { current[high + 1] = over }
    if rowBest > limit { return nil }
    swap(&previous, &current)
  }
  return previous[b.count] <= limit ? previous[b.count] : nil
}
