import TouchDelivery
import TouchdTestKit

@testable import TouchdScene

extension RuleRun {
  /// The control action messages, in order.
  var controlActions: [ActionMessage] {
    messages.compactMap { if case .action(let a) = $0, a.control != nil { a } else { nil } }
  }

  /// The control state messages, in order.
  var controlStates: [ControlMessage] {
    messages.compactMap { if case .control(let c) = $0 { c } else { nil } }
  }

  /// The event names `view` sent, in order (every event is mapped by ``controlActions(_:)``).
  func events(of view: String) -> [String] { controlActions.filter { $0.view == view }.compactMap(\.event) }

  /// "H" (highlighted) or "-" for every control message of `view`, in order.
  func highlights(of view: String) -> [String] {
    controlStates.filter { $0.view == view }.map { $0.highlighted ? "H" : "-" }
  }
}

/// A control's `actions:` mapping every control event to `<view>-<event>`, in flow style.
func everyEvent(_ view: String) -> String {
  "{" + ControlEvents.named.map { "\($0.name): \(view)-\($0.name)" }.joined(separator: ", ") + "}"
}
