// speech-dispatcher's protocol, SSIP: the lines touchd sends and how it reads the replies. Every
// rule here is the `ssip.info` manual's (Debian's speech-dispatcher package, "SSIP Commands").

/// SSIP, as touchd speaks it: one command line at a time, each answered by a reply whose last line
/// is a three-digit code and a space (lines before it have a dash after the code); `SPEAK` is
/// answered 230, then takes the text, ended by a line holding one dot, and answers again (225).
/// Lines end with CR LF. touchd asks for no event notifications, so every line it reads is a reply.
enum SSIP {
  /// `SET self CLIENT_NAME user:client:component`: the first command of a connection. Each part
  /// may hold only letters, digits, dashes and underscores; the component is the window's id with
  /// any other character made an underscore.
  static func clientName(window: String) -> String {
    let component = String(
      String.UnicodeScalarView(
        window.unicodeScalars.map { s in
          (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) || s == "-" || s == "_" ? s : "_"
        }))
    return "SET self CLIENT_NAME touchd:touchd:\(component.isEmpty ? "_" : component)"
  }

  /// Every message of the connection at priority `message`: said after what is being said (it
  /// does not interrupt itself), and cancelling `text`, `notification` and `progress` messages
  /// ("Priority Categories"). touchd interrupts its own utterances with ``cancel``.
  static let priorityMessage = "SET self PRIORITY message"
  /// `SET self LANGUAGE` (RFC 1766 codes).
  static func language(_ code: String) -> String { "SET self LANGUAGE \(code)" }
  /// `SET self RATE`, -100 to 100.
  static func rate(_ rate: Int) -> String { "SET self RATE \(rate)" }
  /// `SET self SYNTHESIS_VOICE`: a voice by its synthesizer's name.
  static func voice(_ name: String) -> String { "SET self SYNTHESIS_VOICE \(name)" }
  /// Stops what the connection is saying and drops what it has queued ("CANCEL": as STOP, "with the
  /// exception that it stops as yet unspoken output messages as well").
  static let cancel = "CANCEL self"
  /// Stops output at once, postponing everything until ``resume`` ("PAUSE").
  static let pause = "PAUSE self"
  static let resume = "RESUME self"
  static let speak = "SPEAK"

  /// The reply code that asks for a `SPEAK`'s text ("230 OK RECEIVING DATA").
  static let receivingData = 230

  /// A `SPEAK`'s text as sent: its lines CR LF ended, a dot before each that starts with one, then
  /// the line of a single dot ("SPEAK": "If any line within the sent text starts with a dot, an
  /// extra dot is prepended before it").
  static func textBlock(_ text: String) -> String {
    var block = ""
    // Any line break ends a line: "\r\n" is one Character to Swift, so it is named as well as "\n".
    for line in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    {
      if line.hasPrefix(".") { block += "." }
      block += line + "\r\n"
    }
    return block + "."
  }

  /// A reply line's code and whether it is the reply's last (a space after the code, where the
  /// lines before the last have a dash); nil for a line that is no reply.
  static func reply(_ line: Substring) -> (code: Int, isLast: Bool)? {
    let bytes = Array(line.utf8.prefix(4))
    guard bytes.count >= 3, bytes[0..<3].allSatisfy({ (48...57).contains($0) }) else { return nil }
    let code = bytes[0..<3].reduce(0) { $0 * 10 + Int($1 - 48) }
    return (code, bytes.count == 3 || bytes[3] == UInt8(ascii: " "))
  }

  /// Whether a reply code is a success (2xx); 3xx and 4xx are errors ("Return Codes").
  static func isSuccess(_ code: Int) -> Bool { (200..<300).contains(code) }
}
