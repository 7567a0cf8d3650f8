import TouchDelivery
import TouchdInput

/// Why a runtime request was refused.
public enum SceneRuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No view has this id; `suggestion` is a close id, if any.
  case unknownView(String, suggestion: String?)
  /// No window has this id; `suggestion` is a close id, if any.
  case unknownWindow(String, suggestion: String?)
  /// An alpha outside 0...1 or a negative size.
  case invalidValue(String)
  /// No window of the scene takes touches from this device.
  case noWindow(device: String)
  /// A recording's device is not a touchscreen (`Recording.notTouchscreenMessage`).
  case notTouchscreen(String)
  /// A replay's timed command (``ScenePlayer/TimedCommand``) failed; `label` names it.
  indirect case timedCommand(label: String, error: SceneRuntimeError)

  public var description: String {
    switch self {
    case .unknownView(let id, let suggestion):
      "unknown view '\(id)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .unknownWindow(let id, let suggestion):
      "unknown window '\(id)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .invalidValue(let message): message
    case .noWindow(let device): "no window of the scene takes touches from '\(device)'"
    case .notTouchscreen(let message): message
    case .timedCommand(let label, let error): "\(label): \(error)"
    }
  }
}

/// A scene brought to life: the application, windows, views and recognizers built from a
/// ``Scene``, delivering frames and publishing ``Message``s. The daemon drives it live on its
/// clock; ``ScenePlayer`` drives it on virtual time for replays.
///
/// # Thread safety
/// Not thread-safe: one owner calls every method, on the queue that owns the clock.
public final class SceneRuntime {
  /// The scene as running: the file's, with the windows' `set` changes (rotation, calibration,
  /// size) applied.
  public internal(set) var scene: Scene
  public let application: Application
  /// The windows, in the scene's order (front to back).
  public let windows: [TouchDelivery.Window]
  /// Where messages go, in order.
  public var sink: (Message) -> Void

  /// Every view by its id (Updates/ adds and removes them).
  var viewsByID: [String: TouchDelivery.View] = [:]
  /// Every recognizer by its id.
  var recognizersByID: [String: GestureRecognizer] = [:]
  private var nextSeq = 1
  private var frameTime: Double?
  let simultaneity = SimultaneityDelegate()
  /// ``mapping(forWindow:)`` of every window (changed by ``setWindow(_:_:)`` only).
  var mappings: [ScreenMapping] = []
  /// Each window's `keys.map`, by key code: the key's name and the press type it makes.
  private var keyMaps: [[UInt16: (name: String, type: PressType)]] = []
  /// The scene's `idle:` (nil without one).
  private var idleMonitor: IdleMonitor?
  /// Whether the scene is idle (`idle:`): its next input wakes it, and may be swallowed.
  var isIdle: Bool { idleMonitor?.isIdle ?? false }
  /// The virtual touchscreens of windows with `forward:` (Forwarding.swift), nil until one is added.
  var forwarding: SceneForwarding?
  /// The `calibrate` command collecting a window's touches (Calibration/), nil when none runs.
  var calibration: CalibrationSession?
  /// Where the calibration's result goes.
  var calibrationCompletion: ((Result<CalibrationFit, CalibrationError>) -> Void)?

  /// The JSON the scene was read from (``SceneDocument``), which `update` edits; nil for a runtime
  /// built from a ``Scene`` alone, which takes no `update`.
  public internal(set) var document: StrictJSON?
  /// How many updates changed ``document`` since the runtime was built.
  public internal(set) var documentVersion = 0

  /// Builds the objects of a scene read with its JSON (``Scene/loadDocument(path:maximumBytes:)``,
  /// ``Scene/parseDocument(json:name:)``): it takes `update` commands.
  public convenience init(document: SceneDocument, clock: TouchClock, sink: @escaping (Message) -> Void) {
    self.init(scene: document.scene, clock: clock, sink: sink)
    self.document = document.json
  }

  /// Builds the scene's objects on `clock`. `sink` receives every message.
  public init(scene: Scene, clock: TouchClock, sink: @escaping (Message) -> Void) {
    self.scene = scene
    self.sink = sink
    application = Application(clock: clock)
    application.stuckTouchTimeout = scene.stuckTouchTimeout
    var windows: [TouchDelivery.Window] = []
    var pending: [(GestureRecognizer, Scene.Recognizer)] = []
    for spec in scene.windows {
      let window = TouchDelivery.Window(frame: Rect(x: 0, y: 0, width: spec.size.width, height: spec.size.height))
      window.identifier = spec.id
      windows.append(window)
    }
    self.windows = windows
    mappings = scene.windows.indices.map(mapping(forWindow:))
    for (spec, window) in zip(scene.windows, windows) {
      application.addWindow(window)
      for viewSpec in spec.views {
        window.addSubview(build(viewSpec, window: spec, pending: &pending))
      }
    }
    for (spec, window) in zip(scene.windows, windows) {
      if let id = spec.firstResponder { window.firstResponder = viewsByID[id] }
      var keys: [UInt16: (name: String, type: PressType)] = [:]
      for (name, type) in spec.keys?.map ?? [:] {
        if let code = EventNames.keyCode(named: name) { keys[code] = (name, PressType(type)) }
      }
      keyMaps.append(keys)
    }
    if let idle = scene.idle {
      idleMonitor = IdleMonitor(
        idle, clock: clock, isInputDown: { [application] in application.isTouchOrPressDown },
        publish: { [weak self] isIdle, time, swallowed in self?.publishIdle(isIdle, time: time, swallowed: swallowed) })
    }
    wire(pending)
  }

  /// Links each of `pending`'s recognizers to those its spec names (`requireToFail`,
  /// `simultaneousWith`), among every recognizer of the scene.
  func wire(_ pending: [(GestureRecognizer, Scene.Recognizer)]) {
    for (recognizer, spec) in pending {
      for id in spec.requireToFail { if let other = recognizersByID[id] { recognizer.require(toFail: other) } }
      for id in spec.simultaneousWith {
        guard let other = recognizersByID[id] else { continue }
        simultaneity.allow(recognizer, other)
        recognizer.delegate = simultaneity
        other.delegate = simultaneity
      }
    }
  }

  // MARK: Input

  /// The index of the first window whose `devices` patterns match the device: globs over its
  /// name, its `vendor:product` in four-digit lowercase hex, or its path, and `KEY=GLOB` patterns
  /// over its udev `properties` (``devicePattern(_:matches:path:properties:)``).
  public func windowIndex(for device: DeviceDescription, path: String? = nil, properties: [String: String] = [:])
    -> Int?
  {
    scene.windows.firstIndex { window in
      window.devices.contains { Self.devicePattern($0, matches: device, path: path, properties: properties) }
    }
  }

  /// Whether a `devices` (or `keys.devices`) pattern takes a device. A pattern `KEY=GLOB` whose
  /// KEY is a udev property name (capitals, digits and `_`, starting with a capital:
  /// `ID_PATH=pci-0000:00:14.0-usb-0:3:1.0`, `TOUCHD_WINDOW=left`) matches when the device's udev
  /// property KEY exists and its value matches GLOB; it tells identical panels apart by where they
  /// are plugged in, their serial, or what a local rule sets. Any other pattern is a glob over the
  /// device's name, its `vendor:product` in four-digit lowercase hex, or its path.
  public static func devicePattern(
    _ pattern: String, matches device: DeviceDescription, path: String?, properties: [String: String]
  ) -> Bool {
    if let (key, glob) = propertyPattern(pattern) {
      guard let value = properties[key] else { return false }
      return globMatch(glob, value)
    }
    return globMatch(pattern, device.name) || globMatch(pattern, device.id.vendorProduct)
      || path.map { globMatch(pattern, $0) } ?? false
  }

  /// A `KEY=GLOB` pattern's property name and glob, nil for a plain glob.
  public static func propertyPattern(_ pattern: String) -> (key: String, glob: String)? {
    guard let equals = pattern.firstIndex(of: "="), equals != pattern.startIndex else { return nil }
    let key = pattern[..<equals]
    guard let first = key.unicodeScalars.first, ("A"..."Z").contains(first),
      key.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
    else { return nil }
    return (String(key), String(pattern[pattern.index(after: equals)...]))
  }

  /// How device-normalized positions map onto window `index`'s points.
  public func mapping(forWindow index: Int) -> ScreenMapping {
    let spec = scene.windows[index]
    return ScreenMapping(
      width: spec.size.width, height: spec.size.height, rotation: ScreenRotation(rawValue: spec.rotation) ?? .none,
      calibration: CalibrationMatrix(values: spec.calibration) ?? .identity)
  }

  /// The window a recording replays into: its device must be one touchd would take live
  /// (`Recording.notTouchscreenMessage`) and a window's `devices` must match it.
  public func replayWindow(for recording: Recording, path: String? = nil) throws(SceneRuntimeError) -> Int {
    if let message = recording.notTouchscreenMessage { throw .notTouchscreen(message) }
    guard let window = windowIndex(for: recording.description, path: path) else {
      throw .noWindow(device: recording.description.name)
    }
    return window
  }

  /// Maps a frame from `device` into its window and delivers it; a frame from a device no window
  /// takes is dropped (returns false). The caller advances the clock to the frame's time first.
  @discardableResult
  public func handle(_ frame: TouchFrame, from device: DeviceDescription, path: String? = nil) -> Bool {
    guard let index = windowIndex(for: device, path: path) else { return false }
    handle(frame, inWindow: index)
    return true
  }

  /// Maps a frame of device-normalized contacts onto window `index` and delivers it. With the
  /// scene's `idle:`, the frame is input first: it may wake the scene, and a swallowed wake's
  /// contacts are not delivered (``IdleMonitor``). `source` names the device for forwarding: the
  /// touches that begin in the frame go on to the virtual touchscreen added for it with
  /// ``addForwarding(of:source:inWindow:continuing:output:)`` (Forwarding.swift), the frame's forwarded
  /// changes leave as one frame at the frame's time.
  public func handle(_ frame: TouchFrame, inWindow index: Int, source: Int? = nil) {
    forwarding?.beginFrame(frame, source: source)
    defer { forwarding?.endFrame() }
    var frame = frame
    if calibration != nil, calibrationTakes(frame, inWindow: index) {
      // Input all the same: it wakes an idle scene (its touches go to the calibration either way).
      _ = idleMonitor?.filter(frame)
      return
    }
    if let idleMonitor {
      guard let kept = idleMonitor.filter(frame) else { return }
      frame = kept
    }
    let mapping = mappings[index]
    let axisPoints =
      mapping.rotation == .clockwise90 || mapping.rotation == .clockwise270 ? mapping.height : mapping.width
    var mapped = frame
    mapped.contacts = frame.contacts.map { contact in
      var c = contact
      (c.x, c.y) = mapping.map(contact)
      c.majorRadius = contact.majorRadius.map { $0 * axisPoints }
      return c
    }
    frameTime = frame.time.seconds
    defer { frameTime = nil }
    forwarding?.forwardAhead(mapped, source: source, window: index)
    application.handle(mapped, in: windows[index])
  }

  /// The index of the first window whose `keys.devices` patterns match the key device, as
  /// ``windowIndex(for:path:properties:)``'s; nil when no window takes its keys.
  public func keyWindowIndex(for device: DeviceDescription, path: String? = nil, properties: [String: String] = [:])
    -> Int?
  {
    scene.windows.firstIndex { window in
      window.keys?.devices.contains { Self.devicePattern($0, matches: device, path: path, properties: properties) }
        ?? false
    }
  }

  /// Delivers a key frame from `device` to the window that takes its keys; a frame from a device
  /// no window takes is dropped (returns false). `source` tells devices apart: the same key on
  /// two devices is two presses. The caller advances the clock to the frame's time first.
  @discardableResult
  public func handle(_ frame: KeyFrame, from device: DeviceDescription, path: String? = nil, source: Int = 0) -> Bool {
    guard let index = keyWindowIndex(for: device, path: path) else { return false }
    handle(frame, inWindow: index, source: source)
    return true
  }

  /// Delivers a key frame to window `index`: each mapped key becomes a press for the window's
  /// first responder; keys the window's `keys.map` does not name make no press.
  public func handle(_ frame: KeyFrame, inWindow index: Int, source: Int = 0) {
    let map = keyMaps[index]
    var changes: [PressChange] = []
    for change in frame.changes {
      guard let key = map[change.code] else { continue }
      changes.append(PressChange(device: source, code: change.code, key: key.name, type: key.type, phase: change.phase))
    }
    if let idleMonitor { changes = idleMonitor.filter(changes, at: frame.time.seconds) }
    guard !changes.isEmpty else { return }
    frameTime = frame.time.seconds
    defer { frameTime = nil }
    application.handle(changes, at: frame.time.seconds, in: windows[index])
  }

  // MARK: Runtime changes

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

  // MARK: Idle

  /// The scene's idle state, nil when the scene has no `idle:`: whether it is idle, and the time
  /// of the last touch or press (nil before the first).
  public var idleState: (isIdle: Bool, lastInput: Double?)? {
    idleMonitor.map { ($0.isIdle, $0.lastInput) }
  }

  /// Takes over the idle state of the runtime this one replaces (a scene reload), so that a
  /// reload neither wakes an idle screen nor restarts the time without input.
  public func continueIdle(from previous: SceneRuntime) {
    previous.idleMonitor?.stop()
    guard let idleMonitor, let state = previous.idleState else { return }
    idleMonitor.continueFrom(isIdle: state.isIdle, lastInput: state.lastInput)
  }

  /// Changes how window `id` maps its touchscreens and its size (a display rotated while
  /// running): its touches in progress are cancelled first, as the positions they were hit-tested
  /// at no longer hold; their contacts are ignored until they lift (``Application/cancelTouches(in:reason:)``).
  /// Returns the reply's fields: the window's id, size, rotation and calibration as they are now.
  public func setWindow(_ id: String, _ change: WindowChange) throws(SceneRuntimeError) -> String {
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
    if calibratingWindow == index { cancelCalibration("window '\(id)' changed its rotation, calibration or size") }
    application.cancelTouches(in: window, reason: "window '\(id)' changed its rotation, calibration or size")
    if let rotation = change.rotation { scene.windows[index].rotation = rotation }
    if let calibration = change.calibration { scene.windows[index].calibration = calibration }
    if let size = change.size {
      scene.windows[index].size = size
      window.frame.size = Size(width: size.width, height: size.height)
    }
    mappings[index] = mapping(forWindow: index)
    let spec = scene.windows[index]
    return #""window":"# + JSONFormat.string(id) + #","width":\#(JSONFormat.number(spec.size.width)),"#
      + #""height":\#(JSONFormat.number(spec.size.height)),"rotation":\#(spec.rotation),"#
      + #""calibration":["# + spec.calibration.map(JSONFormat.number).joined(separator: ",") + "]"
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

  /// The `seq` the next message gets. A daemon that replaces its runtime (a scene reload)
  /// carries it over, so `seq` keeps increasing for its clients.
  public var nextSequenceNumber: Int {
    get { nextSeq }
    set { nextSeq = newValue }
  }

  // MARK: Building

  /// The objects of `spec` and its subviews, registered by id; their recognizers go to `pending`
  /// to be linked (``wire(_:)``) once every one exists.
  func build(
    _ spec: Scene.View, window: Scene.Window, pending: inout [(GestureRecognizer, Scene.Recognizer)]
  ) -> TouchDelivery.View {
    let f = spec.frame
    let frame = Rect(x: f.x, y: f.y, width: f.width, height: f.height)
    let view: TouchDelivery.View
    if let scroll = spec.scroll {
      let scrollView = ScrollView(frame: frame)
      configure(scrollView, scroll, frameRate: window.frameRate, id: spec.id)
      view = scrollView
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
    view.isExclusiveTouch = spec.exclusiveTouch
    // UIScrollView clips its content by default; `clipsToBounds` in the scene overrides only a plain view's.
    if spec.scroll == nil { view.clipsToBounds = spec.clipsToBounds }
    view.hitTestOutset = spec.hitOutset
    viewsByID[spec.id] = view
    for r in spec.recognizers {
      pending.append((addRecognizer(r, to: view, viewID: spec.id, windowID: window.id), r))
    }
    for child in spec.views {
      view.addSubview(build(child, window: window, pending: &pending))
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
    view.addGestureRecognizer(recognizer)
    recognizersByID[spec.id] = recognizer
    return recognizer
  }

  /// Applies a scene's `scroll:` to a scroll view and routes its delegate callbacks to messages.
  private func configure(_ view: ScrollView, _ scroll: Scene.Scroll, frameRate: Double, id: String) {
    view.contentSize = Size(width: scroll.contentSize.width, height: scroll.contentSize.height)
    let inset = scroll.contentInset
    view.contentInset = EdgeInsets(top: inset.top, left: inset.left, bottom: inset.bottom, right: inset.right)
    view.bounds.origin = Point(x: scroll.contentOffset.x, y: scroll.contentOffset.y)
    view.isScrollEnabled = scroll.scrollEnabled
    view.bounces = scroll.bounces
    view.alwaysBounceVertical = scroll.alwaysBounceVertical
    view.alwaysBounceHorizontal = scroll.alwaysBounceHorizontal
    view.isDirectionalLockEnabled = scroll.directionalLockEnabled
    view.isPagingEnabled = scroll.pagingEnabled
    view.decelerationRate = scroll.decelerationRate
    view.delaysContentTouches = scroll.delaysContentTouches
    view.canCancelContentTouches = scroll.canCancelContentTouches
    view.frameRate = frameRate
    // The internal recognizers are named after the view in traces.
    view.panGestureRecognizer.name = "\(id).pan"
    view.contentTouchDelayRecognizer.name = "\(id).contentTouchDelay"
    view.onScroll = { [weak self] view, event in self?.publishScroll(view, event) }
  }

  /// A recognizer of the spec's type with every parameter applied.
  static func makeRecognizer(_ spec: Scene.Recognizer) -> GestureRecognizer {
    func int(_ name: String) -> Int? { spec.parameter(name)?.integer }
    func number(_ name: String) -> Double? { spec.parameter(name)?.number }
    func options(_ name: String) -> [String] { spec.parameter(name)?.options ?? [] }
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
    }
    recognizer.name = spec.id
    recognizer.allowedPressTypes = options("allowedPressTypes").map { PressType($0) }
    recognizer.cancelsTouchesInView = spec.cancelsTouchesInView
    recognizer.delaysTouchesBegan = spec.delaysTouchesBegan
    recognizer.delaysTouchesEnded = spec.delaysTouchesEnded
    return recognizer
  }

  // MARK: Messages

  /// The time messages carry: the frame's while one is delivered, else the clock's.
  var now: Double { frameTime ?? application.clock.now }

  private func takeSeq() -> Int {
    defer { nextSeq += 1 }
    return nextSeq
  }

  private func publishIdle(_ isIdle: Bool, time: Double, swallowed: Bool) {
    sink(
      .idle(
        IdleMessage(
          seq: takeSeq(), isIdle: isIdle, time: time, lastInput: idleMonitor?.lastInput, swallowed: swallowed)))
  }

  private func publishAction(_ recognizer: GestureRecognizer, spec: Scene.Recognizer, viewID: String, windowID: String)
  {
    let values: GestureValues
    switch recognizer {
    case let r as PanGestureRecognizer:
      values = .pan(translation: r.translation(in: nil), velocity: r.velocity(in: nil))
    case let r as PinchGestureRecognizer: values = .pinch(scale: r.scale, velocity: r.velocity)
    case let r as RotationGestureRecognizer: values = .rotation(rotation: r.rotation, velocity: r.velocity)
    case let r as SwipeGestureRecognizer:
      let d = r.recognizedDirection ?? r.direction
      let name =
        d.contains(.right) ? "right" : d.contains(.left) ? "left" : d.contains(.up) ? "up" : "down"
      values = .swipe(direction: name)
    default: values = .none
    }
    let state: GestureRecognizer.State = recognizer.state == .possible ? .ended : recognizer.state
    // A gesture made by presses (allowedPressTypes) has no touch: it is located at its view's centre.
    let press = recognizer.trackedTouches.isEmpty ? recognizer.trackedPresses.first : nil
    var location = recognizer.location(in: nil)
    if press != nil, let view = recognizer.view {
      location = view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil)
    }
    sink(
      .action(
        ActionMessage(
          seq: takeSeq(), action: spec.action, gesture: spec.type, state: state, view: viewID, window: windowID,
          recognizer: spec.id, time: now, location: location,
          numberOfTouches: press == nil ? recognizer.numberOfTouches : 0, values: values,
          press: press?.type.rawValue)))
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
          .controlAction(
            ControlActionMessage(
              seq: self.takeSeq(), action: action, event: name, control: controlTypeName(control), view: viewID,
              window: windowID, time: self.now, value: ControlValue(of: control))))
      }
    }
    return control
  }

  private func publishControl(_ control: Control) {
    sink(
      .control(
        ControlMessage(
          seq: takeSeq(), control: controlTypeName(control), view: control.identifier ?? "",
          window: control.window?.identifier ?? "", time: now, enabled: control.isEnabled,
          highlighted: control.isHighlighted, selected: control.isSelected, value: ControlValue(of: control))))
  }

  private func publishPresses(_ view: TouchDelivery.View, _ phase: PressPhase, _ presses: Set<Press>) {
    let infos = presses.map { p in
      PressesMessage.PressInfo(id: p.id, type: p.type.rawValue, key: p.key, phase: p.phase)
    }
    sink(
      .presses(
        PressesMessage(
          seq: takeSeq(), phase: phase, view: view.identifier ?? "", window: view.window?.identifier ?? "", time: now,
          presses: infos)))
  }

  private func publishScroll(_ view: ScrollView, _ event: ScrollView.ScrollEvent) {
    sink(
      .scroll(
        ScrollMessage(
          seq: takeSeq(), phase: event.phase, view: view.identifier ?? "", window: view.window?.identifier ?? "",
          time: event.time, contentOffset: event.contentOffset, velocity: event.velocity,
          targetContentOffset: event.targetContentOffset, willDecelerate: event.willDecelerate)))
  }

  private func publishTouches(_ view: TouchDelivery.View, _ phase: TouchPhase, _ touches: Set<Touch>) {
    let infos = touches.map { t in
      TouchesMessage.TouchInfo(
        id: t.id.rawValue, view: t.view?.identifier ?? view.window?.identifier ?? "", phase: t.phase,
        x: t.locationInWindow.x, y: t.locationInWindow.y, tapCount: t.tapCount)
    }
    sink(
      .touches(
        TouchesMessage(
          seq: takeSeq(), phase: phase, view: view.identifier ?? "", window: view.window?.identifier ?? "", time: now,
          touches: infos)))
  }
}
