import TouchDelivery

/// The thresholds of touchscreen health (docs/operations.md, "Touchscreen health"), each with its
/// source. Distances are in window points, times in seconds of the frames' clock (CLOCK_MONOTONIC
/// live, the recording's clock in a replay).
public struct HealthSettings: Hashable, Sendable {
  /// The grid over each window's touchscreen: 16 × 9 cells, the default, square cells on
  /// a 16:9 panel (most kiosk panels: 1920 × 1080, 1366 × 768).
  public var columns = 16
  public var rows = 9

  /// How long the grid remembers a touch-down: 7 days, so a dead zone shows through a quiet
  /// weekend, in ``gridPeriods`` periods of a day (the oldest day is forgotten as a new one starts).
  public var gridWindow: Double = 7 * 86_400
  public var gridPeriods = 7

  /// A cell is dead when it had no touch-down over ``gridWindow`` while at least half the cells
  /// within two cells of it (its 5 × 5 neighbourhood, cut at the panel's edge) each had this many:
  /// a band two cells wide still has half its neighbourhood busy. touchd's choice: 20 touch-downs
  /// is a few hours of a busy kiosk, and more than any bundled recording puts in one cell.
  public var busyCellTouchDowns = 20

  /// A touch shorter than one display frame (1/60 s) is sub-frame; this many sub-frame touches
  /// within ``ghostBurstInterval`` make a ghost burst. Measured on the bundled recordings
  /// (../shared/recordings): human touches as short as 8 ms occur, at most 3 of them within a second
  /// (atmel-03eb-201c's quick two-finger taps), so 5 leaves room for a hand and none for a burst of
  /// electrical noise, which comes in tens.
  public var subFrameDuration: Double = 1.0 / 60
  public var ghostBurstTouches = 5
  public var ghostBurstInterval: Double = 1

  /// A finger is stationary once it has stayed within this distance of where it settled for
  /// ``stationaryHold``: UILongPressGestureRecognizer's defaults, `allowableMovement` 10 pt and
  /// `minimumPressDuration` 0.5 s (Apple's documentation; ``GestureConstants``), UIKit's own
  /// notion of a finger held still.
  public var stationaryRadius = GestureConstants.longPressAllowableMovement
  public var stationaryHold = GestureConstants.longPressMinimumDuration
  /// The jitter histogram's bins (0.01 pt, up to 20 pt): finer than any panel reports, and a
  /// stationary finger moving 20 pt in one frame is not stationary.
  public var jitterBin: Double = 0.01
  public var jitterBins = 2_000
  /// The jitter is measured over the last one to two days: two periods of a day, the older dropped
  /// as a new one starts.
  public var jitterPeriod: Double = 86_400
  /// The 95th percentile is reported from this many moves on: of fewer it is the largest one or
  /// two, not a percentile (the bundled recordings' short holds have 1 to 16 moves).
  public var jitterMinimumSamples = 20

  /// Calibration drift is the mean offset of the last ``driftTaps`` recognized single-finger taps
  /// from their view's centre; past ``driftThreshold`` on an axis, with at least
  /// ``driftMinimumTaps`` taps, touchd says so. touchd's choice: 8 pt is more than a finger's own
  /// aim varies over many taps of a 44 pt button (Apple's Human Interface Guidelines minimum), and
  /// less than the 22 pt that makes a tap miss such a button.
  public var driftTaps = 200
  public var driftMinimumTaps = 50
  public var driftThreshold: Double = 8

  /// A tap no recognizer took, landing outside every tap target but within this distance of one,
  /// is a near miss of the nearest: 22 pt, half of the 44 × 44 pt minimum target of Apple's Human
  /// Interface Guidelines (issue #42).
  public var nearMissDistance: Double = 22
  /// What a tap is, for near misses: the tap recognizer's own limits (``GestureConstants``).
  public var tapMovement = GestureConstants.tapAllowableMovement
  public var tapDuration = GestureConstants.maximumTapDuration

  public init() {}
}
