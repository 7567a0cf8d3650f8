import Foundation
import Testing
import TouchDelivery
import TouchdInput

@testable import TouchdScene

/// A page control's `pages:` binding kept through `update`s (the bug found in the last review:
/// the binding was made once, when the scene was built): a page control added or replaced, and
/// a scroll view replaced, are bound anew; one binding per control id, so that nothing is told
/// twice.
@Suite struct PageBindingUpdateTests {
  /// PageControlTests' carousel (5 pages of 500 pt) with its bound `dots` below.
  static let yaml = PageControlTests.boundScene

  static let dotsJSON =
    #"{"id":"dots","frame":{"x":0,"y":320,"width":500,"height":30},"#
    + #""control":{"type":"pageControl","numberOfPages":5,"pages":"carousel","actions":{"valueChanged":"page"}}}"#

  static let carouselJSON =
    #"{"id":"carousel","frame":{"x":0,"y":0,"width":500,"height":300},"#
    + #""scroll":{"contentSize":{"width":2500,"height":300},"pagingEnabled":true}}"#

  func currentPage(_ h: RuntimeHarness) -> Int? { (h.runtime.view("dots") as? PageControl)?.currentPage }

  /// Scrolling `carousel` to `x` moves the dots; a tap right of the current dot (x 400, far right
  /// of every dot) moves one page forward and scrolls the carousel there, animated.
  func expectBound(_ h: RuntimeHarness, at time: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
    try h.runtime.setView("carousel", scroll: ScrollChange(contentOffset: WirePoint(x: 1000, y: 0)))
    #expect(currentPage(h) == 2, "scrolling sets the page", sourceLocation: sourceLocation)
    h.log.removeAll()
    h.tapPoint(time, 400, 335)
    h.clock.advance(to: time + 2)
    #expect(h.log == ["page "], "one valueChanged action", sourceLocation: sourceLocation)
    #expect(currentPage(h) == 3, sourceLocation: sourceLocation)
    #expect(h.runtime.scrollView("carousel")?.contentOffset.x == 1500, sourceLocation: sourceLocation)
    #expect(h.runtime.pageBindings.count == 1, sourceLocation: sourceLocation)
  }

  @Test func theSceneAsBuiltIsBound() throws {
    try expectBound(RuntimeHarness(document: Scene.parseDocument(Self.yaml)), at: 1)
  }

  @Test func aPageControlAddedByAnUpdateIsBound() throws {
    let yaml = ruleScene(
      """
      - id: carousel
        frame: {x: 0, y: 0, width: 500, height: 300}
        scroll: {contentSize: {width: 2500, height: 300}, pagingEnabled: true}
      """)
    let h = try RuntimeHarness(document: Scene.parseDocument(yaml))
    #expect(h.runtime.pageBindings.isEmpty)
    _ = try h.update(#"{"cmd":"update","op":"add","parent":"w","view":"# + Self.dotsJSON + "}")
    try expectBound(h, at: 1)
  }

  @Test func aPageControlReplacedThreeTimesIsBoundOnce() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    let first = try #require(h.runtime.view("dots"))
    for _ in 0..<3 { _ = try h.update(#"{"cmd":"update","op":"replace","view":"# + Self.dotsJSON + "}") }
    #expect(h.runtime.view("dots") !== first)
    try expectBound(h, at: 1)
  }

  @Test func aReplacedScrollViewIsBoundAndTheOldOneIsLetGo() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    let old = try #require(h.runtime.scrollView("carousel"))
    _ = try h.update(#"{"cmd":"update","op":"replace","view":"# + Self.carouselJSON + "}")
    #expect(h.runtime.scrollView("carousel") !== old)
    try expectBound(h, at: 1)
    // The scroll view that left no longer moves the dots.
    old.setContentOffset(Point(x: 0, y: 0), animated: false)
    #expect(currentPage(h) == 3)
  }

  @Test func aPageControlReplacedWithoutPagesIsUnbound() throws {
    let h = try RuntimeHarness(document: Scene.parseDocument(Self.yaml))
    let unbound = Self.dotsJSON.replacingOccurrences(of: #","pages":"carousel""#, with: "")
    _ = try h.update(#"{"cmd":"update","op":"replace","view":"# + unbound + "}")
    #expect(h.runtime.pageBindings.isEmpty)
    try h.runtime.setView("carousel", scroll: ScrollChange(contentOffset: WirePoint(x: 1000, y: 0)))
    #expect(currentPage(h) == 0, "the carousel no longer sets the page")
    h.tapPoint(1, 400, 335)
    h.clock.advance(to: 3)
    #expect(currentPage(h) == 1)
    #expect(h.runtime.scrollView("carousel")?.contentOffset.x == 1000, "the dots no longer scroll it")
  }
}
