// Tracing: the runtime's switch that turns delivery's trace events into `trace` messages
// (TraceMessage, built by MessageBuilding.swift's `TraceMessage.init(_:time:gestures:)`).
import TouchDelivery

extension SceneRuntime {
  /// Whether the runtime publishes ``TraceMessage``s to its sink: every recognizer state change
  /// with its cause, touches held and released, and so on. Off by default; while off the
  /// application has no tracer and no cause or message is built. Action and touches messages and
  /// their `seq` are the same either way.
  public var isTracing: Bool {
    get { application.tracer != nil }
    set {
      guard newValue != isTracing else { return }
      guard newValue else {
        application.tracer = nil
        return
      }
      var gestures: [String: RecognizerType] = [:]
      func visit(_ views: [Scene.View]) {
        for view in views {
          for r in view.recognizers { gestures[r.id] = r.type }
          visit(view.views)
        }
      }
      for window in scene.windows { visit(window.views) }
      application.tracer = { [weak self] event in
        guard let self else { return }
        sink(.trace(TraceMessage(event, time: now, gestures: gestures)))
      }
    }
  }
}
