/// Distances inset from each edge (UIKit's `UIEdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double
  public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
  public static let zero = EdgeInsets()
}

/// A view whose subviews are content scrolled by the finger (UIKit's `UIScrollView`).
///
/// The content offset is the bounds origin, as in UIKit: subviews' frames are in content
/// coordinates, so hit-testing and every coordinate conversion follow the offset.
///
/// # Touch handling
/// - ``panGestureRecognizer`` drives the offset: it begins after the pan's 10 pt hysteresis along
///   an axis the view can scroll (a drag along an axis it cannot scroll fails it, so a scroll view
///   around this one takes the drag), follows the finger with UIKit's rubber band past the edges
///   when ``bounces``, and locks to one axis with ``isDirectionalLockEnabled``.
/// - After the lift the content decelerates at ``decelerationRate``, springs back inside the
///   bounds, or snaps to a page with ``isPagingEnabled`` (``ScrollPhysics``).
/// - ``contentTouchDelayRecognizer`` holds content's `touchesBegan` back for 150 ms while
///   ``delaysContentTouches`` (UIKit's default: true); a drag that begins in that time takes the
///   touch before content sees it. A touch on moving content stops it and reaches no content.
/// - A drag that begins after content got the touch cancels it there when
///   ``canCancelContentTouches`` and ``touchesShouldCancel(in:)`` allow; otherwise the content
///   keeps the touch and the view does not scroll.
///
/// # Zooming
/// With a ``zoomView`` and ``maximumZoomScale`` above ``minimumZoomScale`` the view zooms that
/// subview (ScrollView+Zooming.swift): ``pinchGestureRecognizer`` scales it around the fingers'
/// centroid, ``setZoomScale(_:animated:)`` and ``zoom(to:animated:)`` change the scale at run time.
///
/// Every change is reported to ``onScroll`` with UIScrollViewDelegate's names (``Phase``).
open class ScrollView: View {
  /// UIScrollViewDelegate's callbacks, by name.
  public enum Phase: String, Sendable, Hashable, CaseIterable {
    case willBeginDragging, didScroll, willEndDragging, didEndDragging, willBeginDecelerating, didEndDecelerating
    case didEndScrollingAnimation
    case willBeginZooming, didZoom, didEndZooming
  }

  /// One delegate callback: the phase, its time and the offset then.
  public struct ScrollEvent: Hashable, Sendable {
    public var phase: Phase
    /// Seconds on the pipeline clock: the frame's time during a drag, the display tick's while moving.
    public var time: Double
    public var contentOffset: Point
    /// The zoom scale then, for a view that zooms (``canZoom``); nil for one that does not.
    public var zoomScale: Double?
    /// `willEndDragging`: the offset's velocity at release in points per millisecond, UIKit's unit
    /// (positive when the offset grows, the opposite of the finger).
    public var velocity: Point?
    /// `willEndDragging`: where the offset will come to rest.
    public var targetContentOffset: Point?
    /// `didEndDragging`: whether the content moves on after the lift.
    public var willDecelerate: Bool?
  }

  /// Called for each delegate callback, in order.
  public var onScroll: ((ScrollView, ScrollEvent) -> Void)?

  /// The size of the content, in points.
  open var contentSize: Size = .zero
  /// Extra scrollable space around the content.
  open var contentInset: EdgeInsets = .zero
  /// When false, the view does not scroll and delays no content touches (UIKit disables both
  /// recognizers).
  open var isScrollEnabled = true {
    didSet {
      panGestureRecognizer.isEnabled = isScrollEnabled
      contentTouchDelayRecognizer.isEnabled = isScrollEnabled
    }
  }
  /// Content may be dragged past its edges and bounces back (UIKit default true).
  open var bounces = true
  /// Bounce vertically even when the content is not taller than the view (default false).
  open var alwaysBounceVertical = false
  /// Bounce horizontally even when the content is not wider than the view (default false).
  open var alwaysBounceHorizontal = false
  /// A drag that starts along one axis scrolls only along it (default false).
  open var isDirectionalLockEnabled = false
  /// The content stops on multiples of the view's size (default false).
  open var isPagingEnabled = false
  /// The fraction of its velocity content keeps per millisecond (``ScrollConstants``).
  open var decelerationRate = ScrollConstants.decelerationRateNormal
  /// Hold content's touch-down back until the view knows whether the touch scrolls (default true,
  /// Apple's documentation; seed 002's "default NO" is a slip).
  open var delaysContentTouches = true {
    didSet { contentTouchDelayRecognizer.delaysTouchesBegan = delaysContentTouches }
  }
  /// A drag may take a touch that content already has (default true).
  open var canCancelContentTouches = true
  /// How often (Hz) a moving offset is published.
  open var frameRate = ScrollConstants.defaultFrameRate

  /// The smallest scale the zoom view takes (UIScrollView.h: default 1.0).
  open var minimumZoomScale = 1.0 { didSet { zoomSettingsChanged() } }
  /// The largest scale the zoom view takes (UIScrollView.h: default 1.0, so no zooming).
  open var maximumZoomScale = 1.0 { didSet { zoomSettingsChanged() } }
  /// A pinch may take the scale past its limits, rubber-banded, and it springs back at the lift
  /// (UIScrollView.h: default YES).
  open var bouncesZoom = true
  /// The one subview that zooms (UIScrollViewDelegate's `viewForZooming(in:)`); nil: none. A view
  /// set here takes the current ``zoomScale``; the one it replaces is unscaled.
  open weak var zoomView: View? {
    didSet {
      guard zoomView !== oldValue else { return }
      oldValue?.scale = 1
      zoomView?.scale = zoomScale
      zoomSettingsChanged()
    }
  }
  /// The zoom view's scale (its ``View/scale``); 1 until the view zooms.
  public internal(set) var zoomScale = 1.0
  /// The recognizer that zooms the content: nil unless the view can zoom (``canZoom``), as
  /// UIKit's `pinchGestureRecognizer`.
  public internal(set) var pinchGestureRecognizer: ScrollViewPinchGestureRecognizer?
  /// A pinch is zooming the content (UIKit's `isZooming`).
  public internal(set) var isZooming = false
  /// The scale springs back inside its limits after a pinch (UIKit's `isZoomBouncing`).
  public internal(set) var isZoomBouncing = false
  /// The pinch's anchor: the zoom view point under the fingers and the unbanded scale the pinch
  /// multiplies.
  var zoomAnchor = (content: Point.zero, scale: 1.0)
  /// A zoom (pinch, bounce or animation) is under way: `didEndZooming` follows when it stops.
  var zoomEndPending = false
  /// A pinch zoomed during the current drag: the drag's end neither flings nor settles.
  var dragZoomed = false

  /// The recognizer that drags the content.
  public let panGestureRecognizer = ScrollViewPanGestureRecognizer()
  /// The recognizer behind ``delaysContentTouches`` (UIKit's private delayed-touches-began one).
  public let contentTouchDelayRecognizer = ContentTouchDelayRecognizer()

  /// The finger is dragging the content.
  public private(set) var isDragging = false
  /// The content moves on after a drag (deceleration, bounce, paging).
  public private(set) var isDecelerating = false
  /// The content moves to an offset set with `animated` true.
  public private(set) var isAnimating = false

  private var motion: (x: AxisMotion, y: AxisMotion)?
  /// The scale's motion, in points (the scale times ``zoomMotionUnit``), and the scale it ends at
  /// (taken as it is at rest: the points divided back may differ from it in the last bit).
  private var zoomMotion: (motion: AxisMotion, target: Double)?
  private var motionStart = 0.0
  private var tickIndex = 0
  private var tick: ScheduledTimer?
  /// The drag: the un-banded offset at its start, the pan's travel then and the axes it moves.
  private var dragStart = Point.zero
  /// The content follows the finger from where the drag began, not from the touch-down: the
  /// 10 pt hysteresis is not scrolled, so content does not jump when the drag begins (a choice
  /// where UIKit publishes nothing, docs/gestures.md). The pan's own translation counts from the
  /// touch-down, as Apple documents for UIPanGestureRecognizer.
  private var dragTravelOrigin = Point.zero
  private var dragAxes: (x: Bool, y: Bool) = (true, true)
  private var dragStartPage = Point.zero

  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
    clipsToBounds = true  // UIScrollView's default
    panGestureRecognizer.scrollView = self
    contentTouchDelayRecognizer.scrollView = self
    panGestureRecognizer.addAction { [unowned self] pan in panChanged(pan.state) }
    addGestureRecognizer(panGestureRecognizer)
    addGestureRecognizer(contentTouchDelayRecognizer)
  }

  /// Asked before a drag takes a touch that content view `view` already has; false keeps the touch
  /// in the content and the view does not scroll. As UIKit (Apple's documentation of
  /// `touchesShouldCancel(in:)`: "The default returned value is true if view isn't a UIControl
  /// object; otherwise, it returns false"): false for a ``Control``, true for other views.
  open func touchesShouldCancel(in view: View) -> Bool { !(view is Control) }

  // MARK: Offset

  /// The point of the content at the view's top-left corner (the bounds origin).
  public var contentOffset: Point { bounds.origin }

  /// The smallest offsets the content rests at (the insets).
  public var minimumContentOffset: Point { Point(x: -contentInset.left, y: -contentInset.top) }

  /// The largest offsets the content rests at.
  public var maximumContentOffset: Point { maximumContentOffset(contentSize: contentSize) }

  /// The largest offsets content of `size` rests at.
  func maximumContentOffset(contentSize size: Size) -> Point {
    let lower = minimumContentOffset
    return Point(
      x: max(lower.x, size.width + contentInset.right - bounds.width),
      y: max(lower.y, size.height + contentInset.bottom - bounds.height))
  }

  /// Whether a drag can move the offset horizontally: wider content, or ``alwaysBounceHorizontal``.
  public var canScrollHorizontally: Bool {
    isScrollEnabled
      && (contentSize.width + contentInset.left + contentInset.right > bounds.width
        || (bounces && alwaysBounceHorizontal))
  }

  /// Whether a drag can move the offset vertically: taller content, or ``alwaysBounceVertical``.
  public var canScrollVertically: Bool {
    isScrollEnabled
      && (contentSize.height + contentInset.top + contentInset.bottom > bounds.height
        || (bounces && alwaysBounceVertical))
  }

  /// Whether the content is moving without a finger (deceleration, bounce, paging, animation).
  public var isMoving: Bool { motion != nil }

  /// Sets the offset: at once (one `didScroll`), or `animated` with the settling spring (a
  /// `didScroll` per display frame, then `didEndScrollingAnimation`). Stops any motion first.
  public func setContentOffset(_ offset: Point, animated: Bool = false) {
    let time = currentTime
    stopMotion(at: time)
    guard animated, offset != contentOffset else {
      moveOffset(to: offset, at: time)
      return
    }
    isAnimating = true
    startMotion(
      x: AxisMotion(
        .spring(target: offset.x, start: contentOffset.x, velocity: 0), at: time, lower: -.infinity,
        upper: .infinity, bounces: true),
      y: AxisMotion(
        .spring(target: offset.y, start: contentOffset.y, velocity: 0), at: time, lower: -.infinity,
        upper: .infinity, bounces: true),
      at: time)
  }

  /// The pipeline clock's time: the frame's during delivery, the timer's deadline in a timer.
  var currentTime: Double { window?.application?.clock.now ?? 0 }

  func publish(
    _ phase: Phase, at time: Double, velocity: Point? = nil, target: Point? = nil, decelerate: Bool? = nil
  ) {
    onScroll?(
      self,
      ScrollEvent(
        phase: phase, time: time, contentOffset: contentOffset, zoomScale: canZoom ? zoomScale : nil,
        velocity: velocity, targetContentOffset: target, willDecelerate: decelerate))
  }

  /// Moves the bounds origin, publishing `didScroll` when it changed.
  func moveOffset(to offset: Point, at time: Double) {
    guard offset != bounds.origin else { return }
    bounds.origin = offset
    publish(.didScroll, at: time)
  }

  // MARK: Dragging

  /// Whether the drag so far (window points since touch-down) may begin scrolling; the reason when not.
  func dragRefusal(travel: Point, touches: [Touch]) -> String? {
    let horizontal = abs(travel.x) >= abs(travel.y)
    let canX = canScrollHorizontally
    let canY = canScrollVertically
    if !(canX && canY) {
      if horizontal && !canX { return "the drag is horizontal and the scroll view cannot scroll horizontally" }
      if !horizontal && !canY { return "the drag is vertical and the scroll view cannot scroll vertically" }
    }
    for touch in touches
    where touch.deliversToView && touch.viewBeganDelivered && !touch.viewFinished && !touch.viewCancelled {
      guard let content = touch.view, content !== self else { continue }
      if !canCancelContentTouches {
        return "content view '\(content.traceName)' has the touch and canCancelContentTouches is false"
      }
      if !touchesShouldCancel(in: content) {
        return "content view '\(content.traceName)' has the touch and touchesShouldCancel(in:) is false"
      }
    }
    return nil
  }

  private func panChanged(_ state: GestureRecognizer.State) {
    let pan = panGestureRecognizer
    let time = pan.lastTouchTime
    switch state {
    case .began:
      stopMotion(at: time)
      isDragging = true
      dragZoomed = isZooming
      let travel = pan.travelledSinceTouchDown
      dragTravelOrigin = travel
      var axes = (x: canScrollHorizontally, y: canScrollVertically)
      if isDirectionalLockEnabled && axes.x && axes.y {
        if abs(travel.x) >= ScrollConstants.directionalLockRatio * abs(travel.y) {
          axes.y = false
        } else if abs(travel.y) >= ScrollConstants.directionalLockRatio * abs(travel.x) {
          axes.x = false
        }
      }
      dragAxes = axes
      let lower = minimumContentOffset
      let upper = maximumContentOffset
      func unband(_ value: Double, _ lo: Double, _ hi: Double, _ dimension: Double) -> Double {
        if value < lo { return lo - ScrollPhysics.unRubberBand(lo - value, dimension: dimension) }
        if value > hi { return hi + ScrollPhysics.unRubberBand(value - hi, dimension: dimension) }
        return value
      }
      dragStart = Point(
        x: unband(contentOffset.x, lower.x, upper.x, bounds.width),
        y: unband(contentOffset.y, lower.y, upper.y, bounds.height))
      dragStartPage = currentPage
      contentTouchDelayRecognizer.scrollViewBeganDragging()
      publish(.willBeginDragging, at: time)
    case .changed:
      // A pinch moves the offset itself while it zooms (its centroid pans the content).
      guard !isZooming else { return }
      moveOffset(to: draggedOffset(pan.travelledSinceTouchDown - dragTravelOrigin), at: time)
    case .ended, .cancelled:
      isDragging = false
      if dragZoomed {
        // The pinch owned the offset: the drag ends where it is, and the zoom's settling moves it.
        publish(.willEndDragging, at: time, velocity: .zero, target: contentOffset)
        publish(.didEndDragging, at: time, decelerate: false)
        return
      }
      let fingerVelocity = state == .ended ? pan.velocity(in: nil) : .zero
      // The offset moves against the finger.
      let velocity = Point(x: dragAxes.x ? -fingerVelocity.x : 0, y: dragAxes.y ? -fingerVelocity.y : 0)
      release(velocity: velocity, at: time)
    default:
      break
    }
  }

  /// The offset for a drag translation (window points, the finger's movement since the drag began).
  private func draggedOffset(_ translation: Point) -> Point {
    let lower = minimumContentOffset
    let upper = maximumContentOffset
    func axis(_ start: Double, _ t: Double, _ moves: Bool, _ lo: Double, _ hi: Double, _ d: Double, _ current: Double)
      -> Double
    {
      guard moves else { return current }
      let raw = start - t
      return bounces ? ScrollPhysics.banded(raw, lower: lo, upper: hi, dimension: d) : min(max(raw, lo), hi)
    }
    return Point(
      x: axis(dragStart.x, translation.x, dragAxes.x, lower.x, upper.x, bounds.width, contentOffset.x),
      y: axis(dragStart.y, translation.y, dragAxes.y, lower.y, upper.y, bounds.height, contentOffset.y))
  }

  /// The page the offset is nearest to, on each axis (paging's pages are the view's size,
  /// counted from ``minimumContentOffset``: see ``pageMotion``).
  public var currentPage: Point {
    let origin = minimumContentOffset
    return Point(
      x: bounds.width > 0 ? ((contentOffset.x - origin.x) / bounds.width).rounded() : 0,
      y: bounds.height > 0 ? ((contentOffset.y - origin.y) / bounds.height).rounded() : 0)
  }

  /// The offsets at which page `page` (counted on each axis as ``currentPage`` counts) rests:
  /// where paging stops on it, within the resting offsets.
  public func contentOffset(forPage page: Point) -> Point {
    let lower = minimumContentOffset
    let upper = maximumContentOffset
    return Point(
      x: Self.pageOffset(page.x, page: bounds.width, lower: lower.x, upper: upper.x),
      y: Self.pageOffset(page.y, page: bounds.height, lower: lower.y, upper: upper.y))
  }

  /// Page `index`'s offset on one axis: `index` pages of `page` points from `lower`, within
  /// `lower`...`upper`.
  private static func pageOffset(_ index: Double, page: Double, lower: Double, upper: Double) -> Double {
    min(max(lower + index * page, lower), upper)
  }

  /// How the content moves on from the current offset at `velocity` (pt/s, per axis): to a page
  /// next to `startPage` when paging, else decelerating (and springing back inside its bounds).
  private func settlingMotion(velocity: Point, startPage: Point, at time: Double) -> (x: AxisMotion, y: AxisMotion) {
    let lower = minimumContentOffset
    let upper = maximumContentOffset
    if isPagingEnabled {
      return (
        pageMotion(contentOffset.x, velocity.x, bounds.width, startPage.x, lower.x, upper.x, time),
        pageMotion(contentOffset.y, velocity.y, bounds.height, startPage.y, lower.y, upper.y, time)
      )
    }
    return (
      decayMotion(contentOffset.x, velocity.x, lower.x, upper.x, time),
      decayMotion(contentOffset.y, velocity.y, lower.y, upper.y, time)
    )
  }

  /// The finger lifted: where the content comes to rest, and the motion there.
  private func release(velocity: Point, at time: Double) {
    let (x, y) = settlingMotion(velocity: velocity, startPage: dragStartPage, at: time)
    let target = Point(x: x.restingPoint, y: y.restingPoint)
    publish(.willEndDragging, at: time, velocity: Point(x: velocity.x / 1000, y: velocity.y / 1000), target: target)
    let moves = !(x.isAtRest && y.isAtRest)
    publish(.didEndDragging, at: time, decelerate: moves)
    if moves {
      isDecelerating = true
      publish(.willBeginDecelerating, at: time)
      startMotion(x: x, y: y, at: time)
    }
  }

  private func decayMotion(_ offset: Double, _ velocity: Double, _ lower: Double, _ upper: Double, _ time: Double)
    -> AxisMotion
  {
    if offset < lower || offset > upper {
      let edge = offset < lower ? lower : upper
      return AxisMotion(
        .spring(target: edge, start: offset, velocity: velocity), at: time, lower: lower, upper: upper, bounces: bounces
      )
    }
    if abs(ScrollPhysics.projection(velocity: velocity, rate: decelerationRate)) < ScrollConstants.restThreshold {
      return AxisMotion(.rest(offset), at: time, lower: lower, upper: upper, bounces: bounces)
    }
    return AxisMotion(
      .decay(start: offset, velocity: velocity, rate: decelerationRate), at: time, lower: lower, upper: upper,
      bounces: bounces)
  }

  /// Paging: the page the projected offset falls on, at most one page from the page the drag
  /// started on (UIKit moves one page per fling), reached with the settling spring. The grid
  /// starts at the smallest resting offset, `lower` (−contentInset): Apple documents only that
  /// paging "stops on multiples of the scroll view's bounds"; counting the multiples from the
  /// inset's edge lets page 0 rest with its inset shown and every page a view's width further
  /// (touchd's reading, as the offset range itself starts at −contentInset).
  private func pageMotion(
    _ offset: Double, _ velocity: Double, _ page: Double, _ startPage: Double, _ lower: Double, _ upper: Double,
    _ time: Double
  ) -> AxisMotion {
    guard page > 0 else { return AxisMotion(.rest(offset), at: time, lower: lower, upper: upper, bounces: bounces) }
    let projected = offset + ScrollPhysics.projection(velocity: velocity, rate: decelerationRate)
    var index = ((projected - lower) / page).rounded()
    index = min(max(index, startPage - 1), startPage + 1)
    let target = Self.pageOffset(index, page: page, lower: lower, upper: upper)
    if abs(target - offset) < ScrollConstants.restThreshold && abs(velocity) < ScrollConstants.restThreshold {
      return AxisMotion(.rest(offset), at: time, lower: lower, upper: upper, bounces: bounces)
    }
    return AxisMotion(
      .spring(target: target, start: offset, velocity: velocity), at: time, lower: -.infinity, upper: .infinity,
      bounces: true)
  }

  /// After the pan reset without a drag (a touch that caught moving content and lifted): content
  /// left outside its bounds, or between pages, settles.
  func panDidReset() {
    guard !isDragging, motion == nil else { return }
    let time = panGestureRecognizer.lastTouchTime
    let (x, y) = settlingMotion(velocity: .zero, startPage: currentPage, at: time)
    guard !(x.isAtRest && y.isAtRest) else { return }
    isDecelerating = true
    publish(.willBeginDecelerating, at: time)
    startMotion(x: x, y: y, at: time)
  }

  // MARK: Motion

  /// Starts moving the offset (and the scale, with `zoom`: in points of ``zoomMotionUnit``, to the
  /// scale `target`).
  func startMotion(
    x: AxisMotion, y: AxisMotion, zoom: (motion: AxisMotion, target: Double)? = nil, at time: Double
  ) {
    motion = (x, y)
    zoomMotion = zoom
    motionStart = time
    tickIndex = 0
    scheduleTick()
  }

  private func scheduleTick() {
    guard let clock = window?.application?.clock else {
      // Not in an application: nothing ticks; the motion jumps to its end.
      finishMotion(at: motionStart)
      return
    }
    tickIndex += 1
    let deadline = motionStart + Double(tickIndex) / max(frameRate, 1)
    tick = clock.schedule(at: deadline) { [weak self] in self?.step(at: deadline) }
  }

  /// Moves the scale and the offset to where the motion is at `time`; whether every axis has come
  /// to rest.
  private func follow(_ m: inout (x: AxisMotion, y: AxisMotion), at time: Double) -> Bool {
    var zoomAtRest = true
    if var z = zoomMotion {
      let position = z.motion.sample(at: time).position
      zoomAtRest = z.motion.isAtRest
      applyZoomScale(zoomAtRest ? z.target : position / zoomMotionUnit, at: time)
      zoomMotion = z
    }
    let px = m.x.sample(at: time)
    let py = m.y.sample(at: time)
    moveOffset(to: Point(x: px.position, y: py.position), at: time)
    return m.x.isAtRest && m.y.isAtRest && zoomAtRest
  }

  private func step(at time: Double) {
    guard var m = motion else { return }
    let atRest = follow(&m, at: time)
    motion = m
    if atRest {
      let zoomed = zoomMotion != nil
      motion = nil
      zoomMotion = nil
      tick = nil
      endMotion(at: time, zoomed: zoomed)
    } else {
      scheduleTick()
    }
  }

  private func finishMotion(at time: Double) {
    guard let m = motion else { return }
    motion = nil
    let zoom = zoomMotion
    zoomMotion = nil
    if let zoom { applyZoomScale(zoom.target, at: time) }
    moveOffset(to: Point(x: m.x.restingPoint, y: m.y.restingPoint), at: time)
    endMotion(at: time, zoomed: zoom != nil)
  }

  /// The motion came to rest; `zoomed`: it moved the scale too (a zoom's end follows).
  private func endMotion(at time: Double, zoomed: Bool) {
    if zoomed { endZoom(at: time) }
    if isAnimating {
      isAnimating = false
      publish(.didEndScrollingAnimation, at: time)
    }
    if isDecelerating {
      isDecelerating = false
      publish(.didEndDecelerating, at: time)
    }
  }

  /// Stops moving content where it is at `time` (a touch caught it, or a new offset was set, or
  /// the scroll view left the scene). UIKit sends no `didEndDecelerating` when a touch stops the
  /// content.
  public func stopMotion(at time: Double) {
    guard var m = motion else { return }
    tick?.cancel()
    tick = nil
    motion = nil
    isDecelerating = false
    isAnimating = false
    _ = follow(&m, at: time)
    if zoomMotion != nil {
      zoomMotion = nil
      // A stopped zoom has ended where it is (its willBeginZooming gets its didEndZooming).
      endZoom(at: time)
    }
  }
}
