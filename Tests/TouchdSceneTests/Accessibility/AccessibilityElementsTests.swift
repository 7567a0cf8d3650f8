import Testing
import TouchDelivery
import TouchdInput
import TouchdProtocol

@testable import TouchdScene

/// A window's accessibility elements (`SceneRuntime.accessibilityElements(inWindow:)`): which views
/// are elements by UIKit's defaults and the scene's `accessibility:`, a control's own traits and
/// value, frames on screen and activation points, and the reading order.
@Suite struct AccessibilityElementsTests {
  /// The elements of `views` in RuleSupport's 1000 x 800 window `w`.
  func elements(_ views: String) throws -> [AccessibilityElement] {
    try runtime(views).accessibilityElements(inWindow: 0)
  }

  func runtime(_ views: String) throws -> SceneRuntime {
    SceneRuntime(scene: try Scene.parse(ruleScene(views)), clock: VirtualClock()) { _ in }
  }

  /// `view` or `view#segment`, then label, value and traits, as one line each.
  func summary(_ elements: [AccessibilityElement]) -> [String] {
    elements.map { e in
      let name = e.segment.map { "\(e.view)#\($0)" } ?? e.view
      return "\(name) \(e.label ?? "-") \(e.value ?? "-") [\(e.traits.joined(separator: ","))]"
    }
  }

  @Test func labelledViewsAndControlsAreElementsAndPlainViewsAreNot() throws {
    let e = try elements(
      """
      - {id: plain, frame: {x: 0, y: 0, width: 100, height: 50}}
      - {id: title, frame: {x: 0, y: 60, width: 300, height: 50}, accessibility: {label: Tickets, traits: header}}
      - {id: buy, frame: {x: 0, y: 120, width: 200, height: 60}, control: {type: button}, accessibility: {label: Buy ticket, hint: Buys one ticket}}
      - {id: quiet, frame: {x: 0, y: 200, width: 200, height: 60}, control: {type: button}, accessibility: {label: Quiet, element: false}}
      - {id: area, frame: {x: 0, y: 300, width: 200, height: 60}, accessibility: {element: true}}
      """)
    #expect(summary(e) == ["title Tickets - [header]", "buy Buy ticket - [button]", "area - - []"])
    #expect(e[1].hint == "Buys one ticket")
  }

  @Test func hiddenTransparentAndAccessibilityHiddenViewsAndTheirSubviewsAreNoElements() throws {
    let e = try elements(
      """
      - {id: gone, frame: {x: 0, y: 0, width: 100, height: 50}, hidden: true, accessibility: {label: Gone}}
      - {id: faint, frame: {x: 0, y: 60, width: 100, height: 50}, alpha: 0.01, accessibility: {label: Faint}}
      - {id: dim, frame: {x: 0, y: 120, width: 100, height: 50}, alpha: 0.02, accessibility: {label: Dim}}
      - id: decor
        frame: {x: 0, y: 200, width: 500, height: 200}
        accessibility: {hidden: true}
        views: [{id: inner, frame: {x: 0, y: 0, width: 100, height: 50}, control: {type: button}}]
      - id: card
        frame: {x: 0, y: 420, width: 500, height: 200}
        accessibility: {label: Offer card}
        views: [{id: inside, frame: {x: 0, y: 0, width: 100, height: 50}, control: {type: button}}]
      """)
    // An element is no container: `card`'s button is not looked at.
    #expect(summary(e) == ["dim Dim - []", "card Offer card - []"])
  }

  @Test func aModalViewHidesItsSiblingsButNotItsOwnSubviews() throws {
    let views = """
      - {id: back, frame: {x: 0, y: 0, width: 200, height: 60}, control: {type: button}, accessibility: {label: Back}}
      - id: alert
        frame: {x: 200, y: 200, width: 600, height: 400}
        accessibility: {modal: true}
        views:
          - {id: ok, frame: {x: 20, y: 300, width: 200, height: 60}, control: {type: button}, accessibility: {label: OK}}
          - {id: message, frame: {x: 20, y: 20, width: 560, height: 100}, accessibility: {label: Your ticket is printing}}
      """
    #expect(summary(try elements(views)) == ["message Your ticket is printing - []", "ok OK - [button]"])
    let runtime = try runtime(views)
    try runtime.setView("alert", hidden: true)
    #expect(summary(runtime.accessibilityElements(inWindow: 0)) == ["back Back - [button]"])
  }

  @Test func controlsHaveTheirTypesTraitsAndValues() throws {
    let e = try elements(
      """
      - {id: sound, frame: {x: 0, y: 0, width: 60, height: 30}, control: {type: switch, on: true}, accessibility: {label: Sound}}
      - {id: volume, frame: {x: 100, y: 0, width: 300, height: 30}, control: {type: slider, minimumValue: 10, maximumValue: 20, value: 12.5}, accessibility: {label: Volume}}
      - {id: count, frame: {x: 500, y: 0, width: 94, height: 29}, control: {type: stepper, value: 3, maximumValue: 9}, accessibility: {label: Tickets, value: 3 tickets}}
      - {id: dots, frame: {x: 0, y: 100, width: 200, height: 30}, control: {type: pageControl, numberOfPages: 5, currentPage: 1}}
      - {id: size, frame: {x: 0, y: 200, width: 300, height: 40}, control: {type: segmented, segments: [Small, Medium, Large], selectedSegmentIndex: 1}}
      - {id: pay, frame: {x: 0, y: 300, width: 200, height: 60}, control: {type: button, enabled: false, selected: true}, accessibility: {label: Pay, traits: [startsMediaSession, button]}}
      """)
    #expect(
      summary(e) == [
        "sound Sound on [button]", "volume Volume 25% [adjustable]", "count Tickets 3 tickets [adjustable]",
        "dots - page 2 of 5 [adjustable]", "size#0 Small 1 of 3 [button]", "size#1 Medium 2 of 3 [button,selected]",
        "size#2 Large 3 of 3 [button]", "pay Pay - [button,selected,notEnabled,startsMediaSession]",
      ])
    // Each segment a third of the control, activated at its centre.
    #expect(e[5].frame == Rect(x: 100, y: 200, width: 100, height: 40))
    #expect(e[5].activationPoint == Point(x: 150, y: 220))
  }

  @Test func theValueFollowsTheControlAsItChanges() throws {
    let runtime = try runtime(
      "- {id: sound, frame: {x: 0, y: 0, width: 60, height: 30}, control: {type: switch}, accessibility: {label: Sound}}"
    )
    #expect(runtime.accessibilityElements(inWindow: 0).first?.value == "off")
    try runtime.setView("sound", control: ControlChange(on: true))
    #expect(runtime.accessibilityElements(inWindow: 0).first?.value == "on")
  }

  @Test func readingOrderIsTopToBottomByRowsThenLeftToRight() throws {
    // A 2 x 2 grid declared bottom-right first; the right column 10 pt lower, still the same rows.
    let e = try elements(
      """
      - {id: d, frame: {x: 500, y: 410, width: 400, height: 300}, accessibility: {label: D}}
      - {id: b, frame: {x: 500, y: 10, width: 400, height: 300}, accessibility: {label: B}}
      - {id: c, frame: {x: 0, y: 400, width: 400, height: 300}, accessibility: {label: C}}
      - {id: a, frame: {x: 0, y: 0, width: 400, height: 300}, accessibility: {label: A}}
      """)
    #expect(e.map(\.view) == ["a", "b", "c", "d"])
  }

  @Test func aScrollViewsElementsAreInContentOrderAtItsPlaceWhereverItIsScrolled() throws {
    let views = """
      - {id: header, frame: {x: 0, y: 0, width: 1000, height: 100}, accessibility: {label: Products, traits: header}}
      - id: list
        frame: {x: 0, y: 100, width: 500, height: 300}
        scroll: {contentSize: {width: 500, height: 1200}, contentOffset: {x: 0, y: 400}}
        views:
          - {id: row3, frame: {x: 0, y: 900, width: 500, height: 300}, accessibility: {label: Row 3}}
          - {id: row0, frame: {x: 0, y: 0, width: 500, height: 300}, accessibility: {label: Row 0}}
          - {id: row1, frame: {x: 0, y: 300, width: 500, height: 300}, accessibility: {label: Row 1}}
          - {id: row2, frame: {x: 0, y: 600, width: 500, height: 300}, accessibility: {label: Row 2}}
      - {id: side, frame: {x: 600, y: 150, width: 300, height: 100}, control: {type: button}, accessibility: {label: Basket}}
      - {id: footer, frame: {x: 0, y: 700, width: 1000, height: 100}, accessibility: {label: Help}}
      """
    let e = try elements(views)
    // The list is placed by its frame: `side`'s middle is within the list's height, so the two
    // share a row, and the list, on the left, comes first.
    #expect(e.map(\.view) == ["header", "row0", "row1", "row2", "row3", "side", "footer"])
    // Scrolled 400 pt down in a 300 pt viewport at y 100: row0 is out of sight above, row1 shows
    // its lower 200 pt, row2 its upper 100 pt, row3 none.
    let frames = Dictionary(uniqueKeysWithValues: e.map { ($0.view, $0.frame) })
    #expect(frames["row0"] == Rect(x: 0, y: -300, width: 0, height: 0))
    #expect(frames["row1"] == Rect(x: 0, y: 100, width: 500, height: 200))
    #expect(frames["row2"] == Rect(x: 0, y: 300, width: 500, height: 100))
    #expect(frames["row3"]?.width == 0)
    // The activation point is the unclipped frame's centre: row2's middle, below the viewport.
    #expect(e[3].activationPoint == Point(x: 250, y: 450))
    let runtime = try runtime(views)
    try runtime.setView("list", scroll: ScrollChange(contentOffset: WirePoint(x: 0, y: 0)))
    let scrolled = runtime.accessibilityElements(inWindow: 0)
    #expect(scrolled.map(\.view) == e.map(\.view))
    #expect(scrolled[1].frame == Rect(x: 0, y: 100, width: 500, height: 300))
  }

  @Test func framesAndActivationPointsAreTheScenesInTheViewsPointsClippedAsHitTestingClips() throws {
    let e = try elements(
      """
      - id: panel
        frame: {x: 100, y: 100, width: 300, height: 200}
        clipsToBounds: true
        views:
          - {id: wide, frame: {x: 200, y: 50, width: 200, height: 50}, control: {type: button}, accessibility: {label: Wide}}
          - id: tall
            frame: {x: 0, y: 0, width: 100, height: 100}
            accessibility: {label: Tall, frame: {x: -10, y: -10, width: 120, height: 60}, activationPoint: {x: 5, y: 5}}
      - {id: edge, frame: {x: 900, y: 700, width: 200, height: 200}, accessibility: {label: Edge}}
      """)
    let byView = Dictionary(uniqueKeysWithValues: e.map { ($0.view, $0) })
    // `wide` runs 100 pt past the panel's right edge: clipped there; activated at its own centre.
    #expect(byView["wide"]?.frame == Rect(x: 300, y: 150, width: 100, height: 50))
    #expect(byView["wide"]?.activationPoint == Point(x: 400, y: 175))
    // `tall`'s own frame, 10 pt beyond its top left, clipped by the panel.
    #expect(byView["tall"]?.frame == Rect(x: 100, y: 100, width: 110, height: 50))
    #expect(byView["tall"]?.activationPoint == Point(x: 105, y: 105))
    // The window clips too.
    #expect(byView["edge"]?.frame == Rect(x: 900, y: 700, width: 100, height: 100))
  }

  @Test func aPushedSceneCarriesItsAccessibility() throws {
    let json =
      #"{"version":1,"windows":[{"id":"w","size":{"width":100,"height":100},"views":[{"id":"v","#
      + #""frame":{"x":0,"y":0,"width":10,"height":10},"accessibility":{"label":"Buy","traits":"button","#
      + #""activationPoint":{"x":1,"y":2},"modal":true}}]}]}"#
    let scene = try Scene.parse(json: try StrictJSON.parse(json))
    let a = try #require(scene.windows[0].views[0].accessibility)
    #expect(a.label == "Buy" && a.traits == ["button"] && a.modal && !a.hidden && a.element == nil)
    #expect(a.activationPoint == WirePoint(x: 1, y: 2) && a.frame == nil && a.hint == nil)
  }
}

/// The scene format of `accessibility:`: each error at its place, with UIKit's names.
@Suite struct AccessibilityFormatTests {
  @Test func errorsAreReportedAtTheirPlace() throws {
    let yaml = ruleScene(
      """
      - id: buy
        frame: {x: 0, y: 0, width: 10, height: 10}
        accessibility: {label: [Buy], traits: [buton], activationPoint: {x: 1}, element: maybe, labell: x}
      """)
    #expect(throws: SceneError.self) { try Scene.parse(yaml, file: "a.yaml") }
    do {
      _ = try Scene.parse(yaml, file: "a.yaml")
    } catch {
      let messages = error.diagnostics.map { "\($0.line):\($0.column): \($0.message)" }
      #expect(
        messages == [
          "8:32: 'label' in accessibility of view 'buy' must be a string, found a list",
          "8:48: 'traits' in accessibility of view 'buy' must be one of "
            + SceneFormat.accessibilityTraits.joined(separator: ", ")
            + " (or a list of them), found 'buton' (did you mean 'button'?)",
          "8:73: missing required key 'y' in activationPoint of accessibility of view 'buy'",
          "8:90: 'element' in accessibility of view 'buy' must be true or false, found 'maybe'",
          "8:97: unknown key 'labell' in accessibility of view 'buy' (did you mean 'label'?)",
        ])
    }
  }
}
