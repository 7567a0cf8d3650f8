/// The stable JSON line form of a frame that `touchctl replay` prints:
/// `{"time":12.034560,"touches":[{"id":1,"phase":"began","x":0.2500,"y":0.5000}]}`.
///
/// Time has six decimals (as evemu writes it), x and y four; touches are sorted by id.
///
/// A key device's frame is `{"time":0.100000,"keys":[{"code":28,"name":"KEY_ENTER","phase":"down"}]}`:
/// the `EV_KEY` code (the headphone switch: 770, `SW_HEADPHONE_INSERT`), its kernel name when libevdev's table has one, and the phase (`down`, `up`,
/// `cancelled`), in the order the device reported them. A replay of several devices adds
/// `"device":N` after the time to every line: N counts the devices from 0 in the order given.
///
/// A pen display's frame adds the pen after its touches, near or touching:
/// `"pen":{"proximity":true,"x":0.4373,"y":0.3332,"distance":0.1000,"altitudeAngle":1.2345,
/// "azimuthAngle":3.1416,"buttons":["barrel"],"eraser":false}` (`distance` only where the device
/// reports it, angles in radians to four decimals, device-normalized like x and y), and its tip's
/// touch carries `"type":"pencil"` and its `force` (0...1 of the pressure range, as libinput
/// normalizes it).
public enum FrameJSON {
  /// One line, without the newline.
  public static func line(_ frame: TouchFrame) -> String { line(frame, device: nil) }

  /// One line of a device's touch frame, `device` (when given) after the time.
  public static func line(_ frame: TouchFrame, device: Int?) -> String {
    var out = "{\"time\":\(frame.time.description),\(device.map { "\"device\":\($0)," } ?? "")\"touches\":["
    for (index, contact) in frame.contacts.sorted(by: { $0.id < $1.id }).enumerated() {
      if index > 0 { out += "," }
      out += "{\"id\":\(contact.id.rawValue),\"phase\":\"\(contact.phase.rawValue)\""
      out += ",\"x\":\(fixed(contact.x)),\"y\":\(fixed(contact.y))"
      if contact.pen != nil {
        out += ",\"type\":\"pencil\""
        if let force = contact.force { out += ",\"force\":\(fixed(force))" }
      }
      out += "}"
    }
    out += "]"
    if let pen = frame.pen {
      out += ",\"pen\":{\"proximity\":\(pen.inProximity),\"x\":\(fixed(pen.x)),\"y\":\(fixed(pen.y))"
      if let distance = pen.distance { out += ",\"distance\":\(fixed(distance))" }
      out += ",\"altitudeAngle\":\(fixed(pen.properties.altitudeAngle))"
      out += ",\"azimuthAngle\":\(fixed(pen.properties.azimuthAngle)),\"buttons\":["
      let names = [(PenButtons.barrel, "barrel"), (.barrel2, "barrel2"), (.barrel3, "barrel3")]
      out += names.filter { pen.buttons.contains($0.0) }.map { "\"\($0.1)\"" }.joined(separator: ",")
      out += "],\"eraser\":\(pen.properties.isEraser)}"
    }
    out += "}"
    return out
  }

  /// One line of a key frame, `device` (when given) after the time.
  public static func line(_ frame: KeyFrame, device: Int? = nil) -> String {
    var out = "{\"time\":\(frame.time.description),\(device.map { "\"device\":\($0)," } ?? "")\"keys\":["
    for (index, change) in frame.changes.enumerated() {
      if index > 0 { out += "," }
      out += "{\"code\":\(change.code),"
      if let name = KeyAssembler.name(of: change.code) { out += "\"name\":\"\(name)\"," }
      out += "\"phase\":\"\(change.phase.rawValue)\"}"
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
