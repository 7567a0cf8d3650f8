import Foundation

/// The documentation's Markdown, read by the tests that hold a document's tables and examples to
/// the code (docs/protocol.md's command, trace and scroll tables, …).
public struct DocTables {
  /// The document's lines.
  public let lines: [String]

  /// Reads `relative`, a path inside the repository (`docs/protocol.md`).
  public init(_ relative: String) throws {
    lines = try String(contentsOfFile: TestPaths.repository(relative), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The cells of a table row, `| a | b |` → `["a", "b"]` (no cell of these tables holds a `|`).
  public static func cells(_ line: String) -> [String] {
    line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
      .map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// The code spans of a cell, in order: "`touch`, `window` (or null)" → `["touch", "window"]`.
  public static func codeSpans(_ cell: String) -> [String] {
    cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset % 2 == 1 }.map { String($0.element) }
  }

  /// No table of the document has the header asked for.
  public struct MissingTable: Error, CustomStringConvertible {
    public var header: String
    public var description: String { "no table whose header starts with \(header)" }
  }

  /// The rows of the table whose header starts with `header`, each as its cells.
  public func table(_ header: String) throws -> [[String]] {
    guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { throw MissingTable(header: header) }
    return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map(Self.cells)
  }
}
