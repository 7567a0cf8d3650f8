/// Builds an SVG (XML) document as text: elements with attributes in call order, text escaped,
/// numbers with at most two decimals, one element per line.
public struct SVGWriter {
  /// An attribute: name and raw (unescaped) value.
  public typealias Attribute = (name: String, value: String)

  private var out = ""
  private var open: [String] = []

  public init() {}

  /// Opens an element; close it with ``close()``.
  public mutating func open(_ name: String, _ attributes: [Attribute] = []) {
    line("<\(name)\(Self.attributes(attributes))>")
    open.append(name)
  }

  /// Closes the innermost open element.
  public mutating func close() {
    let name = open.removeLast()
    line("</\(name)>")
  }

  /// An element with no children.
  public mutating func empty(_ name: String, _ attributes: [Attribute] = []) {
    line("<\(name)\(Self.attributes(attributes))/>")
  }

  /// An element holding `text` (escaped).
  public mutating func text(_ name: String, _ attributes: [Attribute] = [], _ text: String) {
    line("<\(name)\(Self.attributes(attributes))>\(Self.escape(text))</\(name)>")
  }

  /// An element holding already-written child markup on one line (e.g. `<tspan>`s).
  public mutating func raw(_ name: String, _ attributes: [Attribute] = [], markup: String) {
    line("<\(name)\(Self.attributes(attributes))>\(markup)</\(name)>")
  }

  /// The document so far, with the XML declaration; every element must be closed.
  public var document: String {
    precondition(open.isEmpty, "SVGWriter: unclosed <\(open.last ?? "")>")
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + out
  }

  private mutating func line(_ s: String) {
    out += String(repeating: "  ", count: open.count) + s + "\n"
  }

  /// ` name="value"…` with values escaped.
  public static func attributes(_ attributes: [Attribute]) -> String {
    attributes.map { " \($0.name)=\"\(escape($0.value))\"" }.joined()
  }

  /// Escapes `&`, `<`, `>`, `"` and `'` for text and attribute values; drops characters XML 1.0
  /// does not allow (control characters other than tab, newline and carriage return).
  public static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      default:
        let v = scalar.value
        if v < 0x20 || v == 0xFFFE || v == 0xFFFF { continue }
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A number with at most two decimals and no trailing zeros: `12`, `12.5`, `-0.25`.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let hundredths = (value * 100).rounded()
    if hundredths == 0 { return "0" }
    let negative = hundredths < 0
    let magnitude = Int64(abs(hundredths))
    var s = String(magnitude / 100)
    let fraction = magnitude % 100
    if fraction != 0 {
      s += fraction % 10 == 0 ? ".\(fraction / 10)" : (fraction < 10 ? ".0\(fraction)" : ".\(fraction)")
    }
    return negative ? "-" + s : s
  }
}
