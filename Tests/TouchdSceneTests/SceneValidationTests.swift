import Testing

@testable import TouchdScene

@Suite("Scene validation")
struct SceneValidationTests {
  /// The messages (with positions) of parsing `yaml`, or [] when it is valid.
  func diagnostics(_ yaml: String) -> [String] { sceneDiagnostics(yaml) }

  @Test("A valid scene decodes with UIKit's defaults")
  func decodesDefaults() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - id: door
              frame: {x: 10, y: 20, width: 300, height: 200}
              recognizers:
                - {id: door-tap, type: tap, action: open-door, numberOfTapsRequired: 2}
                - {id: door-swipe, type: swipe, action: slide, direction: [left, up], requireToFail: [door-tap]}
      """)
    let window = try #require(scene.windows.first)
    #expect(window.devices == ["*"])
    #expect(window.rotation == 0)
    #expect(window.calibration == [1, 0, 0, 0, 1, 0])
    let view = try #require(window.views.first)
    #expect(view.frame == Scene.Frame(x: 10, y: 20, width: 300, height: 200))
    #expect(view.alpha == 1 && !view.hidden && view.userInteractionEnabled && !view.multipleTouchEnabled)
    let tap = view.recognizers[0]
    #expect(tap.parameters["numberOfTapsRequired"] == .integer(2))
    #expect(tap.parameter("numberOfTouchesRequired") == .integer(1))
    #expect(tap.cancelsTouchesInView && !tap.delaysTouchesBegan && tap.delaysTouchesEnded)
    let swipe = view.recognizers[1]
    #expect(swipe.parameters["direction"] == .options(["left", "up"]))
    #expect(swipe.requireToFail == ["door-tap"])
    #expect(scene.counts == (1, 1, 2))
  }

  @Test("A single option name is a one-element option set")
  func singleOption() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - id: root
              frame: {x: 0, y: 0, width: 800, height: 480}
              recognizers: [{id: menu, type: screenEdgePan, action: menu, edges: left}]
      """)
    #expect(scene.windows[0].views[0].recognizers[0].parameters["edges"] == .options(["left"]))
  }

  @Test("An unknown key names file, line, column and a suggestion")
  func unknownKey() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - id: door
              frame: {x: 0, y: 0, width: 10, height: 10}
              hiden: true
      """)
    #expect(errors == ["scene.yaml:8:9: error: unknown key 'hiden' in view 'door' (did you mean 'hidden'?)"])
  }

  @Test("Every error is reported in one pass, sorted by position")
  func allErrorsAtOnce() {
    let errors = diagnostics(
      """
      version: 2
      windows:
        - id: main
          size: {width: -5, height: 480}
          rotation: 45
          calibration: [1, 0, 0]
          views:
            - id: door
              frame: {x: 0, y: 0, width: 10}
              alpha: 1.5
              hidden: maybe
              recognizers:
                - id: a
                  type: tapp
                  action: x
                - id: b
                  type: tap
                  requireToFail: [c, nope]
                  direction: left
                - id: c
                  type: longPress
                  action: z
                  requireToFail: [b]
                  numberOfTaps: 2
            - id: door
              frame: {x: 0, y: 0, width: 10, height: 10}
              recognizers:
                - {id: a, type: pan, action: p, simultaneousWith: [b]}
      """)
    #expect(
      errors == [
        "scene.yaml:1:10: error: unsupported scene version 2 (this touchd reads version 1)",
        "scene.yaml:4:19: error: 'width' in size of window 'main' must be zero or more (negative sizes are not allowed), found -5",
        "scene.yaml:5:15: error: 'rotation' in window 'main' must be 0, 90, 180 or 270, found 45",
        "scene.yaml:6:18: error: 'calibration' in window 'main' must be a list of 6 numbers (a 2x3 matrix), found a list",
        "scene.yaml:9:16: error: missing required key 'height' in frame of view 'door'",
        "scene.yaml:10:16: error: 'alpha' in view 'door' must be between 0 and 1, found 1.5",
        "scene.yaml:11:17: error: 'hidden' in view 'door' must be true or false, found 'maybe'",
        "scene.yaml:14:19: error: unknown recognizer type 'tapp' in recognizer 'a' (did you mean 'tap'?)",
        "scene.yaml:16:13: error: missing required key 'action' in tap recognizer 'b'",
        "scene.yaml:18:29: error: requireToFail cycle: 'b' -> 'c' -> 'b'",
        "scene.yaml:18:32: error: 'requireToFail' in recognizer 'b' names unknown recognizer 'nope'",
        "scene.yaml:19:13: error: 'direction' is not a parameter of tap recognizer 'b' (only of swipe recognizers)",
        "scene.yaml:24:13: error: unknown key 'numberOfTaps' in longPress recognizer 'c' (did you mean 'numberOfTapsRequired'?)",
        "scene.yaml:25:13: error: duplicate view id 'door' (first defined at 8:13)",
        "scene.yaml:28:18: error: duplicate recognizer id 'a' (first defined at 13:17)",
      ])
  }

  @Test("Missing required keys are named at the object")
  func missingKeys() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - views:
            - recognizers:
                - {id: t}
      """)
    #expect(
      errors == [
        "scene.yaml:3:5: error: missing required key 'id' in window",
        "scene.yaml:3:5: error: missing required key 'size' in window",
        "scene.yaml:4:9: error: missing required key 'frame' in view",
        "scene.yaml:4:9: error: missing required key 'id' in view",
        "scene.yaml:5:13: error: missing required key 'action' in recognizer 't'",
        "scene.yaml:5:13: error: missing required key 'type' in recognizer 't'",
      ])
  }

  @Test("Wrong types are errors, quoted numbers are strings")
  func wrongTypes() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: "800", height: 480}
          grab: 1
          devices: "*"
          views:
            - id: v
              frame: {x: 0, y: 0, width: 1, height: 1}
              recognizers:
                - {id: p, type: pan, action: p, minimumNumberOfTouches: 1.5, maximumNumberOfTouches: 0}
                - {id: s, type: swipe, action: s, direction: [sideways]}
      """)
    #expect(
      errors == [
        "scene.yaml:4:19: error: 'width' in size of window 'main' must be a number, found '800'",
        "scene.yaml:5:11: error: 'grab' in window 'main' must be true or false, found 1",
        "scene.yaml:6:14: error: 'devices' in window 'main' must be a list of strings, found '*'",
        "scene.yaml:11:67: error: 'minimumNumberOfTouches' in pan recognizer 'p' must be an integer, found 1.5",
        "scene.yaml:11:96: error: 'maximumNumberOfTouches' in pan recognizer 'p' must be at least 1, found 0",
        "scene.yaml:12:57: error: 'direction' in swipe recognizer 's' must be one of right, left, up, down (or a list of them), found 'sideways'",
      ])
  }

  @Test("Cycles are named, including a recognizer that requires itself")
  func cycles() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: 10, height: 10}
          views:
            - id: v
              frame: {x: 0, y: 0, width: 1, height: 1}
              recognizers:
                - {id: x, type: tap, action: a, requireToFail: [y]}
                - {id: y, type: tap, action: a, requireToFail: [z]}
                - {id: z, type: tap, action: a, requireToFail: [x]}
                - {id: w, type: tap, action: a, requireToFail: [w]}
      """)
    #expect(
      errors == [
        "scene.yaml:9:59: error: requireToFail cycle: 'x' -> 'y' -> 'z' -> 'x'",
        "scene.yaml:12:59: error: requireToFail cycle: 'w' -> 'w'",
      ])
  }

  @Test("YAML syntax errors carry the parser's position")
  func syntaxError() {
    let errors = diagnostics("version: 1\nwindows: [\n  - id: main\n")
    #expect(errors.count == 1)
    #expect(errors[0].hasPrefix("scene.yaml:"))
    #expect(errors[0].contains("YAML syntax error"))
  }

  @Test("Duplicate keys in one mapping are an error")
  func duplicateKeys() {
    let errors = diagnostics("version: 1\nversion: 1\nwindows: []\n")
    #expect(errors.count == 1)
    #expect(errors[0].contains("duplicate key 'version'"))
  }

  @Test("An empty file is an error")
  func emptyFile() {
    #expect(diagnostics("") == ["scene.yaml:1:1: error: the scene is empty"])
  }

  @Test("A scroll view decodes every key with UIKit's names, and a window its frameRate")
  func scrollViewDecodes() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 1280, height: 800}
          frameRate: 120
          views:
            - id: list
              frame: {x: 0, y: 0, width: 800, height: 800}
              scroll:
                contentSize: {width: 800, height: 3000}
                contentOffset: {x: 0, y: 250.5}
                contentInset: {top: 10, bottom: 20}
                scrollEnabled: false
                bounces: false
                alwaysBounceVertical: true
                alwaysBounceHorizontal: true
                directionalLockEnabled: true
                pagingEnabled: true
                decelerationRate: fast
                delaysContentTouches: false
                canCancelContentTouches: false
              views:
                - {id: row, frame: {x: 0, y: 2900, width: 800, height: 100}}
            - id: carousel
              frame: {x: 800, y: 0, width: 480, height: 300}
              scroll: {decelerationRate: 0.95}
      """)
    let window = try #require(scene.windows.first)
    #expect(window.frameRate == 120)
    let list = try #require(window.views.first?.scroll)
    #expect(list.contentSize == Scene.Size(width: 800, height: 3000))
    #expect(list.contentOffset == Scene.Point(x: 0, y: 250.5))
    #expect(list.contentInset == Scene.Insets(top: 10, left: 0, bottom: 20, right: 0))
    #expect(!list.scrollEnabled && !list.bounces && !list.delaysContentTouches && !list.canCancelContentTouches)
    #expect(list.alwaysBounceVertical && list.alwaysBounceHorizontal)
    #expect(list.directionalLockEnabled && list.pagingEnabled)
    #expect(list.decelerationRate == 0.99)
    // Content keeps its content-coordinate frame.
    #expect(window.views[0].views.first?.frame == Scene.Frame(x: 0, y: 2900, width: 800, height: 100))
    #expect(window.views[1].scroll?.decelerationRate == 0.95)
  }

  @Test("A scroll view's omitted keys take UIScrollView's defaults; a view without scroll: is plain")
  func scrollDefaults() throws {
    let scene = try Scene.parse(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          views:
            - {id: list, frame: {x: 0, y: 0, width: 800, height: 480}, scroll: {decelerationRate: normal}}
            - {id: empty, frame: {x: 0, y: 0, width: 800, height: 480}, scroll: {}}
            - {id: plain, frame: {x: 0, y: 0, width: 800, height: 480}}
      """)
    let window = try #require(scene.windows.first)
    #expect(window.frameRate == 60)
    let views = window.views
    #expect(views[0].scroll?.decelerationRate == 0.998)
    let scroll = try #require(views[1].scroll)
    #expect(scroll.contentSize == Scene.Size(width: 0, height: 0))
    #expect(scroll.contentOffset == Scene.Point(x: 0, y: 0))
    #expect(scroll.contentInset == Scene.Insets())
    #expect(scroll.scrollEnabled && scroll.bounces && scroll.delaysContentTouches && scroll.canCancelContentTouches)
    #expect(!scroll.alwaysBounceVertical && !scroll.alwaysBounceHorizontal)
    #expect(!scroll.directionalLockEnabled && !scroll.pagingEnabled)
    #expect(scroll.decelerationRate == 0.998)
    #expect(views[2].scroll == nil)
  }

  @Test("Bad scroll values name the key, the scroll view and what is allowed, at the value")
  func badScrollValues() {
    let errors = diagnostics(
      """
      version: 1
      windows:
        - id: main
          size: {width: 800, height: 480}
          frameRate: 0
          views:
            - id: list
              frame: {x: 0, y: 0, width: 800, height: 480}
              scroll:
                contentSize: {width: 800, height: -1}
                decelerationRate: 1.5
                bounce: false
                contentOffset: {x: 0}
                contentInset: {top: "8"}
                pagingEnabled: yes please
            - id: carousel
              frame: {x: 0, y: 0, width: 800, height: 480}
              scroll: {decelerationRate: slow, minimumZoomScale: 0}
            - id: broken
              frame: {x: 0, y: 0, width: 800, height: 480}
              scroll: true
      """)
    #expect(
      errors == [
        "scene.yaml:5:16: error: 'frameRate' in window 'main' must be greater than 0, found 0",
        "scene.yaml:10:45: error: 'height' in contentSize of scroll of view 'list' must be zero or more (negative sizes are not allowed), found -1",
        "scene.yaml:11:29: error: 'decelerationRate' in scroll of view 'list' must be normal, fast or a number between 0 and 1 (both excluded), found 1.5",
        "scene.yaml:12:11: error: unknown key 'bounce' in scroll of view 'list' (did you mean 'bounces'?)",
        "scene.yaml:13:26: error: missing required key 'y' in contentOffset of scroll of view 'list'",
        "scene.yaml:14:31: error: 'top' in contentInset of scroll of view 'list' must be a number, found '8'",
        "scene.yaml:15:26: error: 'pagingEnabled' in scroll of view 'list' must be true or false, found 'yes please'",
        "scene.yaml:18:36: error: 'decelerationRate' in scroll of view 'carousel' must be normal, fast or a number between 0 and 1 (both excluded), found 'slow'",
        "scene.yaml:18:60: error: 'minimumZoomScale' in scroll of view 'carousel' must be greater than 0, found 0",
        "scene.yaml:21:17: error: expected a mapping for the scroll of view 'broken', found true",
      ])
  }

  @Test("decelerationRate's bounds are excluded; frameRate takes no negative, infinite or quoted number")
  func scrollBounds() {
    func errors(rate: String, frameRate: String = "60") -> [String] {
      diagnostics(
        """
        version: 1
        windows:
          - id: main
            size: {width: 800, height: 480}
            frameRate: \(frameRate)
            views:
              - {id: list, frame: {x: 0, y: 0, width: 1, height: 1}, scroll: {decelerationRate: \(rate)}}
        """)
    }
    for rate in ["0", "1", "-0.5", ".nan", "true", "[fast]", "\"0.5\""] {
      let found = errors(rate: rate)
      #expect(found.count == 1, "\(rate)")
      #expect(found.first?.contains("'decelerationRate' in scroll of view 'list' must be normal, fast or") == true)
    }
    for rate in ["0.001", "0.999", "normal", "fast"] { #expect(errors(rate: rate) == [], "\(rate)") }
    #expect(errors(rate: "Fast").first?.hasSuffix("found 'Fast' (did you mean 'fast'?)") == true)
    #expect(
      errors(rate: "fast", frameRate: "-30") == [
        "scene.yaml:5:16: error: 'frameRate' in window 'main' must be greater than 0, found -30"
      ])
    #expect(
      errors(rate: "fast", frameRate: ".inf") == [
        "scene.yaml:5:16: error: 'frameRate' in window 'main' must be a number, found .inf"
      ])
    #expect(
      errors(rate: "fast", frameRate: "\"60\"") == [
        "scene.yaml:5:16: error: 'frameRate' in window 'main' must be a number, found '60'"
      ])
  }
}
