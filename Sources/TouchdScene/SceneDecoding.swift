// Decoding a scene's tree into ``Scene`` once ``SceneValidator`` has passed it: one decoder for a
// file's YAML and a pushed scene's JSON, both walked as ``SceneNode``s, reading scalars with the
// validator's own readers (``SceneNode/finiteNumber``, ``SceneNode/integer``, ``SceneNode/bool``),
// so a value decodes as the validator read it. Each type's keys are its `CodingKeys` (the scene
// schema's tests hold them to ``SceneFormat``); defaults are UIKit's, named where each type is
// declared (Scene.swift, SceneControls.swift).
//
// It replaced `Decodable` through Yams' `YAMLDecoder` and the protocol's `StrictJSONDecoder`: their
// keyed containers cost a push of 10,000 rows about 75 ms of its 260 (docs/performance.md, "The
// push without Codable").

/// A value the validator passed and the decoder cannot read: a defect of the validator, reported
/// at its place instead of trapping.
struct SceneDecodingError: Error {
  var place: SceneNode.Place
  var message: String
}

/// A scene type read from its node of a validated tree.
protocol SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError)
}

/// One mapping of the tree (an object of the scene format), its values found by their keys'
/// names as the validator finds them.
struct SceneMapping {
  let pairs: [SceneNode.Pair]
  let place: SceneNode.Place

  init(_ node: SceneNode) throws(SceneDecodingError) {
    guard case .mapping(let pairs) = node.content else {
      throw SceneDecodingError(place: node.place, message: "expected a mapping")
    }
    self.pairs = pairs
    place = node.place
  }

  /// The value of `key`, nil when the mapping has none.
  func value(_ key: some CodingKey) -> SceneNode? { pairs.value(of: key.stringValue) }

  /// The value of `key` read by `read`; nil when absent, an error when `read` cannot.
  func read<T>(_ key: some CodingKey, _ what: String, _ read: (SceneNode) -> T?) throws(SceneDecodingError) -> T? {
    guard let node = value(key) else { return nil }
    guard let result = read(node) else {
      throw SceneDecodingError(place: node.place, message: "'\(key.stringValue)' is not \(what)")
    }
    return result
  }

  /// The value of a required key.
  func required<T>(_ value: T?, _ key: some CodingKey) throws(SceneDecodingError) -> T {
    guard let value else { throw SceneDecodingError(place: place, message: "missing key '\(key.stringValue)'") }
    return value
  }

  func string(_ key: some CodingKey) throws(SceneDecodingError) -> String? { try read(key, "a string") { $0.string } }
  func bool(_ key: some CodingKey) throws(SceneDecodingError) -> Bool? { try read(key, "true or false") { $0.bool } }
  func number(_ key: some CodingKey) throws(SceneDecodingError) -> Double? {
    try read(key, "a number") { $0.finiteNumber }
  }
  func integer(_ key: some CodingKey) throws(SceneDecodingError) -> Int? {
    try read(key, "an integer") { $0.integer }
  }
  func strings(_ key: some CodingKey) throws(SceneDecodingError) -> [String]? {
    try read(key, "a list of strings") { $0.strings }
  }
  func numbers(_ key: some CodingKey) throws(SceneDecodingError) -> [Double]? {
    try read(key, "a list of numbers") { node in
      guard case .sequence(let items) = node.content else { return nil }
      var numbers: [Double] = []
      numbers.reserveCapacity(items.count)
      for item in items {
        guard let n = item.finiteNumber else { return nil }
        numbers.append(n)
      }
      return numbers
    }
  }
  /// A mapping of names to strings (a control's `actions`, a window's `keys.map`).
  func names(_ key: some CodingKey) throws(SceneDecodingError) -> [String: String]? {
    try read(key, "a mapping of names to strings") { node in
      guard case .mapping(let pairs) = node.content else { return nil }
      var names: [String: String] = [:]
      for pair in pairs {
        guard pair.keyIsName, let value = pair.value.string else { return nil }
        names[pair.name] = value
      }
      return names
    }
  }
  /// One of an enumeration's names.
  func choice<T: RawRepresentable<String>>(_ key: some CodingKey, _ type: T.Type) throws(SceneDecodingError) -> T? {
    try read(key, "one of \(T.self)'s names") { $0.string.flatMap(T.init(rawValue:)) }
  }
  /// One name or a list of them (an option set, press types).
  func options(_ key: some CodingKey) throws(SceneDecodingError) -> [String]? {
    try read(key, "a name or a list of names") { node in node.string.map { [$0] } ?? node.strings }
  }

  func object<T: SceneDecodable>(_ key: some CodingKey, _ type: T.Type = T.self) throws(SceneDecodingError) -> T? {
    guard let node = value(key) else { return nil }
    return try T(scene: node)
  }

  func list<T: SceneDecodable>(_ key: some CodingKey, _ type: T.Type = T.self) throws(SceneDecodingError) -> [T]? {
    guard let node = value(key) else { return nil }
    guard case .sequence(let items) = node.content else {
      throw SceneDecodingError(place: node.place, message: "'\(key.stringValue)' is not a list")
    }
    var list: [T] = []
    list.reserveCapacity(items.count)
    for item in items { list.append(try T(scene: item)) }
    return list
  }
}

extension SceneNode {
  /// A list of strings (none of them null).
  var strings: [String]? {
    guard case .sequence(let items) = content else { return nil }
    var strings: [String] = []
    strings.reserveCapacity(items.count)
    for item in items {
      guard let s = item.string else { return nil }
      strings.append(s)
    }
    return strings
  }
}

// MARK: The scene's types

extension Scene: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      version: try m.required(try m.integer(CodingKeys.version), CodingKeys.version),
      windows: try m.required(try m.list(CodingKeys.windows), CodingKeys.windows))
    stuckTouchTimeout = try m.number(CodingKeys.stuckTouchTimeout)
    idle = try m.object(CodingKeys.idle)
  }

  /// The scene of a validated tree; a value the validator let through and the decoder cannot read
  /// is an error at its place in `file`.
  static func decoded(from tree: SceneNode, file: String) throws(SceneError) -> Scene {
    do {
      return try Scene(scene: tree)
    } catch {
      throw SceneError(diagnostics: [
        SceneDiagnostic(
          file: file, line: error.place.line, column: error.place.column,
          message: "cannot decode the scene: \(error.message)")
      ])
    }
  }
}

extension Scene.Idle: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      after: try m.required(try m.number(CodingKeys.after), CodingKeys.after),
      wake: try m.choice(CodingKeys.wake, Wake.self) ?? .deliver)
  }
}

extension Scene.Window: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      id: try m.required(try m.string(CodingKeys.id), CodingKeys.id),
      size: try m.required(try m.object(CodingKeys.size), CodingKeys.size),
      devices: try m.strings(CodingKeys.devices) ?? ["*"],
      rotation: try m.integer(CodingKeys.rotation) ?? 0,
      calibration: try m.numbers(CodingKeys.calibration) ?? [1, 0, 0, 0, 1, 0],
      grab: try m.bool(CodingKeys.grab) ?? false,
      frameRate: try m.number(CodingKeys.frameRate) ?? 60,
      views: try m.list(CodingKeys.views) ?? [])
    keys = try m.object(CodingKeys.keys)
    firstResponder = try m.string(CodingKeys.firstResponder)
    forward = try m.object(CodingKeys.forward)
    health = try m.object(CodingKeys.health) ?? Scene.Health()
  }
}

extension Scene.Health: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    self.init(heatmap: try SceneMapping(node).bool(CodingKeys.heatmap) ?? true)
  }
}

extension Scene.Forward: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    self.init(name: try SceneMapping(node).string(CodingKeys.name))
  }
}

extension Scene.View: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      id: try m.required(try m.string(CodingKeys.id), CodingKeys.id),
      frame: try m.required(try m.object(CodingKeys.frame), CodingKeys.frame),
      recognizers: try m.list(CodingKeys.recognizers) ?? [],
      views: try m.list(CodingKeys.views) ?? [])
    hidden = try m.bool(CodingKeys.hidden) ?? false
    alpha = try m.number(CodingKeys.alpha) ?? 1
    userInteractionEnabled = try m.bool(CodingKeys.userInteractionEnabled) ?? true
    multipleTouchEnabled = try m.bool(CodingKeys.multipleTouchEnabled) ?? false
    exclusiveTouch = try m.bool(CodingKeys.exclusiveTouch) ?? false
    clipsToBounds = try m.bool(CodingKeys.clipsToBounds) ?? false
    hitOutset = try m.number(CodingKeys.hitOutset) ?? 0
    touches = try m.bool(CodingKeys.touches) ?? false
    scroll = try m.object(CodingKeys.scroll)
    control = try m.object(CodingKeys.control)
    presses = try m.bool(CodingKeys.presses) ?? false
  }
}

extension Scene.Insets: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      top: try m.number(CodingKeys.top) ?? 0, left: try m.number(CodingKeys.left) ?? 0,
      bottom: try m.number(CodingKeys.bottom) ?? 0, right: try m.number(CodingKeys.right) ?? 0)
  }
}

extension Scene.Scroll: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(contentSize: try m.object(CodingKeys.contentSize) ?? Scene.Size(width: 0, height: 0))
    contentOffset = try m.object(CodingKeys.contentOffset) ?? Scene.Point(x: 0, y: 0)
    contentInset = try m.object(CodingKeys.contentInset) ?? Scene.Insets()
    scrollEnabled = try m.bool(CodingKeys.scrollEnabled) ?? true
    bounces = try m.bool(CodingKeys.bounces) ?? true
    alwaysBounceVertical = try m.bool(CodingKeys.alwaysBounceVertical) ?? false
    alwaysBounceHorizontal = try m.bool(CodingKeys.alwaysBounceHorizontal) ?? false
    directionalLockEnabled = try m.bool(CodingKeys.directionalLockEnabled) ?? false
    pagingEnabled = try m.bool(CodingKeys.pagingEnabled) ?? false
    decelerationRate =
      try m.read(CodingKeys.decelerationRate, "a deceleration rate") { node in
        node.finiteNumber ?? node.string.flatMap { Self.decelerationRates[$0] }
      } ?? Self.decelerationRates["normal"]!
    delaysContentTouches = try m.bool(CodingKeys.delaysContentTouches) ?? true
    canCancelContentTouches = try m.bool(CodingKeys.canCancelContentTouches) ?? true
    minimumZoomScale = try m.number(CodingKeys.minimumZoomScale) ?? 1
    maximumZoomScale = try m.number(CodingKeys.maximumZoomScale) ?? 1
    zoomScale = try m.number(CodingKeys.zoomScale) ?? 1
    bouncesZoom = try m.bool(CodingKeys.bouncesZoom) ?? true
    zoomView = try m.string(CodingKeys.zoomView)
  }
}

extension Scene.Recognizer: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    let type = try m.required(try m.choice(CodingKeys.type, RecognizerType.self), CodingKeys.type)
    self.init(
      id: try m.required(try m.string(CodingKeys.id), CodingKeys.id), type: type,
      action: try m.required(try m.string(CodingKeys.action), CodingKeys.action))
    cancelsTouchesInView = try m.bool(CodingKeys.cancelsTouchesInView) ?? true
    // The default (UIScreenEdgePanGestureRecognizer's true, every other's false) is the
    // memberwise initializer's.
    delaysTouchesBegan = try m.bool(CodingKeys.delaysTouchesBegan) ?? delaysTouchesBegan
    delaysTouchesEnded = try m.bool(CodingKeys.delaysTouchesEnded) ?? true
    requireToFail = try m.strings(CodingKeys.requireToFail) ?? []
    simultaneousWith = try m.strings(CodingKeys.simultaneousWith) ?? []
    zoom = try m.object(CodingKeys.zoom)
    for spec in SceneFormat.parameters(of: type) {
      let key = ParameterKey(spec.name)
      switch spec.kind {
      case .integer: if let i = try m.integer(key) { parameters[spec.name] = .integer(i) }
      case .options, .pressTypes: if let names = try m.options(key) { parameters[spec.name] = .options(names) }
      default: if let n = try m.number(key) { parameters[spec.name] = .number(n) }
      }
    }
  }
}

extension Scene.Zoom: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      view: try m.required(try m.string(CodingKeys.view), CodingKeys.view), scale: try m.number(CodingKeys.scale))
  }
}

extension Scene.Control: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    let type = try m.required(try m.choice(CodingKeys.type, Kind.self), CodingKeys.type)
    self.init(type: type, actions: try m.names(CodingKeys.actions) ?? [:])
    enabled = try m.bool(CodingKeys.enabled) ?? true
    selected = try m.bool(CodingKeys.selected) ?? false
    on = try m.bool(CodingKeys.on) ?? false
    minimumValue = try m.number(CodingKeys.minimumValue) ?? 0
    maximumValue = try m.number(CodingKeys.maximumValue) ?? Self.defaultMaximum(for: type)
    // An absent value is UIKit's 0 pinned to minimumValue...maximumValue (UISlider.h: "this value
    // will be pinned to min/max"; UIStepper.h: "clamped to min/max").
    value = try m.number(CodingKeys.value) ?? Swift.min(Swift.max(0, minimumValue), maximumValue)
    continuous = try m.bool(CodingKeys.continuous) ?? true
    stepValue = try m.number(CodingKeys.stepValue) ?? 1
    autorepeat = try m.bool(CodingKeys.autorepeat) ?? true
    segments = try m.strings(CodingKeys.segments) ?? []
    selectedSegmentIndex = try m.integer(CodingKeys.selectedSegmentIndex) ?? -1
    numberOfPages = try m.integer(CodingKeys.numberOfPages) ?? 0
    currentPage = try m.integer(CodingKeys.currentPage) ?? 0
    hidesForSinglePage = try m.bool(CodingKeys.hidesForSinglePage) ?? false
    allowsContinuousInteraction = try m.bool(CodingKeys.allowsContinuousInteraction) ?? true
    pages = try m.string(CodingKeys.pages)
  }
}

extension Scene.Keys: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      devices: try m.required(try m.strings(CodingKeys.devices), CodingKeys.devices),
      map: try m.names(CodingKeys.map) ?? [:])
  }
}

// MARK: The protocol's geometry

extension WirePoint: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      x: try m.required(try m.number(CodingKeys.x), CodingKeys.x),
      y: try m.required(try m.number(CodingKeys.y), CodingKeys.y))
  }
}

extension WireSize: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      width: try m.required(try m.number(CodingKeys.width), CodingKeys.width),
      height: try m.required(try m.number(CodingKeys.height), CodingKeys.height))
  }
}

extension WireRect: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      x: try m.required(try m.number(CodingKeys.x), CodingKeys.x),
      y: try m.required(try m.number(CodingKeys.y), CodingKeys.y),
      width: try m.required(try m.number(CodingKeys.width), CodingKeys.width),
      height: try m.required(try m.number(CodingKeys.height), CodingKeys.height))
  }
}
