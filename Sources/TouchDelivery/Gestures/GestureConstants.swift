/// The thresholds the built-in recognizers use where UIKit publishes no value.
///
/// Each recognizer copies the relevant constant into a public property at init, so every value can
/// be changed per recognizer. Distances are in points (window coordinates), times in seconds.
/// docs/gestures.md explains each choice against Android's `ViewConfiguration`, Flutter's
/// `gestures/constants.dart` and Qt's `QStyleHints`.
public enum GestureConstants {
  /// How far (pt) a tap's finger may move from where it touched down before the tap fails.
  /// Qt's startDragDistance is 10, Android's touch slop 8 dp, Flutter's kTouchSlop 18; 10 pt keeps
  /// a tap forgiving on jittery panels while a deliberate drag still fails it quickly.
  public static let tapAllowableMovement: Double = 10

  /// The longest gap (s) from one tap's lift to the next tap's touch-down in a multi-tap gesture;
  /// also how long a single tap that requires a double tap to fail waits.
  /// Android DOUBLE_TAP_TIMEOUT and Flutter kDoubleTapTimeout are 0.3 s (up to down), Qt's
  /// mouseDoubleClickInterval 0.4 s; 0.35 s sits between: touch users are slower than mouse
  /// clicks on Android phones, and every extra millisecond delays a single tap that waits.
  public static let multiTapMaximumInterval: Double = 0.35

  /// The farthest (pt) a later tap of a multi-tap gesture may land from the first tap.
  /// Android DOUBLE_TAP_SLOP and Flutter kDoubleTapSlop are 100; 45 pt is about one minimum touch
  /// target (Apple's 44 pt): a second tap farther away is aimed at something else.
  public static let multiTapMaximumDistance: Double = 45

  /// The longest time (s) one tap's fingers may stay down; longer and the tap fails.
  /// Longer than the long press's 0.5 s so that, when both are attached, the long press (not a
  /// timeout) decides; Android's long-press timeout is 0.4-0.5 s, Flutter's 0.5 s.
  public static let maximumTapDuration: Double = 0.75

  /// UIKit's published `UILongPressGestureRecognizer.minimumPressDuration` default (s).
  public static let longPressMinimumDuration: Double = 0.5

  /// UIKit's published `UILongPressGestureRecognizer.allowableMovement` default (pt).
  public static let longPressAllowableMovement: Double = 10

  /// How far (pt) the touches' centroid must move before a pan begins (its hysteresis).
  /// Qt 10, Android 8 dp; Flutter's kPanSlop is 36 because it is twice its 18 touch slop. 10 pt
  /// matches the tap's allowable movement, so a tap that fails by moving hands over to a pan.
  public static let panStartDistance: Double = 10

  /// How far (pt) a swipe must travel along its direction before it is recognized.
  /// Five times the pan start distance: long enough that a short drag is not a swipe.
  public static let swipeMinimumDistance: Double = 50

  /// The longest time (s) from the swipe's touch-down to its recognition; longer is a drag.
  public static let swipeMaximumDuration: Double = 0.5

  /// The lowest average speed (pt/s) along the direction, from touch-down to recognition.
  /// Android's and Flutter's minimum fling velocity is 50 px/s, but it only gates a fling at the
  /// end of a drag that was already recognized; a swipe must stand out from a slow drag on its own,
  /// so 200 pt/s (50 pt in at most 0.25 s).
  public static let swipeMinimumSpeed: Double = 200

  /// The largest angle (radians) between the movement and the swipe's direction: 30 degrees.
  /// Wider and diagonal drags count for two directions; narrower and natural arcs fail.
  public static let swipeDirectionTolerance: Double = Double.pi / 6

  /// How far (pt) the distance between a pinch's two fingers must change before it begins.
  /// The same as the pan start distance: both fingers' slop together (Flutter's kScaleSlop is
  /// its touch slop, 18).
  public static let pinchStartDistance: Double = 10

  /// How far (pt, along the arc) each finger must turn around their midpoint before a rotation
  /// begins: |angle| × distance / 2. An arc, not an angle, so close and far fingers need the same
  /// physical movement.
  public static let rotationStartDistance: Double = 10

  /// The width (pt) of the band along each window edge in which a screen-edge pan must start.
  /// Android's ViewDragHelper edge size and Flutter's drawer edge drag width are both 20.
  public static let screenEdgeZoneWidth: Double = 20

  /// How far back (s) the velocity tracker looks: 100 ms, as Flutter's and Android's trackers.
  public static let velocityHorizon: Double = 0.1

  /// A gap (s) between samples after which earlier samples are ignored: the finger had stopped.
  /// Flutter's assumePointerMoveStopped is 40 ms.
  public static let velocityStopGap: Double = 0.04
}
