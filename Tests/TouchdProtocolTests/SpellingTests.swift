import Testing

@testable import TouchdProtocol

/// The suggestions of error messages ("did you mean …?"): the edit distance they are chosen by.
@Suite("Spelling")
struct SpellingTests {
  @Test("Suggestions only for close names")
  func suggestions() {
    #expect(closestMatch(to: "hiden", in: ["hidden", "alpha"]) == "hidden")
    #expect(closestMatch(to: "Alpha", in: ["hidden", "alpha"]) == "alpha")
    #expect(
      closestMatch(to: "numberOfTaps", in: ["numberOfTapsRequired", "allowableMovement"]) == "numberOfTapsRequired")
    #expect(closestMatch(to: "zzz", in: ["hidden", "alpha"]) == nil)
    // Two neighbouring letters swapped are one slip, even where the limit is one edit.
    #expect(closestMatch(to: "mian", in: ["main", "menu"]) == "main")
    #expect(closestMatch(to: "ipn", in: ["pin", "pan"]) == "pin")
    #expect(closestMatch(to: "mina", in: ["main"]) == nil)
  }

  /// The banded edit distance agrees with the whole one wherever it is within the limit.
  @Test("The banded edit distance is the Levenshtein distance up to its limit")
  func bandedEditDistance() {
    func full(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
      var previous = Array(0...b.count)
      for i in 1...max(1, a.count) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
          current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
      }
      return previous[b.count]
    }
    let words = [
      "", "a", "ab", "ba", "abc", "hidden", "hiden", "hdiden", "hiddne", "hidden-door", "door", "odor", "kitten",
      "sitting", "flaw", "lawn", "aaaa", "aaab", "baaa", "abab", "requireToFail", "requiresToFail", "simultaneousWith",
    ]
    for a in words {
      for b in words {
        for limit in 1...3 {
          let (x, y) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
          let expected = full(x, y)
          #expect(editDistance(x, y, limit: limit) == (expected <= limit ? expected : nil), "\(a) \(b) \(limit)")
        }
      }
    }
  }
}
