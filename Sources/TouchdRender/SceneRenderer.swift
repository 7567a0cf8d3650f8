import TouchDelivery
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
    actions.filter { $0.gesture.isDiscrete || $0.state != .changed }
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
    w.text("style", [], m.css(scroll: hasScroll, controls: hasControls))
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
  }

  /// The content offset a scroll view is drawn at: where the recording left it when the recording
  /// feeds `window` and moved the view, else the scene's. Nil for a plain view.
  func contentOffset(of view: Scene.View, in window: Scene.Window) -> Scene.Point? {
    guard let scroll = view.scroll else { return nil }
    if let trace, trace.windowID == window.id, let moved = trace.contentOffsets[view.id] {
      return Scene.Point(x: moved.x, y: moved.y)
    }
    return scroll.contentOffset
  }

  static func containsScrollView(_ views: [Scene.View]) -> Bool {
    views.contains { $0.scroll != nil || containsScrollView($0.views) }
  }

  /// A scroll view as drawn.
  struct ScrollPlacement {
    var spec: Scene.Scroll
    /// The id of the `clipPath` of its viewport.
    var clipID: String
    /// The offset drawn.
    var offset: Scene.Point
  }

  /// A view with its frame in window coordinates and why it may not be hit.
  struct PlacedView {
    var spec: Scene.View
    var frame: Scene.Frame
    /// Set for a scroll view.
    var scroll: ScrollPlacement?
    /// Set for a control: its state as drawn.
    var control: ControlState?
    /// The clip ids of the scroll views the view is content of, outermost first.
    var clipChain: [String] = []
    /// The part of the window the scroll views around the view show (their viewports' overlap);
    /// nil outside scroll views.
    var visible: Scene.Frame?
    /// Wholly outside the viewport of a scroll view around it: scrolled out of sight, so never hit.
    var scrolledOut = false
    /// `hidden: true`.
    var hidden: Bool
    /// `alpha` <= 0.01.
    var transparent: Bool
    /// `userInteractionEnabled: false`.
    var inert: Bool
    /// The nearest superview that cannot be hit (so neither can this view), if any.
    var blockedBy: String?
    var blocked: Bool { blockedBy != nil }

    var classes: [String] {
      var c: [String] = []
      if hidden { c.append("hidden") }
      if transparent { c.append("transparent") }
      if hidden || transparent { c.append("dimmed") }
      if inert { c.append("inert") }
      if blocked { c.append("blocked") }
      if scroll != nil { c.append("scroll") }
      if scrolledOut { c.append("scrolled-out") }
      return c
    }
  }

  /// Views back to front (superviews before subviews), frames converted to window coordinates.
  /// A scroll view's content is placed at `offset(scrollView)` (the bounds origin, as in UIKit);
  /// its viewport's clip is named `clipPrefix` and the view's index.
  static func flatten(
    _ views: [Scene.View], clipPrefix: String = "scroll-clip-",
    offset: (Scene.View) -> Scene.Point? = { $0.scroll?.contentOffset }
  ) -> [PlacedView] {
    var out: [PlacedView] = []
    func visit(
      _ list: [Scene.View], originX: Double, originY: Double, blockedBy: String?, clipChain: [String],
      visible: Scene.Frame?
    ) {
      for v in list {
        let frame = Scene.Frame(
          x: originX + v.frame.x, y: originY + v.frame.y, width: v.frame.width, height: v.frame.height)
        var placed = PlacedView(
          spec: v, frame: frame, hidden: v.hidden, transparent: v.alpha <= 0.01, inert: !v.userInteractionEnabled,
          blockedBy: blockedBy)
        placed.clipChain = clipChain
        placed.visible = visible
        placed.control = v.control.map(ControlState.init(scene:))
        placed.scrolledOut = visible.map { intersection(frame, $0) == nil } ?? false
        var contentOrigin = (x: frame.x, y: frame.y)
        var contentClip = clipChain
        var contentVisible = visible
        if let scroll = v.scroll {
          let o = offset(v) ?? scroll.contentOffset
          let placement = ScrollPlacement(spec: scroll, clipID: clipPrefix + String(out.count), offset: o)
          placed.scroll = placement
          contentOrigin = (frame.x - o.x, frame.y - o.y)
          contentClip.append(placement.clipID)
          contentVisible =
            visible.map { intersection(frame, $0) ?? Scene.Frame(x: 0, y: 0, width: 0, height: 0) } ?? frame
        }
        out.append(placed)
        let unhittable = placed.hidden || placed.transparent || placed.inert
        visit(
          v.views, originX: contentOrigin.x, originY: contentOrigin.y, blockedBy: unhittable ? v.id : blockedBy,
          clipChain: contentClip, visible: contentVisible)
      }
    }
    visit(views, originX: 0, originY: 0, blockedBy: nil, clipChain: [], visible: nil)
    return out
  }

  /// The overlap of two frames, nil when they do not overlap (touching edges do not).
  static func intersection(_ a: Scene.Frame, _ b: Scene.Frame) -> Scene.Frame? {
    let x = max(a.x, b.x)
    let y = max(a.y, b.y)
    let right = min(a.x + a.width, b.x + b.width)
    let bottom = min(a.y + a.height, b.y + b.height)
    guard right > x, bottom > y else { return nil }
    return Scene.Frame(x: x, y: y, width: right - x, height: bottom - y)
  }

  /// Draws `views` in order with `draw`; after a scroll view, its content goes into a group
  /// clipped to its viewport (nested scroll views nest their groups, so the clips add up).
  /// `opened` draws first in that group, `closed` after it is closed.
  static func drawClipped(
    _ views: [PlacedView], into w: inout SVGWriter, draw: (PlacedView, inout SVGWriter) -> Void,
    opened: (PlacedView, inout SVGWriter) -> Void = { _, _ in }, closed: (PlacedView, inout SVGWriter) -> Void
  ) {
    var open: [PlacedView] = []
    for v in views {
      while let top = open.last, let id = top.scroll?.clipID, !v.clipChain.contains(id) {
        w.close()
        open.removeLast()
        closed(top, &w)
      }
      draw(v, &w)
      if let scroll = v.scroll {
        w.open(
          "g", [("class", "scroll-content"), ("data-id", v.spec.id), ("clip-path", "url(#\(scroll.clipID))")])
        open.append(v)
        opened(v, &w)
      }
    }
    while let top = open.popLast() {
      w.close()
      closed(top, &w)
    }
  }

  /// The content's bounds (`contentSize` at the offset), dotted; inside the clipped group.
  private func drawScrollExtent(_ v: PlacedView, into w: inout SVGWriter) {
    guard let s = v.scroll else { return }
    let n = SVGWriter.number
    w.empty(
      "rect",
      [
        ("class", "scroll-extent"), ("data-id", v.spec.id), ("x", n(v.frame.x - s.offset.x)),
        ("y", n(v.frame.y - s.offset.y)), ("width", n(s.spec.contentSize.width)),
        ("height", n(s.spec.contentSize.height)),
      ])
  }

  /// The viewport's dashed outline again, over the content (which hides the first one at its edges).
  private func drawScrollFrame(_ v: PlacedView, into w: inout SVGWriter) {
    let n = SVGWriter.number
    let f = v.frame
    w.empty(
      "rect",
      [
        ("class", (["scroll-frame"] + v.classes.filter { $0 != "scroll" }).joined(separator: " ")),
        ("data-id", v.spec.id), ("x", n(f.x)), ("y", n(f.y)), ("width", n(f.width)), ("height", n(f.height)),
      ])
  }

  /// A scroll indicator: the track along one edge of the viewport and the bar in it.
  struct ScrollIndicator {
    var axis: String
    var track: Box
    var bar: Box
  }

  /// UIKit's scroll indicators, for each axis the content is longer than the viewport along
  /// (contentInset included): a bar on the right (vertical) or bottom (horizontal) edge whose
  /// length is the visible fraction of the content and whose place is the offset's.
  static func scrollIndicators(_ v: PlacedView, metrics m: Metrics) -> [ScrollIndicator] {
    guard let s = v.scroll else { return [] }
    let f = v.frame
    let inset = s.spec.contentInset
    let extent = (
      width: s.spec.contentSize.width + inset.left + inset.right,
      height: s.spec.contentSize.height + inset.top + inset.bottom
    )
    let vertical = extent.height > f.height
    let horizontal = extent.width > f.width
    let thickness = m.base * 0.3
    let margin = m.base * 0.2
    func bar(length track: Double, visible: Double, extent: Double, position: Double) -> (Double, Double) {
      let length = min(track, max(track * visible / extent, thickness * 2))
      let progress = min(max(position / (extent - visible), 0), 1)
      return ((track - length) * progress, length)
    }
    var out: [ScrollIndicator] = []
    if vertical {
      let track = max(f.height - 2 * margin - (horizontal ? thickness + margin : 0), 0)
      let (start, length) = bar(
        length: track, visible: f.height, extent: extent.height, position: s.offset.y + inset.top)
      let x = f.x + f.width - margin - thickness
      out.append(
        ScrollIndicator(
          axis: "vertical", track: Box(x: x, y: f.y + margin, width: thickness, height: track),
          bar: Box(x: x, y: f.y + margin + start, width: thickness, height: length)))
    }
    if horizontal {
      let track = max(f.width - 2 * margin - (vertical ? thickness + margin : 0), 0)
      let (start, length) = bar(
        length: track, visible: f.width, extent: extent.width, position: s.offset.x + inset.left)
      let y = f.y + f.height - margin - thickness
      out.append(
        ScrollIndicator(
          axis: "horizontal", track: Box(x: f.x + margin, y: y, width: track, height: thickness),
          bar: Box(x: f.x + margin + start, y: y, width: length, height: thickness)))
    }
    return out
  }

  private func drawScrollIndicators(_ v: PlacedView, metrics m: Metrics, into w: inout SVGWriter) {
    let n = SVGWriter.number
    for indicator in Self.scrollIndicators(v, metrics: m) {
      let r = n(m.base * 0.15)
      for (cls, box) in [("scroll-track", indicator.track), ("scroll-indicator", indicator.bar)] {
        w.empty(
          "rect",
          [
            ("class", cls), ("data-id", v.spec.id), ("data-axis", indicator.axis), ("x", n(box.x)), ("y", n(box.y)),
            ("width", n(box.width)), ("height", n(box.height)), ("rx", r),
          ])
      }
    }
  }

  private func drawView(_ v: PlacedView, metrics m: Metrics, into w: inout SVGWriter) {
    let n = SVGWriter.number
    let f = v.frame
    if v.spec.hitOutset > 0 {
      let o = v.spec.hitOutset
      w.empty(
        "rect",
        [
          ("class", (["hit-outset"] + v.classes).joined(separator: " ")), ("data-id", v.spec.id), ("x", n(f.x - o)),
          ("y", n(f.y - o)), ("width", n(f.width + 2 * o)), ("height", n(f.height + 2 * o)),
        ])
    }
    w.empty(
      "rect",
      [
        ("class", (["view"] + v.classes).joined(separator: " ")), ("data-id", v.spec.id), ("x", n(f.x)),
        ("y", n(f.y)), ("width", n(f.width)), ("height", n(f.height)),
      ])
    if v.control != nil { drawControl(v, metrics: m, into: &w) }
  }

  /// The label's lines: the id with what stops hits, then one line per recognizer.
  static func labelLines(_ v: PlacedView) -> [String] {
    var head = v.spec.id
    var notes: [String] = []
    if v.hidden { notes.append("hidden") }
    if v.transparent { notes.append("alpha \(exact(v.spec.alpha))") }
    if v.inert { notes.append("interaction off") }
    if let blocker = v.blockedBy { notes.append("blocked by \(blocker)") }
    if v.spec.touches { notes.append("touches") }
    if v.scroll != nil { notes.insert("scroll", at: 0) }
    if let control = v.control, let spec = v.spec.control {
      notes.insert(contentsOf: controlNotes(control, spec: spec), at: 0)
    }
    if !notes.isEmpty { head += " (" + notes.joined(separator: ", ") + ")" }
    return [head] + (v.scroll.map { [scrollLine($0)] } ?? []) + (v.spec.control.map(controlActionLines) ?? [])
      + v.spec.recognizers.map(recognizerLine)
  }

  /// `offset 0, 480 · content 800 × 3000`, with `paging` and `scrollEnabled false` when set.
  static func scrollLine(_ s: ScrollPlacement) -> String {
    var parts = [
      "offset \(fmt(s.offset.x)), \(fmt(s.offset.y))",
      "content \(fmt(s.spec.contentSize.width)) × \(fmt(s.spec.contentSize.height))",
    ]
    if s.spec.pagingEnabled { parts.append("paging") }
    if !s.spec.scrollEnabled { parts.append("scrollEnabled false") }
    return parts.joined(separator: " · ")
  }

  /// `tap → buy-ticket`, with the tap and finger counts when the scene sets them to other than the
  /// type's defaults.
  static func recognizerLine(_ r: Scene.Recognizer) -> String {
    let defaults = Scene.Recognizer(id: r.id, type: r.type, action: r.action)
    func changed(_ name: String) -> Int? {
      guard let value = r.parameters[name]?.integer, value != defaults.parameter(name)?.integer else { return nil }
      return value
    }
    var extra: [String] = []
    if let taps = changed("numberOfTapsRequired") { extra.append(plural(taps, "tap")) }
    if let touches = changed("numberOfTouchesRequired") { extra.append(plural(touches, "finger")) }
    let suffix = extra.isEmpty ? "" : " (" + extra.joined(separator: ", ") + ")"
    return "\(r.type.rawValue)\(suffix) → \(r.action)"
  }

  private func drawViewLabel(_ v: PlacedView, window: Scene.Size, metrics m: Metrics, into w: inout SVGWriter) {
    let lines = Self.labelLines(v)
    if v.control != nil, v.scroll == nil,
      let place = Self.controlLabelPlace(v, lines: lines, window: window, metrics: m)
    {
      drawLabel(v, lines: lines, place: place, into: &w)
      return
    }
    let longest = Double(lines.map(\.count).max() ?? 1)
    let fit = min(v.frame.height / (Double(lines.count) * 1.25 + 0.5), v.frame.width / (longest * 0.6 + 1))
    let size = max(min(m.label, fit), m.label * 0.55)
    // Content partly scrolled out of sight has its label in the part still in view.
    let shown = v.visible.flatMap { Self.intersection(v.frame, $0) } ?? v.frame
    var x = shown.x + size * 0.5
    var y = shown.y + size * 1.3
    if v.scroll != nil {
      // A scroll view's label sits at the bottom right, clear of its content's labels (top left)
      // and of its indicators.
      let indicators = Set(Self.scrollIndicators(v, metrics: m).map(\.axis))
      x = shown.x + shown.width - size * 0.5 - (indicators.contains("vertical") ? m.base * 0.7 : 0)
      let bottom = shown.y + shown.height - size * 0.45 - (indicators.contains("horizontal") ? m.base * 0.7 : 0)
      y = max(bottom - Double(lines.count - 1) * size * 1.25, y)
    }
    drawLabel(v, lines: lines, place: LabelPlace(x: x, y: y, size: size), into: &w)
  }

  /// Where a view's label goes: its first baseline's start (its end with `anchorEnd`), its size.
  struct LabelPlace {
    var x: Double
    var y: Double
    var size: Double
    var anchorEnd = false
  }

  private func drawLabel(_ v: PlacedView, lines: [String], place p: LabelPlace, into w: inout SVGWriter) {
    let n = SVGWriter.number
    var tspans = ""
    for (i, line) in lines.enumerated() {
      let attributes: [SVGWriter.Attribute] =
        i == 0
        ? [("class", "view-id"), ("x", n(p.x)), ("dy", "0")]
        : [
          ("class", v.scroll != nil && i == 1 ? "scroll-state" : "recognizer"), ("x", n(p.x)),
          ("dy", n(p.size * 1.25)),
        ]
      tspans += "<tspan\(SVGWriter.attributes(attributes))>\(SVGWriter.escape(line))</tspan>"
    }
    var classes = ["view-label"] + v.classes
    if let control = v.control {
      classes.append("control")
      if !control.enabled { classes.append("disabled") }
    }
    var attributes: [SVGWriter.Attribute] = [
      ("class", classes.joined(separator: " ")), ("data-id", v.spec.id), ("x", n(p.x)), ("y", n(p.y)),
      ("font-size", n(p.size)),
    ]
    if p.anchorEnd { attributes.append(("text-anchor", "end")) }
    w.raw("text", attributes, markup: tspans)
  }

  // MARK: Trace

  private func drawTouch(
    _ touch: TouchPath, color: String, metrics m: Metrics, placed: inout [Box], into w: inout SVGWriter
  ) {
    let n = SVGWriter.number
    guard let first = touch.points.first, let last = touch.points.last else { return }
    let id = String(touch.id.rawValue)
    w.open("g", [("class", "touch-group"), ("data-touch", id), ("data-end", touch.end.rawValue)])
    w.empty(
      "polyline",
      [
        ("class", "touch"), ("data-touch", id), ("stroke", color),
        ("points", touch.points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")),
      ])
    w.empty(
      "circle",
      [("class", "touch-down"), ("fill", color), ("cx", n(first.x)), ("cy", n(first.y)), ("r", n(m.dot))])
    switch touch.end {
    case .lifted:
      w.empty(
        "circle", [("class", "touch-up"), ("stroke", color), ("cx", n(last.x)), ("cy", n(last.y)), ("r", n(m.ring))])
    case .cancelled:
      let r = m.ring
      w.empty(
        "path",
        [
          ("class", "touch-cancel"), ("stroke", color),
          (
            "d",
            "M\(n(last.x - r)),\(n(last.y - r))L\(n(last.x + r)),\(n(last.y + r))M\(n(last.x - r)),\(n(last.y + r))L\(n(last.x + r)),\(n(last.y - r))"
          ),
        ])
    case .down:
      break
    }
    let label = "t\(id)"
    let width = Double(label.count) * m.small * 0.65
    var box = Box(
      x: first.x - m.ring * 1.3 - width, y: first.y - m.ring * 0.9 - m.small, width: width, height: m.small * 1.1)
    var tries = 0
    while placed.contains(where: { $0.intersects(box) }), tries < 60 {
      box.y -= m.small * 1.1
      tries += 1
    }
    placed.append(box)
    w.text(
      "text",
      [
        ("class", "touch-label"), ("fill", color), ("x", n(box.x + width)), ("y", n(box.y + m.small)),
        ("font-size", n(m.small)),
      ], label)
    w.close()
  }

  private func drawAction(
    _ a: ActionMessage, windowWidth: Double, metrics m: Metrics, placed: inout [Box], into w: inout SVGWriter
  ) {
    drawMarker(
      at: a.location, text: Self.actionText(a),
      attributes: [
        ("class", "action"), ("data-seq", String(a.seq)), ("data-gesture", a.gesture.rawValue),
        ("data-state", a.state.rawValue), ("data-action", a.action), ("data-view", a.view),
      ], windowWidth: windowWidth, metrics: m, placed: &placed, into: &w)
  }

  /// An action's diamond at `location` in a group with `attributes`, and its label `text` beside
  /// it, moved down (with a leader line) clear of the labels `placed` so far.
  func drawMarker(
    at location: Point, text: String, attributes: [SVGWriter.Attribute], windowWidth: Double, metrics m: Metrics,
    placed: inout [Box], into w: inout SVGWriter
  ) {
    let n = SVGWriter.number
    let size = m.label
    let textWidth = Double(text.count) * size * 0.6
    let gap = m.ring * 1.6
    var box = Box(x: location.x + gap, y: location.y - size * 0.35 - size, width: textWidth, height: size * 1.3)
    if box.x + box.width > windowWidth { box.x = location.x - gap - textWidth }
    let startY = box.y
    var tries = 0
    while placed.contains(where: { $0.intersects(box) }), tries < 60 {
      box.y += size * 1.35
      tries += 1
    }
    placed.append(box)
    let d = m.marker
    let (x, y) = (location.x, location.y)
    w.open("g", attributes)
    w.empty(
      "path",
      [
        ("class", "action-marker"),
        ("d", "M\(n(x)),\(n(y - d))L\(n(x + d)),\(n(y))L\(n(x)),\(n(y + d))L\(n(x - d)),\(n(y))Z"),
      ])
    let baseline = box.y + size
    if box.y != startY {
      let lx = box.x < x ? box.x + box.width : box.x
      w.empty(
        "line",
        [("class", "action-leader"), ("x1", n(x)), ("y1", n(y)), ("x2", n(lx)), ("y2", n(baseline - size * 0.35))])
    }
    w.text(
      "text", [("class", "action-label"), ("x", n(box.x)), ("y", n(baseline)), ("font-size", n(size))], text)
    w.close()
  }

  /// `#3 tap ended → buy-ticket (show-map)`: sequence number, gesture, state, action, and the
  /// view when it is not obvious from the location, plus the gesture's values at its end.
  static func actionText(_ a: ActionMessage) -> String {
    var text = "#\(a.seq) \(a.gesture.rawValue) \(a.state.rawValue) → \(a.action)"
    switch a.values {
    case .none: break
    case .pan(let translation, _) where a.state != .began:
      text += " (Δ \(fmt(translation.x)), \(fmt(translation.y)))"
    case .pinch(let scale, _) where a.state != .began: text += " (scale \(fmt(scale)))"
    case .rotation(let rotation, _) where a.state != .began:
      text += " (\(fmt(rotation * 180 / Double.pi))°)"
    case .swipe(let direction): text += " (\(direction))"
    default: break
    }
    if a.numberOfTouches > 1 { text += " · \(a.numberOfTouches) fingers" }
    return text
  }
}

/// Sizes derived from the largest window, so text stays legible at any window size.
struct Metrics {
  var base: Double
  var title: Double { base * 1.1 }
  var label: Double { base }
  var small: Double { base * 0.8 }
  var dot: Double { base * 0.35 }
  var ring: Double { base * 0.75 }
  var marker: Double { base * 0.45 }
  var stroke: Double { max(1, base * 0.1) }

  /// The style sheet; `scroll` adds the scroll view styles (before the dimmed, inert and blocked
  /// ones, which win over them), `controls` the controls' (``controlCSS``).
  func css(scroll: Bool, controls: Bool = false) -> String {
    let n = SVGWriter.number
    let scrollView =
      scroll
      ? """

      .view.scroll { fill: #1565c0; fill-opacity: 0.03; stroke: #1565c0; stroke-width: \(n(stroke * 2)); stroke-dasharray: \(n(base * 0.8)) \(n(base * 0.4)); }
      .scroll-frame { fill: none; stroke: #1565c0; stroke-width: \(n(stroke * 2)); stroke-dasharray: \(n(base * 0.8)) \(n(base * 0.4)); }
      .scroll-frame.dimmed, .scroll-frame.inert, .scroll-frame.blocked { opacity: 0.4; }
      .scroll-extent { fill: none; stroke: #1565c0; stroke-width: \(n(stroke)); stroke-dasharray: \(n(stroke)) \(n(stroke * 2)); opacity: 0.6; }
      .scroll-track { fill: #1565c0; opacity: 0.12; }
      .scroll-indicator { fill: #1565c0; opacity: 0.75; }
      """ : ""
    let scrollLabel =
      scroll
      ? """

      .view-label.scroll { fill: #0d47a1; text-anchor: end; stroke: #ffffff; stroke-width: \(n(base * 0.3)); paint-order: stroke; stroke-linejoin: round; }
      """ : ""
    return """
      .background { fill: #ffffff; }
      .window-title { fill: #263238; font-weight: bold; }
      .window-frame { fill: #f7f9fa; stroke: #263238; stroke-width: \(n(stroke * 2)); }
      .view { fill: #607d8b; fill-opacity: 0.07; stroke: #37474f; stroke-width: \(n(stroke * 1.5)); }\(scrollView)
      .view.dimmed { fill: none; stroke: #9e9e9e; stroke-dasharray: \(n(base)) \(n(base * 0.6)); opacity: 0.6; }
      .view.inert { fill: none; stroke: #c77700; stroke-dasharray: \(n(base * 0.3)) \(n(base * 0.3)); }
      .view.blocked { opacity: 0.4; }
      .hit-outset { fill: none; stroke: #37474f; stroke-width: \(n(stroke)); stroke-dasharray: \(n(stroke)) \(n(stroke * 3)); }
      .hit-outset.dimmed, .hit-outset.inert, .hit-outset.blocked { opacity: 0.4; }
      .view-label { fill: #263238; }
      .view-label .view-id { font-weight: bold; }\(scrollLabel)
      .view-label.dimmed { fill: #9e9e9e; }
      .view-label.inert { fill: #c77700; }
      .view-label.blocked { opacity: 0.5; }\(controls ? "\n" + controlCSS : "")
      .touch { fill: none; stroke-width: \(n(base * 0.25)); stroke-linecap: round; stroke-linejoin: round; opacity: 0.85; }
      .touch-up { fill: none; stroke-width: \(n(base * 0.18)); }
      .touch-cancel { fill: none; stroke-width: \(n(base * 0.22)); stroke-linecap: round; }
      .touch-label { font-weight: bold; text-anchor: end; }
      .action-marker { fill: #111111; stroke: #ffffff; stroke-width: \(n(stroke)); }
      .action-leader { stroke: #111111; stroke-width: \(n(stroke)); }
      .action-label { fill: #111111; stroke: #ffffff; stroke-width: \(n(base * 0.3)); paint-order: stroke; stroke-linejoin: round; }
      .legend-text { fill: #263238; }
      .legend-heading { fill: #263238; font-weight: bold; }
      """
  }
}

/// An axis-aligned box, for keeping labels apart.
struct Box {
  var x, y, width, height: Double
  func intersects(_ o: Box) -> Bool {
    x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
  }
}

/// The key to the styles, laid out in rows that wrap at the width.
struct Legend {
  enum Sample {
    case view(String), outset, touchPath, touchDown, touchUp, touchCancel, action, scrollIndicator
    case control(enabled: Bool), controlHit
  }

  let metrics: Metrics
  let items: [(Sample, String)]
  let rows: [[(Sample, String, Double)]]

  static let swatch = 3.0

  init(metrics m: Metrics, width: Double, hasTrace: Bool, hasScroll: Bool = false, hasControls: Bool = false) {
    self.metrics = m
    var items: [(Sample, String)] = [
      (.view("view"), "view (hit-testable)"),
      (.view("view dimmed"), "hidden or alpha ≤ 0.01: never hit"),
      (.view("view inert"), "userInteractionEnabled: false: never hit"),
      (.view("view blocked"), "inside a view that cannot be hit"),
      (.outset, "hitOutset: hit area beyond the frame"),
    ]
    if hasScroll {
      items += [
        (.view("view scroll"), "scroll view: content at its offset, clipped"),
        (.scrollIndicator, "scroll indicator: the visible part of the content"),
      ]
    }
    if hasControls {
      items += [
        (.control(enabled: true), "control in its state (the scene's, or where the recording left it)"),
        (.control(enabled: false), "enabled: false: dimmed; hit, but ignores touches"),
        (.controlHit, "where a touch grabs a slider's thumb"),
      ]
    }
    if hasTrace {
      items += [
        (.touchPath, "touch path (a colour each)"), (.touchDown, "touch down"), (.touchUp, "lift"),
        (.touchCancel, "cancelled"), (.action, "action: #seq gesture state → action"),
      ]
      if hasControls { items.append((.action, "control action: #seq control event → action (value)")) }
    }
    self.items = items
    var rows: [[(Sample, String, Double)]] = [[]]
    var x = 0.0
    let size = m.small
    for (sample, text) in items {
      let itemWidth = Self.swatch * size + size * 0.6 + Double(text.count) * size * 0.6 + size * 2
      if x + itemWidth > width, !rows[rows.count - 1].isEmpty {
        rows.append([])
        x = 0
      }
      rows[rows.count - 1].append((sample, text, x))
      x += itemWidth
    }
    self.rows = rows
  }

  var rowHeight: Double { metrics.small * 2 }
  var height: Double { metrics.small * 1.8 + Double(rows.count) * rowHeight }

  func draw(into w: inout SVGWriter) {
    let n = SVGWriter.number
    let size = metrics.small
    w.text("text", [("class", "legend-heading"), ("x", "0"), ("y", n(size)), ("font-size", n(size))], "Legend")
    for (r, row) in rows.enumerated() {
      let top = size * 1.8 + Double(r) * rowHeight
      let mid = top + size * 0.6
      for (sample, text, x) in row {
        let sw = Self.swatch * size
        w.open("g", [("class", "legend-item")])
        switch sample {
        case .view(let classes):
          w.empty(
            "rect",
            [("class", classes), ("x", n(x)), ("y", n(top)), ("width", n(sw)), ("height", n(size * 1.2))])
        case .outset:
          w.empty(
            "rect",
            [("class", "hit-outset"), ("x", n(x)), ("y", n(top)), ("width", n(sw)), ("height", n(size * 1.2))])
        case .touchPath:
          w.empty(
            "polyline",
            [
              ("class", "touch"), ("stroke", SceneRenderer.palette[0]),
              (
                "points",
                "\(n(x)),\(n(top + size)) \(n(x + sw / 2)),\(n(top + size * 0.2)) \(n(x + sw)),\(n(top + size))"
              ),
            ])
        case .touchDown:
          w.empty(
            "circle",
            [
              ("class", "touch-down"), ("fill", SceneRenderer.palette[1]), ("cx", n(x + sw / 2)), ("cy", n(mid)),
              ("r", n(metrics.dot)),
            ])
        case .touchUp:
          w.empty(
            "circle",
            [
              ("class", "touch-up"), ("stroke", SceneRenderer.palette[2]), ("cx", n(x + sw / 2)), ("cy", n(mid)),
              ("r", n(metrics.ring)),
            ])
        case .touchCancel:
          let (cx, r) = (x + sw / 2, metrics.ring)
          w.empty(
            "path",
            [
              ("class", "touch-cancel"), ("stroke", SceneRenderer.palette[3]),
              (
                "d",
                "M\(n(cx - r)),\(n(mid - r))L\(n(cx + r)),\(n(mid + r))M\(n(cx - r)),\(n(mid + r))L\(n(cx + r)),\(n(mid - r))"
              ),
            ])
        case .scrollIndicator:
          let t = metrics.base * 0.3
          let box = [("scroll-track", 0.0, sw), ("scroll-indicator", sw * 0.3, sw * 0.4)]
          for (cls, start, length) in box {
            w.empty(
              "rect",
              [
                ("class", cls), ("x", n(x + start)), ("y", n(mid - t / 2)), ("width", n(length)), ("height", n(t)),
                ("rx", n(metrics.base * 0.15)),
              ])
          }
        case .control(let enabled):
          SceneRenderer.drawLegendSwitch(x: x, top: top, width: sw, height: size * 1.2, enabled: enabled, into: &w)
        case .controlHit:
          w.empty(
            "rect",
            [("class", "control-hit"), ("x", n(x)), ("y", n(top)), ("width", n(sw)), ("height", n(size * 1.2))])
        case .action:
          let (cx, d) = (x + sw / 2, metrics.marker)
          w.empty(
            "path",
            [
              ("class", "action-marker"),
              ("d", "M\(n(cx)),\(n(mid - d))L\(n(cx + d)),\(n(mid))L\(n(cx)),\(n(mid + d))L\(n(cx - d)),\(n(mid))Z"),
            ])
        }
        w.text(
          "text",
          [("class", "legend-text"), ("x", n(x + sw + size * 0.6)), ("y", n(top + size)), ("font-size", n(size))],
          text)
        w.close()
      }
    }
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
