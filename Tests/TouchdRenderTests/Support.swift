import Foundation
import TouchdInput
import TouchdRender
import TouchdScene
import TouchdTestKit

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One element of a parsed SVG: name, attributes, text content and its enclosing elements' names.
struct Element {
  var name: String
  var attributes: [String: String]
  var text = ""
  /// The `data-id` / `class` attributes of the enclosing elements, innermost last.
  var ancestors: [[String: String]]

  var classes: Set<String> { Set((attributes["class"] ?? "").split(separator: " ").map(String.init)) }
  func has(_ cls: String) -> Bool { classes.contains(cls) }
  subscript(_ name: String) -> String? { attributes[name] }
  func number(_ name: String) -> Double? { attributes[name].flatMap(Double.init) }
  /// The window group the element is in.
  var window: String? { ancestors.last(where: { $0["class"] == "window" })?["data-id"] }
}

/// Parses an SVG document with Foundation's XMLParser; throws when it is not well-formed XML.
final class SVGDocument: NSObject, XMLParserDelegate {
  private(set) var elements: [Element] = []
  private var stack: [Int] = []
  private(set) var root: String?

  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  init(_ text: String) throws {
    super.init()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = self
    guard parser.parse() else {
      throw Malformed(
        description:
          "line \(parser.lineNumber): \(parser.parserError.map { String(describing: $0) } ?? "parse error")")
    }
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    if root == nil { root = elementName }
    elements.append(
      Element(name: elementName, attributes: attributes, ancestors: stack.map { elements[$0].attributes }))
    stack.append(elements.count - 1)
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    for i in stack { elements[i].text += string }
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
  ) {
    stack.removeLast()
  }

  /// Elements named `name` having class `cls`.
  func all(_ name: String, _ cls: String) -> [Element] { elements.filter { $0.name == name && $0.has(cls) } }
}

/// The kiosk scene of the docs picture: config/scene.yaml.
var kioskScenePath: String { TestPaths.repositoryRoot.appendingPathComponent("config/scene.yaml").path }

/// The docs picture's recording: a tap on "buy ticket", a double tap on "show map", a pinch on "help".
func docsScript() -> FingerScript {
  let script = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 10)
  script.tap(at: .init(x: 400, y: 480))
  script.wait(0.6)
  script.doubleTap(at: .init(x: 960, y: 480))
  script.wait(0.6)
  script.pinch(center: .init(x: 1520, y: 470), fromDistance: 120, toDistance: 360, duration: 0.3)
  return script
}

let docsRecordingURL = TestPaths.repositoryRoot.appendingPathComponent(
  "Tests/TouchdRenderTests/Fixtures/kiosk-tap-doubletap-pinch.evemu")
let docsImageURL = TestPaths.repositoryRoot.appendingPathComponent("docs/images/kiosk-tap-doubletap-pinch.svg")

/// The scroll example's scene: config/product-list.yaml.
var productListScenePath: String { TestPaths.repositoryRoot.appendingPathComponent("config/product-list.yaml").path }

/// The scroll picture's recording: a flick up the product list, a swipe to the next offer once the
/// list is at rest, then a tap on a row the flick brought into view.
func scrollDocsScript() -> FingerScript {
  let script = FingerScript(windowWidth: 1280, windowHeight: 800, start: 10)
  script.drag(from: .init(x: 400, y: 650), to: .init(x: 400, y: 300), duration: 0.25)
  script.wait(4)
  script.drag(from: .init(x: 1200, y: 150), to: .init(x: 900, y: 150), duration: 0.2)
  script.wait(1)
  script.tap(at: .init(x: 300, y: 400))
  return script
}

let scrollDocsRecordingURL = TestPaths.repositoryRoot.appendingPathComponent(
  "Tests/TouchdRenderTests/Fixtures/product-list-scroll.evemu")
let scrollDocsImageURL = TestPaths.repositoryRoot.appendingPathComponent("docs/images/product-list-scroll.svg")

/// A file in a fresh temporary directory.
func temporaryFile(_ name: String) -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-render-\(UUID())")
  try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory.appendingPathComponent(name)
}

/// The controls example's scene: config/kiosk-controls.yaml.
var kioskControlsScenePath: String {
  TestPaths.repositoryRoot.appendingPathComponent("config/kiosk-controls.yaml").path
}

/// The controls picture's recording: a tap on the receipt switch (on to off), a drag of the volume
/// slider's thumb from 0.5 to 0.8, a tap on the stepper's plus, a tap on the "de" segment and a tap
/// on "buy".
func controlsDocsScript() -> FingerScript {
  let script = FingerScript(windowWidth: 1280, windowHeight: 800, start: 10)
  script.tap(at: .init(x: 1222, y: 447))
  script.wait(0.5)
  // The thumb's centre at 0.5 is 880 + 14 + 0.5 × (368 − 28) = 1064; 102 pt further is 0.8.
  script.drag(from: .init(x: 1064, y: 668), to: .init(x: 1166, y: 668), duration: 0.3)
  script.wait(0.5)
  script.tap(at: .init(x: 205, y: 189))
  script.wait(0.5)
  script.tap(at: .init(x: 1064, y: 60))
  script.wait(0.5)
  script.tap(at: .init(x: 212, y: 712))
  return script
}

let controlsDocsRecordingURL = TestPaths.repositoryRoot.appendingPathComponent(
  "Tests/TouchdRenderTests/Fixtures/kiosk-controls.evemu")
let controlsDocsImageURL = TestPaths.repositoryRoot.appendingPathComponent("docs/images/kiosk-controls.svg")
