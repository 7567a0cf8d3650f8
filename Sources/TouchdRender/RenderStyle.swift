// The picture's sizes, derived from the largest window, and its style sheet.

/// The heat map's styles (HeatmapDrawing.swift): cells shaded by their share of the busiest
/// cell's touch-downs (their `fill-opacity`), dead cells outlined.
let heatmapCSS = """
  .heat-cell { fill: #d32f2f; stroke: none; }
  .dead-cell { fill: none; stroke: #000000; stroke-width: 3; stroke-dasharray: 6 4; }
  .dead-label { fill: #000000; font-weight: bold; text-anchor: middle; }
  """

/// Sizes derived from the largest window, so text stays legible at any window size.
struct Metrics {
  var base: Double
  var title: Double { base * 1.1 }
  var label: Double { base }
  var small: Double { base * 0.8 }
  var dot: Double { base * 0.35 }
  var ring: Double { base * 0.75 }
  var marker: Double { base * 0.45 }
  var stroke: Double { max(1, base * 0.1) }

  /// The style sheet; `scroll` adds the scroll view styles (before the dimmed, inert and blocked
  /// ones, which win over them), `controls` the controls' (``controlCSS``).
  func css(
    scroll: Bool, controls: Bool = false, heatmap: Bool = false, accessibility: Bool = false, voiceOver: Bool = false,
    strokes: Bool = false
  ) -> String {
    let n = SVGWriter.number
    let scrollView =
      scroll
      ? """

      .view.scroll { fill: #1565c0; fill-opacity: 0.03; stroke: #1565c0; stroke-width: \(n(stroke * 2)); stroke-dasharray: \(n(base * 0.8)) \(n(base * 0.4)); }
      .scroll-frame { fill: none; stroke: #1565c0; stroke-width: \(n(stroke * 2)); stroke-dasharray: \(n(base * 0.8)) \(n(base * 0.4)); }
      .scroll-frame.dimmed, .scroll-frame.inert, .scroll-frame.blocked { opacity: 0.4; }
      .scroll-extent { fill: none; stroke: #1565c0; stroke-width: \(n(stroke)); stroke-dasharray: \(n(stroke)) \(n(stroke * 2)); opacity: 0.6; }
      .scroll-track { fill: #1565c0; opacity: 0.12; }
      .scroll-indicator { fill: #1565c0; opacity: 0.75; }
      """ : ""
    let scrollLabel =
      scroll
      ? """

      .view-label.scroll { fill: #0d47a1; text-anchor: end; stroke: #ffffff; stroke-width: \(n(base * 0.3)); paint-order: stroke; stroke-linejoin: round; }
      """ : ""
    return """
      .background { fill: #ffffff; }
      .window-title { fill: #263238; font-weight: bold; }
      .window-frame { fill: #f7f9fa; stroke: #263238; stroke-width: \(n(stroke * 2)); }
      .view { fill: #607d8b; fill-opacity: 0.07; stroke: #37474f; stroke-width: \(n(stroke * 1.5)); }\(scrollView)
      .view.dimmed { fill: none; stroke: #9e9e9e; stroke-dasharray: \(n(base)) \(n(base * 0.6)); opacity: 0.6; }
      .view.inert { fill: none; stroke: #c77700; stroke-dasharray: \(n(base * 0.3)) \(n(base * 0.3)); }
      .view.blocked { opacity: 0.4; }
      .hit-outset { fill: none; stroke: #37474f; stroke-width: \(n(stroke)); stroke-dasharray: \(n(stroke)) \(n(stroke * 3)); }
      .hit-outset.dimmed, .hit-outset.inert, .hit-outset.blocked { opacity: 0.4; }
      .view-label { fill: #263238; }
      .view-label .view-id { font-weight: bold; }\(scrollLabel)
      .view-label.dimmed { fill: #9e9e9e; }
      .view-label.inert { fill: #c77700; }
      .view-label.blocked { opacity: 0.5; }\(controls ? "\n" + controlCSS : "")
      .touch { fill: none; stroke-width: \(n(base * 0.25)); stroke-linecap: round; stroke-linejoin: round; opacity: 0.85; }
      .touch-up { fill: none; stroke-width: \(n(base * 0.18)); }
      .touch-cancel { fill: none; stroke-width: \(n(base * 0.22)); stroke-linecap: round; }
      .touch-label { font-weight: bold; text-anchor: end; }
      .action-marker { fill: #111111; stroke: #ffffff; stroke-width: \(n(stroke)); }
      .action-leader { stroke: #111111; stroke-width: \(n(stroke)); }
      .action-label { fill: #111111; stroke: #ffffff; stroke-width: \(n(base * 0.3)); paint-order: stroke; stroke-linejoin: round; }
      .legend-text { fill: #263238; }
      .legend-heading { fill: #263238; font-weight: bold; }\(heatmap ? "\n" + heatmapCSS : "")\(accessibility ? "\n" + accessibilityCSS : "")\(voiceOver ? "\n" + voiceOverCSS : "")\(strokes ? "\n" + strokeCSS : "")
      """
  }
}
