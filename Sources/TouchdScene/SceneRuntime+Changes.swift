// The run-time changes the commands make (`set` on a view or a window, `ignoreInteraction`), and
// the lookups of the objects built for the scene's ids.
import TouchDelivery
import TouchdInput

extension SceneRuntime {
  /// Changes a view's properties; nil leaves one as it is.
  public func setView(
    _ id: String, hidden: Bool? = nil, alpha: Double? = nil, userInteractionEnabled: Bool? = nil,
    frame: Scene.Frame? = nil, scroll: ScrollChange = ScrollChange(), control change: ControlChange = ControlChange(),
    firstResponder: Bool? = nil
  ) throws(SceneRuntimeError) {
    guard let view = viewsByID[id] else {
      throw .unknownView(id, suggestion: closestMatch(to: id, in: viewsByID.keys.sorted()))
    }
    if let alpha, !(0...1).contains(alpha) { throw .invalidValue("alpha \(alpha) is outside 0...1") }
    if let frame, frame.width < 0 || frame.height < 0 { throw .invalidValue("negative size in frame of '\(id)'") }
    let scrollView = view as? ScrollView
    if !scroll.isEmpty && scrollView == nil {
      throw .invalidValue("view '\(id)' is not a scroll view (it has no scroll:)")
    }
    if let size = scroll.contentSize, size.width < 0 || size.height < 0 {
      throw .invalidValue("negative contentSize of '\(id)'")
    }
    if let scrollView, scroll.zoomScale != nil || scroll.zoomTo != nil {
      guard scrollView.canZoom else {
        throw .invalidValue(
          "view '\(id)' does not zoom (its scroll: needs a zoomView and maximumZoomScale above minimumZoomScale)")
      }
      if let scale = scroll.zoomScale, !(scale > 0) {
        throw .invalidValue("zoomScale of '\(id)' must be greater than 0, found \(scale)")
      }
      if let rect = scroll.zoomTo, rect.width < 0 || rect.height < 0 || (rect.width == 0 && rect.height == 0) {
        throw .invalidValue("zoomTo of '\(id)' needs a width or a height above 0, and neither negative")
      }
    }
    let control = view as? Control
    if !change.isEmpty {
      guard let control else { throw .invalidValue("view '\(id)' is not a control (it has no control:)") }
      let type = controlTypeName(control)
      if change.on != nil && !(control is Switch) {
        throw .invalidValue("'on' is a switch property; view '\(id)' is a \(type)")
      }
      if change.value != nil && !(control is Slider || control is Stepper) {
        throw .invalidValue("'value' is a slider and stepper property; view '\(id)' is a \(type)")
      }
      if let index = change.selectedSegmentIndex {
        guard let segmented = control as? SegmentedControl else {
          throw .invalidValue("'selectedSegmentIndex' is a segmented control property; view '\(id)' is a \(type)")
        }
        guard index >= -1 && index < segmented.segments.count else {
          throw .invalidValue(
            "selectedSegmentIndex \(index) of '\(id)' must be -1 (no segment) or less than \(segmented.segments.count)")
        }
      }
      if let page = change.currentPage {
        guard let pageControl = control as? PageControl else {
          throw .invalidValue("'currentPage' is a page control property; view '\(id)' is a \(type)")
        }
        guard page >= 0 && page < max(pageControl.numberOfPages, 1) else {
          throw .invalidValue(
            "currentPage \(page) of '\(id)' must be at least 0 and less than its numberOfPages (\(pageControl.numberOfPages))"
          )
        }
      }
    }
    if let control {
      // One control message for the whole command.
      control.batch {
        if let enabled = change.enabled { control.isEnabled = enabled }
        if let selected = change.selected { control.isSelected = selected }
        if let on = change.on { (control as? Switch)?.isOn = on }
        if let value = change.value {
          (control as? Slider)?.value = value
          (control as? Stepper)?.value = value
        }
        if let index = change.selectedSegmentIndex { (control as? SegmentedControl)?.selectedSegmentIndex = index }
        if let page = change.currentPage { (control as? PageControl)?.currentPage = page }
      }
    }
    if let firstResponder, let window = view.window {
      if firstResponder {
        window.firstResponder = view
      } else if window.firstResponder === view {
        window.firstResponder = nil
      }
    }
    if let scrollView {
      if let size = scroll.contentSize { scrollView.contentSize = Size(width: size.width, height: size.height) }
      if let enabled = scroll.scrollEnabled { scrollView.isScrollEnabled = enabled }
      if let offset = scroll.contentOffset {
        scrollView.setContentOffset(Point(x: offset.x, y: offset.y), animated: scroll.animated)
      }
      if let scale = scroll.zoomScale { scrollView.setZoomScale(scale, animated: scroll.animated) }
      if let r = scroll.zoomTo {
        scrollView.zoom(to: Rect(x: r.x, y: r.y, width: r.width, height: r.height), animated: scroll.animated)
      }
    }
    if let hidden {
      // Hiding is how a client takes a view off the screen (shows another one), so it is taken as
      // UIKit takes a view leaving its window: the touches on it are cancelled
      // (`Application.cancelTouches(inViewTree:reason:)`). UIKit itself only stops hit-testing a
      // hidden view and keeps delivering the touches it already has, which would leave a
      // recognizer on an invisible view recognizing.
      if hidden && !view.isHidden {
        application.cancelTouches(inViewTree: view, reason: "view '\(id)' was hidden")
      }
      view.isHidden = hidden
    }
    if let alpha { view.alpha = alpha }
    if let userInteractionEnabled { view.isUserInteractionEnabled = userInteractionEnabled }
    if let frame { view.frame = Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height) }
  }

  /// Changes how window `id` maps its touchscreens and its size (a display rotated while
  /// running): its touches in progress are cancelled first, as the positions they were hit-tested
  /// at no longer hold; their contacts are ignored until they lift (``Application/cancelTouches(in:reason:)``).
  /// Returns the reply (and every client's notice): the window's id, size, rotation and
  /// calibration as they are now.
  public func setWindow(_ id: String, _ change: WindowChange) throws(SceneRuntimeError) -> WindowChangedMessage {
    let index = try windowIndex(named: id)
    if let calibration = change.calibration, calibration.count != 6 || !calibration.allSatisfy(\.isFinite) {
      throw .invalidValue("a calibration matrix is 6 finite numbers")
    }
    if let rotation = change.rotation, ScreenRotation(rawValue: rotation) == nil {
      throw .invalidValue("rotation \(rotation) is not 0, 90, 180 or 270")
    }
    if let size = change.size, !(size.width > 0 && size.height > 0 && size.width.isFinite && size.height.isFinite) {
      throw .invalidValue("a window's size must be above 0 points wide and high")
    }
    let window = windows[index]
    if let voiceOver = change.voiceOver { setVoiceOver(voiceOver, inWindow: index) }
    if change.changesMapping {
      if calibratingWindow == index { cancelCalibration("window '\(id)' changed its rotation, calibration or size") }
      application.cancelTouches(in: window, reason: "window '\(id)' changed its rotation, calibration or size")
    }
    if let rotation = change.rotation { scene.windows[index].rotation = rotation }
    if let calibration = change.calibration { scene.windows[index].calibration = calibration }
    if let size = change.size {
      scene.windows[index].size = size
      window.frame.size = Size(width: size.width, height: size.height)
    }
    mappings[index] = mapping(forWindow: index)
    let spec = scene.windows[index]
    return WindowChangedMessage(
      window: id, width: spec.size.width, height: spec.size.height, rotation: spec.rotation,
      calibration: spec.calibration)
  }

  /// The index of the window with id `id`; an unknown id is the error, with a close id if any.
  func windowIndex(named id: String) throws(SceneRuntimeError) -> Int {
    guard let index = scene.windows.firstIndex(where: { $0.id == id }) else {
      throw .unknownWindow(id, suggestion: closestMatch(to: id, in: scene.windows.map(\.id)))
    }
    return index
  }

  /// How many ``beginIgnoringInteraction()`` are not ended yet (the `ignoreInteraction` nesting).
  public var ignoreDepth: Int { application.ignoringInteractionDepth }

  /// Begins ignoring interaction (nested, as UIApplication's begin/end): touches down are
  /// cancelled, touches that begin while ignoring are never delivered
  /// (``Application/beginIgnoringInteractionEvents()``).
  public func beginIgnoringInteraction() {
    application.beginIgnoringInteractionEvents()
  }

  /// Ends one ``beginIgnoringInteraction()``; an error when there is none to end.
  public func endIgnoringInteraction() throws(SceneRuntimeError) {
    guard ignoreDepth > 0 else { throw .invalidValue("not ignoring interaction events") }
    application.endIgnoringInteractionEvents()
  }

  /// The view built for a scene view id.
  public func view(_ id: String) -> TouchDelivery.View? { viewsByID[id] }

  /// The scroll view built for a scene view id with `scroll:`.
  public func scrollView(_ id: String) -> ScrollView? { viewsByID[id] as? ScrollView }
}
