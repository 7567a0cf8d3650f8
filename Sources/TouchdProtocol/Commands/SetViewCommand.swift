/// `{"cmd":"set","view":ID,…}`: changes a view's properties; nil leaves one as it is. The scroll
/// view keys (`contentOffset`, `zoomScale` or `zoomTo`, each with `animated`; `contentSize`;
/// `scrollEnabled`) need a view with `scroll:`; the control keys (`enabled`, `selected`, `on`, `value`,
/// `selectedSegmentIndex`, `currentPage`) a view with `control:`; `firstResponder` true makes the view its window's first responder
/// (false: the window's, if it was). docs/protocol.md, "set".
public struct SetViewCommand: Hashable, Sendable {
  /// The fields `set` takes, in the order its errors list them and its line writes them.
  public static let fields = [
    "view", "hidden", "alpha", "userInteractionEnabled", "frame", "contentOffset", "zoomScale", "zoomTo", "animated",
    "contentSize", "scrollEnabled", "enabled", "selected", "on", "value", "selectedSegmentIndex", "currentPage",
    "firstResponder",
  ]

  public var view: String
  public var hidden: Bool?
  public var alpha: Double?
  public var userInteractionEnabled: Bool?
  public var frame: WireRect?
  public var scroll: ScrollChange
  public var control: ControlChange
  public var firstResponder: Bool?

  public init(
    view: String, hidden: Bool? = nil, alpha: Double? = nil, userInteractionEnabled: Bool? = nil,
    frame: WireRect? = nil, scroll: ScrollChange = ScrollChange(), control: ControlChange = ControlChange(),
    firstResponder: Bool? = nil
  ) {
    self.view = view
    self.hidden = hidden
    self.alpha = alpha
    self.userInteractionEnabled = userInteractionEnabled
    self.frame = frame
    self.scroll = scroll
    self.control = control
    self.firstResponder = firstResponder
  }

  /// Decodes the fields of a `set` without `window`, with strict types.
  public init(decoding fields: CommandFields) throws(ProtocolError) {
    try fields.rejectUnknown(Self.fields)
    view = try fields.required(fields.string("view"), "view", "a string: the view id, or 'window' with a window id")
    hidden = try fields.bool("hidden")
    alpha = try fields.number("alpha")
    userInteractionEnabled = try fields.bool("userInteractionEnabled")
    frame = try fields.numbers("frame", ["x", "y", "width", "height"]).map {
      WireRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3])
    }
    scroll = ScrollChange()
    if let n = try fields.numbers("contentOffset", ["x", "y"]) { scroll.contentOffset = WirePoint(x: n[0], y: n[1]) }
    scroll.zoomScale = try fields.number("zoomScale")
    scroll.zoomTo = try fields.numbers("zoomTo", ["x", "y", "width", "height"]).map {
      WireRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3])
    }
    let moves = [scroll.contentOffset != nil, scroll.zoomScale != nil, scroll.zoomTo != nil].filter { $0 }.count
    guard moves <= 1 else {
      throw ProtocolError("'contentOffset', 'zoomScale' and 'zoomTo' each move the content: give one of them")
    }
    if let b = try fields.bool("animated") {
      guard scroll.contentOffset != nil || scroll.zoomScale != nil || scroll.zoomTo != nil else {
        throw ProtocolError("'animated' goes with 'contentOffset', 'zoomScale' or 'zoomTo'")
      }
      scroll.animated = b
    }
    if let n = try fields.numbers("contentSize", ["width", "height"]) {
      scroll.contentSize = WireSize(width: n[0], height: n[1])
    }
    scroll.scrollEnabled = try fields.bool("scrollEnabled")
    control = ControlChange()
    control.enabled = try fields.bool("enabled")
    control.selected = try fields.bool("selected")
    control.on = try fields.bool("on")
    control.value = try fields.number("value")
    control.selectedSegmentIndex = try fields.integer("selectedSegmentIndex")
    control.currentPage = try fields.integer("currentPage")
    firstResponder = try fields.bool("firstResponder")
  }

  /// The fields given, in ``fields``' order (`animated` only when true).
  public var members: [JSONValue.Member] {
    var out: [JSONValue.Member] = [("view", .string(view))]
    if let hidden { out.append(("hidden", .bool(hidden))) }
    if let alpha { out.append(("alpha", .number(alpha))) }
    if let userInteractionEnabled { out.append(("userInteractionEnabled", .bool(userInteractionEnabled))) }
    if let frame { out.append(("frame", .rect(frame))) }
    if let offset = scroll.contentOffset { out.append(("contentOffset", .point(offset))) }
    if let scale = scroll.zoomScale { out.append(("zoomScale", .number(scale))) }
    if let rect = scroll.zoomTo { out.append(("zoomTo", .rect(rect))) }
    if scroll.animated { out.append(("animated", .bool(true))) }
    if let size = scroll.contentSize { out.append(("contentSize", .size(size))) }
    if let enabled = scroll.scrollEnabled { out.append(("scrollEnabled", .bool(enabled))) }
    if let enabled = control.enabled { out.append(("enabled", .bool(enabled))) }
    if let selected = control.selected { out.append(("selected", .bool(selected))) }
    if let on = control.on { out.append(("on", .bool(on))) }
    if let value = control.value { out.append(("value", .number(value))) }
    if let index = control.selectedSegmentIndex { out.append(("selectedSegmentIndex", .number(Double(index)))) }
    if let page = control.currentPage { out.append(("currentPage", .number(Double(page)))) }
    if let firstResponder { out.append(("firstResponder", .bool(firstResponder))) }
    return out
  }
}

/// What a `set` command changes in a scroll view; nil leaves a property as it is.
public struct ScrollChange: Hashable, Sendable {
  /// The new content offset; with ``animated`` it moves there with the settling spring.
  public var contentOffset: WirePoint?
  /// The new zoom scale (UIKit's `setZoomScale(_:animated:)`), clamped to the view's limits.
  public var zoomScale: Double?
  /// A rect of the zoom view to zoom to (UIKit's `zoom(to:animated:)`).
  public var zoomTo: WireRect?
  /// The offset or zoom change moves with the settling spring.
  public var animated = false
  public var contentSize: WireSize?
  public var scrollEnabled: Bool?

  public init(
    contentOffset: WirePoint? = nil, zoomScale: Double? = nil, zoomTo: WireRect? = nil, animated: Bool = false,
    contentSize: WireSize? = nil, scrollEnabled: Bool? = nil
  ) {
    self.contentOffset = contentOffset
    self.zoomScale = zoomScale
    self.zoomTo = zoomTo
    self.animated = animated
    self.contentSize = contentSize
    self.scrollEnabled = scrollEnabled
  }

  /// Whether the command changes nothing of a scroll view.
  public var isEmpty: Bool {
    contentOffset == nil && zoomScale == nil && zoomTo == nil && contentSize == nil && scrollEnabled == nil
  }
}

/// What a `set` command changes in a control; nil leaves a property as it is. As UIKit's
/// programmatic changes, none sends a control event; each visible change publishes a `control`
/// message.
public struct ControlChange: Hashable, Sendable {
  public var enabled: Bool?
  public var selected: Bool?
  /// A switch's `on`.
  public var on: Bool?
  /// A slider's or stepper's value (clamped to its range, as UIKit's `value` setter does).
  public var value: Double?
  /// A segmented control's selection (-1: none).
  public var selectedSegmentIndex: Int?
  /// A page control's page (from 0, less than its numberOfPages); a page control bound to a
  /// scroll view (`pages:`) does not scroll it, as UIKit's programmatic `currentPage` sends no event.
  public var currentPage: Int?

  public init(
    enabled: Bool? = nil, selected: Bool? = nil, on: Bool? = nil, value: Double? = nil,
    selectedSegmentIndex: Int? = nil, currentPage: Int? = nil
  ) {
    self.enabled = enabled
    self.selected = selected
    self.on = on
    self.value = value
    self.selectedSegmentIndex = selectedSegmentIndex
    self.currentPage = currentPage
  }

  /// Whether the command changes nothing of a control.
  public var isEmpty: Bool {
    enabled == nil && selected == nil && on == nil && value == nil && selectedSegmentIndex == nil
      && currentPage == nil
  }
}
