// Building the objects of the scene: views, scroll views, controls and recognizers with their
// parameters, each wired to publish its messages.
import TouchDelivery
import TouchdInput

extension SceneRuntime {
  /// The objects of `spec` and its subviews, registered by id; their recognizers that name others
  /// (`requireToFail`, `simultaneousWith`) go to `pending` to be linked (``wire(_:)``) once every
  /// one exists.
  func build(
    _ spec: Scene.View, window: Scene.Window, pending: inout [(GestureRecognizer, Scene.Recognizer)]
  ) -> TouchDelivery.View {
    let f = spec.frame
    let frame = Rect(x: f.x, y: f.y, width: f.width, height: f.height)
    let view: TouchDelivery.View
    if spec.scroll != nil {
      view = ScrollView(frame: frame)
    } else if let control = spec.control {
      view = makeControl(control, frame: frame, viewID: spec.id, windowID: window.id)
    } else {
      view = TouchDelivery.View(frame: frame)
    }
    if spec.touches || spec.presses {
      let reporter = SceneResponder(view: view, touches: spec.touches, presses: spec.presses)
      reporter.onTouches = { [weak self] view, phase, touches in self?.publishTouches(view, phase, touches) }
      reporter.onPresses = { [weak self] view, phase, presses in self?.publishPresses(view, phase, presses) }
    }
    view.identifier = spec.id
    view.isHidden = spec.hidden
    view.alpha = spec.alpha
    view.isUserInteractionEnabled = spec.userInteractionEnabled
    view.isMultipleTouchEnabled = spec.multipleTouchEnabled
    view.touchTypes = spec.touchTypes.map { Set($0.compactMap(TouchType.init(rawValue:))) }
    if let signature = spec.signature { signatures.add(signature, view: view, id: spec.id, window: window.id) }
    view.isExclusiveTouch = spec.exclusiveTouch
    // UIScrollView clips its content by default; `clipsToBounds` in the scene overrides only a plain view's.
    if spec.scroll == nil { view.clipsToBounds = spec.clipsToBounds }
    view.hitTestOutset = spec.hitOutset
    viewsByID[spec.id] = view
    for r in spec.recognizers {
      let recognizer = addRecognizer(r, to: view, viewID: spec.id, windowID: window.id)
      if !r.requireToFail.isEmpty || !r.simultaneousWith.isEmpty { pending.append((recognizer, r)) }
    }
    for child in spec.views {
      view.addSubview(build(child, window: window, pending: &pending))
    }
    // Configured once its content exists: its zoom view is one of them.
    if let scroll = spec.scroll, let scrollView = view as? ScrollView {
      configure(scrollView, scroll, frameRate: window.frameRate, id: spec.id)
    }
    return view
  }

  /// Makes the recognizer `spec` on `view`, publishing its actions, and registers it by id.
  @discardableResult
  func addRecognizer(_ spec: Scene.Recognizer, to view: TouchDelivery.View, viewID: String, windowID: String)
    -> GestureRecognizer
  {
    let recognizer = Self.makeRecognizer(spec)
    recognizer.addAction { [weak self] recognizer in
      self?.publishAction(recognizer, spec: spec, viewID: viewID, windowID: windowID)
    }
    if let zoom = spec.zoom {
      recognizer.addAction { [weak self] recognizer in
        guard recognizer.state == .ended, let scrollView = self?.scrollView(zoom.view) else { return }
        Self.toggleZoom(scrollView, scale: zoom.scale, around: recognizer.location(in: scrollView.zoomView))
      }
    }
    view.addGestureRecognizer(recognizer)
    recognizersByID[spec.id] = recognizer
    return recognizer
  }

  /// A recognizer's `zoom:`, a photo viewer's double tap: a view zoomed in (above its minimum)
  /// zooms back out to its minimum; otherwise it zooms in to `scale` (nil: its maximum) around
  /// `point` (in the zoom view's points), with `zoom(to:animated:)` of the rect of the view's size
  /// divided by the scale centred on the point, animated: Apple's recipe in the Scroll View
  /// Programming Guide for iOS, "Zooming by Tapping" (`zoomRectForScale:withCenter:`).
  static func toggleZoom(_ scrollView: ScrollView, scale: Double?, around point: Point) {
    guard scrollView.zoomScale <= scrollView.minimumZoomScale else {
      scrollView.setZoomScale(scrollView.minimumZoomScale, animated: true)
      return
    }
    let scale = scale ?? scrollView.maximumZoomScale
    let size = Size(width: scrollView.bounds.width / scale, height: scrollView.bounds.height / scale)
    scrollView.zoom(
      to: Rect(x: point.x - size.width / 2, y: point.y - size.height / 2, width: size.width, height: size.height),
      animated: true)
  }

  /// Applies a scene's `scroll:` to a scroll view and routes its delegate callbacks to messages.
  private func configure(_ view: ScrollView, _ scroll: Scene.Scroll, frameRate: Double, id: String) {
    view.contentSize = Size(width: scroll.contentSize.width, height: scroll.contentSize.height)
    let inset = scroll.contentInset
    view.contentInset = EdgeInsets(top: inset.top, left: inset.left, bottom: inset.bottom, right: inset.right)
    view.isScrollEnabled = scroll.scrollEnabled
    view.bounces = scroll.bounces
    view.alwaysBounceVertical = scroll.alwaysBounceVertical
    view.alwaysBounceHorizontal = scroll.alwaysBounceHorizontal
    view.isDirectionalLockEnabled = scroll.directionalLockEnabled
    view.isPagingEnabled = scroll.pagingEnabled
    view.decelerationRate = scroll.decelerationRate
    view.delaysContentTouches = scroll.delaysContentTouches
    view.canCancelContentTouches = scroll.canCancelContentTouches
    view.minimumZoomScale = scroll.minimumZoomScale
    view.maximumZoomScale = scroll.maximumZoomScale
    view.bouncesZoom = scroll.bouncesZoom
    view.zoomView = scroll.zoomView.flatMap { viewsByID[$0] }
    // Zoomed before the offset is set and before callbacks are routed: the scene's offset is where
    // the zoomed content starts, and building publishes nothing.
    view.setZoomScale(scroll.zoomScale)
    view.bounds.origin = Point(x: scroll.contentOffset.x, y: scroll.contentOffset.y)
    view.frameRate = frameRate
    // The internal recognizers are named after the view in traces.
    view.panGestureRecognizer.name = "\(id).pan"
    view.contentTouchDelayRecognizer.name = "\(id).contentTouchDelay"
    view.pinchGestureRecognizer?.name = "\(id).pinch"
    view.onScroll = { [weak self] view, event in
      self?.publishScroll(view, event)
      self?.pagesScrolled(view, event.phase)
    }
  }

  /// A recognizer of the spec's type with every parameter the scene gives applied. One it does
  /// not give keeps its class's default, which is the scene format's (UIKit's:
  /// SceneRuntimeTests holds the two together), so a row's plain tap costs no look-ups.
  static func makeRecognizer(_ spec: Scene.Recognizer) -> GestureRecognizer {
    let given = spec.parameters
    func parameter(_ name: String) -> Scene.Parameter? { given.isEmpty ? nil : given[name] }
    func int(_ name: String) -> Int? { parameter(name)?.integer }
    func number(_ name: String) -> Double? { parameter(name)?.number }
    func options(_ name: String) -> [String] { parameter(name)?.options ?? [] }
    let recognizer: GestureRecognizer
    switch spec.type {
    case .tap:
      let r = TapGestureRecognizer()
      if let v = int("numberOfTapsRequired") { r.numberOfTapsRequired = v }
      if let v = int("numberOfTouchesRequired") { r.numberOfTouchesRequired = v }
      if let v = number("allowableMovement") { r.allowableMovement = v }
      if let v = number("maximumTapDuration") { r.maximumTapDuration = v }
      if let v = number("maximumIntervalBetweenTaps") { r.maximumIntervalBetweenTaps = v }
      if let v = number("allowableTouchTimeSeparation") { r.allowableTouchTimeSeparation = v }
      recognizer = r
    case .longPress:
      let r = LongPressGestureRecognizer()
      if let v = number("minimumPressDuration") { r.minimumPressDuration = v }
      if let v = number("allowableMovement") { r.allowableMovement = v }
      if let v = int("numberOfTouchesRequired") { r.numberOfTouchesRequired = v }
      if let v = int("numberOfTapsRequired") { r.numberOfTapsRequired = v }
      if let v = number("maximumTapDuration") { r.maximumTapDuration = v }
      if let v = number("maximumIntervalBetweenTaps") { r.maximumIntervalBetweenTaps = v }
      recognizer = r
    case .pan, .screenEdgePan:
      let r: PanGestureRecognizer
      if spec.type == .screenEdgePan {
        let edge = ScreenEdgePanGestureRecognizer()
        for name in options("edges") {
          switch name {
          case "top": edge.edges.insert(.top)
          case "left": edge.edges.insert(.left)
          case "bottom": edge.edges.insert(.bottom)
          case "right": edge.edges.insert(.right)
          default: edge.edges.formUnion(.all)
          }
        }
        if let v = number("edgeZoneWidth") { edge.edgeZoneWidth = v }
        r = edge
      } else {
        r = PanGestureRecognizer()
      }
      if let v = int("minimumNumberOfTouches") { r.minimumNumberOfTouches = v }
      if let v = int("maximumNumberOfTouches") { r.maximumNumberOfTouches = v }
      if let v = number("startDistance") { r.startDistance = v }
      recognizer = r
    case .swipe:
      let r = SwipeGestureRecognizer()
      var direction: SwipeGestureRecognizer.Direction = []
      for name in options("direction") {
        switch name {
        case "left": direction.insert(.left)
        case "up": direction.insert(.up)
        case "down": direction.insert(.down)
        default: direction.insert(.right)
        }
      }
      if !direction.isEmpty { r.direction = direction }
      if let v = int("numberOfTouchesRequired") { r.numberOfTouchesRequired = v }
      if let v = number("minimumPrimaryMovement") { r.minimumPrimaryMovement = v }
      if let v = number("maximumSecondaryMovement") { r.maximumSecondaryMovement = v }
      if let v = number("rateOfMinimumMovementDecay") { r.rateOfMinimumMovementDecay = v }
      if let v = number("rateOfMaximumMovementDecay") { r.rateOfMaximumMovementDecay = v }
      if let v = number("maximumDuration") { r.maximumDuration = v }
      recognizer = r
    case .pinch:
      let r = PinchGestureRecognizer()
      if let v = number("startDistance") { r.startDistance = v }
      recognizer = r
    case .rotation:
      let r = RotationGestureRecognizer()
      if let v = number("startDistance") { r.startDistance = v }
      recognizer = r
    case .hover:
      recognizer = HoverGestureRecognizer()
    }
    recognizer.name = spec.id
    recognizer.allowedPressTypes = options("allowedPressTypes").map { PressType($0) }
    // The format's default is every type, the recognizer's own default: no set is made for it.
    if spec.allowedTouchTypes != SceneFormat.touchTypes {
      recognizer.allowedTouchTypes = Set(spec.allowedTouchTypes.compactMap(TouchType.init(rawValue:)))
    }
    recognizer.requiresExclusiveTouchType = spec.requiresExclusiveTouchType
    recognizer.cancelsTouchesInView = spec.cancelsTouchesInView
    recognizer.delaysTouchesBegan = spec.delaysTouchesBegan
    recognizer.delaysTouchesEnded = spec.delaysTouchesEnded
    return recognizer
  }

  private func makeControl(_ spec: Scene.Control, frame: Rect, viewID: String, windowID: String) -> Control {
    let control: Control
    switch spec.type {
    case .button: control = Button(frame: frame)
    case .switch:
      let s = Switch(frame: frame)
      s.isOn = spec.on
      control = s
    case .slider:
      let s = Slider(frame: frame)
      s.maximumValue = spec.maximumValue
      s.minimumValue = spec.minimumValue
      s.value = spec.value
      s.isContinuous = spec.continuous
      control = s
    case .stepper:
      let s = Stepper(frame: frame)
      s.maximumValue = spec.maximumValue
      s.minimumValue = spec.minimumValue
      s.value = spec.value
      s.stepValue = spec.stepValue
      s.autorepeat = spec.autorepeat
      s.isContinuous = spec.continuous
      control = s
    case .segmented:
      let s = SegmentedControl(frame: frame)
      s.segments = spec.segments
      s.selectedSegmentIndex = spec.selectedSegmentIndex
      control = s
    case .pageControl:
      let p = PageControl(frame: frame)
      p.numberOfPages = spec.numberOfPages
      p.currentPage = spec.currentPage
      p.hidesForSinglePage = spec.hidesForSinglePage
      p.allowsContinuousInteraction = spec.allowsContinuousInteraction
      control = p
    }
    control.isEnabled = spec.enabled
    control.isSelected = spec.selected
    control.onStateChange = { [weak self] control in self?.publishControl(control) }
    var mapped: ControlEvents = []
    for (name, _) in spec.actions { if let event = ControlEvents(name: name) { mapped.insert(event) } }
    if !mapped.isEmpty {
      let actions = spec.actions
      control.addAction(for: mapped) { [weak self] control, event in
        guard let self, let name = ControlEvents.named.first(where: { $0.event == event })?.name,
          let action = actions[name]
        else { return }
        self.sink(
          .action(
            ActionMessage(
              seq: self.takeSeq(), action: action, event: name, control: controlTypeName(control), view: viewID,
              window: windowID, time: self.now, value: ControlValue(of: control))))
      }
    }
    if spec.pages != nil {
      control.addAction(for: .valueChanged) { [weak self] control, _ in self?.pageControlChanged(viewID, control) }
    }
    return control
  }
}
