/// The stable JSON line form of a frame that `touchctl replay` prints:
/// `{"time":12.034560,"touches":[{"id":1,"phase":"began","x":0.2500,"y":0.5000}]}`.
///
/// Time has six decimals (as evemu writes it), x and y four; touches are sorted by id.
public enum FrameJSON {
  /// One line, without the newline.
  public static func line(_ frame: TouchFrame) -> String {
    var out = "{\"time\":\(frame.time.description),\"touches\":["
    for (index, contact) in frame.contacts.sorted(by: { $0.id < $1.id }).enumerated() {
      if index > 0 { out += "," }
      out += "{\"id\":\(contact.id.rawValue),\"phase\":\"\(contact.phase.rawValue)\""
      out += ",\"x\":\(fixed(contact.x)),\"y\":\(fixed(contact.y))}"
    }
    out += "]}"
    return out
  }

  /// `value` with exactly four decimals, without Foundation's locale-dependent formatting.
  static func fixed(_ value: Double) -> String {
    let scaled = (value * 10_000).rounded()
    guard scaled.isFinite, abs(scaled) < 1e15 else { return "0.0000" }
    let integer = Int64(scaled)
    let sign = integer < 0 ? "-" : ""
    let magnitude = integer.magnitude
    let fraction = String(magnitude % 10_000)
    return "\(sign)\(magnitude / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
  }
}
