// The accessibility elements of a window as a screen reader sees them: which views are elements
// (UIKit's defaults and the scene's `accessibility:`), their words and traits, their frames on
// screen and their reading order.
import TouchDelivery
import TouchdProtocol

/// One accessibility element of a window: a view, or one segment of a segmented control.
public struct AccessibilityElement: Hashable, Sendable {
  /// The view's id.
  public var view: String
  /// For a segmented control, the segment (from 0): UIKit makes each segment an element.
  public var segment: Int?
  public var label: String?
  public var value: String?
  public var hint: String?
  /// UIAccessibilityTraits names (``SceneFormat/accessibilityTraits``): the control's own, then
  /// the scene's, each once.
  public var traits: [String]
  /// The element's area in the window's points, clipped as hit-testing clips (empty when it is
  /// scrolled or clipped out of sight: it is an element all the same, as VoiceOver's are).
  public var frame: Rect
  /// Where activating the element taps, in the window's points.
  public var activationPoint: Point
  /// Its place in drawing order, back to front: of elements over one point, the one drawn last is
  /// the one hit-testing finds first.
  var paintOrder = 0
}

/// The elements of a window (``SceneRuntime/accessibilityElements(inWindow:)``), by UIKit's rules:
///
/// - **Which views.** A view is an element when its `accessibility.element` says so, else when it
///   is a control or has a label (UIKit: `isAccessibilityElement` is false for a plain UIView and
///   true for UIControls and labelled standard views). An element's subviews are not looked at
///   (UIAccessibility.h: an element is not a container). A view that is hidden, at alpha 0.01 or
///   below (as hit-testing takes it), or `accessibility.hidden` (`accessibilityElementsHidden`) is
///   none, nor is anything within it. A view with `accessibility.modal`
///   (`accessibilityViewIsModal`) hides the elements of its siblings (Apple: "VoiceOver ignores the
///   accessibility elements within views that are siblings of the receiver"); of several modal
///   siblings the frontmost counts.
/// - **A control's own.** A button is `button`; a switch is `button` with the value `on` or `off`
///   (UISwitch's accessibilityValue is "1" or "0", which VoiceOver speaks as on and off); a slider
///   is `adjustable` with its value as a percentage of its range (UISlider's accessibilityValue); a
///   stepper is `adjustable` with its value; a page control is `adjustable` with "page 2 of 5"
///   (UIPageControl's accessibilityValue); a segmented control is one `button` element per segment,
///   labelled with the segment's title, valued with its position ("2 of 3") and `selected` when it
///   is. A disabled control adds `notEnabled`, a selected one `selected`. The scene's label, value
///   and traits come first where it gives them (its traits are added to the control's).
/// - **Frames.** `accessibility.frame` (in the view's points), else the view's bounds, made window
///   points and clipped by every ancestor that clips its subviews (a scroll view, `clipsToBounds`),
///   as hit-testing clips them. The activation point is `accessibility.activationPoint` (in the
///   view's points), else the centre of the unclipped frame (UIKit's default
///   accessibilityActivationPoint: the midpoint of accessibilityFrame).
/// - **Reading order.** Apple documents VoiceOver's default order as top-left to bottom-right
///   (the "UIAccessibilityContainer" documentation: without an `accessibilityElements` order, the
///   elements' frames decide it): top to bottom by rows, leading to
///   trailing within a row. touchd's reading of it: elements sorted by their top edge; one whose
///   vertical middle lies within the first element of the current row joins that row; each row is
///   sorted by its left edge (touchd's scenes are left to right). A scroll view is a container: its
///   elements are ordered among themselves in content coordinates (so the order does not change as
///   it scrolls, and elements scrolled out of sight keep their place), and take their place in
///   the enclosing order by the scroll view's frame.
public enum AccessibilityElements {
  /// What is being ordered in one container: an element, or a scroll view's ordered elements, with
  /// the rectangle that places it in the container's coordinates.
  struct Item {
    var place: Rect
    var elements: [AccessibilityElement]
  }

  /// The items of `specs` (a window's or a view's subviews, back to front), each found running by
  /// `lookup` (its id), to be ordered within `container` (the view whose coordinates order them:
  /// the window or a scroll view); `clip`: what the ancestors leave visible, in window points.
  static func collect(
    _ specs: [Scene.View], lookup: (String) -> TouchDelivery.View?, container: TouchDelivery.View, clip: Rect?,
    words: SpokenLanguage, painted: inout Int
  ) -> [Item] {
    let views = specs.compactMap { spec in lookup(spec.id).map { (spec: spec, view: $0) } }
    // A modal view hides its siblings: the frontmost modal one alone is looked at.
    var shown = views.filter { isShown($0.spec, $0.view) }
    if let modal = shown.last(where: { $0.spec.accessibility?.modal == true }) { shown = [modal] }
    var items: [Item] = []
    for (spec, view) in shown {
      let unclipped = windowRect(view.bounds, of: view)
      if isElement(spec, view) {
        painted += 1
        var elements = makeElements(spec, view, clip: clip, words: words)
        for i in elements.indices { elements[i].paintOrder = painted }
        let place = rect(view.bounds, of: view, in: container)
        items.append(Item(place: place, elements: elements))
        continue
      }
      let childClip = view.clipsToBounds || view is ScrollView ? intersect(clip, unclipped) : clip
      if view is ScrollView {
        // A container: ordered in its own (content) coordinates, placed by its frame.
        let ordered = order(
          collect(spec.views, lookup: lookup, container: view, clip: childClip, words: words, painted: &painted))
        if !ordered.isEmpty { items.append(Item(place: rect(view.bounds, of: view, in: container), elements: ordered)) }
      } else {
        items += collect(
          spec.views, lookup: lookup, container: container, clip: childClip, words: words, painted: &painted)
      }
    }
    return items
  }

  /// The items' elements in reading order (the rules above).
  static func order(_ items: [Item]) -> [AccessibilityElement] {
    let sorted = items.sorted { ($0.place.minY, $0.place.minX) < ($1.place.minY, $1.place.minX) }
    var rows: [[Item]] = []
    for item in sorted {
      if let first = rows.last?.first, item.place.midY >= first.place.minY, item.place.midY < first.place.maxY {
        rows[rows.count - 1].append(item)
      } else {
        rows.append([item])
      }
    }
    return rows.flatMap { row in row.sorted { $0.place.minX < $1.place.minX }.flatMap(\.elements) }
  }

  /// Whether the view, and so anything within it, can have elements.
  static func isShown(_ spec: Scene.View, _ view: TouchDelivery.View) -> Bool {
    // Alpha as hit-testing takes it (View.canBeHit): at 0.01 or below a view is not there.
    !view.isHidden && view.alpha > 0.01 && spec.accessibility?.hidden != true
  }

  /// UIKit's `isAccessibilityElement`: the scene's, else true for a control or a labelled view.
  static func isElement(_ spec: Scene.View, _ view: TouchDelivery.View) -> Bool {
    if let element = spec.accessibility?.element { return element }
    return view is Control || spec.accessibility?.label != nil
  }

  /// The view's element, or a segmented control's elements; a control's value in `words`.
  static func makeElements(_ spec: Scene.View, _ view: TouchDelivery.View, clip: Rect?, words: SpokenLanguage)
    -> [AccessibilityElement]
  {
    let a = spec.accessibility ?? Scene.Accessibility()
    let local = a.frame.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } ?? view.bounds
    let control = view as? Control
    var traits: [String] = []
    var value: String?
    switch control {
    case is Button: traits = ["button"]
    case let s as Switch:
      traits = ["button"]
      value = s.isOn ? words.on : words.off
    case let s as Slider:
      traits = ["adjustable"]
      let range = s.maximumValue - s.minimumValue
      let percent = range > 0 ? ((s.value - s.minimumValue) / range * 100).rounded() : 0
      value = "\(JSONFormat.number(percent))%"
    case let s as Stepper:
      traits = ["adjustable"]
      value = JSONFormat.number(s.value)
    case let p as PageControl:
      traits = ["adjustable"]
      value = words.page(p.currentPage + 1, p.numberOfPages)
    case let s as SegmentedControl where !s.segments.isEmpty:
      return segments(s, spec: spec, accessibility: a, local: local, clip: clip, words: words)
    default: break
    }
    if let control {
      if control.isSelected { traits.append("selected") }
      if !control.isEnabled { traits.append("notEnabled") }
    }
    let frame = windowRect(local, of: view)
    let activation = a.activationPoint.map { view.convertToWindow(Point(x: $0.x, y: $0.y)) }
    return [
      AccessibilityElement(
        view: spec.id, segment: nil, label: a.label, value: a.value ?? value, hint: a.hint,
        traits: merged(traits, a.traits), frame: clipped(frame, by: clip),
        activationPoint: activation ?? Point(x: frame.midX, y: frame.midY))
    ]
  }

  /// A segmented control's segments, side by side in its frame: each a button with its title and
  /// position, `selected` when it is the selected one.
  static func segments(
    _ control: SegmentedControl, spec: Scene.View, accessibility a: Scene.Accessibility, local: Rect, clip: Rect?,
    words: SpokenLanguage
  ) -> [AccessibilityElement] {
    let count = control.segments.count
    let width = local.width / Double(count)
    return control.segments.enumerated().map { index, title in
      let segment = Rect(x: local.minX + width * Double(index), y: local.minY, width: width, height: local.height)
      let frame = windowRect(segment, of: control)
      var traits = ["button"]
      if index == control.selectedSegmentIndex { traits.append("selected") }
      if !control.isEnabled { traits.append("notEnabled") }
      return AccessibilityElement(
        view: spec.id, segment: index, label: title, value: words.position(index + 1, count), hint: a.hint,
        traits: merged(traits, a.traits), frame: clipped(frame, by: clip),
        activationPoint: Point(x: frame.midX, y: frame.midY))
    }
  }

  /// `own` then the scene's traits, each once; `none` adds nothing.
  static func merged(_ own: [String], _ scene: [String]) -> [String] {
    var traits = own
    for trait in scene where trait != "none" && !traits.contains(trait) { traits.append(trait) }
    return traits
  }

  /// `rect` in `view`'s points as the window's (views are only moved and scaled, never rotated).
  static func windowRect(_ rect: Rect, of view: TouchDelivery.View) -> Rect {
    corners(view.convertToWindow(rect.origin), view.convertToWindow(Point(x: rect.maxX, y: rect.maxY)))
  }

  /// `rect` in `view`'s points as `container`'s.
  static func rect(_ rect: Rect, of view: TouchDelivery.View, in container: TouchDelivery.View) -> Rect {
    corners(
      view.convert(rect.origin, to: container),
      view.convert(Point(x: rect.maxX, y: rect.maxY), to: container))
  }

  static func corners(_ a: Point, _ b: Point) -> Rect {
    Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
  }

  /// `frame` within `clip`; where nothing of it is left, an empty rectangle at its origin.
  static func clipped(_ frame: Rect, by clip: Rect?) -> Rect {
    intersect(clip, frame) ?? Rect(x: frame.minX, y: frame.minY, width: 0, height: 0)
  }

  /// `rect` within `clip` (nil: unclipped); nil when nothing of it is left.
  static func intersect(_ clip: Rect?, _ rect: Rect) -> Rect? {
    guard let clip else { return rect }
    let minX = max(clip.minX, rect.minX)
    let minY = max(clip.minY, rect.minY)
    let maxX = min(clip.maxX, rect.maxX)
    let maxY = min(clip.maxY, rect.maxY)
    guard maxX > minX, maxY > minY else { return nil }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }
}

extension SceneRuntime {
  /// The words of window `index`'s `speech.language`.
  public func spokenLanguage(inWindow index: Int) -> SpokenLanguage {
    SpokenLanguage.named(scene.windows[index].speech.language)
  }

  /// The accessibility elements of window `index` in reading order, as they are now (scroll
  /// offsets, control states, hidden views): ``AccessibilityElements``' rules.
  public func accessibilityElements(inWindow index: Int) -> [AccessibilityElement] {
    // The window clips as hit-testing does: nothing outside it is hit.
    let window = windows[index]
    var painted = 0
    let items = AccessibilityElements.collect(
      scene.windows[index].views, lookup: { viewsByID[$0] }, container: window, clip: window.bounds,
      words: spokenLanguage(inWindow: index), painted: &painted)
    return AccessibilityElements.order(items)
  }
}
