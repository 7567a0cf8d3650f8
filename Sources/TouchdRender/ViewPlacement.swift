// Where each view is drawn: views flattened back to front with their frames in window
// coordinates, the scroll views' clips around them, and why a view cannot be hit.
import TouchdScene

extension SceneRenderer {
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
  /// its viewport's clip is named `clipPrefix` and the view's index. A scroll view's `zoomView`
  /// is drawn at the scene's `zoomScale`, its subtree with it (the transform about its top-left
  /// corner that hit-testing goes through, `View.scale`).
  static func flatten(
    _ views: [Scene.View], clipPrefix: String = "scroll-clip-",
    offset: (Scene.View) -> Scene.Point? = { $0.scroll?.contentOffset }
  ) -> [PlacedView] {
    var out: [PlacedView] = []
    func visit(
      _ list: [Scene.View], originX: Double, originY: Double, scale: Double, zoomView: String?, zoomScale: Double,
      blockedBy: String?, clipChain: [String], visible: Scene.Frame?
    ) {
      for v in list {
        // The zoom view scales itself and its subtree; every view inside zoomed content is scaled.
        let own = v.id == zoomView ? scale * zoomScale : scale
        let frame = Scene.Frame(
          x: originX + v.frame.x * scale, y: originY + v.frame.y * scale, width: v.frame.width * own,
          height: v.frame.height * own)
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
          v.views, originX: contentOrigin.x, originY: contentOrigin.y, scale: own, zoomView: v.scroll?.zoomView,
          zoomScale: v.scroll?.zoomScale ?? 1, blockedBy: unhittable ? v.id : blockedBy, clipChain: contentClip,
          visible: contentVisible)
      }
    }
    visit(
      views, originX: 0, originY: 0, scale: 1, zoomView: nil, zoomScale: 1, blockedBy: nil, clipChain: [], visible: nil)
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
}
