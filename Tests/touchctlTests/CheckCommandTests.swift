import Foundation
import Testing
import TouchdTestKit

@Suite("touchctl check")
struct CheckCommandTests {
  @Test("A valid scene prints its counts and exits 0")
  func valid() throws {
    let path = TestPaths.config("kiosk.yaml").path
    let result = try runTouchctl(["check", path])
    #expect(result.status == 0)
    #expect(result.stdout == "\(path): ok (1 windows, 6 views, 5 recognizers)\n")
  }

  @Test("The product-list example, with its two scroll views, passes")
  func productList() throws {
    let path = TestPaths.config("product-list.yaml").path
    let result = try runTouchctl(["check", path])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdout == "\(path): ok (1 windows, 38 views, 35 recognizers)\n")
  }

  @Test("A bad scroll value is reported with its position and exits 1")
  func invalidScroll() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-check-\(UUID()).yaml")
    try """
    version: 1
    windows:
      - id: main
        size: {width: 10, height: 10}
        views:
          - id: list
            frame: {x: 0, y: 0, width: 10, height: 10}
            scroll: {contentSize: {width: 10, height: 100}, decelerationRate: slow}
    """.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try runTouchctl(["check", url.path])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr == """
        \(url.path):8:75: error: 'decelerationRate' in scroll of view 'list' must be normal, fast or a number \
        between 0 and 1 (both excluded), found 'slow'

        """)
  }

  @Test("An invalid scene prints every error to stderr and exits 1")
  func invalid() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-check-\(UUID()).yaml")
    try """
    version: 1
    windows:
      - id: main
        size: {width: 10, height: 10}
        views:
          - id: door
            frame: {x: 0, y: 0, width: 1, height: 1}
            hiden: true
            alpha: 3
    """.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try runTouchctl(["check", url.path])
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr == """
        \(url.path):8:9: error: unknown key 'hiden' in view 'door' (did you mean 'hidden'?)
        \(url.path):9:16: error: 'alpha' in view 'door' must be between 0 and 1, found 3

        """)
  }
}
