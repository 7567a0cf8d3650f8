import TouchdCore

/// What made a touch (UIKit's `UITouch.TouchType`): a finger on the screen or a pen's tip.
public enum TouchType: String, Hashable, Sendable, CaseIterable {
  /// A finger (UIKit's `.direct`).
  case direct
  /// A pen's tip (UIKit's `.pencil`, Apple Pencil's type; here any pen a pen display reports).
  case pencil

  /// Every type, as one set: the default of each recognizer's ``GestureRecognizer/allowedTouchTypes``,
  /// made once (a scene of 10,000 recognizers built a set for each).
  public static let all: Set<TouchType> = Set(allCases)

  /// The force of an average touch is 1 (UIKit's `UITouch.force`: "a value of 1.0 represents the
  /// force of an average touch"); a pencil's maximum is UIKit's `maximumPossibleForce` for Apple
  /// Pencil, 4.166667: Apple documents no number, and 4.17 is the maximum developers measure on
  /// iPads (Apple Developer Forums, thread 726359). A finger's force stays the fraction of its
  /// panel's pressure range, as touchd has always reported it: its maximum is 1.
  public var maximumPossibleForce: Double {
    switch self {
    case .direct: 1
    case .pencil: 4.166667
    }
  }
}

/// One finger for the whole multitouch sequence (UIKit's `UITouch`).
///
/// The same instance represents the finger from touch-down to lift; its ``view`` is fixed by
/// hit-testing at touch-down. Compared and hashed by identity.
public final class Touch: Hashable, CustomStringConvertible {
  /// The daemon-wide identity of the finger (the frame's contact id).
  public let id: TouchID
  @exclusivity(unchecked) public internal(set) var phase: TouchPhase
  /// The time of the last change, in seconds on the pipeline clock.
  @exclusivity(unchecked) public internal(set) var timestamp: Double
  /// Successive taps near the same place within the multi-tap interval: 1 for the first.
  @exclusivity(unchecked) public internal(set) var tapCount: Int
  /// The hit-test view, fixed at touch-down; nil when nothing was hit.
  @exclusivity(unchecked) public internal(set) var view: View?
  /// The window the touch landed in.
  @exclusivity(unchecked) public internal(set) weak var window: Window?
  /// The recognizers this touch is delivered to (those of the hit-test view and its ancestors,
  /// less those that failed, were excluded, or declined it).
  @exclusivity(unchecked) public internal(set) var gestureRecognizers: [GestureRecognizer] = []
  /// Radius of the contact's major axis, in window points (0 when the device reports none).
  @exclusivity(unchecked) public internal(set) var majorRadius: Double
  /// Force: for a finger 0...1 of the device's pressure range (0 when the device reports none);
  /// for a pencil the pen's pressure scaled to 0...``TouchType/maximumPossibleForce``.
  @exclusivity(unchecked) public internal(set) var force: Double
  /// A finger or a pen's tip (UIKit's `type`), fixed at touch-down.
  public let type: TouchType
  /// A pencil's angle to the screen, radians (UIKit's `altitudeAngle`: π/2 perpendicular, which is
  /// what a finger reports).
  @exclusivity(unchecked) public internal(set) var altitudeAngle: Double
  /// A pencil's direction in the window's plane, radians from +x towards +y (UIKit's
  /// `azimuthAngle(in: nil)`); 0 for a finger. touchd's views have no rotation transform (zooming
  /// scales evenly), so it is also the angle in any view.
  @exclusivity(unchecked) public internal(set) var azimuthAngle: Double
  /// A pen touching with its eraser end (`BTN_TOOL_RUBBER`).
  public let isEraser: Bool

  /// Location in window coordinates.
  @exclusivity(unchecked) public internal(set) var locationInWindow: Point
  /// Location in window coordinates at the previous change.
  @exclusivity(unchecked) public internal(set) var previousLocationInWindow: Point
  /// Location in window coordinates at touch-down.
  @exclusivity(unchecked) public internal(set) var initialLocationInWindow: Point

  // MARK: Delivery bookkeeping (the window's and the arbitration's, not public)

  /// The event of the sequence; the application holds it while the sequence lasts.
  @exclusivity(unchecked) weak var event: TouchEvent?
  /// Passed the exclusive-touch rule at touch-down: delivered to recognizers and maybe the view.
  @exclusivity(unchecked) var isAdmitted = false
  /// Refused at touch-down (exclusiveTouch, or nothing was hit): delivered to nobody, ever.
  @exclusivity(unchecked) var isBlocked = false
  /// False when the view's `isMultipleTouchEnabled` refused this touch (its recognizers still get
  /// it, and a delivery observer hears it as the view's other touches).
  @exclusivity(unchecked) var deliversToView = false
  /// A recognizer took the touch from the view: no further view delivery.
  @exclusivity(unchecked) var viewCancelled = false
  /// The view heard `touchesBegan` for this touch (or, refused by the view, the delivery observer did).
  @exclusivity(unchecked) var viewBeganDelivered = false
  /// The view heard `touchesEnded` or `touchesCancelled` for this touch.
  @exclusivity(unchecked) var viewFinished = false

  public init(
    id: TouchID, phase: TouchPhase = .began, timestamp: Double, location: Point, window: Window?,
    tapCount: Int = 1, majorRadius: Double = 0, force: Double = 0, pen: PenProperties? = nil
  ) {
    self.type = pen == nil ? .direct : .pencil
    self.altitudeAngle = pen?.altitudeAngle ?? Double.pi / 2
    self.azimuthAngle = pen?.azimuthAngle ?? 0
    self.isEraser = pen?.isEraser ?? false
    self.id = id
    self.phase = phase
    self.timestamp = timestamp
    self.locationInWindow = location
    self.previousLocationInWindow = location
    self.initialLocationInWindow = location
    self.window = window
    self.tapCount = tapCount
    self.majorRadius = majorRadius
    self.force = force * type.maximumPossibleForce
  }

  /// The maximum ``force`` this touch can have (UIKit's `maximumPossibleForce`).
  public var maximumPossibleForce: Double { type.maximumPossibleForce }

  /// The current location in `view`'s coordinates, or in window coordinates when `view` is nil.
  public func location(in view: View?) -> Point {
    guard let view else { return locationInWindow }
    return view.convert(locationInWindow, from: nil)
  }

  /// The previous location in `view`'s coordinates, or in window coordinates when `view` is nil.
  public func previousLocation(in view: View?) -> Point {
    guard let view else { return previousLocationInWindow }
    return view.convert(previousLocationInWindow, from: nil)
  }

  public static func == (a: Touch, b: Touch) -> Bool { a === b }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
  public var description: String { "Touch(\(id) \(phase) \(locationInWindow))" }
}
