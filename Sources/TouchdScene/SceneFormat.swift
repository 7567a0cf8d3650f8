import TouchdInput

/// The recognizer types a scene can name (`type:`), one per gesture recognizer class.
public enum RecognizerType: String, CaseIterable, Hashable, Sendable, Codable {
  case tap, longPress, pan, swipe, pinch, rotation, screenEdgePan
  /// A hovering pen (UIHoverGestureRecognizer).
  case hover

  /// Whether the gesture is discrete (recognized once, as `ended`) rather than continuous.
  public var isDiscrete: Bool { self == .tap || self == .swipe }
}

/// What a key's value must be. Drives validation, decoding and the JSON Schema alike.
public enum SceneValueKind: Hashable, Sendable {
  case string
  case bool
  /// An integer at least `minimum` (and at most `maximum` when there is one).
  case integer(minimum: Int, maximum: Int? = nil)
  /// A number within the bounds (inclusive; nil is unbounded).
  case number(minimum: Double?, maximum: Double?)
  /// A number greater than zero.
  case positiveNumber
  case stringList
  /// Recognizer ids.
  case idList
  /// An option set: one of the names, or a non-empty list of them.
  case options([String])
  /// The format version: 1.
  case version
  /// 0, 90, 180 or 270.
  case rotation
  /// Six numbers.
  case calibration
  /// A nested object of the given kind.
  case object(SceneObject)
  /// A list of objects of the given kind.
  case list(SceneObject)
  /// Exactly one of the names.
  case choice([String])
  /// `true`, `false` or one of the names.
  case boolOrChoice([String])
  /// One of ``RecognizerType``'s names.
  case recognizerType
  /// A scroll view's deceleration rate: `normal`, `fast` (``Scene/Scroll/decelerationRates``) or a
  /// number per millisecond strictly between 0 and 1.
  case decelerationRate
  /// One of ``Scene/Control/Kind``'s names.
  case controlType
  /// A list of at least one non-empty string (a segmented control's titles).
  case nonEmptyStringList
  /// A mapping from control event names (``SceneFormat/controlEvents``) to action names.
  case controlActions
  /// A mapping from evdev key names (`KEY_ENTER`, ``SceneFormat/keyNames``) to press types.
  case keyMap
  /// Press types (``SceneFormat/isPressType(_:)``): one, or a list of them (possibly empty).
  case pressTypes
  /// The id of a view of the same window.
  case viewID
}

/// The objects of the scene format.
public enum SceneObject: String, CaseIterable, Hashable, Sendable {
  case scene, window, size, view, frame, recognizer
  /// A view's `scroll:` (UIScrollView's properties).
  case scroll
  /// `{x, y}`: a content offset.
  case point
  /// `{top, left, bottom, right}`: content insets.
  case insets
  /// A view's `control:` (UIControl's properties and its subclass's); `type` decides which it takes.
  case control
  /// A window's `keys:`: key devices and the presses their keys make.
  case keys
  /// The scene's `idle:`: when touchd publishes `idle`, and what the waking touch does.
  case idle
  /// A recognizer's `zoom:`: the scroll view it zooms when it recognizes.
  case zoom
  /// A window's `forward:`: the touches no recognizer claims go on to a virtual touchscreen.
  case forward
  /// A window's `health:`: what touchscreen health keeps of it.
  case health
  /// A view's `accessibility:`: what a screen reader makes of it (UIAccessibility's properties).
  case accessibility
  /// A window's `speech:`: how VoiceOver's words reach speech-dispatcher.
  case speech
  /// A window's `voiceOverActions:`: the actions VoiceOver's escape and magic tap publish.
  case voiceOverActions
  /// An entry of a window's `penPairs:`: a pen and the touchscreen of its panel.
  case penPair
  /// A view's `signature:`: the view is a signature pad.
  case signature
}

/// One key of an object of the scene format.
public struct SceneKey: Hashable, Sendable {
  public var name: String
  public var kind: SceneValueKind
  public var isRequired: Bool
  /// What the key means, for the schema and the docs.
  public var summary: String
  /// The value used when the key is absent (nil: none, or required).
  public var defaultValue: JSONValue?

  public init(
    _ name: String, _ kind: SceneValueKind, required: Bool = false, default defaultValue: JSONValue? = nil,
    _ summary: String
  ) {
    self.name = name
    self.kind = kind
    self.isRequired = required
    self.summary = summary
    self.defaultValue = defaultValue
  }
}

/// The scene format's keys: one table that validation, decoding, the JSON Schema and the docs share.
public enum SceneFormat {
  /// The only format version this build reads.
  public static let version = 1

  /// Swipe directions (`direction:`), as UIKit's `UISwipeGestureRecognizer.Direction`.
  public static let swipeDirections = ["right", "left", "up", "down"]
  /// Screen edges (`edges:`), as UIKit's `UIRectEdge`.
  public static let edges = ["top", "left", "bottom", "right", "all"]
  /// The keys of `object`, in documentation order. For a recognizer: only the keys every type has.
  public static func keys(of object: SceneObject) -> [SceneKey] { keysByObject[object] }

  /// The keys an object of a type takes: a recognizer's common keys and its type's parameters
  /// (``parameters(of:)``), a control's common keys and its type's properties
  /// (``properties(of:)``); for another object, or without a type, ``keys(of:)``.
  public static func keys(
    of object: SceneObject, recognizerType: RecognizerType? = nil, controlType: Scene.Control.Kind? = nil
  ) -> [SceneKey] {
    if object == .recognizer, let recognizerType { return recognizerKeysByType[recognizerType] }
    if object == .control, let controlType { return controlKeysByKind[controlType] }
    return keys(of: object)
  }

  /// ``keys(of:)``, ``parameters(of:)``, ``properties(of:)`` and the keys of typed objects are
  /// asked once per object the validator, the decoder and the runtime meet (thousands in a large
  /// scene): each table is built once.
  private static let keysByObject = CaseTable<SceneObject, [SceneKey]>(makeKeys(of:))
  private static let parametersByType = CaseTable<RecognizerType, [SceneKey]>(makeParameters(of:))
  static let propertiesByKind = CaseTable<Scene.Control.Kind, [SceneKey]>(makeProperties(of:))
  private static let recognizerKeysByType = CaseTable<RecognizerType, [SceneKey]> {
    keys(of: .recognizer) + parameters(of: $0)
  }
  private static let controlKeysByKind = CaseTable<Scene.Control.Kind, [SceneKey]> {
    keys(of: .control) + properties(of: $0)
  }

  private static func makeKeys(of object: SceneObject) -> [SceneKey] {
    switch object {
    case .scene:
      [
        SceneKey("version", .version, required: true, "The format version; must be 1."),
        SceneKey("windows", .list(.window), required: true, "One window per screen, front to back."),
        SceneKey(
          "stuckTouchTimeout", .positiveNumber,
          "Seconds without movement after which a touch is cancelled as stuck (a ghost touch); absent: never."),
        SceneKey(
          "idle", .object(.idle),
          "Publishes idle when no touch or press has arrived for a while, and active at the next one; absent: never."),
      ]
    case .idle:
      [
        SceneKey(
          "after", .positiveNumber, required: true,
          "Seconds without a touch or press (and with none held down) after which touchd publishes idle."),
        SceneKey(
          "wake", .choice(Scene.Idle.Wake.allCases.map(\.rawValue)), default: .string("deliver"),
          "What the touch or press that ends the idle state does: deliver (reaches the views) or swallow (it only wakes)."
        ),
      ]
    case .window:
      [
        SceneKey("id", .string, required: true, "The window's name, unique among windows; used in messages."),
        SceneKey(
          "size", .object(.size), required: true, "The window's size in points; the device's axes map onto it."),
        SceneKey(
          "devices", .stringList, default: .array([.string("*")]),
          "Which touchscreens feed the window: globs over the device name, vendor:product in hex (0eef:72a1) or device path."
        ),
        SceneKey(
          "rotation", .rotation, default: .number(0), "Clockwise rotation of the screen in degrees: 0, 90, 180 or 270."),
        SceneKey(
          "calibration", .calibration, default: .array([1, 0, 0, 0, 1, 0].map { .number($0) }),
          "A 2x3 matrix applied to normalized device coordinates, with libinput's LIBINPUT_CALIBRATION_MATRIX meaning."
        ),
        SceneKey("grab", .bool, default: .bool(false), "Whether the daemon grabs the devices (EVIOCGRAB)."),
        SceneKey(
          "frameRate", .positiveNumber, default: .number(60),
          "How often, in Hz, moving scroll views publish their offset: the display's refresh rate."),
        SceneKey(
          "keys", .object(.keys),
          "Key devices (a keypad, gpio-keys buttons) whose keys become presses (UIPress) of this window."),
        SceneKey(
          "firstResponder", .viewID,
          "The id of a view of this window that gets the window's presses first (the first responder; absent: the window)."
        ),
        SceneKey(
          "forward", .object(.forward),
          "Grab the window's touchscreens and forward every touch no recognizer claims to a virtual touchscreen for the compositor (docs/forward.md); absent: off."
        ),
        SceneKey(
          "health", .object(.health),
          "What touchscreen health keeps of the window (docs/operations.md, \"Touchscreen health\"); absent: everything."
        ),
        SceneKey(
          "voiceOver", .boolOrChoice(["headphones"]), default: .bool(false),
          "VoiceOver: touches explore, activate and step through the accessibility elements instead of reaching the views (docs/accessibility.md); headphones: on while headphones are plugged into the jack whose switch the window's keys.devices name."
        ),
        SceneKey(
          "speech", .object(.speech),
          "How VoiceOver's words are spoken, through speech-dispatcher (docs/accessibility.md, \"Speech\"); absent: English, on, the system instance."
        ),
        SceneKey(
          "voiceOverActions", .object(.voiceOverActions),
          "Action names published for VoiceOver's escape (two-finger scrub, menu key) and magic tap (two-finger double tap)."
        ),
        SceneKey(
          "penRejectsTouches", .bool, default: .bool(true),
          "While a pen is near its panel, and for 90 ms after (libinput's), the panel's touches are ignored and those down are cancelled: a hand resting on the glass presses nothing (docs/pens.md)."
        ),
        SceneKey(
          "penPairs", .list(.penPair), default: .array([]),
          "Pens and the touchscreens of their panels, where neither the udev device group nor equal ids pair them."),
        SceneKey("views", .list(.view), default: .array([]), "The window's subviews, back to front."),
      ]
    case .accessibility, .speech, .voiceOverActions: accessibilityKeys(of: object)
    case .penPair: penPairKeys
    case .signature: signatureKeys
    case .health:
      [
        SceneKey(
          "heatmap", .bool, default: .bool(true),
          "Keep the window's touch-down grid, and with it its dead cells and near misses; false for a PIN pad.")
      ]
    case .forward:
      [
        SceneKey(
          "name", .string,
          "The virtual touchscreen's name; absent: the physical device's name followed by \" (touchd)\".")
      ]
    case .size:
      [
        SceneKey("width", .number(minimum: 0, maximum: nil), required: true, "Width in points."),
        SceneKey("height", .number(minimum: 0, maximum: nil), required: true, "Height in points."),
      ]
    case .frame:
      [
        SceneKey("x", .number(minimum: nil, maximum: nil), required: true, "Left edge in the superview's points."),
        SceneKey("y", .number(minimum: nil, maximum: nil), required: true, "Top edge in the superview's points."),
        SceneKey("width", .number(minimum: 0, maximum: nil), required: true, "Width in points."),
        SceneKey("height", .number(minimum: 0, maximum: nil), required: true, "Height in points."),
      ]
    case .view:
      [
        SceneKey("id", .string, required: true, "The view's name, unique among the scene's views; used in messages."),
        SceneKey("frame", .object(.frame), required: true, "The frame in the superview's coordinates."),
        SceneKey("hidden", .bool, default: .bool(false), "A hidden view and its subviews get no touches (isHidden)."),
        SceneKey(
          "alpha", .number(minimum: 0, maximum: 1), default: .number(1),
          "Opacity; at 0.01 or below the view and its subviews get no touches."),
        SceneKey(
          "userInteractionEnabled", .bool, default: .bool(true),
          "When false the view and its subviews get no touches (isUserInteractionEnabled)."),
        SceneKey(
          "multipleTouchEnabled", .bool, default: .bool(false),
          "When false the view gets only the first of several simultaneous touches (isMultipleTouchEnabled)."),
        SceneKey(
          "exclusiveTouch", .bool, default: .bool(false),
          "While the view has touches no other view gets new ones (isExclusiveTouch)."),
        SceneKey(
          "clipsToBounds", .bool, default: .bool(false),
          "Subviews are hit only inside this view's bounds (a scroll view always clips, as UIKit's does)."),
        SceneKey(
          "hitOutset", .number(minimum: 0, maximum: nil), default: .number(0),
          "Enlarges the touch area by this many points on every side."),
        SceneKey(
          "touches", .bool, default: .bool(false),
          "When true the view handles the touches methods and publishes touches messages."),
        SceneKey(
          "touchTypes", .options(touchTypes),
          "The touch types hit-testing finds the view for: pencil makes a view of pens only, which fingers pass through; absent: every type."
        ),
        SceneKey(
          "signature", .object(.signature),
          "Makes the view a signature pad: its touches are strokes captured at every kernel frame, published as stroke messages, never its superviews' recognizers' (docs/pens.md); absent: a plain view."
        ),
        SceneKey(
          "presses", .bool, default: .bool(false),
          "When true the view handles the presses methods itself (pressesBegan(_:with:), …) and publishes presses messages."
        ),
        SceneKey("recognizers", .list(.recognizer), default: .array([]), "Gesture recognizers attached to the view."),
        SceneKey(
          "scroll", .object(.scroll),
          "Makes the view a scroll view (UIScrollView): its subviews are the content, in content coordinates."),
        SceneKey(
          "control", .object(.control),
          "Makes the view a control (UIControl) of `type`: button, switch, slider, stepper or segmented; it handles its own touches."
        ),
        SceneKey(
          "accessibility", .object(.accessibility),
          "What a screen reader makes of the view: its label, hint, value and traits (UIAccessibility); absent: UIKit's defaults."
        ),
        SceneKey(
          "views", .list(.view), default: .array([]),
          "Subviews, back to front; a scroll view's are its content, framed in content coordinates."),
      ]
    case .scroll:
      [
        SceneKey(
          "contentSize", .object(.size), default: .object([("width", .number(0)), ("height", .number(0))]),
          "The size of the content in points (contentSize)."),
        SceneKey(
          "contentOffset", .object(.point), default: .object([("x", .number(0)), ("y", .number(0))]),
          "The content point at the view's top-left corner at start (contentOffset; the bounds origin)."),
        SceneKey(
          "contentInset", .object(.insets),
          default: .object(["top", "left", "bottom", "right"].map { ($0, .number(0)) }),
          "Extra scrollable space around the content, in points (contentInset; each edge defaults to 0)."),
        SceneKey(
          "scrollEnabled", .bool, default: .bool(true),
          "When false the view neither scrolls nor delays content touches (isScrollEnabled)."),
        SceneKey(
          "bounces", .bool, default: .bool(true),
          "Content may be dragged past its edges and springs back; false stops it at the edges."),
        SceneKey(
          "alwaysBounceVertical", .bool, default: .bool(false),
          "Drags bounce vertically even when the content is not taller than the view."),
        SceneKey(
          "alwaysBounceHorizontal", .bool, default: .bool(false),
          "Drags bounce horizontally even when the content is not wider than the view."),
        SceneKey(
          "directionalLockEnabled", .bool, default: .bool(false),
          "A drag that starts along one axis scrolls only along it (isDirectionalLockEnabled)."),
        SceneKey(
          "pagingEnabled", .bool, default: .bool(false),
          "The content comes to rest on multiples of the view's size, one page per fling (isPagingEnabled)."),
        SceneKey(
          "decelerationRate", .decelerationRate, default: .string("normal"),
          "The fraction of its velocity the content keeps per millisecond after a fling: normal (0.998), fast (0.99) or a number between 0 and 1."
        ),
        SceneKey(
          "delaysContentTouches", .bool, default: .bool(true),
          "Content gets a touch-down only once the view knows the touch does not scroll (150 ms, a lift or a failed drag)."
        ),
        SceneKey(
          "canCancelContentTouches", .bool, default: .bool(true),
          "A drag that begins after content has the touch takes it from the content (touchesCancelled) and scrolls."),
        SceneKey(
          "minimumZoomScale", .positiveNumber, default: .number(1),
          "The smallest scale the zoom view takes (minimumZoomScale; UIScrollView.h: default 1)."),
        SceneKey(
          "maximumZoomScale", .positiveNumber, default: .number(1),
          "The largest scale the zoom view takes, at least minimumZoomScale; above it two fingers zoom (maximumZoomScale; UIScrollView.h: default 1, no zooming)."
        ),
        SceneKey(
          "zoomScale", .positiveNumber, default: .number(1),
          "The zoom view's scale at start, within minimumZoomScale...maximumZoomScale (zoomScale)."),
        SceneKey(
          "bouncesZoom", .bool, default: .bool(true),
          "A pinch may take the scale past its limits, rubber-banded, and it springs back at the lift (bouncesZoom; UIScrollView.h: default YES)."
        ),
        SceneKey(
          "zoomView", .string,
          "The id of the one subview that zooms (viewForZooming(in:)); absent: the view does not zoom."),
      ]
    case .zoom:
      [
        SceneKey(
          "view", .string, required: true,
          "The id of the scroll view to zoom: one with a zoomView and maximumZoomScale above minimumZoomScale."),
        SceneKey(
          "scale", .positiveNumber,
          "The scale to zoom in to, around the gesture's location; absent: the scroll view's maximumZoomScale. When the view is zoomed in (above its minimum) it zooms back to its minimum."
        ),
      ]
    case .point:
      [
        SceneKey("x", .number(minimum: nil, maximum: nil), required: true, "Horizontal, in points."),
        SceneKey("y", .number(minimum: nil, maximum: nil), required: true, "Vertical, in points."),
      ]
    case .insets:
      [
        SceneKey(
          "top", .number(minimum: nil, maximum: nil), default: .number(0), "Inset from the top edge, in points."),
        SceneKey(
          "left", .number(minimum: nil, maximum: nil), default: .number(0), "Inset from the left edge, in points."),
        SceneKey(
          "bottom", .number(minimum: nil, maximum: nil), default: .number(0), "Inset from the bottom edge, in points."),
        SceneKey(
          "right", .number(minimum: nil, maximum: nil), default: .number(0), "Inset from the right edge, in points."),
      ]
    case .control:
      [
        SceneKey(
          "type", .controlType, required: true,
          "The control class: button (UIButton), switch (UISwitch), slider (UISlider), stepper (UIStepper), segmented (UISegmentedControl) or pageControl (UIPageControl)."
        ),
        SceneKey(
          "enabled", .bool, default: .bool(true),
          "When false the control ignores touches (isEnabled; UIControl.h: default YES)."),
        SceneKey(
          "selected", .bool, default: .bool(false),
          "The control's selected state, for the app to draw (isSelected; UIControl.h: default NO)."),
        SceneKey(
          "actions", .controlActions, default: .object([]),
          "Control event name (touchUpInside, valueChanged, …) → the action published when the control sends that event (addTarget(_:action:for:))."
        ),
      ]
    case .keys:
      [
        SceneKey(
          "devices", .stringList, required: true,
          "Which key devices feed the window: globs over the device name, vendor:product in hex or device path, as the window's devices."
        ),
        SceneKey(
          "map", .keyMap, default: .object([]),
          "evdev key name (KEY_ENTER, BTN_0) → press type (UIPress.PressType's select, menu, … or a name of your own); other keys make no press."
        ),
      ]
    case .recognizer:
      [
        SceneKey("id", .string, required: true, "The recognizer's name, unique among the scene's recognizers."),
        SceneKey("type", .recognizerType, required: true, "The kind of gesture."),
        SceneKey("action", .string, required: true, "The action name published when the recognizer fires."),
        SceneKey(
          "cancelsTouchesInView", .bool, default: .bool(true),
          "When recognized, the view's touches are cancelled."),
        SceneKey(
          "delaysTouchesBegan", .bool, default: .bool(false),
          "Touches reach the view only once this recognizer has failed (default false; true for screenEdgePan, as UIKit)."
        ),
        SceneKey(
          "delaysTouchesEnded", .bool, default: .bool(true),
          "Touch ends reach the view only once this recognizer has failed or recognized."),
        SceneKey(
          "requireToFail", .idList, default: .array([]),
          "Recognizer ids that must fail before this one can recognize (require(toFail:))."),
        SceneKey(
          "simultaneousWith", .idList, default: .array([]),
          "Recognizer ids this one may recognize at the same time as (either side listing the other suffices)."),
        SceneKey(
          "zoom", .object(.zoom),
          "When the recognizer recognizes, a scroll view zooms in around the gesture's location, or back out when zoomed in (a photo viewer's double tap); absent: none."
        ),
        SceneKey(
          "allowedTouchTypes", .options(touchTypes), default: .array(touchTypes.map { .string($0) }),
          "The touch types the recognizer receives (allowedTouchTypes): direct (fingers), pencil (pens); one or a list."
        ),
        SceneKey(
          "requiresExclusiveTouchType", .bool, default: .bool(true),
          "Once the recognizer has a touch of one type it ignores touches of other types until it resets (requiresExclusiveTouchType)."
        ),
      ]
    }
  }

  /// The type-specific parameters of a recognizer type: UIKit's names, plus the thresholds the
  /// recognizers expose as properties of the same name (defaults: `GestureConstants`).
  public static func parameters(of type: RecognizerType) -> [SceneKey] { parametersByType[type] }

  private static func makeParameters(of type: RecognizerType) -> [SceneKey] {
    let touchesRequired = SceneKey(
      "numberOfTouchesRequired", .integer(minimum: 1), default: .number(1), "Fingers needed for the gesture.")
    let minimumTouches = SceneKey(
      "minimumNumberOfTouches", .integer(minimum: 1), default: .number(1), "The fewest fingers that can pan.")
    let maximumTouches = SceneKey(
      "maximumNumberOfTouches", .integer(minimum: 1), "The most fingers that can pan (default: unlimited).")
    let startDistance = SceneKey(
      "startDistance", .number(minimum: 0, maximum: nil), default: .number(10),
      "How far, in points, the fingers must move before the gesture begins.")
    let maximumTapDuration = SceneKey(
      "maximumTapDuration", .positiveNumber, default: .number(0.75),
      "The longest a finger may stay down for one tap, in seconds.")
    let maximumInterval = SceneKey(
      "maximumIntervalBetweenTaps", .positiveNumber, default: .number(0.35),
      "The longest pause between the taps of a multi-tap, in seconds.")
    let allowableMovement = SceneKey(
      "allowableMovement", .number(minimum: 0, maximum: nil), default: .number(10),
      "How far a finger may move, in points, before the gesture fails.")
    let allowedPressTypes = SceneKey(
      "allowedPressTypes", .pressTypes, default: .array([]),
      "Press types the recognizer also recognizes (allowedPressTypes): one or a list; default none, so it recognizes only touches."
    )
    switch type {
    case .tap:
      return [
        SceneKey("numberOfTapsRequired", .integer(minimum: 1), default: .number(1), "Taps needed for the gesture."),
        touchesRequired,
        SceneKey(
          "allowableMovement", .number(minimum: 0, maximum: nil), default: .number(45),
          "How far, in points, the touches' centroid may move from the first tap's before the tap fails."),
        maximumTapDuration, maximumInterval,
        SceneKey(
          "allowableTouchTimeSeparation", .positiveNumber, default: .number(0.25),
          "The longest time, in seconds, from a multi-finger tap's first touch-down to its last."),
        allowedPressTypes,
      ]
    case .longPress:
      return [
        SceneKey(
          "minimumPressDuration", .number(minimum: 0, maximum: nil), default: .number(0.5),
          "How long the fingers must stay down, in seconds."),
        allowableMovement, touchesRequired,
        SceneKey(
          "numberOfTapsRequired", .integer(minimum: 0), default: .number(0),
          "Taps before the press (0: the press itself)."),
        maximumTapDuration, maximumInterval, allowedPressTypes,
      ]
    case .pan:
      return [minimumTouches, maximumTouches, startDistance]
    case .swipe:
      return [
        SceneKey(
          "direction", .options(swipeDirections), default: .string("right"),
          "The permitted directions: one name or a list."),
        touchesRequired,
        SceneKey(
          "minimumPrimaryMovement", .positiveNumber, default: .number(50),
          "How far, in points, each finger must move along the direction at touch-down (decays with time)."),
        SceneKey(
          "maximumSecondaryMovement", .number(minimum: 0, maximum: nil), default: .number(50),
          "How far, in points, a finger may move sideways at touch-down (decays with time)."),
        SceneKey(
          "rateOfMinimumMovementDecay", .number(minimum: 0, maximum: nil), default: .number(0.94),
          "The fraction per second the needed movement shrinks: minimumPrimaryMovement * (1 - rate * t)."),
        SceneKey(
          "rateOfMaximumMovementDecay", .number(minimum: 0, maximum: nil), default: .number(0.98),
          "The fraction per second the sideways allowance shrinks: maximumSecondaryMovement * (1 - rate * t)."),
        SceneKey(
          "maximumDuration", .positiveNumber, default: .number(0.5),
          "The longest the swipe may take from the first touch-down, in seconds."),
      ]
    case .pinch:
      return [
        SceneKey(
          "startDistance", .number(minimum: 0, maximum: nil), default: .number(8),
          "How far, in points, the distance between the two fingers must change before the pinch begins.")
      ]
    case .rotation:
      return [
        SceneKey(
          "startDistance", .number(minimum: 0, maximum: nil), default: .number(10),
          "How far, in points along the arc, each finger must turn before the rotation begins.")
      ]
    case .screenEdgePan:
      return [
        SceneKey(
          "edges", .options(edges), required: true, "The screen edges the pan may start from: one name or a list."),
        minimumTouches,
        SceneKey(
          "maximumNumberOfTouches", .integer(minimum: 1), default: .number(1),
          "The most fingers that can pan (UIKit's screen-edge default: 1)."),
        SceneKey(
          "startDistance", .number(minimum: 0, maximum: nil), default: .number(15),
          "How far, in points along either axis, the finger must move before the gesture begins."),
        SceneKey(
          "edgeZoneWidth", .positiveNumber, default: .number(20),
          "The width, in points, of the band along the edge in which the pan must start."),
      ]
    case .hover:
      // UIHoverGestureRecognizer has no parameters of its own.
      return []
    }
  }

  /// The press types touchd makes: UIKit's (`UIPress.PressType`'s case names), then a pen's barrel
  /// buttons' (touchd's `pencilBarrel`, `pencilBarrel2`, `pencilBarrel3`: docs/pens.md). A scene
  /// may also name its own.
  public static let pressTypes = [
    "select", "menu", "playPause", "upArrow", "downArrow", "leftArrow", "rightArrow", "pageUp", "pageDown",
    "pencilBarrel", "pencilBarrel2", "pencilBarrel3",
  ]

  /// The pattern a press type of the scene's own must match: a letter, then letters, digits, `_` or `-`.
  public static let pressTypePattern = "^[A-Za-z][A-Za-z0-9_-]*$"

  /// Whether `name` is a press type: one of ``pressTypes`` or a name matching ``pressTypePattern``.
  public static func isPressType(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, isASCIILetter(first) else { return false }
    return name.unicodeScalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
  }

  private static func isASCIILetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

  /// The evdev key and button names a `keys:` map may name (``EventNames/keyCodeNames`` without the
  /// pointer and touch codes, which are never presses).
  public static let keyNames: [String] = EventNames.keyCodeNames.filter { name in
    EventNames.keyCode(named: name).map { !EventNames.isPointerCode($0) } ?? false
  }

  /// Every parameter name of any recognizer type.
  public static var allParameterNames: [String] {
    var seen = Set<String>()
    return RecognizerType.allCases.flatMap { parameters(of: $0).map(\.name) }.filter { seen.insert($0).inserted }
  }
}
