// The renderer's type and its document: the windows stacked under their titles, each window's
// layers in order, then the legend. Where views go (ViewPlacement.swift), each drawing concern
// (*Drawing.swift) and the style sheet (RenderStyle.swift) are in files of their own.
import TouchDelivery
import TouchdProtocol
import TouchdScene

/// Why a scene could not be rendered.
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `--window` named no window of the scene.
  case unknownWindow(String, available: [String])

  public var description: String {
    switch self {
    case .unknownWindow(let id, let available):
      "no window '\(id)' in the scene (windows: \(available.joined(separator: ", ")))"
    }
  }
}

/// Draws a scene's windows as one SVG document: every view's frame labelled with its id and
/// recognizers, hit-test outsets, views that cannot be hit dimmed or dashed, and, given a
/// ``RenderTrace``, each touch's path and the actions it produced. Windows are stacked vertically,
/// front to back, each under a title line; a legend closes the document.
///
/// A scroll view is drawn as its viewport (its frame, dashed), its content placed at the content
/// offset (content point p at the viewport's origin + p − offset) and clipped to the viewport, and
/// scroll indicators on its right and bottom edges. The offset is the scene's `contentOffset`, or
/// where the recording left the view (``RenderTrace/contentOffsets``).
///
/// A control (a view with `control:`) is drawn as what it is, in its state: a button's rounded
/// body and title, a switch's track and knob, a slider's track, fill and thumb (its grab area
/// dotted), a stepper's − and + halves and value, a segmented control's segments and the selected
/// one; dimmed when disabled. The state is the scene's, or the last `control` message of the
/// recording (``RenderTrace/controls``). Its label goes under it (above it at the window's
/// bottom): `volume (slider 0.50)` and one line per mapped event, `valueChanged → volume`. The
/// control events the scene maps to actions are marked like actions, where the finger was.
///
/// Elements carry classes and `data-` attributes for tools and tests: `rect.view[data-id]`,
/// `rect.hit-outset[data-id]`, `text.view-label[data-id]`, `polyline.touch[data-touch]`,
/// `g.action[data-seq]` holding `text.action-label`; for scroll views `rect.view.scroll`,
/// `clipPath[data-id]`, `g.scroll-content[data-id]` (the clipped content), `rect.scroll-extent`
/// (the content's bounds) and `rect.scroll-indicator[data-axis]`; for controls
/// `g.control[data-id][data-type][data-value]` and `g.action.control-action[data-event]`.
public struct SceneRenderer {
  public var scene: Scene
  public var trace: RenderTrace?
  /// The windows to draw, in the scene's order.
  public var windows: [Scene.Window]
  /// Names shown in titles (file names, typically).
  public var sceneName: String
  public var recordingName: String?
  /// Touchscreen health whose touch-down grids are drawn over their windows (`--heatmap`).
  public var heatmap: HealthReply?
  /// Whether each window's accessibility elements are drawn, numbered in VoiceOver's reading order
  /// (`--accessibility`; AccessibilityDrawing.swift).
  public var accessibility = false

  /// Touch colours, cycled in touch-down order.
  public static let palette = [
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#0aa5b8", "#f032e6", "#9a6324",
  ]

  /// Renders `windowID` only when given, else every window.
  public init(
    scene: Scene, trace: RenderTrace? = nil, windowID: String? = nil, sceneName: String = "scene",
    recordingName: String? = nil
  ) throws(RenderError) {
    self.scene = scene
    self.trace = trace
    self.sceneName = sceneName
    self.recordingName = recordingName
    if let windowID {
      guard let window = scene.windows.first(where: { $0.id == windowID }) else {
        throw .unknownWindow(windowID, available: scene.windows.map(\.id))
      }
      windows = [window]
    } else {
      windows = scene.windows
    }
  }

  /// The actions drawn: discrete gestures as published; continuous ones at began, ended and
  /// cancelled only (changed is left out to keep the picture readable).
  public static func drawnActions(_ actions: [ActionMessage]) -> [ActionMessage] {
    actions.filter { ($0.recognizerType?.isDiscrete ?? true) || $0.gestureState != .changed }
  }

  // MARK: Document

  /// The SVG document.
  public func svg() -> String {
    let maxWidth = windows.map(\.size.width).max() ?? 320
    let maxHeight = windows.map(\.size.height).max() ?? 240
    let m = Metrics(base: min(max(min(maxWidth, maxHeight) / 54, 9), 48))
    let margin = m.base * 1.5
    let titleHeight = m.base * 2.2

    var y = margin
    var origins: [Double] = []
    for window in windows {
      y += titleHeight
      origins.append(y)
      y += window.size.height + margin
    }
    let width = maxWidth + 2 * margin
    let hasScroll = windows.contains { Self.containsScrollView($0.views) }
    let hasControls = windows.contains { Self.containsControl($0.views) }
    let legend = Legend(
      metrics: m, width: maxWidth, hasTrace: trace != nil, hasScroll: hasScroll, hasControls: hasControls)
    let height = y + legend.height + margin

    var w = SVGWriter()
    let n = SVGWriter.number
    w.open(
      "svg",
      [
        ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"), ("viewBox", "0 0 \(n(width)) \(n(height))"),
        ("width", n(width)), ("height", n(height)), ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif"),
      ])
    w.text("title", [], "touchd render: " + sceneName + (recordingName.map { " + " + $0 } ?? ""))
    w.text(
      "style", [],
      m.css(
        scroll: hasScroll, controls: hasControls, heatmap: heatmap != nil, accessibility: accessibility,
        voiceOver: trace?.voiceOver.isEmpty == false, strokes: trace?.strokes.isEmpty == false))
    w.empty("rect", [("class", "background"), ("x", "0"), ("y", "0"), ("width", n(width)), ("height", n(height))])
    for (index, (window, top)) in zip(windows, origins).enumerated() {
      w.text(
        "text",
        [("class", "window-title"), ("x", n(margin)), ("y", n(top - titleHeight * 0.35)), ("font-size", n(m.title))],
        title(window))
      w.open("g", [("class", "window"), ("data-id", window.id), ("transform", "translate(\(n(margin)),\(n(top)))")])
      drawWindow(window, index: index, metrics: m, into: &w)
      w.close()
    }
    w.open("g", [("class", "legend"), ("transform", "translate(\(n(margin)),\(n(y)))")])
    legend.draw(into: &w)
    w.close()
    w.close()
    return w.document
  }

  private func title(_ window: Scene.Window) -> String {
    var parts = ["window \(window.id)", "\(fmt(window.size.width)) × \(fmt(window.size.height))"]
    parts.append("devices: " + window.devices.joined(separator: ", "))
    if window.rotation != 0 { parts.append("rotation \(window.rotation)°") }
    if window.calibration != [1, 0, 0, 0, 1, 0] {
      parts.append("calibration " + window.calibration.map(fmt).joined(separator: " "))
    }
    parts.append(sceneName)
    if let trace, let recordingName {
      if trace.windowID == window.id {
        let shown =
          Self.drawnActions(trace.actions).count
          + Self.drawnControlActions(trace.controlActions.filter { $0.message.window == window.id }).count
        parts.append("\(recordingName): \(plural(trace.touches.count, "touch", "touches")), \(plural(shown, "action"))")
      } else {
        parts.append("\(recordingName) feeds window \(trace.windowID)")
      }
    }
    return parts.joined(separator: "  ·  ")
  }

  // MARK: Window

  private func drawWindow(_ window: Scene.Window, index: Int, metrics m: Metrics, into w: inout SVGWriter) {
    let n = SVGWriter.number
    w.empty(
      "rect",
      [
        ("class", "window-frame"), ("data-id", window.id), ("x", "0"), ("y", "0"), ("width", n(window.size.width)),
        ("height", n(window.size.height)),
      ])
    var views = Self.flatten(window.views, clipPrefix: "scroll-clip-\(index)-") { contentOffset(of: $0, in: window) }
    for i in views.indices { views[i].control = controlState(of: views[i].spec, in: window) }
    let scrollViews = views.filter { $0.scroll != nil }
    if !scrollViews.isEmpty {
      w.open("defs")
      for v in scrollViews {
        let f = v.frame
        w.open(
          "clipPath", [("id", v.scroll?.clipID ?? ""), ("data-id", v.spec.id), ("clipPathUnits", "userSpaceOnUse")])
        w.empty("rect", [("x", n(f.x)), ("y", n(f.y)), ("width", n(f.width)), ("height", n(f.height))])
        w.close()
      }
      w.close()
    }
    w.open("g", [("class", "views")])
    Self.drawClipped(
      views, into: &w,
      draw: { v, w in drawView(v, metrics: m, into: &w) },
      opened: { v, w in drawScrollExtent(v, into: &w) },
      closed: { v, w in
        drawScrollFrame(v, into: &w)
        drawScrollIndicators(v, metrics: m, into: &w)
      })
    w.close()
    if let grid = heatmap?.windows.first(where: { $0.id == window.id }) {
      drawHeatmap(grid, window: window.size, metrics: m, into: &w)
    }
    if accessibility, let sceneIndex = scene.windows.firstIndex(where: { $0.id == window.id }) {
      drawAccessibility(Self.accessibilityElements(of: scene, window: sceneIndex), metrics: m, into: &w)
    }
    w.open("g", [("class", "view-labels")])
    Self.drawClipped(
      views, into: &w,
      draw: { v, w in if v.scroll == nil { drawViewLabel(v, window: window.size, metrics: m, into: &w) } },
      // A scroll view's label goes over its content's labels.
      closed: { v, w in drawViewLabel(v, window: window.size, metrics: m, into: &w) })
    w.close()
    guard let trace, trace.windowID == window.id else { return }
    var touchLabels: [Box] = []
    w.open("g", [("class", "touches")])
    for (i, touch) in trace.touches.enumerated() {
      drawTouch(touch, color: Self.palette[i % Self.palette.count], metrics: m, placed: &touchLabels, into: &w)
    }
    w.close()
    // Action labels keep clear of each other and of the touch labels.
    var placed = touchLabels
    w.open("g", [("class", "actions")])
    let gestures = Self.drawnActions(trace.actions).filter { $0.window == window.id }
    let controls = Self.drawnControlActions(trace.controlActions.filter { $0.message.window == window.id })
    let byID = Dictionary(views.map { ($0.spec.id, $0) }, uniquingKeysWith: { first, _ in first })
    // Gesture and control actions in the order they were published.
    var g = gestures[...]
    var c = controls[...]
    while !g.isEmpty || !c.isEmpty {
      if let a = g.first, c.first.map({ a.seq < $0.action.message.seq }) ?? true {
        drawAction(a, windowWidth: window.size.width, metrics: m, placed: &placed, into: &w)
        g.removeFirst()
      } else if let a = c.popFirst() {
        drawControlAction(
          a, view: byID[a.action.message.view], window: window.size, metrics: m, placed: &placed, into: &w)
      }
    }
    w.close()
    drawStrokes(trace.strokes.filter { $0.window == window.id }, views: byID, metrics: m, into: &w)
    // VoiceOver's focus, activations and adjustments, at the centre of the element's view.
    let marks = trace.voiceOver.filter { $0.message.window == window.id }
    guard !marks.isEmpty else { return }
    w.open("g", [("class", "voiceover-marks")])
    for mark in marks {
      guard let f = mark.message.view.flatMap({ byID[$0] })?.frame else { continue }
      drawVoiceOver(
        mark, at: Point(x: f.x + f.width / 2, y: f.y + f.height / 2), windowWidth: window.size.width, metrics: m,
        placed: &placed, into: &w)
    }
    w.close()
  }
}

/// An axis-aligned box, for keeping labels apart.
struct Box {
  var x, y, width, height: Double
  func intersects(_ o: Box) -> Bool {
    x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
  }
}

/// A number as written in labels: `12`, `0.5`.
func fmt(_ value: Double) -> String { SVGWriter.number(value) }

/// A number in full, without a trailing `.0`: `0`, `0.005`.
func exact(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// `1 touch`, `3 touches`.
func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
  "\(count) \(count == 1 ? one : (many ?? one + "s"))"
}
