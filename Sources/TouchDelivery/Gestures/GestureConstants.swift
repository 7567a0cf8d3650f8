/// The thresholds of the built-in recognizers, each with its source: a UIKit header, Apple's
/// documentation, UIKit's behaviour as measured on iOS, or (where UIKit has no such value) the
/// reasoning behind touchd's choice.
///
/// Each recognizer copies the relevant constant into a public property at init, so every value can
/// be changed per recognizer. Distances are in points (window coordinates), times in seconds.
/// docs/gestures.md lists them with their units and sources.
public enum GestureConstants {
  /// How far (pt) a tap's centroid may move from the first tap's touch-down centroid before the
  /// tap fails. UIKit: 45 pt, the `allowableMovement` of UIKit's private `UITapRecognizer`
  /// (UIKitCore runtime header UITapRecognizer.h, iOS 14.3), as measured on iOS (issue #15).
  public static let tapAllowableMovement: Double = 45

  /// The longest time (s) from a multi-finger tap's first touch-down to its last finger's.
  /// UIKit requires the fingers to land close together (its private `UITapRecognizer` has an
  /// `allowableTouchTimeSeparation` and a multitouch timer, runtime header UITapRecognizer.h); it
  /// publishes no value. touchd's choice, 0.25 s: in the bundled recordings fingers put down
  /// together land a few milliseconds to about 0.1 s apart (sharp-04dd-9681's fast multi-finger
  /// taps: most later fingers 3 to 114 ms after the first), so 0.25 s admits a hesitant hand while
  /// a finger added a quarter second later starts something else.
  public static let tapAllowableTouchTimeSeparation: Double = 0.25

  /// The longest gap (s) from one tap's lift to the next tap's touch-down in a multi-tap gesture;
  /// also how long a single tap that requires a double tap to fail waits. UIKit has this window
  /// (`UITapRecognizer.maximumIntervalBetweenSuccessiveTaps`, runtime header UITapRecognizer.h)
  /// but publishes no value; touchd's choice: Android DOUBLE_TAP_TIMEOUT and Flutter kDoubleTapTimeout are 0.3 s (up to down), Qt's
  /// mouseDoubleClickInterval 0.4 s; 0.35 s sits between: touch users are slower than mouse
  /// clicks on Android phones, and every extra millisecond delays a single tap that waits.
  public static let multiTapMaximumInterval: Double = 0.35

  /// The longest time (s) one tap's fingers may stay down; longer and the tap fails. UIKit has
  /// this limit (`UITapRecognizer.maximumTapDuration`, runtime header UITapRecognizer.h) but
  /// publishes no value; touchd's choice is longer than the long press's 0.5 s so that, when both are attached, the long press (not a
  /// timeout) decides; Android's long-press timeout is 0.4-0.5 s, Flutter's 0.5 s.
  public static let maximumTapDuration: Double = 0.75

  /// UIKit's published `UILongPressGestureRecognizer.minimumPressDuration` default (s): Apple's
  /// documentation, "The default duration is 0.5 seconds".
  public static let longPressMinimumDuration: Double = 0.5

  /// UIKit's published `UILongPressGestureRecognizer.allowableMovement` default (pt): Apple's
  /// documentation, "The default value is 10 points".
  public static let longPressAllowableMovement: Double = 10

  /// How far (pt) the touches' centroid must move along either axis before a pan begins (its
  /// hysteresis): UIPanGestureRecognizer begins after 10 pt along x or y, as measured on iOS
  /// (issue #15). For comparison Qt's startDragDistance is 10, Android's touch slop 8 dp.
  public static let panStartDistance: Double = 10

  /// How far (pt) each of a swipe's touches must move along the direction at touch-down (t = 0);
  /// the requirement decays with time at ``swipeRateOfMinimumMovementDecay``. UIKit behaviour as
  /// measured on iOS (issue #15: about 50·(1 − 0.94·t) pt after t s); the name is
  /// UISwipeGestureRecognizer's private `minimumPrimaryMovement`.
  public static let swipeMinimumPrimaryMovement: Double = 50

  /// How far (pt) a swipe's touch may move sideways (perpendicular to the direction) at t = 0; the
  /// allowance decays with time at ``swipeRateOfMaximumMovementDecay``. UIKit behaviour as measured
  /// on iOS (issue #15: at most about 50·(1 − 0.98·t) pt after t s); the name is
  /// UISwipeGestureRecognizer's private `maximumSecondaryMovement`.
  public static let swipeMaximumSecondaryMovement: Double = 50

  /// The fraction (per s) of ``swipeMinimumPrimaryMovement`` the requirement loses with time: a
  /// slow swipe needs less distance. UIKit behaviour as measured on iOS (issue #15); the name is
  /// UISwipeGestureRecognizer's private `rateOfMinimumMovementDecay`.
  public static let swipeRateOfMinimumMovementDecay: Double = 0.94

  /// The fraction (per s) of ``swipeMaximumSecondaryMovement`` the allowance loses with time: a
  /// slow swipe must be straighter. UIKit behaviour as measured on iOS (issue #15); the name is
  /// UISwipeGestureRecognizer's private `rateOfMaximumMovementDecay`.
  public static let swipeRateOfMaximumMovementDecay: Double = 0.98

  /// The longest time (s) from the swipe's first touch-down to its recognition; longer is a drag.
  /// UIKit behaviour as measured on iOS (issue #15); UISwipeGestureRecognizer's private
  /// `maximumDuration` (0.5 s).
  public static let swipeMaximumDuration: Double = 0.5

  /// How far (pt) a swipe's touch may fall back along a direction from the farthest it has been
  /// along it before it counts as moving backwards (which rules the direction out). UIKit says only
  /// that a swipe fails if it moves backwards (issue #15); its touch data is smooth, ours is not:
  /// panels jitter about ±1 pt, so consecutive samples may differ by 2 pt against the movement
  /// (plus rounding to device units) even while the finger goes forward. 5 pt is more than twice
  /// that, yet a tenth of the 50 pt primary movement, so a real reversal fails long before the
  /// swipe could be recognized.
  public static let swipeBackwardsTolerance: Double = 5

  /// How far (pt) the distance between a pinch's two fingers must change before it begins.
  /// UIKit's behaviour as measured on iOS (issue #15): a pinch begins once the finger distance has
  /// changed by more than 8 pt, and its scale is 1 at `.began` (the threshold is subtracted). UIKit
  /// publishes no value.
  public static let pinchStartDistance: Double = 8

  /// How far (pt, along the arc) each finger must turn around their midpoint before a rotation
  /// begins: |angle| × distance / 2. An arc, not an angle, so close and far fingers need the same
  /// physical movement. Our choice: UIKit publishes no value (its header says only "when two
  /// touches have moved enough to be considered a rotation") and issue #15 measured none. 10 pt
  /// equals the pan start distance (10 pt as measured on iOS), so a turn needs as much finger
  /// travel as a drag.
  public static let rotationStartDistance: Double = 10

  /// How far (pt, along either axis) a screen-edge pan's finger must move before it begins:
  /// UIScreenEdgePanGestureRecognizer's start threshold, 15 pt as measured on iOS (issue #15).
  public static let screenEdgePanStartDistance: Double = 15

  /// The width (pt) of the band along each window edge in which a screen-edge pan must start.
  /// Android's ViewDragHelper edge size and Flutter's drawer edge drag width are both 20.
  public static let screenEdgeZoneWidth: Double = 20

  /// How far back (s) the velocity tracker looks: 100 ms, as Flutter's and Android's trackers.
  public static let velocityHorizon: Double = 0.1

  /// How many of the newest samples the velocity tracker keeps: Flutter's `VelocityTracker`
  /// (`_historySize`) and Android's (`HISTORY_SIZE`) both keep 20. On a fast panel it caps the
  /// fit's window below ``velocityHorizon`` (20 samples are 83 ms at 240 Hz), and it bounds the
  /// fit's cost per frame whatever rate a device reports at.
  public static let velocityHistory = 20

  /// A gap (s) between samples after which earlier samples are ignored: the finger had stopped.
  /// Flutter's assumePointerMoveStopped is 40 ms.
  public static let velocityStopGap: Double = 0.04
}
