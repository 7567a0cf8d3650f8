/// A row of page indicators (UIKit's `UIPageControl`, with iOS 14's interactive behaviour). A tap
/// (a lift inside) on the leading or trailing side of the current page's indicator moves one page
/// back or forward and sends valueChanged (Apple's "UIPageControl" documentation: "When a user
/// taps a page control to move to the next or previous page, the control sends the valueChanged
/// event"). With ``allowsContinuousInteraction`` a finger that moves along the row by the pan's
/// hysteresis (``GestureConstants/panStartDistance``, touchd's choice: UIKit publishes none)
/// scrubs: the page becomes the one whose indicator is under the finger (clamped to the first and
/// last), one page at a time, with a valueChanged for each page passed; the lift after a scrub
/// moves no further.
///
/// The indicators' geometry is not documented by Apple: ``ControlConstants/pageIndicatorDiameter``
/// and ``ControlConstants/pageIndicatorSpacing`` (touchd's measurement of iOS's dots), the row
/// centred in the control. touchd lays views out left to right only, so leading is left.
open class PageControl: Control {
  /// UIPageControl.numberOfPages (default 0). Lowering it below ``currentPage`` moves the current
  /// page to the last.
  open var numberOfPages = 0 {
    didSet {
      guard numberOfPages != oldValue else { return }
      batch {
        numberOfPages = max(numberOfPages, 0)
        currentPage = clampedPage(currentPage)
        stateChanged()
      }
    }
  }
  /// UIPageControl.currentPage (default 0), kept within 0...numberOfPages − 1 (``clamped(_:numberOfPages:)``).
  open var currentPage = 0 {
    didSet {
      let clamped = clampedPage(currentPage)
      if clamped != currentPage { currentPage = clamped }
      if currentPage != oldValue { stateChanged() }
    }
  }
  /// UIPageControl.hidesForSinglePage (default false): with one page the control is hidden, not
  /// drawn and not hit (``isHiddenForSinglePage``).
  open var hidesForSinglePage = false {
    didSet { if hidesForSinglePage != oldValue { stateChanged() } }
  }
  /// UIPageControl.allowsContinuousInteraction (iOS 14; default true): a drag along the indicators
  /// scrubs through the pages.
  open var allowsContinuousInteraction = true

  /// Whether the current touch scrubs (rather than tapping).
  public private(set) var isScrubbing = false
  private var startX = 0.0

  public override init(frame: Rect = .zero) {
    super.init(frame: frame)
  }

  /// `page` within 0...numberOfPages − 1 (0 without pages).
  public func clampedPage(_ page: Int) -> Int { PageControl.clamped(page, numberOfPages: numberOfPages) }

  /// `page` within 0...numberOfPages − 1, 0 without pages (UIPageControl.h: currentPage "is pinned
  /// to 0..numberOfPages-1").
  public static func clamped(_ page: Int, numberOfPages: Int) -> Int { min(max(page, 0), max(numberOfPages - 1, 0)) }

  /// Whether ``hidesForSinglePage`` hides the control: it has exactly one page.
  public var isHiddenForSinglePage: Bool {
    PageControl.isHidden(hidesForSinglePage: hidesForSinglePage, numberOfPages: numberOfPages)
  }

  /// Whether a page control with these properties is hidden: `hidesForSinglePage` with one page
  /// (UIPageControl.h: "hide the indicator if there is only one page").
  public static func isHidden(hidesForSinglePage: Bool, numberOfPages: Int) -> Bool {
    hidesForSinglePage && numberOfPages == 1
  }

  /// The distance between the centres of neighbouring indicators.
  public static var indicatorPitch: Double {
    ControlConstants.pageIndicatorDiameter + ControlConstants.pageIndicatorSpacing
  }

  /// The x of indicator `page`'s centre in the control's coordinates: the row is centred.
  public func indicatorCenterX(_ page: Int) -> Double {
    PageControl.indicatorCenterX(page, numberOfPages: numberOfPages, midX: bounds.midX)
  }

  /// The x of indicator `page`'s centre in a row of `numberOfPages` centred on `midX`.
  public static func indicatorCenterX(_ page: Int, numberOfPages: Int, midX: Double) -> Double {
    midX + (Double(page) - Double(numberOfPages - 1) / 2) * indicatorPitch
  }

  /// The page whose indicator is nearest `x` (in the control's coordinates), clamped to the first
  /// and last.
  public func page(at x: Double) -> Int {
    clampedPage(((x - indicatorCenterX(0)) / PageControl.indicatorPitch).rounded()) ?? currentPage
  }

  /// A page counted as a whole `Double` (an indicator's place, a scroll view's page), within
  /// 0...numberOfPages − 1 (0 without pages); nil for NaN. Clamped as a Double: a place far outside
  /// (a huge scene) must not overflow Int.
  public func clampedPage(_ page: Double) -> Int? {
    guard !page.isNaN else { return nil }
    return Int(min(max(page, 0), Double(max(numberOfPages - 1, 0))))
  }

  /// A hidden page control (``isHiddenForSinglePage``) is not hit, as a hidden view.
  open override func point(inside point: Point, with event: TouchEvent?) -> Bool {
    !isHiddenForSinglePage && super.point(inside: point, with: event)
  }

  open override func beginTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    startX = touch.location(in: self).x
    isScrubbing = false
    return numberOfPages > 0
  }

  open override func continueTracking(_ touch: Touch, with event: TouchEvent) -> Bool {
    let x = touch.location(in: self).x
    if allowsContinuousInteraction && abs(x - startX) >= GestureConstants.panStartDistance { isScrubbing = true }
    if isScrubbing { move(to: page(at: x)) }
    return true
  }

  open override func endTracking(_ touch: Touch, with event: TouchEvent) {
    guard !isScrubbing, isTouchInside else { return }
    move(to: touch.location(in: self).x < indicatorCenterX(currentPage) ? currentPage - 1 : currentPage + 1)
  }

  open override func trackingDidStop() { isScrubbing = false }

  /// Moves page by page to `target` (clamped), sending valueChanged for each page.
  private func move(to target: Int) {
    let target = clampedPage(target)
    while currentPage != target {
      currentPage += target > currentPage ? 1 : -1
      sendValueChanged()
    }
  }

  /// A single one-finger tap of a superview does not begin on a page control (the iOS 6 rule; Apple's
  /// Event Handling Guide names UIPageControl among the controls whose single tap wins).
  open override func defaultActionPrevents(_ recognizer: GestureRecognizer) -> Bool {
    Control.isSingleOneFingerTap(recognizer)
  }
}
