/// A scene file: the windows, views and gesture recognizers touchd builds, with defaults resolved.
///
/// Read one with ``Scene/parse(_:file:)`` or ``Scene/load(path:)``, which validate the whole file first.
public struct Scene: Hashable, Sendable {
  public var version: Int
  /// Front to back.
  public var windows: [Window]
  /// Seconds without movement after which a touch is cancelled as stuck (a ghost touch); nil: never
  /// (`Application.stuckTouchTimeout`).
  public var stuckTouchTimeout: Double?
  /// When touchd publishes `idle` and `active`; nil: never (``IdleMonitor``).
  public var idle: Idle?

  enum CodingKeys: String, CodingKey, CaseIterable { case version, windows, stuckTouchTimeout, idle }

  /// The scene's `idle:`: after how long without input touchd publishes `idle`, and what the input
  /// that wakes it does.
  public struct Idle: Hashable, Sendable {
    /// Seconds without a touch or press, and with none held down.
    public var after: Double
    public var wake: Wake

    /// What the touch or press that ends the idle state does.
    public enum Wake: String, CaseIterable, Hashable, Sendable {
      /// It reaches the views as any other.
      case deliver
      /// It only wakes: no view, recognizer or control sees it, from its beginning to its end.
      case swallow
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case after, wake }

    public init(after: Double, wake: Wake = .deliver) {
      self.after = after
      self.wake = wake
    }
  }

  public init(version: Int = SceneFormat.version, windows: [Window]) {
    self.version = version
    self.windows = windows
  }

  /// A size in points (the protocol's type: the same JSON in scenes and commands).
  public typealias Size = WireSize

  /// A frame in the superview's points (the protocol's rectangle).
  public typealias Frame = WireRect

  /// One screen's window.
  public struct Window: Hashable, Sendable {
    public var id: String
    public var size: Size
    /// Globs over device name, `vendor:product` (hex) or path; `*` matches every device.
    public var devices: [String]
    /// 0, 90, 180 or 270 degrees clockwise.
    public var rotation: Int
    /// A 2x3 row-major matrix on normalized device coordinates (libinput's meaning).
    public var calibration: [Double]
    public var grab: Bool
    /// How often (Hz) moving scroll views publish their offset: the display's refresh rate.
    public var frameRate: Double
    /// Back to front.
    public var views: [View]
    /// Key devices and the presses their keys make (nil: the window takes no keys).
    public var keys: Keys?
    /// The id of the view that first gets the window's presses (nil: the window itself).
    public var firstResponder: String?
    /// Forwarding of unclaimed touches to a virtual touchscreen per device (nil: off; docs/forward.md).
    public var forward: Forward?
    /// What touchscreen health keeps of the window (docs/operations.md, "Touchscreen health").
    public var health = Health()
    /// Whether VoiceOver is on: touches explore, activate and step through the accessibility
    /// elements instead of reaching the views (docs/accessibility.md). UIKit's default: off.
    public var voiceOver = false
    /// `voiceOver: headphones`: VoiceOver turns on while headphones are plugged into the jack whose
    /// switch (`SW_HEADPHONE_INSERT`) the window's `keys.devices` name, and off when they are pulled
    /// out (Trace Center's EZ Access: plugging in headphones turns speech on). Off at first.
    public var voiceOverFollowsHeadphones = false
    /// How VoiceOver's words are spoken (speech-dispatcher; docs/accessibility.md, "Speech").
    public var speech = Speech()
    /// The actions VoiceOver's escape and magic tap publish (none by default).
    public var voiceOverActions = VoiceOverActions()
    /// While a paired pen is near, the panel's touches are rejected (docs/pens.md; default true).
    public var penRejectsTouches = true
    /// Pens and touchscreens paired by name (docs/pens.md, "Pairing").
    public var penPairs: [PenPair] = []

    enum CodingKeys: String, CodingKey, CaseIterable {
      case id, size, devices, rotation, calibration, grab, frameRate, keys, firstResponder, forward, health
      case voiceOver, speech, voiceOverActions, penRejectsTouches, penPairs, views
    }

    public init(
      id: String, size: Size, devices: [String] = ["*"], rotation: Int = 0, calibration: [Double] = [1, 0, 0, 0, 1, 0],
      grab: Bool = false, frameRate: Double = 60, views: [View] = []
    ) {
      self.id = id
      self.size = size
      self.devices = devices
      self.rotation = rotation
      self.calibration = calibration
      self.grab = grab
      self.frameRate = frameRate
      self.views = views
    }
  }

  /// A window's `health:` (docs/operations.md, "Touchscreen health").
  public struct Health: Hashable, Sendable {
    /// Whether touchd keeps the window's touch-down grid, and with it its dead cells and near
    /// misses: off for a PIN pad, whose grid would show which keys people press.
    public var heatmap: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case heatmap }

    public init(heatmap: Bool = true) { self.heatmap = heatmap }
  }

  /// A window's `forward:`: its touchscreens are grabbed and every touch no recognizer claims goes
  /// on to a virtual touchscreen, one per physical device (docs/forward.md).
  public struct Forward: Hashable, Sendable {
    /// The virtual touchscreen's name; nil: the physical device's name + " (touchd)".
    public var name: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case name }

    public init(name: String? = nil) { self.name = name }
  }

  /// A view: UIKit's property names and defaults.
  public struct View: Hashable, Sendable {
    public var id: String
    public var frame: Frame
    public var hidden = false
    public var alpha = 1.0
    public var userInteractionEnabled = true
    public var multipleTouchEnabled = false
    public var exclusiveTouch = false
    public var clipsToBounds = false
    public var hitOutset = 0.0
    /// Whether the view handles the touches methods itself (and publishes touches messages).
    public var touches = false
    /// The touch types hit-testing finds the view for (``SceneFormat/touchTypes`` names); nil: all.
    public var touchTypes: [String]?
    /// Makes the view a signature pad (Pens/SignatureCapture.swift); nil: a plain view.
    public var signature: Signature?
    public var recognizers: [Recognizer] = []
    /// Makes the view a scroll view (UIScrollView) whose subviews are its content; nil: a plain view.
    public var scroll: Scroll?
    /// Makes the view a control (UIControl) of the given type; nil: not a control.
    public var control: Control?
    /// Whether the view handles the presses methods itself (and publishes presses messages).
    public var presses = false
    /// What a screen reader makes of the view (UIAccessibility's properties); nil: UIKit's defaults.
    public var accessibility: Accessibility?
    /// Back to front.
    public var views: [View] = []

    enum CodingKeys: String, CodingKey, CaseIterable {
      case id, frame, hidden, alpha, userInteractionEnabled, multipleTouchEnabled, exclusiveTouch, clipsToBounds
      case hitOutset, touches, touchTypes, signature, presses, recognizers, scroll, control, accessibility, views
    }

    public init(id: String, frame: Frame, recognizers: [Recognizer] = [], views: [View] = []) {
      self.id = id
      self.frame = frame
      self.recognizers = recognizers
      self.views = views
    }
  }

  /// A point (`{x, y}`), such as a content offset (the protocol's point).
  public typealias Point = WirePoint

  /// Insets from each edge (`{top, left, bottom, right}`, each optional, default 0).
  public struct Insets: Hashable, Sendable {
    public var top = 0.0
    public var left = 0.0
    public var bottom = 0.0
    public var right = 0.0
    enum CodingKeys: String, CodingKey, CaseIterable { case top, left, bottom, right }
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
      self.top = top
      self.left = left
      self.bottom = bottom
      self.right = right
    }
  }

  /// A scroll view's properties (`scroll:`): UIScrollView's names and defaults.
  public struct Scroll: Hashable, Sendable {
    public var contentSize = Size(width: 0, height: 0)
    public var contentOffset = Point(x: 0, y: 0)
    public var contentInset = Insets()
    public var scrollEnabled = true
    public var bounces = true
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    public var directionalLockEnabled = false
    public var pagingEnabled = false
    /// Per millisecond: `normal` is 0.998, `fast` 0.99 (UIScrollView.DecelerationRate).
    public var decelerationRate = 0.998
    public var delaysContentTouches = true
    public var canCancelContentTouches = true
    /// UIScrollView.h's defaults: 1 and 1, no zooming.
    public var minimumZoomScale = 1.0
    public var maximumZoomScale = 1.0
    public var zoomScale = 1.0
    public var bouncesZoom = true
    /// The id of the subview that zooms (`viewForZooming(in:)`); nil: none.
    public var zoomView: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
      case contentSize, contentOffset, contentInset, scrollEnabled, bounces, alwaysBounceVertical
      case alwaysBounceHorizontal, directionalLockEnabled, pagingEnabled, decelerationRate, delaysContentTouches
      case canCancelContentTouches, minimumZoomScale, maximumZoomScale, zoomScale, bouncesZoom, zoomView
    }

    /// The named deceleration rates (`decelerationRate: normal | fast`).
    public static let decelerationRates: [String: Double] = ["normal": 0.998, "fast": 0.99]

    public init(contentSize: Size = Size(width: 0, height: 0)) { self.contentSize = contentSize }
  }

  /// A type-specific recognizer parameter's value.
  public enum Parameter: Hashable, Sendable {
    case integer(Int)
    case number(Double)
    /// Option names (swipe directions, screen edges) or press types (`allowedPressTypes`).
    case options([String])

    /// The value as a number (integers too).
    public var number: Double? {
      switch self {
      case .integer(let i): Double(i)
      case .number(let d): d
      case .options: nil
      }
    }
    public var integer: Int? {
      if case .integer(let i) = self { return i }
      return nil
    }
    public var options: [String]? {
      if case .options(let o) = self { return o }
      return nil
    }
  }

  /// A gesture recognizer attached to a view.
  public struct Recognizer: Hashable, Sendable {
    public var id: String
    public var type: RecognizerType
    public var action: String
    public var cancelsTouchesInView = true
    public var delaysTouchesBegan = false
    public var delaysTouchesEnded = true
    /// Recognizer ids that must fail first.
    public var requireToFail: [String] = []
    /// Recognizer ids that may recognize at the same time.
    public var simultaneousWith: [String] = []
    /// The type-specific parameters present in the file, by name (``SceneFormat/parameters(of:)``).
    public var parameters: [String: Parameter] = [:]
    /// A zoom the recognizer makes when it recognizes (`zoom:`); nil: none.
    public var zoom: Zoom?
    /// The touch types it receives (UIKit's `allowedTouchTypes`; default both).
    public var allowedTouchTypes = SceneFormat.touchTypes
    /// UIKit's `requiresExclusiveTouchType` (default true).
    public var requiresExclusiveTouchType = true

    enum CodingKeys: String, CodingKey, CaseIterable {
      case id, type, action, cancelsTouchesInView, delaysTouchesBegan, delaysTouchesEnded, requireToFail
      case simultaneousWith, zoom, allowedTouchTypes, requiresExclusiveTouchType
    }

    public init(id: String, type: RecognizerType, action: String, parameters: [String: Parameter] = [:]) {
      self.id = id
      self.type = type
      self.action = action
      self.parameters = parameters
      delaysTouchesBegan = type == .screenEdgePan
    }

    /// The parameter's value, or the format's default for this type, or nil (no default).
    public func parameter(_ name: String) -> Parameter? {
      if !parameters.isEmpty, let value = parameters[name] { return value }
      // A type has a few parameters: a search comparing lengths first costs less than hashing.
      let length = name.utf8.count
      return Self.defaultParameters[type]?.first { $0.name.utf8.count == length && $0.name == name }?.value
    }

    /// Each type's defaults (``SceneFormat/parameters(of:)``) as parameters: made once, as a
    /// scene's runtime asks each of its recognizers for every parameter its type has.
    private static let defaultParameters = Dictionary(
      uniqueKeysWithValues: RecognizerType.allCases.map { type in
        (
          type,
          SceneFormat.parameters(of: type).compactMap { spec in
            defaultValue(of: spec).map { (name: spec.name, value: $0) }
          }
        )
      })

    private static func defaultValue(of spec: SceneKey) -> Parameter? {
      switch (spec.kind, spec.defaultValue) {
      case (.integer, .number(let n)?): return .integer(Int(n))
      case (.options, .string(let s)?): return .options([s])
      case (.pressTypes, .array(let names)?):
        return .options(
          names.compactMap {
            if case .string(let s) = $0 { return s }
            return nil
          })
      case (_, .number(let n)?): return .number(n)
      default: return nil
      }
    }
  }

  /// A recognizer's declarative zoom (`zoom: {view, scale}`), a photo viewer's double tap: when
  /// the recognizer recognizes, the scroll view `view` zooms to `scale` around the gesture's
  /// location, or back to its minimum when it is zoomed in.
  public struct Zoom: Hashable, Sendable {
    /// The id of a scroll view with a `zoomView`.
    public var view: String
    /// The scale to zoom in to; nil: the scroll view's `maximumZoomScale`.
    public var scale: Double?

    enum CodingKeys: String, CodingKey, CaseIterable { case view, scale }

    public init(view: String, scale: Double? = nil) {
      self.view = view
      self.scale = scale
    }
  }

  /// Counts for summaries: windows, views (every level) and recognizers.
  public var counts: (windows: Int, views: Int, recognizers: Int) {
    var views = 0
    var recognizers = 0
    func visit(_ list: [View]) {
      for v in list {
        views += 1
        recognizers += v.recognizers.count
        visit(v.views)
      }
    }
    for w in windows { visit(w.views) }
    return (windows.count, views, recognizers)
  }
}

struct ParameterKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ s: String) { stringValue = s }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
