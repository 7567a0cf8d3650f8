// Drawing scroll views: the offset each is drawn at, its content clipped to its viewport, the
// content's extent, the viewport's frame over it and UIKit's scroll indicators.
import TouchdScene

extension SceneRenderer {
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
  func drawScrollExtent(_ v: PlacedView, into w: inout SVGWriter) {
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
  func drawScrollFrame(_ v: PlacedView, into w: inout SVGWriter) {
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

  func drawScrollIndicators(_ v: PlacedView, metrics m: Metrics, into w: inout SVGWriter) {
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
}
