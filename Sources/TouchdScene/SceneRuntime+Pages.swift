// A page control's `pages:`: the page control and its paging scroll view kept on the same page,
// as a UIKit app keeps them with the scroll view's delegate and the control's valueChanged action.
import TouchDelivery

extension SceneRuntime {
  /// Binds each page control with `pages:` to its scroll view (``PageBinding``), once every view
  /// is built and routes its callbacks.
  func bindPageControls() {
    func walk(_ views: [Scene.View]) {
      for spec in views {
        if let pages = spec.control?.pages, let control = viewsByID[spec.id] as? PageControl,
          let scrollView = scrollView(pages)
        {
          PageBinding.bind(control, to: scrollView)
        }
        walk(spec.views)
      }
    }
    walk(scene.windows.flatMap(\.views))
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
  private weak var control: PageControl?
  private weak var scrollView: ScrollView?
  /// The scroll view moves to the page the control chose: its `didScroll`s leave the page alone.
  private var followsControl = false
  /// The control is setting the offset: the `didScroll` of the motion it stops is not the user's.
  private var settingOffset = false

  private init(control: PageControl, scrollView: ScrollView) {
    self.control = control
    self.scrollView = scrollView
  }

  /// Binds `control` to `scrollView`: kept alive by the closures it installs on both.
  static func bind(_ control: PageControl, to scrollView: ScrollView) {
    let binding = PageBinding(control: control, scrollView: scrollView)
    let publish = scrollView.onScroll
    scrollView.onScroll = { view, event in
      publish?(view, event)
      binding.scrolled(event.phase)
    }
    control.addAction(for: .valueChanged) { _, _ in binding.controlChanged() }
  }

  /// Whether the scroll view pages vertically.
  private static func isVertical(_ scrollView: ScrollView) -> Bool {
    scrollView.contentSize.height > scrollView.bounds.height && scrollView.contentSize.width <= scrollView.bounds.width
  }

  private func scrolled(_ phase: ScrollView.Phase) {
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
  private func controlChanged() {
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
