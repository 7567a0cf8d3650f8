import Foundation
import TouchDelivery
import TouchdTestKit

@testable import TouchdScene

extension RuleRun {
  /// The scroll messages, in order.
  var scrolls: [ScrollMessage] {
    messages.compactMap { if case .scroll(let s) = $0 { s } else { nil } }
  }

  /// The scroll messages of one view.
  func scrolls(of view: String) -> [ScrollMessage] { scrolls.filter { $0.view == view } }

  /// "phase" for every scroll message of `view` except didScroll, in order.
  func scrollPhases(of view: String) -> [String] {
    scrolls(of: view).filter { $0.scrollPhase != .didScroll }.map(\.phase)
  }

  /// The offset of `view` after the replay (its last scroll message's), nil if it never moved.
  func finalOffset(of view: String) -> Point? { scrolls(of: view).last.map { Point($0.contentOffset) } }
}

/// A vertical list `list` (400 x 800 at the window's top-left, content 400 x 4000) of 40 rows
/// `row0`…`row39` (100 pt tall, `touches: true`, each with a tap `tap<n>` whose action is
/// `buy-<n>` and which leaves the row its touches: `cancelsTouchesInView: false`, so the row, like a
/// button, hears its touches and the tap fires too); `scroll` adds keys to the list's `scroll:` mapping (`{…}` flow style, without braces).
func listScene(_ scroll: String = "") -> String {
  let extra = scroll.isEmpty ? "" : ", " + scroll
  var rows = ""
  for i in 0..<40 {
    rows += """

          - id: row\(i)
            frame: {x: 0, y: \(i * 100), width: 400, height: 100}
            touches: true
            recognizers:
              - {id: tap\(i), type: tap, action: buy-\(i), cancelsTouchesInView: false}
      """
  }
  return ruleScene(
    """
    - id: list
      frame: {x: 0, y: 0, width: 400, height: 800}
      scroll: {contentSize: {width: 400, height: 4000}\(extra)}
      views:\(rows)
    """)
}

/// UIKit's rubber band (1 − 1/(x·0.55/d + 1))·d, written out independently of ScrollPhysics.
func uikitRubberBand(_ x: Double, _ d: Double) -> Double { (1 - 1 / (x * 0.55 / d + 1)) * d }

/// Where content released at `velocity` pt/s comes to rest past its release offset, for a rate per
/// millisecond (v·rate^(1000t) integrated to infinity).
func uikitProjection(_ velocity: Double, rate: Double) -> Double { -velocity / (1000 * Foundation.log(rate)) }
