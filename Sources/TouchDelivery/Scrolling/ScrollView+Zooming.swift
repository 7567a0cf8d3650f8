// UIScrollView's zooming: the pinch that scales the zoom view around the fingers, the scale's
// limits and rubber band, and the run-time zooms (`setZoomScale(_:animated:)`, `zoom(to:animated:)`).

extension ScrollView {
  /// Whether the content can zoom: a zoom view, and limits that differ (Apple's UIScrollView
  /// overview: for zooming the delegate must return the view to zoom, and "the maximum
  /// (maximumZoomScale) and minimum (minimumZoomScale) zoom scale must be different").
  public var canZoom: Bool { zoomView != nil && maximumZoomScale > minimumZoomScale }

  /// `scale` within the limits.
  public func clampedZoomScale(_ scale: Double) -> Double {
    min(max(scale, minimumZoomScale), max(minimumZoomScale, maximumZoomScale))
  }

  /// The unit of the scale's settling spring, in points: the view's longer side, so the spring's
  /// half-point rest threshold (``ScrollConstants/restThreshold``) stops the scale when content
  /// the view's size changes by less than half a point.
  var zoomMotionUnit: Double { max(bounds.width, bounds.height, 1) }

  /// The content's size at `scale`: the zoom view's frame size then. Apple documents no rule;
  /// touchd's content is exactly the zoomed view (framed at the content's origin), so
  /// `contentSize` is its size times the scale, as UIKit apps see it after a zoom.
  func zoomedContentSize(_ scale: Double) -> Size {
    guard let zoomView else { return contentSize }
    return Size(width: zoomView.bounds.width * scale, height: zoomView.bounds.height * scale)
  }

  /// Attaches the pinch when the view can zoom, detaches it when it no longer can.
  func zoomSettingsChanged() {
    if canZoom, pinchGestureRecognizer == nil {
      let pinch = ScrollViewPinchGestureRecognizer()
      pinch.scrollView = self
      pinch.addAction { [unowned self] pinch in pinchChanged(pinch.state) }
      addGestureRecognizer(pinch)
      pinchGestureRecognizer = pinch
    } else if !canZoom, let pinch = pinchGestureRecognizer {
      removeGestureRecognizer(pinch)
      pinchGestureRecognizer = nil
    }
  }

  // MARK: Run-time zooms

  /// Sets the scale, clamped to the limits: at once (`didZoom`, and `didScroll` when the offset
  /// moves), or `animated` with the settling spring (`willBeginZooming`, `didZoom` and `didScroll`
  /// per display frame, `didEndZooming`; Apple's `scrollViewWillBeginZooming(_:with:)` is "called
  /// … in cases where a change in zoom level is to be animated"). The zoom view's point at the
  /// view's centre stays there as far as the offset's range allows: Apple documents no anchor for
  /// `setZoomScale(_:animated:)`; the centre is that of `zoom(to:)` with a rect centred on it.
  public func setZoomScale(_ scale: Double, animated: Bool = false) {
    guard let zoomView else { return }
    let centre = Point(x: bounds.width / 2, y: bounds.height / 2)
    let anchor = zoomView.convert(Point(x: bounds.minX + centre.x, y: bounds.minY + centre.y), from: self)
    zoom(toScale: clampedZoomScale(scale), anchor: anchor, at: centre, animated: animated)
  }

  /// Zooms so that `rect` (in the zoom view's points) fills the view, centred, as far as the
  /// limits and the offset's range allow (Apple's `zoom(to:animated:)`: "Zooms to a specific area
  /// of the content so that it is visible in the receiver"; the rect is "in the coordinate space
  /// of the view returned by viewForZooming(in:)"). The scale is the largest that shows the whole
  /// rect: the smaller of the view's width over the rect's and its height over the rect's.
  public func zoom(to rect: Rect, animated: Bool = false) {
    guard zoomView != nil, rect.width > 0 || rect.height > 0 else { return }
    let sx = rect.width > 0 ? bounds.width / rect.width : .infinity
    let sy = rect.height > 0 ? bounds.height / rect.height : .infinity
    zoom(
      toScale: clampedZoomScale(min(sx, sy)), anchor: Point(x: rect.midX, y: rect.midY),
      at: Point(x: bounds.width / 2, y: bounds.height / 2), animated: animated)
  }

  /// Zooms to `scale` with the zoom view's point `anchor` at `visible` (the view's points from its
  /// top-left corner), the offset kept in its range at that scale.
  private func zoom(toScale scale: Double, anchor: Point, at visible: Point, animated: Bool) {
    let time = currentTime
    stopMotion(at: time)
    let offset = zoomedOffset(scale: scale, anchor: anchor, at: visible)
    guard animated, scale != zoomScale || offset != contentOffset else {
      applyZoomScale(scale, at: time)
      moveOffset(to: offset, at: time)
      return
    }
    zoomEndPending = true
    publish(.willBeginZooming, at: time)
    settle(toScale: scale, offset: offset, at: time)
  }

  /// The offset that puts the zoom view's point `anchor` at `visible` (the view's points from its
  /// top-left corner) at `scale`, kept in the offset's range for the content at that scale: UIKit
  /// keeps a zooming view's offset inside its content (a zoomed-out view rests at its top-left).
  func zoomedOffset(scale: Double, anchor: Point, at visible: Point) -> Point {
    guard let zoomView else { return contentOffset }
    let origin = zoomView.frame.origin
    let lower = minimumContentOffset
    let upper = maximumContentOffset(contentSize: zoomedContentSize(scale))
    return Point(
      x: min(max(origin.x + anchor.x * scale - visible.x, lower.x), upper.x),
      y: min(max(origin.y + anchor.y * scale - visible.y, lower.y), upper.y))
  }

  /// Sets the zoom view's scale and the content size that follows it; `didZoom` when it changed.
  func applyZoomScale(_ scale: Double, at time: Double) {
    guard let zoomView, scale != zoomScale else { return }
    zoomScale = scale
    zoomView.scale = scale
    contentSize = zoomedContentSize(scale)
    publish(.didZoom, at: time)
  }

  /// Moves the scale and the offset to `scale` and `offset` with the settling spring, each on its
  /// own axis from rest, as Core Animation interpolates a zoom's transform and bounds separately
  /// (the critically damped spring from rest covers the same fraction of every axis at once).
  private func settle(toScale scale: Double, offset: Point, at time: Double) {
    func spring(to target: Double, from start: Double) -> AxisMotion {
      AxisMotion(
        .spring(target: target, start: start, velocity: 0), at: time, lower: -.infinity, upper: .infinity,
        bounces: true)
    }
    let unit = zoomMotionUnit
    startMotion(
      x: spring(to: offset.x, from: contentOffset.x), y: spring(to: offset.y, from: contentOffset.y),
      zoom: (spring(to: scale * unit, from: zoomScale * unit), scale), at: time)
  }

  /// A zoom (pinch, bounce, animation) stopped: `didEndZooming` with the scale reached, once.
  func endZoom(at time: Double) {
    isZoomBouncing = false
    guard zoomEndPending else { return }
    zoomEndPending = false
    publish(.didEndZooming, at: time)
  }

  // MARK: Pinching

  /// The pinch's centroid in the view's points from its top-left corner.
  private var pinchVisibleLocation: Point {
    guard let pinch = pinchGestureRecognizer else { return .zero }
    let p = pinch.location(in: self)
    return Point(x: p.x - bounds.minX, y: p.y - bounds.minY)
  }

  /// The pinch's fingers changed (it began, one lifted or landed): the zoom view's point under
  /// their centroid becomes the anchor, so the content does not jump with the centroid.
  func pinchFingersChanged() {
    guard let pinch = pinchGestureRecognizer, let zoomView else { return }
    zoomAnchor.content = zoomView.convert(pinch.location(in: nil), from: nil)
  }

  /// The pinch zooms around its centroid and pans with it: at every change the scale is the
  /// scale at `.began` times the pinch's (rubber-banded past the limits with ``bouncesZoom``,
  /// clamped without), and the offset puts the anchor back under the centroid. At the lift a
  /// scale past the limits springs back to the limit, the anchor staying under the last centroid.
  func pinchChanged(_ state: GestureRecognizer.State) {
    guard let pinch = pinchGestureRecognizer, zoomView != nil else { return }
    let time = currentTime
    switch state {
    case .began:
      stopMotion(at: time)
      isZooming = true
      if isDragging { dragZoomed = true }
      zoomAnchor.scale = ScrollPhysics.unbandedZoomScale(
        zoomScale, minimum: minimumZoomScale, maximum: maximumZoomScale)
      pinchFingersChanged()
      zoomEndPending = true
      publish(.willBeginZooming, at: time)
    case .changed:
      let raw = zoomAnchor.scale * pinch.scale
      let scale =
        bouncesZoom
        ? ScrollPhysics.bandedZoomScale(raw, minimum: minimumZoomScale, maximum: maximumZoomScale)
        : clampedZoomScale(raw)
      applyZoomScale(scale, at: time)
      moveOffset(to: zoomedOffset(scale: scale, anchor: zoomAnchor.content, at: pinchVisibleLocation), at: time)
    case .ended, .cancelled:
      isZooming = false
      guard let zoomView else { return }
      let scale = clampedZoomScale(zoomScale)
      // Within the limits the offset is already in its range: nothing moves.
      guard scale != zoomScale else {
        endZoom(at: time)
        return
      }
      let anchor = zoomView.convert(pinch.location(in: nil), from: nil)
      isZoomBouncing = true
      settle(toScale: scale, offset: zoomedOffset(scale: scale, anchor: anchor, at: pinchVisibleLocation), at: time)
    default:
      break
    }
  }
}
