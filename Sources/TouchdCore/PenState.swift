/// What a pen contact has that a finger does not (UIKit's `UITouch` of type `.pencil`): the tool,
/// and its angles in the space of the contact's position (device-normalized in a ``TouchFrame``
/// from a pen's assembler, window points once a scene mapped the contact).
public struct PenProperties: Hashable, Sendable {
  /// `BTN_TOOL_RUBBER`: the pen's eraser end (UIKit has no eraser; touchd's `eraser: true`).
  public var isEraser: Bool
  /// The pen's angle to the screen, radians: π/2 perpendicular, 0 parallel (UIKit's
  /// `altitudeAngle`); π/2 for a pen that reports no tilt.
  public var altitudeAngle: Double
  /// The direction the pen points in the screen's plane, radians, from +x towards +y (y down):
  /// where its top leans, as UIKit's `azimuthAngle(in:)`; 0 for a pen that reports no tilt.
  public var azimuthAngle: Double

  public init(isEraser: Bool = false, altitudeAngle: Double = Double.pi / 2, azimuthAngle: Double = 0) {
    self.isEraser = isEraser
    self.altitudeAngle = altitudeAngle
    self.azimuthAngle = azimuthAngle
  }
}

/// The pen of a pen device in one frame, touching or not: what rejects its panel's touches while
/// it is near (proximity) and, touching, what its contact is.
public struct PenState: Hashable, Sendable {
  /// The pen is in the device's range (`BTN_TOOL_PEN` or `BTN_TOOL_RUBBER` down). False in the
  /// frame it left.
  public var inProximity: Bool
  /// Device-normalized position (0...1), as a contact's.
  public var x: Double
  public var y: Double
  /// `ABS_DISTANCE` as a fraction of its range (0 touching, 1 the farthest it reports); nil when
  /// the device reports none.
  public var distance: Double?
  /// The barrel buttons held.
  public var buttons: PenButtons
  /// The tool's serial number (`MSC_SERIAL`), nil when the device reports none.
  public var serial: UInt32?
  /// The tool and its angles (device-normalized space).
  public var properties: PenProperties
  /// The frame's contact that is this pen's tip, nil while it hovers.
  public var contact: TouchID?
  /// `ABS_TILT_X` in degrees on the device (0 without tilt): which way the pen leans, which
  /// libinput's touch arbitration goes by (the hand rests on the side the pen's top leans to).
  public var tiltX: Double

  public init(
    inProximity: Bool, x: Double, y: Double, distance: Double? = nil, buttons: PenButtons = [],
    serial: UInt32? = nil, properties: PenProperties = PenProperties(), contact: TouchID? = nil, tiltX: Double = 0
  ) {
    self.inProximity = inProximity
    self.x = x
    self.y = y
    self.distance = distance
    self.buttons = buttons
    self.serial = serial
    self.properties = properties
    self.contact = contact
    self.tiltX = tiltX
  }
}

/// A pen's barrel buttons (`BTN_STYLUS`, `BTN_STYLUS2`, `BTN_STYLUS3`).
public struct PenButtons: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// `BTN_STYLUS`: the lower barrel button.
  public static let barrel = PenButtons(rawValue: 1)
  /// `BTN_STYLUS2`: the upper one.
  public static let barrel2 = PenButtons(rawValue: 2)
  /// `BTN_STYLUS3`: a third.
  public static let barrel3 = PenButtons(rawValue: 4)
}
