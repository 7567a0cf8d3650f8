// Touchscreen health fed by the running scene: frames before and after delivery, recognizer
// outcomes, stuck-touch cancellations, actions and idle transitions (Health/TouchHealth.swift).
import TouchDelivery

extension SceneRuntime {
  /// Where this runtime's touches are judged (``TouchHealth``), nil for none. The daemon sets one
  /// it keeps across reloads; setting it attaches the scene's windows.
  public var health: TouchHealth? {
    get { healthMonitor }
    set {
      healthMonitor = newValue
      newValue?.attach(scene.windows.map { ($0.id, $0.health.heatmap) })
    }
  }

  /// Installs the application's recognizer outcome and stuck-touch hooks: health hears them first,
  /// then ``recognizerOutcomeObserver`` and ``stuckTouchObserver``.
  func installHealthHooks() {
    application.recognizerOutcomeObserver = { [unowned self] recognizer, recognized in
      if let healthMonitor {
        healthMonitor.recognizer(recognizer, recognized: recognized, window: windowIndex(of: recognizer.view))
      }
      recognizerOutcomeObserver?(recognizer, recognized)
    }
    application.onStuckTouch = { [unowned self] touch in
      if let healthMonitor, let window = windowIndex(of: touch.view) { healthMonitor.stuckTouch(window: window) }
      stuckTouchObserver?(touch)
    }
  }

  /// The index of the window `view` is in, nil when it is in none.
  func windowIndex(of view: TouchDelivery.View?) -> Int? {
    guard let window = view?.window else { return nil }
    return windows.firstIndex { $0 === window }
  }
}
