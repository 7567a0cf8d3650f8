// The validator's page control checks: `currentPage` within `numberOfPages`, and each page
// control's `pages:` naming a paging scroll view (scene-wide, once the walk is done). The walk is
// in SceneValidation.swift.

extension SceneValidator {
  /// A page control's `currentPage` less than its `numberOfPages` (UIPageControl.h: currentPage
  /// "is pinned to 0..numberOfPages-1"; a scene states the page it means), and its `pages:`
  /// recorded for ``checkPageTargets()``. Values reported wrong already are not checked again.
  mutating func checkPageControl(_ pairs: [SceneNode.Pair], name: Owner) {
    func node(_ key: String) -> SceneNode? { pairs.value(of: key) }
    if let pagesNode = node("pages"), let pages = scalarString(pagesNode), !pages.isEmpty {
      viewReferences.append(Reference(from: "\(name)", to: pages, key: "pages", place: pagesNode.place))
    }
    let countNode = node("numberOfPages")
    if let countNode, integer(countNode).map({ $0 < 0 }) ?? true { return }
    let count = countNode.flatMap(integer) ?? 0
    guard let pageNode = node("currentPage"), let page = integer(pageNode), page > 0, page >= count else { return }
    error(
      pageNode.place, key: "currentPage",
      count == 0
        ? "'currentPage' in \(name) must be 0 when numberOfPages is 0, found \(page)"
        : "'currentPage' in \(name) must be less than numberOfPages (\(count)), found \(page)")
  }

  /// Records a scroll view with `pagingEnabled: true` for ``checkPageTargets()``.
  mutating func notePaging(_ pairs: [SceneNode.Pair], id: String?) {
    guard let id, case .mapping(let scroll)? = pairs.value(of: "scroll")?.content else {
      return
    }
    scrollViews.append(id)
    if let paging = scroll.value(of: "pagingEnabled"), paging.tag == .bool,
      paging.bool == true
    {
      pagingViews.append(id)
    }
  }

  /// Each page control's `pages:` names a scroll view with `pagingEnabled: true` (the pages a
  /// UIPageControl stands for are a paging scroll view's, Apple's "UIPageControl": "displays …
  /// dots, each of which corresponds to a page in the app's document").
  mutating func checkPageTargets() {
    for ref in viewReferences where ref.key == "pages" && !pagingViews.contains(ref.to) {
      var message = "'pages' in \(ref.from) names '\(ref.to)', "
      if scrollViews.contains(ref.to) {
        message += "a scroll view without paging (it needs pagingEnabled: true)"
      } else if viewIDs.contains(where: { $0.id == ref.to }) {
        message += "which is not a scroll view (a paging scroll view has scroll: with pagingEnabled: true)"
      } else {
        message += "an unknown view"
        if let guess = suggestion(for: ref.to, in: pagingViews) { message += " (did you mean '\(guess)'?)" }
      }
      error(ref.place, key: "pages", message)
    }
  }
}
