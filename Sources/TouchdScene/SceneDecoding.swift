// Decoding a scene's tree into ``Scene`` once ``SceneValidator`` has passed it: one decoder for a
// file's YAML and a pushed scene's JSON, both walked as ``SceneNode``s, reading scalars with the
// validator's own readers (``SceneNode/finiteNumber``, ``SceneNode/integer``, ``SceneNode/bool``),
// so a value decodes as the validator read it. Each type's keys are its `CodingKeys` (the scene
// schema's tests hold them to ``SceneFormat``). An absent key keeps the default its property is
// declared with (UIKit's, named there: Scene.swift, SceneControls.swift): `x = read ?? x`.
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
    try read(key, "a list of numbers") { $0.items(\.finiteNumber) }
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
  /// A list's items, each read by `read`; nil for another node or when an item does not read.
  func items<T>(_ read: (SceneNode) -> T?) -> [T]? {
    guard case .sequence(let items) = content else { return nil }
    var values: [T] = []
    values.reserveCapacity(items.count)
    for item in items {
      guard let value = read(item) else { return nil }
      values.append(value)
    }
    return values
  }

  /// A list of strings (none of them null).
  var strings: [String]? { items(\.string) }
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
    self.init(after: try m.required(try m.number(CodingKeys.after), CodingKeys.after))
    wake = try m.choice(CodingKeys.wake, Wake.self) ?? wake
  }
}

extension Scene.Window: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init(
      id: try m.required(try m.string(CodingKeys.id), CodingKeys.id),
      size: try m.required(try m.object(CodingKeys.size), CodingKeys.size))
    devices = try m.strings(CodingKeys.devices) ?? devices
    rotation = try m.integer(CodingKeys.rotation) ?? rotation
    calibration = try m.numbers(CodingKeys.calibration) ?? calibration
    grab = try m.bool(CodingKeys.grab) ?? grab
    frameRate = try m.number(CodingKeys.frameRate) ?? frameRate
    views = try m.list(CodingKeys.views) ?? views
    keys = try m.object(CodingKeys.keys)
    firstResponder = try m.string(CodingKeys.firstResponder)
    forward = try m.object(CodingKeys.forward)
    health = try m.object(CodingKeys.health) ?? health
    // true, false or headphones (off until the switch says they are plugged in).
    let voiceOverMode = try m.read(CodingKeys.voiceOver, "true, false or headphones") { node -> String? in
      node.string == "headphones" ? "headphones" : node.bool.map { $0 ? "on" : "off" }
    }
    voiceOverFollowsHeadphones = voiceOverMode == "headphones"
    voiceOver = voiceOverMode == "on"
    speech = try m.object(CodingKeys.speech) ?? speech
    voiceOverActions = try m.object(CodingKeys.voiceOverActions) ?? voiceOverActions
    penRejectsTouches = try m.bool(CodingKeys.penRejectsTouches) ?? penRejectsTouches
    penPairs = try m.list(CodingKeys.penPairs) ?? penPairs
  }
}

extension Scene.Health: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    self.init()
    heatmap = try SceneMapping(node).bool(CodingKeys.heatmap) ?? heatmap
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
      frame: try m.required(try m.object(CodingKeys.frame), CodingKeys.frame))
    recognizers = try m.list(CodingKeys.recognizers) ?? recognizers
    views = try m.list(CodingKeys.views) ?? views
    hidden = try m.bool(CodingKeys.hidden) ?? hidden
    alpha = try m.number(CodingKeys.alpha) ?? alpha
    userInteractionEnabled = try m.bool(CodingKeys.userInteractionEnabled) ?? userInteractionEnabled
    multipleTouchEnabled = try m.bool(CodingKeys.multipleTouchEnabled) ?? multipleTouchEnabled
    exclusiveTouch = try m.bool(CodingKeys.exclusiveTouch) ?? exclusiveTouch
    clipsToBounds = try m.bool(CodingKeys.clipsToBounds) ?? clipsToBounds
    hitOutset = try m.number(CodingKeys.hitOutset) ?? hitOutset
    touches = try m.bool(CodingKeys.touches) ?? touches
    touchTypes = try m.options(CodingKeys.touchTypes)
    signature = try m.object(CodingKeys.signature)
    scroll = try m.object(CodingKeys.scroll)
    control = try m.object(CodingKeys.control)
    presses = try m.bool(CodingKeys.presses) ?? presses
    accessibility = try m.object(CodingKeys.accessibility)
  }
}

extension Scene.Insets: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init()
    top = try m.number(CodingKeys.top) ?? top
    left = try m.number(CodingKeys.left) ?? left
    bottom = try m.number(CodingKeys.bottom) ?? bottom
    right = try m.number(CodingKeys.right) ?? right
  }
}

extension Scene.Scroll: SceneDecodable {
  init(scene node: SceneNode) throws(SceneDecodingError) {
    let m = try SceneMapping(node)
    self.init()
    contentSize = try m.object(CodingKeys.contentSize) ?? contentSize
    contentOffset = try m.object(CodingKeys.contentOffset) ?? contentOffset
    contentInset = try m.object(CodingKeys.contentInset) ?? contentInset
    scrollEnabled = try m.bool(CodingKeys.scrollEnabled) ?? scrollEnabled
    bounces = try m.bool(CodingKeys.bounces) ?? bounces
    alwaysBounceVertical = try m.bool(CodingKeys.alwaysBounceVertical) ?? alwaysBounceVertical
    alwaysBounceHorizontal = try m.bool(CodingKeys.alwaysBounceHorizontal) ?? alwaysBounceHorizontal
    directionalLockEnabled = try m.bool(CodingKeys.directionalLockEnabled) ?? directionalLockEnabled
    pagingEnabled = try m.bool(CodingKeys.pagingEnabled) ?? pagingEnabled
    decelerationRate =
      try m.read(CodingKeys.decelerationRate, "a deceleration rate") { node in
        node.finiteNumber ?? node.string.flatMap { Self.decelerationRates[$0] }
      } ?? decelerationRate
    delaysContentTouches = try m.bool(CodingKeys.delaysContentTouches) ?? delaysContentTouches
    canCancelContentTouches = try m.bool(CodingKeys.canCancelContentTouches) ?? canCancelContentTouches
    minimumZoomScale = try m.number(CodingKeys.minimumZoomScale) ?? minimumZoomScale
    maximumZoomScale = try m.number(CodingKeys.maximumZoomScale) ?? maximumZoomScale
    zoomScale = try m.number(CodingKeys.zoomScale) ?? zoomScale
    bouncesZoom = try m.bool(CodingKeys.bouncesZoom) ?? bouncesZoom
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
    cancelsTouchesInView = try m.bool(CodingKeys.cancelsTouchesInView) ?? cancelsTouchesInView
    // The default (UIScreenEdgePanGestureRecognizer's true, every other's false) is the
    // memberwise initializer's.
    delaysTouchesBegan = try m.bool(CodingKeys.delaysTouchesBegan) ?? delaysTouchesBegan
    delaysTouchesEnded = try m.bool(CodingKeys.delaysTouchesEnded) ?? delaysTouchesEnded
    requireToFail = try m.strings(CodingKeys.requireToFail) ?? requireToFail
    simultaneousWith = try m.strings(CodingKeys.simultaneousWith) ?? simultaneousWith
    zoom = try m.object(CodingKeys.zoom)
    allowedTouchTypes = try m.options(CodingKeys.allowedTouchTypes) ?? allowedTouchTypes
    requiresExclusiveTouchType = try m.bool(CodingKeys.requiresExclusiveTouchType) ?? requiresExclusiveTouchType
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
    self.init(type: type)
    actions = try m.names(CodingKeys.actions) ?? actions
    enabled = try m.bool(CodingKeys.enabled) ?? enabled
    selected = try m.bool(CodingKeys.selected) ?? selected
    on = try m.bool(CodingKeys.on) ?? on
    minimumValue = try m.number(CodingKeys.minimumValue) ?? minimumValue
    maximumValue = try m.number(CodingKeys.maximumValue) ?? maximumValue  // the type's (init(type:))
    // An absent value is UIKit's 0 pinned to minimumValue...maximumValue (UISlider.h: "this value
    // will be pinned to min/max"; UIStepper.h: "clamped to min/max").
    value = try m.number(CodingKeys.value) ?? Swift.min(Swift.max(0, minimumValue), maximumValue)
    continuous = try m.bool(CodingKeys.continuous) ?? continuous
    stepValue = try m.number(CodingKeys.stepValue) ?? stepValue
    autorepeat = try m.bool(CodingKeys.autorepeat) ?? autorepeat
    segments = try m.strings(CodingKeys.segments) ?? segments
    selectedSegmentIndex = try m.integer(CodingKeys.selectedSegmentIndex) ?? selectedSegmentIndex
    numberOfPages = try m.integer(CodingKeys.numberOfPages) ?? numberOfPages
    currentPage = try m.integer(CodingKeys.currentPage) ?? currentPage
    hidesForSinglePage = try m.bool(CodingKeys.hidesForSinglePage) ?? hidesForSinglePage
    allowsContinuousInteraction = try m.bool(CodingKeys.allowsContinuousInteraction) ?? allowsContinuousInteraction
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
