// A page control's `pages:`: the page control and its paging scroll view kept on the same page,
// as a UIKit app keeps them with the scroll view's delegate and the control's valueChanged action.
import TouchDelivery

extension SceneRuntime {
  /// Binds each page control with `pages:` to its scroll view (``PageBinding``), once every view
  /// is built: at the start and after each `update`, which may add or replace either side. One
  /// binding per control id: a binding whose control and scroll view are the objects running now
  /// is kept (with its state), any other is made anew, and a control that left takes its binding
  /// with it.
  func bindPageControls() {
    var bound: [String: PageBinding] = [:]
    // By index: `for spec in views` would copy (retain and release) every view of the scene.
    func walk(_ views: [Scene.View]) {
      for i in views.indices {
        if let pages = views[i].control?.pages, let control = viewsByID[views[i].id] as? PageControl,
          let scrollView = scrollView(pages)
        {
          let id = views[i].id
          if let old = pageBindings[id], old.control === control, old.scrollView === scrollView {
            bound[id] = old
          } else {
            bound[id] = PageBinding(control: control, scrollView: scrollView)
          }
        }
        walk(views[i].views)
      }
    }
    for window in scene.windows { walk(window.views) }
    pageBindings = bound
  }

  /// A scroll view's delegate callback, after its message: the page controls bound to it follow.
  func pagesScrolled(_ scrollView: ScrollView, _ phase: ScrollView.Phase) {
    for binding in pageBindings.values where binding.scrollView === scrollView { binding.scrolled(phase) }
  }

  /// A page control's valueChanged, after its actions: its bound scroll view (if any) follows.
  func pageControlChanged(_ id: String, _ control: Control) {
    guard let binding = pageBindings[id], binding.control === control else { return }
    binding.controlChanged()
  }
}

/// A page control bound to a paging scroll view (Apple's "UIPageControl": the app updates
/// `currentPage` as the user scrolls, and scrolls to the page the user picks on the control):
///
/// - Scrolling: each `didScroll` sets `currentPage` to the page nearest the offset
///   (``ScrollView/currentPage``, the offset over the page width rounded), so the indicator moves
///   as the page passes the middle of the view, mid-drag, as Apple's PageControl sample code does
///   in `scrollViewDidScroll` (`floor((offset − pageWidth / 2) / pageWidth) + 1`). A programmatic
///   change sends no event: the control publishes its `control` message only.
/// - The control: its valueChanged (a tap or a scrub) scrolls the view to the new page with
///   `setContentOffset(_:animated: true)`. While that animation runs the view's `didScroll`s do not
///   set the page (they pass the pages between; the sample's `pageControlUsed` flag), nor does the
///   stop of a motion under way that it interrupts, so nothing loops; the animation's end, a drag
///   or any other change of offset hands the page back to the scroll view.
///
/// The pages run along the axis the content is longer than the view: vertically when only its
/// height is, horizontally otherwise.
final class PageBinding {
  private(set) weak var control: PageControl?
  private(set) weak var scrollView: ScrollView?
  /// The scroll view moves to the page the control chose: its `didScroll`s leave the page alone.
  private var followsControl = false
  /// The control is setting the offset: the `didScroll` of the motion it stops is not the user's.
  private var settingOffset = false

  /// Binds `control` to `scrollView`. The runtime keeps the binding (``SceneRuntime/pageBindings``)
  /// and tells it of the scroll view's callbacks and the control's valueChanged, so that a binding
  /// made anew leaves nothing installed on either object.
  init(control: PageControl, scrollView: ScrollView) {
    self.control = control
    self.scrollView = scrollView
  }

  /// Whether the scroll view pages vertically.
  private static func isVertical(_ scrollView: ScrollView) -> Bool {
    scrollView.contentSize.height > scrollView.bounds.height && scrollView.contentSize.width <= scrollView.bounds.width
  }

  func scrolled(_ phase: ScrollView.Phase) {
    guard let control, let scrollView else { return }
    switch phase {
    case .willBeginDragging, .didEndScrollingAnimation: followsControl = false
    case .didScroll where settingOffset || (followsControl && scrollView.isAnimating): return
    case .didScroll: followsControl = false
    default: return
    }
    let page = scrollView.currentPage
    guard let index = control.clampedPage(Self.isVertical(scrollView) ? page.y : page.x) else { return }
    control.currentPage = index
  }

  /// Scrolls to the control's page along the paging axis; the other axis stays where it is.
  func controlChanged() {
    guard let control, let scrollView else { return }
    let page = Double(control.currentPage)
    let target = scrollView.contentOffset(forPage: Point(x: page, y: page))
    var offset = scrollView.contentOffset
    if Self.isVertical(scrollView) { offset.y = target.y } else { offset.x = target.x }
    followsControl = true
    settingOffset = true
    scrollView.setContentOffset(offset, animated: true)
    settingOffset = false
  }
}
