// Drawing views: each view's frame and hit outset, and its label (id, what stops hits, scroll
// state, control actions and recognizers) fitted inside it.
import TouchdScene

extension SceneRenderer {
  func drawView(_ v: PlacedView, metrics m: Metrics, into w: inout SVGWriter) {
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

  /// `offset 0, 480 · content 800 × 3000`, with `paging`, `scrollEnabled false` and, for a view
  /// that zooms, `zoom 2× (1…4)` (its scale and limits) when set.
  static func scrollLine(_ s: ScrollPlacement) -> String {
    var parts = [
      "offset \(fmt(s.offset.x)), \(fmt(s.offset.y))",
      "content \(fmt(s.spec.contentSize.width)) × \(fmt(s.spec.contentSize.height))",
    ]
    if s.spec.pagingEnabled { parts.append("paging") }
    if !s.spec.scrollEnabled { parts.append("scrollEnabled false") }
    if s.spec.zoomView != nil && s.spec.maximumZoomScale > s.spec.minimumZoomScale {
      parts.append(
        "zoom \(fmt(s.spec.zoomScale))× (\(fmt(s.spec.minimumZoomScale))…\(fmt(s.spec.maximumZoomScale)))")
    }
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

  func drawViewLabel(_ v: PlacedView, window: Scene.Size, metrics m: Metrics, into w: inout SVGWriter) {
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
}
