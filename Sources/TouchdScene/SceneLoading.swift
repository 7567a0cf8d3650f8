// Reading a scene: the file (size-limited), its YAML composed and validated (``SceneValidator``,
// SceneValidation.swift), then decoded into a ``Scene`` or a ``SceneDocument``; syntax errors as
// diagnostics.
import Foundation
import TouchdInput
import Yams

extension Scene {
  /// Parses and validates a scene. Every problem in the file is reported at once, sorted by position.
  /// - Parameter file: the name diagnostics use for the file.
  public static func parse(_ yaml: String, file: String = "scene.yaml") throws(SceneError) -> Scene {
    try Scene.decoded(from: validatedTree(yaml, file: file).tree, file: file)
  }

  /// The scene's YAML tree once it has passed the validator, composed (`root`) and as the
  /// validator walked it (`tree`, what ``parse(_:file:)`` decodes).
  static func validatedTree(_ yaml: String, file: String) throws(SceneError) -> (root: Node, tree: SceneNode) {
    // Before Yams composes the text: aliases that multiply it would take it (hashing keys) and the
    // validator (walking the tree) time exponential in the size of the file.
    if let alias = YAMLAliases.firstExcessiveAlias(in: yaml) {
      throw SceneError(diagnostics: [
        SceneDiagnostic(
          file: file, line: alias.line, column: alias.column,
          message: "aliases expand the scene to \(alias.nodes) YAML nodes at this one, more than twice those written "
            + "out: anchors and aliases must not multiply the file")
      ])
    }
    let root: Node
    do {
      // No tag-resolving regular expressions: plain scalars are resolved by `YAMLTags`.
      guard let node = try Yams.compose(yaml: yaml, .basic) else {
        throw SceneError(diagnostics: [
          SceneDiagnostic(file: file, line: 1, column: 1, message: "the scene is empty")
        ])
      }
      root = node
    } catch let error as SceneError {
      throw error
    } catch {
      throw SceneError(diagnostics: [syntaxDiagnostic(error, file: file)])
    }
    let tree = SceneNode(root)
    var validator = SceneValidator(file: file)
    validator.validate(tree)
    guard validator.diagnostics.isEmpty else {
      // libyaml places an empty document's null (`---` alone) on the line after a last line
      // without a line break: every place is clamped to the text, as syntax errors' are.
      let end = YAMLPosition.end(of: yaml)
      throw SceneError(
        diagnostics: validator.diagnostics.map { diagnostic in
          var d = diagnostic
          (d.line, d.column) = YAMLPosition.clamped(line: d.line, column: d.column, toEnd: end)
          return d
        })
    }
    return (root, tree)
  }

  /// The largest scene touchd reads: 2 MiB, room for a catalogue's list of 10,000 rows with a
  /// tap each written plainly (issue #43: the benchmarks' list is 1.5 MB as a pushed JSON line,
  /// 1.75 MB as YAML in docs/scene.md's block style).
  /// A file (`touchd --scene`, `reload`, SIGHUP) or a scene pushed by a client that is larger is
  /// refused before it is parsed, so what one scene can cost stays bounded (docs/operations.md,
  /// "Limits": the time a reload of the largest file holds the pipeline).
  public static let maximumFileBytes = 2 * 1024 * 1024

  /// Reads, parses and validates the scene file at `path`; diagnostics name the file as given. A
  /// file larger than `maximumBytes` is refused unparsed (`the file is N bytes, more than the limit
  /// of M bytes`), and at most `maximumBytes + 1` bytes are ever read.
  public static func load(path: String, maximumBytes: Int = maximumFileBytes) throws(SceneError) -> Scene {
    try parse(try readText(path: path, maximumBytes: maximumBytes), file: path)
  }

  /// ``load(path:maximumBytes:)`` with the file's tree as JSON: what `update` edits (Updates/).
  public static func loadDocument(path: String, maximumBytes: Int = maximumFileBytes) throws(SceneError)
    -> SceneDocument
  {
    try parseDocument(try readText(path: path, maximumBytes: maximumBytes), file: path)
  }

  /// ``parse(_:file:)`` with the YAML tree as JSON: what `update` edits (Updates/).
  public static func parseDocument(_ yaml: String, file: String = "scene.yaml") throws(SceneError) -> SceneDocument {
    let (root, tree) = try validatedTree(yaml, file: file)
    return SceneDocument(scene: try Scene.decoded(from: tree, file: file), json: SceneDocument.json(of: root))
  }

  /// The text of the scene file at `path`, read as ``load(path:maximumBytes:)`` says.
  private static func readText(path: String, maximumBytes: Int) throws(SceneError) -> String {
    func failure(_ message: String) -> SceneError {
      SceneError(diagnostics: [SceneDiagnostic(file: path, line: 0, column: 0, message: message)])
    }
    let data: Data
    do {
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
      defer { try? handle.close() }
      data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
    } catch {
      throw failure("cannot read the file: \(error.localizedDescription)")
    }
    guard data.count <= maximumBytes else {
      // The size, when the file has one (a device or a pipe that keeps giving bytes has none).
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 }
        .flatMap { $0 > maximumBytes ? $0 : nil }
      throw failure(
        "the file is \(size.map { "\($0) bytes, " } ?? "")more than the limit of \(maximumBytes) bytes for a scene")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw failure("cannot read the file: it is not UTF-8 text")
    }
    return text
  }

  /// Keys that occur twice in one mapping (`duplicates`, sorted), placed at the first of the first.
  static func duplicateKeysDiagnostic(_ duplicates: [String], line: Int, column: Int, file: String)
    -> SceneDiagnostic
  {
    SceneDiagnostic(
      file: file, line: line, column: column, key: duplicates.first,
      message: "duplicate key \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping")
  }

  private static func syntaxDiagnostic(_ error: Error, file: String) -> SceneDiagnostic {
    guard let yamlError = error as? YamlError else {
      return SceneDiagnostic(file: file, line: 1, column: 1, message: "YAML syntax error: \(error)")
    }
    switch yamlError {
    case .scanner(let context, let problem, let mark, let yaml), .parser(let context, let problem, let mark, let yaml),
      .composer(let context, let problem, let mark, let yaml):
      let detail = context.map { "\(problem) \($0.text)" } ?? problem
      // An error at the end of a text without a final newline is at the end of its last line.
      let (line, column) = YAMLPosition.clamped(line: mark.line, column: mark.column, in: yaml)
      return SceneDiagnostic(file: file, line: line, column: column, message: "YAML syntax error: \(detail)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      return duplicateKeysDiagnostic(duplicates, line: context.mark.line, column: context.mark.column, file: file)
    case .reader(let problem, let offset, _, let yaml):
      // Lines end as libyaml ends them (`\r\n`, `\r`…), columns count Unicode scalars.
      let (line, column) = offset.map { YAMLPosition.position(ofCharacter: $0, in: yaml) } ?? (1, 1)
      return SceneDiagnostic(file: file, line: line, column: column, message: "YAML reader error: \(problem)")
    default:
      return SceneDiagnostic(file: file, line: 1, column: 1, message: "YAML error: \(yamlError)")
    }
  }
}
