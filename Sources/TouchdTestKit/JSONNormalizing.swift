// Comparing daemon lines whose values vary from run to run (pids, descriptors, latencies): the
// tests pin every other byte.

/// `line` with the value of every member named in `keys` replaced by `#` when it is a scalar (a
/// number, string, `true`, `false` or `null`); objects and arrays are kept, every other byte too.
/// Spaces around the colon (pretty-printed JSON) are kept.
public func normalized(_ line: String, _ keys: Set<String>) -> String {
  let bytes = Array(line.utf8)
  var out: [UInt8] = []
  var i = 0
  /// The index after the string literal starting at `start` (a quote).
  func endOfString(_ start: Int) -> Int {
    var j = start + 1
    while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
    return min(j + 1, bytes.count)
  }
  while i < bytes.count {
    guard bytes[i] == UInt8(ascii: "\"") else {
      out.append(bytes[i])
      i += 1
      continue
    }
    let end = endOfString(i)
    let name = String(decoding: bytes[(i + 1)..<max(i + 1, end - 1)], as: UTF8.self)
    out += bytes[i..<end]
    i = end
    var colon = i
    while colon < bytes.count, bytes[colon] == UInt8(ascii: " ") { colon += 1 }
    guard keys.contains(name), colon < bytes.count, bytes[colon] == UInt8(ascii: ":") else { continue }
    var value = colon + 1
    while value < bytes.count, bytes[value] == UInt8(ascii: " ") { value += 1 }
    guard value < bytes.count, bytes[value] != UInt8(ascii: "{"), bytes[value] != UInt8(ascii: "[") else { continue }
    out += bytes[i..<value]
    out.append(UInt8(ascii: "#"))
    if bytes[value] == UInt8(ascii: "\"") {
      i = endOfString(value)
    } else {
      i = value
      while i < bytes.count, !",}] \n".utf8.contains(bytes[i]) { i += 1 }
    }
  }
  return String(decoding: out, as: UTF8.self)
}
