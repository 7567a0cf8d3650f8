/// A rectangle on screen that can be hit by touches and carry gesture recognizers (UIKit's `UIView`).
open class View: Responder {
  /// The frame in the superview's coordinates: the bounds' size times ``scale``.
  open var frame: Rect {
    get { Rect(origin: origin, size: Size(width: bounds.width * scale, height: bounds.height * scale)) }
    set {
      if newValue.origin != origin { superview?.subviewIndex = nil }
      origin = newValue.origin
      bounds.size = Size(width: newValue.width / scale, height: newValue.height / scale)
    }
  }
  @exclusivity(unchecked) private var origin: Point = .zero
  /// The view's own coordinate system: origin at (0, 0) unless scrolled, size as the frame's
  /// (divided by ``scale``).
  @exclusivity(unchecked) open var bounds: Rect = .zero {
    // Its size makes the frame: the superview's index (``SubviewIndex``) is of the frames. Its
    // origin (a scroll view's offset) moves the subviews, not this view's frame.
    didSet { if bounds.size != oldValue.size { superview?.subviewIndex = nil } }
  }
  /// A uniform scale of the view and its subtree, about its frame's top-left corner, which stays
  /// where it is: the one transform touchd models, the one UIScrollView's zooming gives its zoom
  /// view (UIKit's `transform`, a `CGAffineTransform(scaleX: s, y: s)` set by the scroll view,
  /// which keeps the zoomed frame's origin at the content's; ``ScrollView/zoomView``). 1: none;
  /// always above 0. The frame's size follows it, the bounds keep the view's own points, and
  /// hit-testing and every conversion go through it.
  @exclusivity(unchecked) open var scale: Double = 1 {
    willSet { precondition(newValue > 0 && newValue.isFinite, "a view's scale must be a positive number") }
    // The frame's size follows the scale: the superview's index is of the frames.
    didSet { if scale != oldValue { superview?.subviewIndex = nil } }
  }

  @exclusivity(unchecked) public private(set) weak var superview: View?
  /// Subviews in z-order: the last is frontmost.
  @exclusivity(unchecked) public private(set) var subviews: [View] = [] {
    didSet { subviewIndex = nil }
  }
  /// Which subviews a point may hit, built by a hit-test when there are many (a long list), and
  /// dropped when they change: ``SubviewIndex``.
  @exclusivity(unchecked) private var subviewIndex: SubviewIndex?

  // Read for every view a hit-test visits: @exclusivity(unchecked) as `bounds`, so a long list of
  // rows is not dominated by runtime exclusivity checks (the scrolling benchmark's profile).
  @exclusivity(unchecked) open var isHidden = false
  /// Below or at 0.01 the view and its subtree are not hit.
  @exclusivity(unchecked) open var alpha: Double = 1
  @exclusivity(unchecked) open var isUserInteractionEnabled = true
  /// When false (the default), a second touch that lands on the view while one is down is not
  /// delivered to the view (its recognizers still get it).
  open var isMultipleTouchEnabled = false
  /// When true, the view gets a touch only if no other view in the window has touches, and while
  /// it has touches no other view gets new ones.
  open var isExclusiveTouch = false
  open var clipsToBounds = false
  /// Enlarges the area in which ``point(inside:)`` answers true by this many points on every side.
  @exclusivity(unchecked) open var hitTestOutset: Double = 0 {
    didSet { superview?.subviewIndex = nil }
  }

  /// A name for messages and diagnostics (the scene's view id).
  public var identifier: String?

  /// Recognizers attached to this view, in the order they were added.
  @exclusivity(unchecked) public private(set) var gestureRecognizers: [GestureRecognizer] = []

  /// An optional next responder between this view and its superview (UIKit's view controller);
  /// see ``ViewController``.
  public var viewController: Responder?

  public init(frame: Rect = .zero) {
    super.init()
    self.frame = frame
    self.bounds = Rect(origin: .zero, size: frame.size)
  }

  /// The view controller if set, else the superview; a window's next responder is its application.
  open override var next: Responder? { viewController ?? superview }

  /// The window this view is in, if any.
  open var window: Window? { enclosingWindow }

  /// The window at the root of this view's hierarchy, kept by the hierarchy methods so that
  /// ``window`` (asked on every state change of a recognizer) does not walk the superviews.
  @exclusivity(unchecked) private weak var enclosingWindow: Window?

  /// Sets `window` as the enclosing window of this view and its descendants (a window is its own).
  private func moved(to window: Window?) {
    let window = self as? Window ?? window
    enclosingWindow = window
    for subview in subviews { subview.moved(to: window) }
  }

  // MARK: Hierarchy

  /// Adds `view` in front of the other subviews, removing it from its old superview first.
  open func addSubview(_ view: View) {
    view.removeFromSuperview()
    subviews.append(view)
    view.superview = self
    view.moved(to: window)
  }

  /// Inserts `view` at `index` in z-order (0 is the backmost).
  open func insertSubview(_ view: View, at index: Int) {
    view.removeFromSuperview()
    subviews.insert(view, at: min(max(index, 0), subviews.count))
    view.superview = self
    view.moved(to: window)
  }

  open func removeFromSuperview() {
    guard let parent = superview else { return }
    parent.subviews.removeAll { $0 === self }
    superview = nil
    moved(to: nil)
  }

  /// Whether `view` is this view or one of its descendants.
  public func isDescendant(of view: View) -> Bool {
    var v: View? = self
    while let current = v {
      if current === view { return true }
      v = current.superview
    }
    return false
  }

  // MARK: Recognizers

  open func addGestureRecognizer(_ recognizer: GestureRecognizer) {
    recognizer.view?.removeGestureRecognizer(recognizer)
    gestureRecognizers.append(recognizer)
    recognizer.view = self
  }

  /// Detaches `recognizer`; mid-gesture it drops out of arbitration and is reset.
  open func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
    guard recognizer.view === self else { return }
    window?.application?.gestureArbiter.detach(recognizer)
    gestureRecognizers.removeAll { $0 === recognizer }
    recognizer.view = nil
  }

  /// Asked, after the recognizer's delegate, before a recognizer attached to this view leaves
  /// `.possible` (UIKit's `UIView.gestureRecognizerShouldBegin`); false makes it fail.
  open func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }

  // MARK: Hit-testing

  /// Whether hit-testing may return this view or a descendant: not hidden, interactive, and alpha
  /// above 0.01 (UIView's `hitTest(_:with:)` documentation: "ignores view objects that are hidden,
  /// that have disabled user interactions, or have an alpha level less than 0.01").
  public var canBeHit: Bool { !isHidden && isUserInteractionEnabled && alpha > 0.01 }

  /// The touch types hit-testing may find this view and its subviews for (nil: every type). A
  /// view of pens only (`[.pencil]`) lets a finger's touch through to what is under it, as a view
  /// with user interaction disabled does. touchd's own (UIKit has no such property; an app
  /// overrides `hitTest(_:with:)` to the same end).
  public var touchTypes: Set<TouchType>?

  /// Whether the recognizers of this view's superviews are denied the touches that begin in it
  /// (touchd's, for a signature pad: a stroke is never a swipe or a scroll of what is around it;
  /// UIKit has no such property). Its own recognizers and its subviews' still get them.
  public var isolatesTouches = false

  /// Whether the point (in this view's coordinates) is inside the bounds, enlarged by ``hitTestOutset``.
  ///
  /// An override may answer true only inside that area: a superview with many subviews skips,
  /// by their frames and outsets, the subviews whose areas miss the point (``SubviewIndex``).
  open func point(inside point: Point, with event: TouchEvent?) -> Bool {
    bounds.insetBy(-hitTestOutset).contains(point)
  }

  /// The deepest visible, interactive descendant (or self) containing `point`, in this view's
  /// coordinates; nil when hidden, non-interactive, alpha <= 0.01, or the point is outside.
  /// Subviews are asked front to back (last subview first); the first that answers wins. Of many
  /// subviews (a long list), only those whose areas may contain the point are asked
  /// (``SubviewIndex``): the others would answer nil.
  open func hitTest(_ point: Point, with event: TouchEvent?) -> View? {
    guard canBeHit else { return nil }
    if let touchTypes, let type = event?.hitTestingType, !touchTypes.contains(type) { return nil }
    guard self.point(inside: point, with: event) else { return nil }
    if let index = indexForHitTesting {
      let answer = index.firstAnswer(atY: point.y) { position in hitTest(subviewAt: position, point, with: event) }
      if case .answer(let hit) = answer { return hit ?? self }
    }
    // Front to back.
    var position = subviews.endIndex
    while position > subviews.startIndex {
      position -= 1
      if let hit = hitTest(subviewAt: position, point, with: event) { return hit }
    }
    return self
  }

  /// The subview at `position` asked for `point` (in this view's coordinates). `fromSuperview` is
  /// the last step of `convert(_:from:)`: each level gets the point exactly as `convertFromWindow`
  /// computes it, without a round trip through the window or an allocation.
  private func hitTest(subviewAt position: Int, _ point: Point, with event: TouchEvent?) -> View? {
    let subview = subviews[position]
    return subview.hitTest(subview.fromSuperview(point), with: event)
  }

  /// The index of the subviews when there are many, built on first use; nil: walk them all.
  private var indexForHitTesting: SubviewIndex? {
    guard subviews.count >= SubviewIndex.minimumSubviews else { return nil }
    if let subviewIndex { return subviewIndex }
    let index = SubviewIndex(subviews)
    subviewIndex = index
    return index
  }

  // MARK: Coordinates

  /// Whether this view or one of its superviews has a ``scale`` other than 1: its points are not
  /// the window's, scaled (zoomed content).
  public var isScaled: Bool {
    var v: View? = self
    while let current = v {
      if current.scale != 1 { return true }
      v = current.superview
    }
    return false
  }

  /// Converts a point in this view's superview coordinates to its own (through ``scale``).
  private func fromSuperview(_ p: Point) -> Point {
    Point(x: (p.x - origin.x) / scale + bounds.minX, y: (p.y - origin.y) / scale + bounds.minY)
  }

  /// Converts a point in this view's coordinates to its superview's (through ``scale``).
  private func toSuperview(_ p: Point) -> Point {
    Point(x: (p.x - bounds.minX) * scale + origin.x, y: (p.y - bounds.minY) * scale + origin.y)
  }

  /// Converts `point` from this view's coordinates to the window's (the root of the hierarchy).
  public func convertToWindow(_ point: Point) -> Point {
    var p = point
    var v: View = self
    while let parent = v.superview {
      p = v.toSuperview(p)
      v = parent
    }
    return p
  }

  /// Converts `point` from the window's (root's) coordinates to this view's.
  public func convertFromWindow(_ point: Point) -> Point {
    // The root's child first, this view last; recursion instead of a chain array (no allocation).
    guard let parent = superview else { return point }
    return fromSuperview(parent.convertFromWindow(point))
  }

  /// Converts `point` from the screen's coordinates (the space of a window's frame) to this view's.
  public func convertFromScreen(_ point: Point) -> Point {
    var root: View = self
    while let parent = root.superview { root = parent }
    return convertFromWindow(root.fromSuperview(point))
  }

  /// Converts `point` from `view`'s coordinates (the window's when nil) to this view's.
  public func convert(_ point: Point, from view: View?) -> Point {
    convertFromWindow(view.map { $0.convertToWindow(point) } ?? point)
  }

  /// Converts `point` from this view's coordinates to `view`'s (the window's when nil).
  public func convert(_ point: Point, to view: View?) -> Point {
    let w = convertToWindow(point)
    return view.map { $0.convertFromWindow(w) } ?? w
  }
}
