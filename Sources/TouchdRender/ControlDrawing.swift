import TouchDelivery
import TouchdInput
import TouchdScene

/// A control's visible state as drawn: the scene's, or after a recording its last `control`
/// message's.
public struct ControlState: Hashable, Sendable {
  public var enabled: Bool
  public var highlighted: Bool
  public var selected: Bool
  /// `on`, `value`, `selectedSegmentIndex` or `currentPage`; none for a button.
  public var value: ControlValue

  public init(enabled: Bool = true, highlighted: Bool = false, selected: Bool = false, value: ControlValue = .none) {
    self.enabled = enabled
    self.highlighted = highlighted
    self.selected = selected
    self.value = value
  }

  /// The state the scene gives the control (not highlighted; a value pinned to its range, as
  /// UIKit pins it).
  public init(scene control: Scene.Control) {
    let value: ControlValue =
      switch control.type {
      case .button: .none
      case .switch: .on(control.on)
      case .slider, .stepper: .value(min(max(control.value, control.minimumValue), control.maximumValue))
      case .segmented: .selectedSegmentIndex(control.selectedSegmentIndex)
      case .pageControl: .currentPage(PageControl.clamped(control.currentPage, numberOfPages: control.numberOfPages))
      }
    self.init(enabled: control.enabled, selected: control.selected, value: value)
  }

  /// The state a `control` message reports.
  public init(message: ControlMessage) {
    self.init(
      enabled: message.enabled, highlighted: message.highlighted, selected: message.selected,
      value: message.controlValue)
  }
}

extension SceneRenderer {
  // MARK: State and text

  /// The state a control is drawn in: the last `control` message of the recording for it (in
  /// `window`), else the scene's. Nil for a view that is not a control.
  public func controlState(of view: Scene.View, in window: Scene.Window) -> ControlState? {
    guard let control = view.control else { return nil }
    if let trace, let message = trace.controls[view.id], message.window == window.id {
      return ControlState(message: message)
    }
    return ControlState(scene: control)
  }

  static func containsControl(_ views: [Scene.View]) -> Bool {
    views.contains { $0.control != nil || containsControl($0.views) }
  }

  /// The notes a control's label adds after its id: `slider 0.50`, `switch on`, `segmented de`,
  /// `pageControl page 2`,
  /// then `disabled`, `selected`, `highlighted` when so.
  static func controlNotes(_ state: ControlState, spec: Scene.Control) -> [String] {
    let value = valueText(state.value, type: spec.type.rawValue, segments: spec.segments)
    var notes = [spec.type.rawValue + (value.map { " " + $0 } ?? "")]
    if !state.enabled { notes.append("disabled") }
    if state.selected { notes.append("selected") }
    if state.highlighted { notes.append("highlighted") }
    return notes
  }

  /// A control's value as labels write it: `on`/`off`, a slider's value with two decimals
  /// (`0.50`), a stepper's as a number (`3`, `2.5`), the selected segment's title (`none` for -1),
  /// a page control's page (`page 2`, from 0).
  static func valueText(_ value: ControlValue, type: String, segments: [String]) -> String? {
    switch value {
    case .none: nil
    case .on(let on): on ? "on" : "off"
    case .value(let v): type == Scene.Control.Kind.slider.rawValue ? fixed2(v) : fmt(v)
    case .selectedSegmentIndex(let i):
      i < 0 ? "none" : (i < segments.count ? segments[i] : "segment \(i)")
    case .currentPage(let i): "page \(i)"
    }
  }

  /// `valueChanged → volume`, one line per control event the scene maps, in UIKit's event order.
  static func controlActionLines(_ control: Scene.Control) -> [String] {
    let order = ControlEvents.named.map(\.name)
    func rank(_ name: String) -> Int { order.firstIndex(of: name) ?? order.count }
    return control.actions.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }.map { "\($0.key) → \($0.value)" }
  }

  /// A control's label goes under its frame, or above it when it would run past the window's
  /// bottom (nil: neither fits, it goes inside as other views' labels do); right-aligned to the
  /// frame's right edge when it would run past the window's right edge.
  static func controlLabelPlace(_ v: PlacedView, lines: [String], window: Scene.Size, metrics m: Metrics)
    -> LabelPlace?
  {
    let size = m.small
    let f = v.frame
    let width = Double(lines.map(\.count).max() ?? 1) * size * 0.6
    let height = Double(lines.count) * size * 1.25
    let gap = size * 0.35
    let y: Double
    if f.y + f.height + gap + height <= window.height {
      y = f.y + f.height + gap + size
    } else if f.y - gap - height >= 0 {
      y = f.y - gap - height + size
    } else {
      return nil
    }
    if f.x + width > window.width {
      return LabelPlace(x: min(f.x + f.width, window.width), y: y, size: size, anchorEnd: true)
    }
    return LabelPlace(x: f.x, y: y, size: size)
  }

  // MARK: Drawing

  /// The control drawn in its frame, in its state: a group `g.control` with its type, state and
  /// the view's classes.
  func drawControl(_ v: PlacedView, metrics m: Metrics, into w: inout SVGWriter) {
    guard let state = v.control, let spec = v.spec.control else { return }
    let n = SVGWriter.number
    let f = v.frame
    var classes = ["control", spec.type.rawValue]
    if !state.enabled { classes.append("disabled") }
    if state.highlighted { classes.append("highlighted") }
    if state.selected { classes.append("selected") }
    if state.value == .on(true) { classes.append("on") }
    classes += v.classes
    var attributes: [SVGWriter.Attribute] = [
      ("class", classes.joined(separator: " ")), ("data-id", v.spec.id), ("data-type", spec.type.rawValue),
    ]
    switch state.value {
    case .none: break
    case .on(let on): attributes.append(("data-value", on ? "on" : "off"))
    case .value(let value): attributes.append(("data-value", exact(value)))
    case .selectedSegmentIndex(let i), .currentPage(let i): attributes.append(("data-value", String(i)))
    }
    w.open("g", attributes)
    func rect(_ cls: String, _ x: Double, _ y: Double, _ width: Double, _ height: Double, rx: Double? = nil) {
      var a: [SVGWriter.Attribute] = [
        ("class", cls), ("x", n(x)), ("y", n(y)), ("width", n(max(width, 0))), ("height", n(max(height, 0))),
      ]
      if let rx { a.append(("rx", n(rx))) }
      w.empty("rect", a)
    }
    func text(
      _ cls: String, _ x: Double, centerY: Double, size: Double, _ s: String, _ extra: [SVGWriter.Attribute] = []
    ) {
      w.text(
        "text", [("class", cls)] + extra + [("x", n(x)), ("y", n(centerY + size * 0.35)), ("font-size", n(size))], s)
    }
    let (midX, midY) = (f.x + f.width / 2, f.y + f.height / 2)
    let corner = min(f.height / 4, f.width / 4, m.base * 0.8)
    switch spec.type {
    case .button:
      rect("control-frame", f.x, f.y, f.width, f.height, rx: corner)
      let title = v.spec.id
      let size = min(m.label * 1.2, f.height * 0.45, f.width / (Double(title.count) * 0.6 + 1))
      text("control-title", midX, centerY: midY, size: size, title)

    case .switch:
      let on = state.value == .on(true)
      rect(on ? "switch-track on" : "switch-track", f.x, f.y, f.width, f.height, rx: f.height / 2)
      // The knob is as tall as the switch and travels width − height (Switch.knobTravel).
      let cx = f.x + f.height / 2 + (on ? max(f.width - f.height, 0) : 0)
      w.empty(
        "circle",
        [
          ("class", "switch-knob"), ("cx", n(cx)), ("cy", n(midY)),
          ("r", n(max(f.height / 2 - max(f.height * 0.07, 1), 1))),
        ])

    case .slider:
      let d = ControlConstants.sliderThumbDiameter
      var fraction = 0.0
      if case .value(let value) = state.value, spec.maximumValue > spec.minimumValue {
        fraction = min(max((value - spec.minimumValue) / (spec.maximumValue - spec.minimumValue), 0), 1)
      }
      // The thumb's centre travels from half a thumb inside the left edge to half a thumb inside
      // the right one (Slider.thumbCenterX).
      let cx = f.x + d / 2 + fraction * max(f.width - d, 0)
      let t = max(m.base * 0.25, 2)
      rect("slider-track", f.x, midY - t / 2, f.width, t, rx: t / 2)
      rect("slider-fill", f.x, midY - t / 2, cx - f.x, t, rx: t / 2)
      // Where a touch grabs the thumb (Slider.thumbHitRect); elsewhere on the track does nothing.
      let grab = (
        width: max(d, ControlConstants.minimumHitSize), height: max(f.height, ControlConstants.minimumHitSize)
      )
      rect("control-hit", cx - grab.width / 2, midY - grab.height / 2, grab.width, grab.height)
      w.empty("circle", [("class", "slider-thumb"), ("cx", n(cx)), ("cy", n(midY)), ("r", n(d / 2))])

    case .stepper:
      rect("control-frame", f.x, f.y, f.width, f.height, rx: corner)
      w.empty(
        "line",
        [
          ("class", "control-divider"), ("x1", n(midX)), ("y1", n(f.y + f.height * 0.15)), ("x2", n(midX)),
          ("y2", n(f.y + f.height * 0.85)),
        ])
      var value = spec.value
      if case .value(let v) = state.value { value = v }
      // The left half steps down, the right half up; a half that cannot step is faded.
      let size = min(f.height * 0.7, f.width / 4, m.label * 2)
      for (step, sign, x) in [(-1, "−", f.x + f.width / 4), (1, "+", f.x + f.width * 3 / 4)] {
        let canStep = step > 0 ? value < spec.maximumValue : value > spec.minimumValue
        text(
          canStep ? "stepper-sign" : "stepper-sign at-limit", x, centerY: midY, size: size, sign,
          [("data-step", String(step))])
      }
      text("stepper-value", midX, centerY: midY, size: min(m.label, f.height * 0.4), fmt(value))

    case .segmented:
      rect("control-frame", f.x, f.y, f.width, f.height, rx: corner)
      let count = max(spec.segments.count, 1)
      let width = f.width / Double(count)
      var selected = -1
      if case .selectedSegmentIndex(let i) = state.value { selected = i }
      for i in 1..<max(count, 1) where i != selected && i != selected + 1 {
        let x = f.x + Double(i) * width
        w.empty(
          "line",
          [
            ("class", "control-divider"), ("x1", n(x)), ("y1", n(f.y + f.height * 0.2)), ("x2", n(x)),
            ("y2", n(f.y + f.height * 0.8)),
          ])
      }
      // Each segment's area, equal widths; the selected one filled.
      let inset = max(m.stroke * 1.5, 2)
      for i in spec.segments.indices {
        let x = f.x + Double(i) * width
        w.empty(
          "rect",
          [
            ("class", i == selected ? "segment selected" : "segment"), ("data-index", String(i)),
            ("x", n(x + inset)), ("y", n(f.y + inset)), ("width", n(max(width - 2 * inset, 0))),
            ("height", n(max(f.height - 2 * inset, 0))), ("rx", n(max(corner - inset, 0))),
          ])
      }
      for (i, title) in spec.segments.enumerated() {
        let size = min(m.label, f.height * 0.45, width / (Double(title.count) * 0.6 + 1))
        text(
          i == selected ? "segment-title selected" : "segment-title", f.x + (Double(i) + 0.5) * width,
          centerY: midY, size: size, title, [("data-index", String(i))])
      }

    case .pageControl:
      // Hidden with one page and hidesForSinglePage: nothing drawn (PageControl.isHiddenForSinglePage).
      guard !PageControl.isHidden(hidesForSinglePage: spec.hidesForSinglePage, numberOfPages: spec.numberOfPages)
      else { break }
      var current = 0
      if case .currentPage(let i) = state.value { current = i }
      // One dot per page, the current one filled dark, the row centred (PageControl.indicatorCenterX).
      for page in 0..<max(spec.numberOfPages, 0) {
        w.empty(
          "circle",
          [
            ("class", page == current ? "page-indicator current" : "page-indicator"), ("data-index", String(page)),
            ("cx", n(f.x + PageControl.indicatorCenterX(page, numberOfPages: spec.numberOfPages, midX: f.width / 2))),
            ("cy", n(midY)), ("r", n(ControlConstants.pageIndicatorDiameter / 2)),
          ])
      }
    }
    w.close()
  }

  // MARK: Control actions

  /// A control action as drawn: the last of its control's events of one kind made by one finger
  /// (a slider's drag sends valueChanged at every move), and how many there were.
  struct DrawnControlAction {
    var action: ControlAction
    var count: Int
  }

  /// The control actions drawn: one per control, event and finger (the last, with the count), in
  /// the order of those last ones; actions made by no finger each on their own.
  static func drawnControlActions(_ actions: [ControlAction]) -> [DrawnControlAction] {
    struct Key: Hashable {
      var view: String
      var event: String
      var touch: TouchID
    }
    var out: [DrawnControlAction?] = []
    var index: [Key: Int] = [:]
    for a in actions {
      guard let touch = a.touch else {
        out.append(DrawnControlAction(action: a, count: 1))
        continue
      }
      let key = Key(view: a.message.view, event: a.message.event ?? "", touch: touch)
      var count = 1
      if let i = index[key], let earlier = out[i] {
        count += earlier.count
        out[i] = nil
      }
      index[key] = out.count
      out.append(DrawnControlAction(action: a, count: count))
    }
    return out.compactMap { $0 }
  }

  /// `#12 control valueChanged → volume (0.73) · 23 times`: sequence number, event, action, the
  /// control's value after the event, and how many events of the finger the mark stands for.
  static func controlActionText(_ a: DrawnControlAction, segments: [String]) -> String {
    let m = a.action.message
    var text = "#\(m.seq) control \(m.event ?? "") → \(m.action)"
    if let value = valueText(m.controlValue ?? .none, type: m.control ?? "", segments: segments) {
      text += " (\(value))"
    }
    if a.count > 1 { text += " · \(a.count) times" }
    return text
  }

  /// A control action's diamond where its finger was (the control's centre when no finger was
  /// down), labelled like an action.
  func drawControlAction(
    _ a: DrawnControlAction, view: PlacedView?, window: Scene.Size, metrics m: Metrics, placed: inout [Box],
    into w: inout SVGWriter
  ) {
    let message = a.action.message
    let location =
      a.action.location
      ?? view.map { Point(x: $0.frame.x + $0.frame.width / 2, y: $0.frame.y + $0.frame.height / 2) }
      ?? Point(x: 0, y: 0)
    var attributes: [SVGWriter.Attribute] = [
      ("class", "action control-action"), ("data-seq", String(message.seq)), ("data-gesture", "control"),
      ("data-event", message.event ?? ""), ("data-action", message.action), ("data-view", message.view),
    ]
    if a.count > 1 { attributes.append(("data-count", String(a.count))) }
    drawMarker(
      at: location, text: Self.controlActionText(a, segments: view?.spec.control?.segments ?? []),
      attributes: attributes, windowWidth: window.width, metrics: m, placed: &placed, into: &w)
  }

  /// The legend's sample: a small switch, on, dimmed when not `enabled`.
  static func drawLegendSwitch(
    x: Double, top: Double, width: Double, height: Double, enabled: Bool, into w: inout SVGWriter
  ) {
    let n = SVGWriter.number
    let trackWidth = min(width, height * 1.7)
    w.open("g", [("class", enabled ? "control switch on" : "control switch on disabled")])
    w.empty(
      "rect",
      [
        ("class", "switch-track on"), ("x", n(x)), ("y", n(top)), ("width", n(trackWidth)), ("height", n(height)),
        ("rx", n(height / 2)),
      ])
    w.empty(
      "circle",
      [
        ("class", "switch-knob"), ("cx", n(x + trackWidth - height / 2)), ("cy", n(top + height / 2)),
        ("r", n(height / 2 - max(height * 0.07, 1))),
      ])
    w.close()
  }
}

extension Metrics {
  /// The controls' styles: blue bodies, a green switch when on, a white knob and thumb; disabled
  /// controls faded, as are controls in views that cannot be hit.
  var controlCSS: String {
    let n = SVGWriter.number
    return """
      .control-frame { fill: #e3f2fd; stroke: #1565c0; stroke-width: \(n(stroke * 1.5)); }
      .control.highlighted .control-frame { fill: #90caf9; }
      .control.button.selected .control-frame { fill: #1565c0; }
      .control-title { fill: #0d47a1; font-weight: bold; text-anchor: middle; }
      .control.button.selected .control-title { fill: #ffffff; }
      .control-divider { stroke: #1565c0; stroke-width: \(n(stroke)); }
      .segment { fill: none; }
      .segment.selected { fill: #1565c0; }
      .segment-title { fill: #0d47a1; text-anchor: middle; }
      .segment-title.selected { fill: #ffffff; font-weight: bold; }
      .switch-track { fill: #e0e0e0; stroke: #9e9e9e; stroke-width: \(n(stroke)); }
      .switch-track.on { fill: #34c759; stroke: #248a3d; }
      .switch-knob { fill: #ffffff; stroke: #616161; stroke-width: \(n(stroke)); }
      .slider-track { fill: #cfd8dc; }
      .slider-fill { fill: #1565c0; }
      .slider-thumb { fill: #ffffff; stroke: #37474f; stroke-width: \(n(stroke * 1.5)); }
      .control-hit { fill: none; stroke: #37474f; stroke-width: \(n(stroke)); stroke-dasharray: \(n(stroke)) \(n(stroke * 3)); }
      .stepper-sign { fill: #0d47a1; font-weight: bold; text-anchor: middle; }
      .stepper-sign.at-limit { opacity: 0.3; }
      .page-indicator { fill: #b0bec5; }
      .page-indicator.current { fill: #263238; }
      .stepper-value { fill: #263238; text-anchor: middle; stroke: #e3f2fd; stroke-width: \(n(base * 0.3)); paint-order: stroke; }
      .control.disabled { opacity: 0.35; }
      .control.dimmed, .control.inert, .control.blocked { opacity: 0.4; }
      .view-label.control { stroke: #ffffff; stroke-width: \(n(base * 0.25)); paint-order: stroke; stroke-linejoin: round; }
      .view-label.control.disabled { fill: #757575; }
      """
  }
}

/// A number with exactly two decimals: `0.50`, `-1.25`, `3.00`.
func fixed2(_ value: Double) -> String {
  guard value.isFinite else { return "0.00" }
  let hundredths = (value * 100).rounded()
  let magnitude = Int64(abs(hundredths))
  let fraction = magnitude % 100
  return (hundredths < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}
